"""What the history pages show of a finished 神迹之战 match: its facts for the list, and the summary
with both decks and two charts over the turns (miracle HP, units on the board).

A finished match hides nothing any more (its audience is ``"all"``), so the summary may name both
decks. The series are read from the public events, in order.
"""
from .engine import view
from .texts import END_REASONS, TIEBREAKS, artifact_name, creature_name

MIRACLE_HP = 30


def facts(state):
    """The list's score is the miracle HP each side has left."""
    return {"score": tuple(max(hp, 0) for hp in state.miracle_hp), "turns": state.turn}


def series(commands):
    """``([(turn, miracle HP 0, miracle HP 1)], [(turn, units of 0, units of 1)])`` after each turn
    (and at the end of the match); ``commands``: ``[(version, seat, command, events)]``."""
    hp, units = [MIRACLE_HP, MIRACLE_HP], [0, 0]
    camp = {}
    hp_points, unit_points = [(0, *hp)], [(0, *units)]
    turn = 0

    def point(at):
        for points, values in ((hp_points, hp), (unit_points, units)):
            if points[-1][0] == at:
                points[-1] = (at, *values)
            else:
                points.append((at, *values))

    for _version, _seat, _command, events in commands:
        for event in events:
            kind = event["type"]
            if kind == "turn_start":
                turn = event["turn"]
            elif kind == "summon":
                camp[event["unit"]] = event["player"]
                units[event["player"]] += 1
            elif kind == "death":
                units[event["camp"]] -= 1
            elif kind == "damage" and "miracle" in event:
                hp[event["miracle"]] = max(event["hp"], 0)
            elif kind in ("turn_end", "match_end"):
                point(turn)
    return hp_points, unit_points


def summary(state, names, commands, plot):
    """The summary template's context: the result, both decks, and the two charts."""
    seen = view(state, "all")
    hp_points, unit_points = series(commands)
    reason = END_REASONS.get(seen["end_reason"], seen["end_reason"])
    if seen["tiebreak"]:
        reason = f"{reason}: {TIEBREAKS.get(seen['tiebreak'], seen['tiebreak'])}"
    sides = []
    for seat in (0, 1):
        deck = seen["decks"][seat]
        sides.append({
            "name": names[seat],
            "first": seen["first_mover"] == seat,
            "miracle_hp": max(seen["miracle_hp"][seat], 0),
            "lost_stars": seen["lost_stars"][seat],
            "artifact": {"id": deck["artifact"], "name": artifact_name(deck["artifact"])} if deck else None,
            "creatures": [{"id": c, "name": creature_name(c)} for c in deck["creatures"]] if deck else [],
        })
    top_units = max(4, *(max(a, b) for _, a, b in unit_points))
    return {
        "winner": names[seen["winner"]] if seen["winner"] is not None else None,
        "reason": reason,
        "turns": seen["turn"],
        "sides": sides,
        "hp_chart": plot(hp_points, MIRACLE_HP) if len(hp_points) > 1 else None,
        "unit_chart": plot(unit_points, -(-top_units // 4) * 4) if len(unit_points) > 1 else None,
    }
