"""What a seat knows and how it learnt it: each ID the seat recognised, read from the seat's own
projected events (the engine's ``learn``, to that seat alone), with the way it came (ruling 8's
killers at the start, an identification's result, a join, a successor on an own ID, the reveal
after vote 3, the game master's ruling, or mutual recognition and ruling 9's pooling).

The engine's ``learn`` event does not say why; the other events of the same applied command that
the seat sees do (its feedback naming the ID, the public ballots of vote 3 the reveal follows, its
``joined``, its character's ``succeeded``). Only for the game master's ``recognise`` effect is the
command read: the seat saw the ``learn`` it made, and that it came from the game master's ruling is
what its feedback would tell it. Nothing here is read from the live state, so nothing is listed
that the seat's view does not hold.
"""
from game.games.three_kingdoms import engine

from . import texts

# How an ID was learnt, in the order the checks are made (the first that fits names it).
REVEAL, START, SUCCESSION, IDENTIFIED, JOINED, GM, MUTUAL = (
    "reveal", "start", "succession", "identified", "joined", "gm", "mutual")


def _recognised_by_gm(command, ident):
    """Whether the game master's command holds a ``recognise`` effect that names ``ident``."""
    def walk(value):
        if isinstance(value, dict):
            pair = value.get("recognise")
            if isinstance(pair, list) and ident in pair:
                return True
            return any(walk(v) for v in value.values())
        if isinstance(value, list):
            return any(walk(v) for v in value)
        return False
    (kind, body), = ((k, v) for k, v in command.items() if k != "at")
    return kind in ("resolve", "override") and walk(body)


def _how(e, seen, actor, command, started):
    ident, name = e["id"], e["name"]
    if "identity" in e or any(o["type"] == "ballots" and o.get("vote") == 3 for o in seen):
        return REVEAL
    if not started:
        return START
    if any(o["type"] == "status" and o.get("status") == "succeeded" and o.get("character") == name for o in seen):
        return SUCCESSION
    if any(o["type"] == "feedback" and str(o.get("text", "")).startswith(f"ID {ident} 是") for o in seen):
        return IDENTIFIED
    if any(o["type"] == "joined" for o in seen):
        return JOINED
    if actor == "gm" and _recognised_by_gm(command, ident):
        return GM
    return MUTUAL


def learnt(rows, seat):
    """The seat's recognitions in the order learnt, from ``rows``: (actor, command, events) of every
    applied command in version order. Each: {"id", "name", "night", "how", "identity"?}."""
    out = []
    night, started = 0, False
    for actor, command, events in rows:
        seen = engine.project(events, seat)
        for e in seen:
            if e["type"] == "phase":
                night, started = e.get("night", night), True
            elif e["type"] == "learn":
                entry = {"id": e["id"], "name": e["name"], "night": night or 1,
                         "how": _how(e, seen, actor, command, started)}
                if "identity" in e:
                    entry["identity"] = e["identity"]
                out.append(entry)
    return out


def lines(rows, seat):
    """The seat's known IDs, one per ID in ID order, each with its (name, how it was learnt in words)."""
    by_id = {}
    for entry in learnt(rows, seat):
        by_id.setdefault(entry["id"], []).append((entry["name"], texts.learnt(entry)))
    return [(ident, by_id[ident]) for ident in sorted(by_id)]
