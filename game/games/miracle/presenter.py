"""The board, the controls and the status line of a 神迹之战 match page, built only from a projected
payload (the body of a ``state`` frame): the HTML can show no more than the JSON does.

What a player may click comes from ``payload["options"]`` (the engine's ``options``) alone; the
page's script only lights up and submits what is listed there.
"""
import uuid
from functools import lru_cache
from types import SimpleNamespace

from django.templatetags.static import static
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext as _
from django.utils.translation import gettext_noop

from ..markup import formats, texts
from . import cards, mapdraw
from .engine.turns import max_mana_gain
from .texts import artifact_name, creature_name, creature_names


# One identity per player on every page, as the platform's status line draws them: the host (seat 0)
# is "a" (blue, solid circle, ●), the guest "b" (orange, dashed diamond, ◆), whoever looks.
TONES = {0: "a", 1: "b"}


def live(payload):
    """Whether anything may still act: a finished or aborted match shows no "can act" mark."""
    return payload["status"] == "live"


def flipped(seen, seat):
    # The first mover holds map side 0, drawn at the bottom; a player holding side 1 turns the map.
    return seen is not None and seat is not None and seat != seen["first_mover"]


def next_mana(seen, side):
    """What ``side``'s mana will be at its next turn start (the engine's own rule for the rise)."""
    if seen["phase"] != "play":
        return None
    turn = seen["turn"] + (2 if seen["current"] == side else 1)
    rule = SimpleNamespace(first_mover=seen["first_mover"], max_mana=seen["max_mana"])
    return seen["max_mana"][side] + max_mana_gain(rule, side, turn)


def unit_label(unit, own, acting=True, language=None):
    """``language``: the active one, if the caller has it at hand."""
    language = language or get_language()
    _, f = texts(language), formats(language)
    words = {"type": creature_names(language)[unit["type"]], "level": unit["level"], "hp": unit["hp"],
             "max": unit["max_hp"], "atk": unit["atk"]}
    text = f(gettext_noop("Your %(type)s (L%(level)s): HP %(hp)s/%(max)s, ATK %(atk)s") if own
             else gettext_noop("Enemy %(type)s (L%(level)s): HP %(hp)s/%(max)s, ATK %(atk)s")) % words
    if unit["shield"]:
        text += " · " + _("holy shield")
    if unit["atk"] > unit["base_atk"]:
        text += " · " + _("attack raised")
    if own and acting and unit["can_act"]:
        text += " · " + _("can act")
    return text


def _tokens(seen, seat, flip, acting):
    language = get_language()
    cells = [mapdraw.key(u["at"]) for u in seen["units"]]
    grounds = {cell for u, cell in zip(seen["units"], cells) if not u["flying"]}
    airs = {cell for u, cell in zip(seen["units"], cells) if u["flying"]}
    out = []
    for unit, cell in zip(seen["units"], cells):
        x, y = mapdraw.centre(unit["at"], flip)
        shared = cell in grounds and cell in airs
        # A flyer over a ground creature: the two share the cell, the flyer up and to the right.
        dx, dy = ((4, -4) if unit["flying"] else (-3, 3)) if shared else (0, 0)
        own = unit["camp"] == seat
        out.append({
            **unit, "cell": cell, "x": round(x + dx, 2), "y": round(y + dy, 2), "scale": 0.65 if shared else 1,
            "tone": TONES[unit["camp"]], "own": own, "can_act": acting and unit["can_act"], "image": cards.image(unit["type"]),
            "symbol": cards.symbol(unit["type"]), "stars": range(unit["level"]),
            "aura": unit["atk"] > unit["base_atk"], "label": unit_label(unit, own, acting, language),
        })
    return out


def board(payload, marks, seats):
    seen = payload["view"]
    seat = payload["seat"]
    flip = flipped(seen, seat)
    marked = (marks or {}).get("cells", {})
    spawn_sides = {mapdraw.key(cell): side for side in (0, 1) for cell in (seen["spawn_points"][side] if seen else [])}
    # Per cell (in mapdraw's order) its spawn point's tone, set where there is one: a few of 277.
    spawns = [None] * len(mapdraw.INDEX)
    for key, side in spawn_sides.items():
        spawns[mapdraw.INDEX[key]] = TONES[side]
    spawns = tuple(spawns)
    out = {
        "view_box": mapdraw.VIEW_BOX, "hex": mapdraw.HEX_POINTS, "spawns": spawns, "marked": marked, "flipped": flip,
        "miracles": [], "garrisons": [], "units": [], "paths": [],
        "trail_tone": TONES.get((marks or {}).get("player")),
    }
    for path in (marks or {}).get("paths", []):
        out["paths"].append(" ".join("%s,%s" % mapdraw.centre(c, flip) for c in path))
    for index, key in enumerate(mapdraw.GARRISONS):
        owner = seen["garrisons"][index] if seen else None
        x, y = mapdraw.centre([int(v) for v in key.split(",")], flip)
        out["garrisons"].append({"x": x, "y": y, "tone": TONES.get(owner, "none"), "owner": owner})
    if seen:
        for side in (0, 1):
            x, y = mapdraw.centre(seen["miracles"][side], flip)
            out["miracles"].append({"x": x, "y": y, "hp": max(0, seen["miracle_hp"][side]), "tone": TONES[side],
                                    "label": seats[side]["label"], "key": mapdraw.key(seen["miracles"][side])})
        out["units"] = _tokens(seen, seat, flip, live(payload))
    language = get_language()
    out["cells_svg"] = _cells_svg(flip, language, spawns, marked, _name_cells(out, spawn_sides, seat, seats))
    out["terrain_svg"] = _terrain_svg(flip, language, spawns)
    return out


def cells(drawn):
    """Every cell of ``board``'s drawing with its spawn point's tone and its marks, for a template
    that draws the cells itself (the how-to page's figures)."""
    marked = drawn["marked"]
    return [{**c, "spawn": spawn, "marks": marked.get(c["key"], [])}
            for c, spawn in zip(mapdraw.CELLS[drawn["flipped"]], drawn["spawns"])]


# The map's 277 cells are drawn in Python rather than by a template loop: a 神迹之战 browser socket
# redraws the board on every change, and the loop (with its numbers localised cell by cell) was
# most of its cost (docs/performance.md, issue #26). The markup is the same as the template's was.
@lru_cache(maxsize=8)
def _cell_parts(flip, language):
    """Per cell, what never changes: the start of its ``<use>`` (place, terrain) and its key."""
    return tuple(
        ('<use href="#mh-hex" x="%s" y="%s" class="hex hex--%s' % (localize(c["x"]), localize(c["y"]), escape(c["terrain"])),
         '" data-cell="%s" role="button" aria-label="' % escape(c["key"]))
        for c in mapdraw.CELLS[flip]
    )


@lru_cache(maxsize=8)
def _plain_cells(flip, language):
    """Per cell, its whole ``<use>`` while nothing is on it, it is nobody's spawn point and it has no mark."""
    return tuple(start + middle + bare + '" tabindex="-1"/>'
                 for (start, middle), (_where, bare) in zip(_cell_parts(flip, language), _cell_names(flip, language)))


def _cells_svg(flip, language, spawns, marked, labels):
    """``labels``: the names (escaped) of the cells something is on, by place (``_name_cells``);
    the others are drawn as they always are."""
    marks = {mapdraw.INDEX[key]: kinds for key, kinds in marked.items() if key in mapdraw.INDEX}
    parts, names = _cell_parts(flip, language), _cell_names(flip, language)
    out = list(_plain_cells(flip, language))
    for index in labels.keys() | marks.keys():
        start, middle = parts[index]
        drawn = [start]
        if spawns[index]:
            drawn.append(" hex--spawn-" + escape(spawns[index]))
        for mark in marks.get(index, ()):
            drawn.append(" hex--" + conditional_escape(mark))
        drawn += [middle, labels.get(index, names[index][1]), '" tabindex="-1"/>']
        out[index] = "".join(drawn)
    return mark_safe("".join(out))


@lru_cache(maxsize=256)
def _terrain_svg(flip, language, spawns):
    """The abysses' and spawn points' pictures: they change only with the spawn points' sides."""
    abyss, spawn_point = escape(static("miracle/img/abyss.svg")), escape(static("miracle/img/spawn.svg"))
    out = []
    for c, spawn, where in zip(mapdraw.CELLS[flip], spawns, _picture_places(flip, language)):
        if c["terrain"] == "abyss":
            out.append('<use href="%s#miracle-abyss" %s' % (abyss, where))
        elif spawn:
            out.append('<use class="spawn spawn--%s" href="%s#miracle-spawn" %s' % (escape(spawn), spawn_point, where))
    return mark_safe("".join(out))


@lru_cache(maxsize=8)
def _picture_places(flip, language):
    """Per cell, where a picture on it goes (the end of its ``<use>``)."""
    return tuple('x="%s" y="%s" width="12" height="12"/>' % (localize(c["ix"]), localize(c["iy"])) for c in mapdraw.CELLS[flip])


def _name_cells(drawn, spawn_sides, seat, seats):
    """The names in words (escaped) of the cells something is on, by place in mapdraw's order, for
    the keyboard and screen readers: where it is and what is on it ("Column 3, row 5: your spawn
    point; Your Archer (L1): HP 2/2, ATK 1"). Every other cell's name never changes (``_cell_names``)."""
    language = get_language()
    _, f = texts(language), formats(language)

    def whose(side):
        return seats[side]["label"]

    things = {}
    for key, side in spawn_sides.items():
        things.setdefault(key, []).append(
            _("your spawn point") if side == seat else f(gettext_noop("spawn point of %(who)s")) % {"who": whose(side)})
    for g, key in zip(drawn["garrisons"], mapdraw.GARRISONS):
        things.setdefault(key, []).append(
            _("Garrison (nobody's yet)") if g["owner"] is None
            else f(gettext_noop("garrison of %(who)s")) % {"who": whose(g["owner"])})
    for m in drawn["miracles"]:
        things.setdefault(m["key"], []).append(
            f(gettext_noop("%(who)s's miracle: %(hp)s/30 HP")) % {"who": m["label"], "hp": m["hp"]})
    for unit in drawn["units"]:
        things.setdefault(unit["cell"], []).append(unit["label"])
    abyss = _("abyss")
    names = _cell_names(drawn["flipped"], language)
    labels = {}
    for key, said in things.items():
        index = mapdraw.INDEX[key]
        if mapdraw.CELLS[drawn["flipped"]][index]["terrain"] == "abyss":
            said = [abyss] + said
        labels[index] = escape("%s: %s" % (names[index][0], "; ".join(str(t) for t in said)))
    return labels


@lru_cache(maxsize=8)
def _cell_names(flip, language):
    """Per cell, where it is in words and its whole name (escaped) while nothing is on it: neither
    ever changes, and translating them cell by cell on every redraw was a fifth of its cost."""
    where, empty, terrain = _("Column %(column)s, row %(row)s"), _("empty"), {"abyss": _("abyss")}
    return tuple(
        (where % c, escape("%s: %s" % (where % c, terrain.get(c["terrain"], empty)))) for c in mapdraw.CELLS[flip]
    )


def _pool_rows(pools):
    if not pools:
        return []
    return [{"type": t, "name": creature_name(t), "symbol": cards.symbol(t), "image": cards.image(t), **p}
            for t, p in pools.items()]


def sides(payload, seats):
    """One strip per side, the viewer's own below the map: mana, units per type, the artifact."""
    seen = payload["view"]
    seat = payload["seat"]
    # Below the map, the side whose miracle is drawn at the bottom: the viewer's own, or to a
    # spectator the first mover's (map side 0).
    bottom = seat if seat is not None else seen["first_mover"] if seen else 0
    out = {}
    for side, where in ((1 - bottom, "top"), (bottom, "bottom")):
        strip = {"side": side, "tone": TONES[side], "own": side == seat, "label": seats[side]["label"],
                 "clock": seats[side]["clock"], "to_move": bool(seen) and live(payload) and side in seen["to_move"]}
        if seen:
            artifact = seen["artifacts"][side]
            strip.update({
                "mana": seen["mana"][side], "max_mana": seen["max_mana"][side], "next_mana": next_mana(seen, side),
                "miracle_hp": max(0, seen["miracle_hp"][side]), "pools": _pool_rows(seen["pools"][side]),
                "artifact": artifact and {**cards.artifact_card(artifact["artifact"]), **artifact},
                "deck_in": seen["deck_submitted"][side], "lost_stars": seen["lost_stars"][side],
            })
        out[where] = strip
    return out


def play_options(payload):
    """The seat's options keyed by cell, for the page's script (its clicks submit the forms)."""
    options = payload.get("options") or {}
    seen = payload["view"]
    if not seen or "units" not in options:
        return None
    where = {u["id"]: mapdraw.key(u["at"]) for u in seen["units"]}
    pools = seen["pools"][payload["seat"]]
    enemy_miracle = mapdraw.key(seen["miracles"][1 - payload["seat"]])
    units = {}
    for entry in options["units"]:
        units[str(entry["unit"])] = {
            "at": mapdraw.key(entry["at"]),
            "moves": [mapdraw.key(m["to"]) for m in entry["moves"]],
            "attacks": {(enemy_miracle if t == "miracle" else where[t]): str(t) for t in entry["attacks"]},
        }
    artifact = options.get("artifact")
    if artifact:
        artifact = {"artifact": artifact["artifact"], "radius": cards.artifact_radius(artifact["artifact"]),
                    "cells": [mapdraw.key(c) for c in artifact.get("cells", [])],
                    "units": {where[u]: str(u) for u in artifact.get("units", [])}}
    return {
        "units": units, "mana": seen["mana"][payload["seat"]],
        "summons": [{"type": s["type"], "name": str(creature_name(s["type"])), "level": s["level"], "cost": s["cost"],
                     "ready": pools[s["type"]]["available"], "cells": [mapdraw.key(c) for c in s["cells"]]}
                    for s in options["summons"]],
        "artifact": artifact,
    }


def _cell_label(key):
    return "(%s)" % key.replace(",", ", ")


def controls(payload, seats):
    seen = payload["view"]
    seat = payload["seat"]
    status = payload["status"]
    base = {"client_id": uuid.uuid4().hex, "version": payload["version"]}
    if status != "live" or seat is None:
        return {"mode": status if status != "live" else "watching", **base}
    base["clock"] = seats[seat]["clock"]
    options = payload.get("options") or {}
    if "deck" in options:
        return {"mode": "deck", "count": options["deck"]["count"],
                "artifacts": [cards.artifact_card(a) for a in options["deck"]["artifacts"]],
                "creatures": [cards.creature_card(c) for c in options["deck"]["creatures"]], **base}
    if seen["phase"] == "deck":
        return {"mode": "deck_waiting", **base}
    if "end_turn" not in options:
        return {"mode": "wait", **base}
    play = play_options(payload)
    units = {u["id"]: u for u in seen["units"]}
    actors = []
    for entry in options["units"]:
        unit = units[entry["unit"]]
        actors.append({
            "id": unit["id"], "label": unit_label(unit, True), "at": _cell_label(mapdraw.key(unit["at"])),
            "moves": [{"key": k, "label": _cell_label(k)} for k in play["units"][str(unit["id"])]["moves"]],
            "attacks": [{"value": str(t), "label": _("the enemy miracle") if t == "miracle"
                         else unit_label(units[t], False)} for t in entry["attacks"]],
        })
    summon_types = {}
    for s in play["summons"]:
        entry = summon_types.setdefault(s["type"], {"type": s["type"], "name": creature_name(s["type"]),
                                                    "levels": [], "cells": s["cells"]})
        entry["levels"].append({"level": s["level"], "cost": s["cost"]})
    artifact = play["artifact"]
    if artifact:
        artifact = {**artifact, "name": artifact_name(artifact["artifact"]),
                    "cell_choices": [{"key": k, "label": _cell_label(k)} for k in artifact["cells"]],
                    "unit_choices": [{"value": v, "label": unit_label(units[int(v)], True)}
                                     for v in artifact["units"].values()]}
    return {"mode": "play", "actors": actors, "summons": list(summon_types.values()), "artifact": artifact,
            "play": play, **base}


def status(payload, seats):
    seen = payload["view"]
    if not seen:
        return {"turn": None}
    current = seen["current"] if seen["phase"] == "play" else None
    return {
        "phase": seen["phase"], "turn": seen["turn"], "last_turn": seen["last_turn"],
        "your_turn": current is not None and current == payload["seat"],
        "to_move": seats[current]["label"] if current is not None else None,
        "hp": [max(0, hp) for hp in seen["miracle_hp"]],
    }


def page_context(payload, marks, seats):
    return {
        "status": status(payload, seats),
        "board": board(payload, marks, seats),
        "sides": sides(payload, seats) if payload["view"] is not None or payload["status"] != "open" else None,
        "controls": controls(payload, seats),
    }
