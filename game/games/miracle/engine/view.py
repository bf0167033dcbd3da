"""What each audience may know. The only module that decides it.

Audiences: player ``0``, player ``1``, ``"spectator"`` and ``"all"``. Miracle hides one thing
(ruling 39): a deck, from everyone but its owner, until both decks are in. Then a public ``decks``
event shows both, and from there on every audience sees the whole state.
"""
from ...engines import audiences
from . import board
from .rules import to_move
from .state import LAST_TURN


def _deck_public(event):
    return {"type": "deck", "player": event["player"]}


# type -> (owner of the event, or None when public; what non-owners get).
EVENT_RULES = {"deck": (lambda e: e["player"], _deck_public)}
PUBLIC_EVENTS = ("decks", "turn_start", "unit_counts", "capture", "shield", "ready", "summon", "move", "attack",
                 "damage", "heal", "atk", "death", "artifact", "equip", "action_restored", "recycle", "turn_end",
                 "match_end")


def _rule(event):
    """The event's owner rule, or None when it is public; an event type ``view.py`` does not list
    is an error, so no new event reaches an audience without a decision here."""
    kind = event["type"]
    if kind in PUBLIC_EVENTS:
        return None
    return EVENT_RULES[kind]


def visibility(event):
    """Who may see ``event``: ``("public", None)`` or ``("owner", player)``; the others get
    ``project_event(event, audience)``."""
    rule = _rule(event)
    return ("public", None) if rule is None else ("owner", rule[0](event))


def project_event(event, audience):
    """The form of ``event`` that ``audience`` may see, or ``None`` if it may see nothing of it."""
    rule = _rule(event)
    if rule is None or audience == "all" or rule[0](event) == audience:
        return event
    return rule[1](event)


def project(events, audience):
    return audiences.project(events, audience, project_event)


def _unit_view(unit):
    stats = unit.stats
    return {
        "id": unit.id,
        "camp": unit.camp,
        "type": unit.type,
        "level": unit.level,
        "at": board.coord(unit.cell),
        "hp": unit.hp,
        "atk": unit.atk,
        "max_hp": unit.max_hp,
        "base_atk": stats.atk,
        "range": [stats.range_min, stats.range_max],
        "move": stats.move,
        "flying": stats.flying,
        "anti_air": stats.anti_air,
        "can_act": unit.can_act,
        "born": unit.born,
        "shield": unit.shield,
        "equipped": unit.equipped,
        "holy_until": unit.holy_until or None,
    }


def _pools_view(pools):
    return {t: {"capacity": p.capacity, "available": p.available, "on_board": p.on_board, "cooling": sorted(p.cooling)}
            for t, p in pools.items()}


def view(state, audience):
    """The state as ``audience`` may know it, as a JSON-ready dict (see the package docstring)."""
    audiences.check(audience)
    public = state.phase != "deck"
    sees = [public or audience in ("all", p) for p in (0, 1)]
    decks = [state.decks[p] if sees[p] else None for p in (0, 1)]
    spawns = [[board.coord(c) for c in board.INITIAL_SPAWNS[state.side(p)]] for p in (0, 1)]
    for index, owner in enumerate(state.garrisons):
        if owner is not None:
            spawns[owner] += [board.coord(c) for c in board.GARRISON_SPAWNS[index]]
    return {
        "phase": state.phase,
        "turn": state.turn,
        "last_turn": LAST_TURN,
        "to_move": to_move(state),
        "current": state.current,
        "first_mover": state.first_mover,
        "winner": state.winner,
        "end_reason": state.end_reason,
        "tiebreak": state.tiebreak,
        "miracle_hp": list(state.miracle_hp),
        "miracles": [board.coord(board.MIRACLE_CELL[state.side(p)]) for p in (0, 1)],
        "mana": list(state.mana),
        "max_mana": list(state.max_mana),
        "garrisons": list(state.garrisons),
        "spawn_points": spawns,
        "deck_submitted": [d is not None for d in state.decks],
        "decks": [None if d is None else {"artifact": d["artifact"], "creatures": list(d["creatures"])} for d in decks],
        "pools": [_pools_view(state.pools[p]) if decks[p] else None for p in (0, 1)],
        "artifacts": [dict(state.artifacts[p], artifact=decks[p]["artifact"]) if decks[p] else None for p in (0, 1)],
        "lost_stars": list(state.lost_stars),
        "next_unit_id": state.next_id,
        "units": [_unit_view(u) for u in state.units.values()],
    }
