"""What both games' win-chance estimators share (``game.games.<game>.winchance``): their fitted
logistic models, read from a small JSON file beside each estimator and evaluated in pure Python.

A model is ``{"features": [names], "weights": [one per name], "bias": b}``; its chance for a row of
features is the logistic function of ``bias + weights · row``. The weights are fitted offline by
bench/win_chance_training.py (docs/win-chances.md); nothing here learns. A game's models may end in
a ``"calibration"``: points ``[[chance, observed], …]`` of an isotonic fit on held-out matches
(bench/win_chance_recalibration.py), through which the model's chance is mapped.
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


def recalibrated(calibration, p):
    """``p`` through the increasing piecewise-linear map of ``calibration``'s points (from (0, 0) to
    (1, 1) beyond them); ``p`` itself without a calibration."""
    if not calibration:
        return p
    points = [(0.0, 0.0), *map(tuple, calibration), (1.0, 1.0)]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if p <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (p - x0) / (x1 - x0)
    return 1.0


def forecast(view, rate):
    """``rate(view)`` while the match goes on; 1.0 or 0.0 once it is over (the host won or lost)."""
    if view["phase"] != "over":
        return rate(view)
    return 1.0 if view["winner"] == 0 else 0.0


def share(host, guest):
    """The host's share of a quantity both sides have (½ when neither has any): the simple baselines."""
    return host / (host + guest) if host + guest else 0.5
