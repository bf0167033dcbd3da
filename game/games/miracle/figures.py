"""The pictures of 神迹之战's how-to page, drawn by the board's own code: positions set up in the
engine, seen through its ``view``, laid out by ``presenter.board`` (``mapdraw``'s geometry, the
tokens, the marks) and drawn with the board's classes and symbols (``miracle/_figure.html``).

What the captions say (where a move must stop, what an attack and its counter do) is read off the
engine's own answers for the position, so a picture cannot drift from the rules.
"""
from django.utils.translation import gettext as _

from . import engine, mapdraw, presenter
from .engine.cards import STATS
from .engine.state import MatchState
from .texts import creature_name

DECK = {"artifact": "holy_light", "creatures": ["swordsman", "archer", "black_bat"]}
# Room around the cells a close-up shows, and its least size, in SVG units.
MARGIN = 12
LEAST = (90.0, 60.0)


def _distance(a, b):
    return max(abs(x - y) for x, y in zip(a, b))


def _position(units):
    """A match in play, side 0 to move, with exactly ``units`` ((camp, type, level, cell), …) on
    the map, each ready to act."""
    state = engine.new_match(1, first_mover=0)
    for seat in (0, 1):
        state, _events = engine.apply(state, seat, {"deck": DECK})
    data = state.to_json()
    data["units"] = []
    for number, (camp, kind, level, at) in enumerate(units, start=1):
        stats = STATS[(kind, level)]
        data["units"].append({
            "id": number, "camp": camp, "type": kind, "level": level, "born": 0, "hp": stats.hp, "max_hp": stats.hp,
            "atk": stats.atk, "can_act": True, "shield": False, "equipped": False, "holy_until": 0, "at": list(at),
        })
        data["pools"][camp][kind]["on_board"] += 1
    data["next_id"] = len(units) + 1
    return MatchState.from_json(data)


def _board(state, cells=None, focus=None):
    """The board's drawing of ``state`` for seat 0; ``cells``: {cell key: [mark, …]};
    ``focus``: the cells a close-up must show (None: the whole map)."""
    seats = [{"label": _("You")}, {"label": _("The enemy")}]
    # Drawn as a position in a match being played, so a creature that may act shows it.
    payload = {"view": engine.view(state, 0), "seat": 0, "status": "live"}
    drawn = presenter.board(payload, {"cells": cells or {}}, seats)
    drawn["cells"] = presenter.cells(drawn)
    if focus:
        points = [mapdraw.centre(c, drawn["flipped"]) for c in focus]
        xs, ys = [x for x, _y in points], [y for _x, y in points]
        width = max(max(xs) - min(xs) + 2 * MARGIN, LEAST[0])
        height = max(max(ys) - min(ys) + 2 * MARGIN, LEAST[1])
        left, top = (min(xs) + max(xs) - width) / 2, (min(ys) + max(ys) - height) / 2
        drawn["view_box"] = f"{left:.1f} {top:.1f} {width:.1f} {height:.1f}"
    return drawn


def the_map():
    return {"id": "map", "boards": [_board(_position([]))], "alt": _(
        "The whole map: your miracle at the bottom with your five spawn points around it, the enemy's at the "
        "top, the four garrisons between them, and the dark abysses."
    )}


def token():
    """One creature as the map draws it, for the card's explanation beside it."""
    at = (-4, 4, 0)
    return {"id": "token", "boards": [_board(_position([(0, "archer", 2, at)]), focus=[at])], "alt": _(
        "Your level-2 %(creature)s as the map draws it: two stars for its level, its attack on the red badge "
        "(left), its HP on the green one (right), and the gold ring of a creature that can still act this turn."
    ) % {"creature": creature_name("archer")}}


def movement():
    """A Swordsman's move beside an enemy: every cell it may end on, and those where it must stop."""
    mover, enemy = (-4, 4, 0), (-2, 2, 0)
    state = _position([(0, "swordsman", 1, mover), (1, "swordsman", 1, enemy)])
    ends = [tuple(m["to"]) for m in engine.options(state, 0)["units"][0]["moves"]]
    stops = [c for c in ends if _distance(c, enemy) == 1]
    cells = {mapdraw.key(c): ["reach", "stop"] if c in stops else ["reach"] for c in ends}
    focus = ends + [mover, enemy]
    name = creature_name("swordsman")
    return {"id": "move", "boards": [_board(state, cells, focus)], "alt": _(
        "Your %(creature)s (move 3) and an enemy %(creature)s: the green cells are where yours may end its move. "
        "The %(stops)d cells with a thick border touch the enemy: a move that steps on one stops there, it cannot "
        "walk on past the enemy."
    ) % {"creature": name, "stops": len(stops)}}


def attack():
    """A level-2 Swordsman attacks a level-1 one beside it: the hit, the counter, and who dies."""
    attacker, target = (-3, 3, 0), (-2, 2, 0)
    state = _position([(0, "swordsman", 2, attacker), (1, "swordsman", 1, target)])
    before = {u["id"]: u["hp"] for u in engine.view(state, 0)["units"]}
    after, _events = engine.apply(state, 0, {"attack": {"unit": 1, "target": 2}})
    left = {u["id"]: u["hp"] for u in engine.view(after, 0)["units"]}
    assert 2 not in left, "the picture's caption says the target dies"
    cells = {mapdraw.key(attacker): ["attacker"], mapdraw.key(target): ["target"]}
    # After: the marks the board puts on what an attack did (the counter's hit, the death).
    done = {mapdraw.key(attacker): ["hit"], mapdraw.key(target): ["death"]}
    focus = [attacker, target]
    stats = [STATS[("swordsman", level)] for level in (2, 1)]
    return {"id": "attack", "boards": [_board(state, cells, focus), _board(after, done, focus)], "alt": _(
        "Your level-2 %(creature)s (ATK %(atk)d, HP %(hp)d) attacks the enemy level-1 %(creature)s (ATK "
        "%(their_atk)d, HP %(their_hp)d) beside it: the enemy takes %(atk)d damage. Yours stands within the enemy's "
        "range (1), so it strikes back for %(their_atk)d, and both hits land before anything dies: yours is left "
        "with %(left)d HP, the enemy's dies. A shot from 3 cells away (an %(archer)s's) would take no counter."
    ) % {
        "creature": creature_name("swordsman"), "archer": creature_name("archer"),
        "atk": stats[0].atk, "hp": before[1], "their_atk": stats[1].atk, "their_hp": before[2], "left": left[1],
    }}


def figures():
    return {"map": the_map(), "token": token(), "move": movement(), "attack": attack()}
