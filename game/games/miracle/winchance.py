"""The chance that the host (seat 0) wins a 神迹之战 match, from what a spectator knows.

A function of the spectator's projection only — ``view(state, "spectator")`` — so two matches that
look the same to a spectator get the same number: before both decks are in, a deck is hidden and
the number cannot depend on it (tests/games/test_win_chances.py swaps the decks); after, the game
has no hidden information left.

Fitted logistic models (``winchance.json``, fitted by bench/win_chance_training.py on self-play
between mixed levels), one per range of turns (what counts early, the mana curve, the decks, is not
what counts late, the miracles' HP), over public features, each the host's minus the guest's: the
miracles' HP, the creatures on the board (how many, their HP and ATK, how close that ATK stands to
the enemy's miracle and how close the nearest one is), mana, the creatures ready to summon, the
artifact, garrisons held, stars lost, the decks' cards, whose turn, and how near the turn limit,
where the miracles' HP decides. The play models' chance ends in a recalibration on held-out
matches; the deck phase's, where only who opens is known, does not (the map is fitted on play).
"""
from ..engines.winchance import chance, forecast, load_models, recalibrated, share
from .engine.cards import ARTIFACTS, DECK_CREATURES

MIRACLE_HP = 30
LOW_MIRACLE_HP = 10

_MODELS = load_models(__package__)


def _distance(a, b):
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2]))


def _side(view, player):
    enemy_miracle = view["miracles"][1 - player]
    units = [u for u in view["units"] if u["camp"] == player]
    deck = view["decks"][player]
    nearest = min((_distance(u["at"], enemy_miracle) for u in units), default=None)
    return {
        # Nearness of the closest creature to the enemy's miracle (0 without any on the board).
        "reach": 0.0 if nearest is None else 1 / (1 + nearest),
        "ready": sum(pool["available"] for pool in view["pools"][player].values()) / 8,
        "cooling": sum(len(pool["cooling"]) for pool in view["pools"][player].values()) / 4,
        "artifact_ready": 1.0 if view["artifacts"][player]["state"] == "ready" else 0.0,
        **{f"has_{card}": 1.0 if card == deck["artifact"] or card in deck["creatures"] else 0.0
           for card in (*ARTIFACTS, *DECK_CREATURES)},
        "miracle": view["miracle_hp"][player] / MIRACLE_HP,
        "miracle_low": 1.0 if view["miracle_hp"][player] <= LOW_MIRACLE_HP else 0.0,
        "units": len(units) / 8,
        "unit_hp": sum(u["hp"] for u in units) / 40,
        "unit_atk": sum(u["atk"] for u in units) / 20,
        # ATK near the enemy's miracle is what brings it down.
        "threat": sum(u["atk"] / (1 + _distance(u["at"], enemy_miracle)) for u in units) / 10,
        "mana": view["mana"][player] / 10,
        "max_mana": view["max_mana"][player] / 10,
        "garrisons": sum(1 for owner in view["garrisons"] if owner == player) / 2,
        "lost_stars": view["lost_stars"][player] / 3,
    }


# The features that do not say anything about one seat against the other (the rest are the host's
# minus the guest's, or +1/-1 for the host/the guest): they stay the same seen from the other seat.
SEATLESS = ("progress",)


def features(view):
    row = {"opener": 1.0 if view["first_mover"] == 0 else -1.0}
    if view["phase"] == "deck":
        return row
    host, guest = _side(view, 0), _side(view, 1)
    for name in host:
        row[name] = host[name] - guest[name]
    progress = view["turn"] / view["last_turn"]
    row["progress"] = progress
    # At the turn limit the miracles' HP decides: it weighs more the nearer the limit is.
    row["miracle_late"] = row["miracle"] * progress
    row["to_move"] = 1.0 if view["current"] == 0 else -1.0
    return row


# The last turn of each play model's range: about as many training positions in each (most
# matches are over by turn 40; the few long ones share the last range).
TURN_RANGES = (8, 14, 20, 26, 34, 100)


def model_name(view):
    """Which of the fitted models answers for ``view``: "deck", or the range of turns it is in."""
    if view["phase"] == "deck":
        return "deck"
    return next(f"until_{last}" for last in TURN_RANGES if view["turn"] <= last)


def raw_chance(view):
    """The fitted model's own chance for ``view``."""
    return chance(_MODELS[model_name(view)], features(view))


def uncalibrated(view):
    """The model's chance before the recalibration on held-out matches; None in the deck phase,
    where it is the estimate as it is: only who opens is known then, and the map is fitted on play."""
    return None if view["phase"] == "deck" else raw_chance(view)


def _estimate(view):
    raw = uncalibrated(view)
    return raw_chance(view) if raw is None else recalibrated(_MODELS.get("calibration"), raw)


def estimate(view, events=()):
    """P(the host wins the match), from the spectator's ``view`` (``events``, the spectator's
    projected events, add nothing the view does not hold and are not read)."""
    return forecast(view, _estimate)


def baseline(view):
    """The simple forecast the estimator must beat: the host's share of the miracles' HP."""
    return forecast(view, lambda seen: share(*seen["miracle_hp"]))
