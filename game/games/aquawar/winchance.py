"""The chance that the host (seat 0) wins an Aquawar match, from what a spectator knows.

A function of the spectator's projection only — ``view(state, "spectator")`` — so two matches that
look the same to a spectator get the same number, whatever the hidden teams, Mimic copies or ATK
are (tests/games/test_win_chances.py swaps them). It never samples the hidden teams: the fitted model
reads only public facts, and what the hidden species are worth on average is in its weights.

Two fitted logistic models (``winchance.json``, fitted by bench/win_chance_training.py on self-play
between mixed levels) and the match's score:

- ``round``: the host's chance to win the round being played, from its public features (HP and
  living fish per side, the weakest fish, revealed fish, whose turn, how near the turn limit, who
  opened the round, and the rounds won so far, which say which side plays better);
- ``after``: the host's chance to win the match from a round's start at each score, observed in the
  same self-play (``"1-0"`` …).

P(match) = P(round) · P(match | host takes the round) + (1 − P(round)) · P(match | guest takes it),
and a third, ``match``, recalibrates that composition against the match's outcome (per score).
"""
import math

from ..engines.winchance import chance, forecast, load_models, recalibrated, share

MAX_HP = 400
TEAM = 4
LOW_HP = 120

_MODELS = load_models(__package__)


def _side(team):
    living = [fish["hp"] for fish in team if fish["alive"]]
    return {
        "hp": sum(living) / (MAX_HP * TEAM),
        "alive": len(living) / TEAM,
        "weakest": min(living, default=0) / MAX_HP,
        "strongest": max(living, default=0) / MAX_HP,
        "low": sum(1 for hp in living if hp < LOW_HP) / TEAM,
        "revealed": sum(1 for fish in team if fish["alive"] and fish["revealed"]) / TEAM,
    }


def features(view):
    """The public features of the round being played, the host's minus the guest's where paired."""
    score = view["score"]
    row = {"score": (score[0] - score[1]) / 2.0}
    teams = view["teams"]
    if not (teams[0] and teams[1]):
        row["picking"] = 1.0
        return row
    host, guest = _side(teams[0]), _side(teams[1])
    progress = view["turn"] / view["max_turns"]
    for name in host:
        row[name] = host[name] - guest[name]
    # Near the turn limit the tiebreak (more fish, then more HP) decides more than the fight does.
    row["alive_late"] = row["alive"] * progress
    row["hp_late"] = row["hp"] * progress
    row["hp_alive"] = row["hp"] * row["alive"]
    row["to_move"] = 1.0 if view["to_move"] == 0 else -1.0
    # The second mover wins a complete tie at the limit.
    row["opener"] = 1.0 if view["first_mover"] == 0 else -1.0
    row["progress"] = progress
    return row


def round_chance(view):
    """The host's chance to win the round in play."""
    return chance(_MODELS["round"], features(view))


def after(score):
    """The host's chance to win the match from the start of a round at ``score``."""
    if score[0] >= 2 or score[1] >= 2:
        return 1.0 if score[0] >= 2 else 0.0
    return _MODELS["after"][f"{score[0]}-{score[1]}"]


def composed(view):
    """P(match) from the round model and the score table alone."""
    score = view["score"]
    p = round_chance(view)
    return p * after((score[0] + 1, score[1])) + (1 - p) * after((score[0], score[1] + 1))


def match_features(view):
    """The composed chance's log-odds, per score: what the ``match`` model recalibrates. A round won
    by a wide margin says more about which side plays better than the score table alone knows."""
    p = min(max(composed(view), 1e-6), 1 - 1e-6)
    logit = math.log(p / (1 - p))
    score = view["score"]
    stage = "first" if score == [0, 0] else "decider" if score == [1, 1] else "second"
    # The cube lets the recalibration bend (more or less sure at the extremes than in the middle),
    # which one straight line in log-odds could not; scaled to the other features' size.
    return {"logit": logit, f"logit_{stage}": logit, stage: 1.0, "logit_cubed": logit**3 / 10}


def uncalibrated(view):
    """The ``match`` model's chance, before the recalibration on held-out matches."""
    return chance(_MODELS["match"], match_features(view))


def estimate(view, events=()):
    """P(the host wins the match), from the spectator's ``view`` (``events``, the spectator's
    projected events, add nothing the view does not hold and are not read)."""
    return forecast(view, lambda seen: recalibrated(_MODELS.get("calibration"), uncalibrated(seen)))


def baseline(view):
    """The simple forecast the estimator must beat: the host's share of the HP in play (½ between rounds)."""
    return forecast(view, lambda seen: share(*(sum(f["hp"] for f in team if f["alive"]) for team in seen["teams"])))
