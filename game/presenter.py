"""Template context and HTML fragments for the match page, built only from a projected payload.

The page (HTTP) and the browser socket (``?ui=html``) both render through here, from the same
``frames.payload`` the JSON protocol sends, so the HTML can show no more than the JSON does.
"""
import json
import uuid
from functools import lru_cache

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.translation import gettext as _

from . import frames
from .engine import SPECIES
from .log import ROUND_END_REASONS, LogBook
from .species_text import name as species_name
from .species_text import skill_text

MAX_HP = 400
MIMIC = "mimic_fish"
PARTS = ("status", "board", "controls", "spectators")


@lru_cache(maxsize=None)
def fish_image(key):
    """The drawing for a species (or "hidden"), if one has been drawn; None otherwise."""
    path = f"img/fish/{key}.svg"
    return static(path) if finders.find(path) else None


def fish_card(fish, pos, side, seat):
    species = fish["fish"]
    card = {
        "pos": pos + 1,
        "species": species,
        "name": species_name(species) if species else None,
        "image": fish_image(species if species else "hidden"),
        "dead_image": None if fish["alive"] else fish_image("dead"),
        "hp": max(fish["hp"], 0),
        "hp_percent": max(fish["hp"], 0) * 100 // MAX_HP,
        "alive": fish["alive"],
        "revealed": fish["revealed"],
        "atk": fish["atk"],
        "shields": fish["shields"],
        "effects": fish["effects"] or [],
        "mimic_of": species_name(fish["mimic_of"]) if fish["mimic_of"] else None,
        "own": side == seat,
    }
    if species:
        card["passive"], card["active"] = skill_text(species, fish["mimic_of"])
    return card


def side_label(payload, side):
    name = payload["players"][side] or _("(waiting for a player)")
    if payload["seat"] == side:
        return _("%(name)s (you)") % {"name": name}
    return name


def board(payload):
    seen = payload["view"]
    seat = payload["seat"]
    # A player sees the opponent's team above their own, like across a table.
    order = (1 - seat, seat) if seat is not None else (0, 1)
    sides = []
    for side in order:
        team = seen["teams"][side] if seen else []
        sides.append(
            {
                "side": side,
                "label": side_label(payload, side),
                "own": side == seat,
                "to_move": bool(seen) and seen["to_move"] == side,
                "score": seen["score"][side] if seen else 0,
                "picked": bool(seen) and seen["picked"][side],
                "fish": [fish_card(f, i, side, seat) for i, f in enumerate(team)],
            }
        )
    return sides


def fish_label(payload, side, pos):
    fish = payload["view"]["teams"][side][pos]
    if fish["fish"]:
        return _("%(species)s (#%(pos)s)") % {"species": species_name(fish["fish"]), "pos": pos + 1}
    return _("fish #%(pos)s") % {"pos": pos + 1}


def move_label(payload, act):
    seat = payload["seat"]
    if act["kind"] == "attack":
        return _("Attack enemy %(target)s") % {"target": fish_label(payload, 1 - seat, act["enemy"])}
    parts = [_("Skill")]
    if "ally" in act:
        parts.append(_("on teammate %(target)s") % {"target": fish_label(payload, seat, act["ally"])})
    if "enemy" in act:
        parts.append(_("at enemy %(target)s") % {"target": fish_label(payload, 1 - seat, act["enemy"])})
    return " ".join(str(p) for p in parts)


def controls(payload):
    """Which form the viewer gets now, with only legal choices in it."""
    seen = payload["view"]
    seat = payload["seat"]
    status = payload["status"]
    base = {"client_id": uuid.uuid4().hex, "version": payload["version"]}
    if status != "live" or seat is None:
        return {"mode": status if status != "live" else "watching", **base}
    if seen["phase"] == "pick":
        if payload["pick"] is None:
            return {"mode": "waiting_pick", **base}
        species = payload["pick"]["species"]
        return {
            "mode": "pick",
            "count": payload["pick"]["count"],
            "options": [{"id": s, "name": species_name(s), "skill": skill_text(s)} for s in species],
            "mimic_targets": (
                [{"id": s, "name": species_name(s)} for s in SPECIES if s != MIMIC] if MIMIC in species else []
            ),
            **base,
        }
    if not payload["legal"]:
        return {"mode": "wait", **base}
    if seen["phase"] == "assert":
        targets = sorted({c["assert"]["target"] for c in payload["legal"] if c["assert"] is not None})
        return {
            "mode": "assert",
            "targets": [{"pos": t, "label": fish_label(payload, 1 - seat, t)} for t in targets],
            "species": [{"id": s, "name": species_name(s)} for s in SPECIES],
            **base,
        }
    actors = {}
    for command in payload["legal"]:
        act = command["act"]
        actors.setdefault(act["actor"], []).append(
            {"value": json.dumps(act, separators=(",", ":")), "label": move_label(payload, act)}
        )
    return {
        "mode": "act",
        "actors": [
            {"pos": pos, "label": fish_label(payload, seat, pos), "moves": moves} for pos, moves in sorted(actors.items())
        ],
        **base,
    }


def status(payload):
    seen = payload["view"]
    info = {"match": payload, "round": None, "turn": None, "rounds": []}
    if not seen:
        return info
    info["round"] = seen["round"]
    info["max_turns"] = seen["max_turns"]
    if seen["phase"] in ("assert", "act"):
        info["turn"] = seen["turn"] + 1
    info["phase"] = seen["phase"]
    info["score"] = seen["score"]
    info["to_move"] = side_label(payload, seen["to_move"]) if seen["to_move"] is not None else None
    info["your_turn"] = seen["to_move"] is not None and seen["to_move"] == payload["seat"]
    info["rounds"] = [
        {
            "number": n,
            "winner": side_label(payload, r["winner"]),
            "turns": r["turns"],
            "reason": ROUND_END_REASONS.get(r["reason"], r["reason"]),
        }
        for n, r in enumerate(seen["rounds"], start=1)
    ]
    if payload["winner"] is not None:
        info["winner"] = side_label(payload, payload["winner"])
    return info


def context(payload, spectators):
    return {
        "payload": payload,
        "status": status(payload),
        "sides": board(payload),
        "controls": controls(payload),
        "spectators": spectators,
    }


def full_log(match, seat):
    """A fresh log book that has read every version, and the lines it wrote."""
    book = LogBook(frames.audience_for(match, seat), frames.players(match))
    return book, book.entries(frames.versions(match, seat, 0))


def render_parts(ctx, parts=PARTS, oob=True):
    return "".join(render_to_string(f"game/_{part}.html", {**ctx, "oob": oob}) for part in parts)


def render_log(entries, *, append):
    return render_to_string("game/_log.html", {"entries": entries, "append": append, "oob": True})


def render_notice(message="", level="error"):
    return render_to_string("game/_notice.html", {"message": message, "level": level, "oob": True})
