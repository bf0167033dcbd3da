"""A bot's own copy of the match, rebuilt from what it is shown (``view(state, player)``).

After the decks are in nothing is hidden (ruling 39), so the player's view holds the whole state
but the seed, which no rule uses once the first mover is drawn. Rebuilding a ``MatchState`` from it
lets a bot try commands with the engine's own ``apply`` and never see more than a person would.
"""
from game.games.miracle.engine import MatchState

_UNIT_KEYS = ("id", "camp", "type", "level", "at", "born", "hp", "max_hp", "atk", "can_act", "shield", "equipped")


def state_from_view(v):
    """A ``MatchState`` equal in every rule-relevant field to the state ``v`` was made from."""
    return MatchState.from_json({
        "seed": 0,
        "rng": 0,
        "phase": v["phase"],
        "turn": v["turn"],
        "first_mover": v["first_mover"],
        "current": v["current"],
        "winner": v["winner"],
        "end_reason": v["end_reason"],
        "tiebreak": v["tiebreak"],
        "decks": v["decks"],
        "miracle_hp": v["miracle_hp"],
        "mana": v["mana"],
        "max_mana": v["max_mana"],
        "garrisons": v["garrisons"],
        "units": [dict({k: u[k] for k in _UNIT_KEYS}, holy_until=u["holy_until"] or 0) for u in v["units"]],
        "next_id": v["next_unit_id"],
        "pools": [{t: {"capacity": p["capacity"], "on_board": p["on_board"], "cooling": p["cooling"]}
                   for t, p in (side or {}).items()} for side in v["pools"]],
        "artifacts": [{"state": a["state"], "cooldown": a["cooldown"], "unit": a["unit"]} if a else
                      {"state": "ready", "cooldown": 0, "unit": None} for a in v["artifacts"]],
        "lost_stars": v["lost_stars"],
    })
