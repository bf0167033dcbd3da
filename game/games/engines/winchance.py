"""What both games' win-chance estimators share (``game.games.<game>.winchance``): their fitted
logistic models, read from a small JSON file beside each estimator and evaluated in pure Python.

A model is ``{"features": [names], "weights": [one per name], "bias": b}``; its chance for a row of
features is the logistic function of ``bias + weights · row``. The weights are fitted offline by
bench/win_chance_training.py (docs/win-chances.md); nothing here learns.
"""
import json
import math
from importlib import resources


def load_models(package, filename="winchance.json"):
    """The models a game's estimator ships with, by name."""
    return json.loads(resources.files(package).joinpath(filename).read_text(encoding="utf-8"))


def chance(model, row):
    """The model's probability for ``row`` (a dict of feature name -> value; a missing one is 0)."""
    z = model["bias"] + sum(w * row.get(name, 0.0) for name, w in zip(model["features"], model["weights"]))
    # exp of a large positive number overflows; the two forms agree everywhere else.
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def forecast(view, rate):
    """``rate(view)`` while the match goes on; 1.0 or 0.0 once it is over (the host won or lost)."""
    if view["phase"] != "over":
        return rate(view)
    return 1.0 if view["winner"] == 0 else 0.0


def share(host, guest):
    """The host's share of a quantity both sides have (½ when neither has any): the simple baselines."""
    return host / (host + guest) if host + guest else 0.5
