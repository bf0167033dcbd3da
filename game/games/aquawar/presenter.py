"""The board, the move forms and the status line of an Aquawar match page, built only from a
projected payload (the body of a ``state`` frame), so the HTML can show no more than the JSON does.
"""
import json
import uuid
from functools import lru_cache

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from ..markup import formats, url
from .engine import SPECIES
from .log import ROUND_END_REASONS
from .texts import image as fish_image
from .texts import name as species_name
from .texts import skill_text

MAX_HP = 400
MIMIC = "mimic_fish"
# The engine's refusals a page's own forms can run into, in the reader's language.
REFUSALS = {
    "wrong_pick_count": gettext_lazy("Pick exactly 4 fish."),
    "duplicate_species": gettext_lazy("Each species can be picked once per team."),
    "species_used": gettext_lazy("You fielded one of those fish in an earlier round: pick unused ones."),
    "mimic_target_missing": gettext_lazy("Choose which species the Mimic Fish copies."),
    "already_picked": gettext_lazy("You have already locked in your team for this round."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "wrong_phase": gettext_lazy("That move does not fit this part of the turn."),
    "target_dead": gettext_lazy("That fish is already defeated."),
    "target_revealed": gettext_lazy("That enemy fish is already revealed."),
    "not_lowest_hp": gettext_lazy("This skill must target an enemy with the lowest HP."),
}
# More marks on one fish than this (an area attack on a sharing team) would only be a blur.
MAX_MARKS = 4


def hp_level(hp):
    """A band for the HP bar, drawn with its own pattern too (the rules' 30 % and 50 % lines)."""
    if hp < 120:
        return "low"
    return "mid" if hp < 200 else "high"


def fish_card(fish, pos, side, seat, marks):
    species = fish["fish"]
    hp = max(fish["hp"], 0)
    card = {
        "pos": pos + 1,
        "index": pos,
        "species": species,
        "name": species_name(species) if species else None,
        # The file name of a drawing names its species, so a fish the viewer may not know gets the
        # generic one: nothing in the page may say more than the view does.
        "image": fish_image(species if species else "hidden"),
        "dead_image": None if fish["alive"] else fish_image("dead"),
        "hp": hp,
        "hp_percent": hp * 100 // MAX_HP,
        "hp_level": hp_level(hp),
        "alive": fish["alive"],
        "revealed": fish["revealed"],
        "atk": fish["atk"],
        "shields": fish["shields"],
        "effects": fish["effects"] or [],
        "mimic_of": species_name(fish["mimic_of"]) if fish["mimic_of"] else None,
        "copies": fish["mimic_of"],
        "own": side == seat,
        "marks": marks.get((side, pos), [])[:MAX_MARKS],
    }
    card["acted"] = any(mark["kind"] == "act" for mark in card["marks"])
    if species:
        card["passive"], card["active"] = skill_text(species, fish["mimic_of"])
    return card


def board(payload, marks, seats):
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
                "label": seats[side]["label"],
                "own": side == seat,
                # Each player keeps one look on every page (and in the summary and replay): the
                # host's team is "a", the guest's "b".
                "tone": "a" if side == 0 else "b",
                "to_move": bool(seen) and seen["to_move"] == side,
                "score": seen["score"][side] if seen else 0,
                "picked": bool(seen) and seen["picked"][side],
                "clock": seats[side]["clock"],
                "fish": [fish_card(f, i, side, seat, marks) for i, f in enumerate(team)],
                # Only a player facing a round in play has anything to deduce.
                "aid_url": (
                    url("game:aid", payload["match"])
                    if seat is not None and side != seat and seen and seen["phase"] in ("assert", "act")
                    and payload["status"] == "live"
                    else None
                ),
            }
        )
    return sides


def fish_label(language, payload, side, pos):
    """How a form names a fish, in ``language`` (the active one)."""
    return _fish_label(language, payload["view"]["teams"][side][pos]["fish"], pos)


@lru_cache(maxsize=1024)
def _fish_label(language, species, pos):
    if species:
        return _("%(species)s (#%(pos)s)") % {"species": species_name(species), "pos": pos + 1}
    return _("fish #%(pos)s") % {"pos": pos + 1}


def move_label(language, payload, act):
    # The texts come from the language's table (``formats``), not from gettext once per move.
    f = formats(language)
    seat = payload["seat"]
    if act["kind"] == "attack":
        return f(gettext_noop("Attack enemy %(target)s")) % {"target": fish_label(language, payload, 1 - seat, act["enemy"])}
    words = {}
    if "ally" in act:
        words["ally"] = fish_label(language, payload, seat, act["ally"])
    if "enemy" in act:
        words["enemy"] = fish_label(language, payload, 1 - seat, act["enemy"])
    if "ally" in words and "enemy" in words:
        return f(gettext_noop("Skill on teammate %(ally)s, at enemy %(enemy)s")) % words
    if "ally" in words:
        return f(gettext_noop("Skill on teammate %(ally)s")) % words
    if "enemy" in words:
        return f(gettext_noop("Skill at enemy %(enemy)s")) % words
    return f(gettext_noop("Skill"))


def skill_grid(language, payload, skills):
    """A skill aimed at a teammate and an enemy at once (the Sea Turtle's) as a teammate × enemy
    grid of choices: as a list it would be up to twelve long lines."""
    if not skills or not all("ally" in m["act"] and "enemy" in m["act"] for m in skills):
        return None
    seat = payload["seat"]
    cells = {(m["act"]["ally"], m["act"]["enemy"]): m for m in skills}
    allies = sorted({ally for ally, _enemy in cells})
    enemies = sorted({enemy for _ally, enemy in cells})
    return {
        "enemies": [fish_label(language, payload, 1 - seat, enemy) for enemy in enemies],
        "rows": [
            {"ally": fish_label(language, payload, seat, ally), "cells": [cells.get((ally, enemy)) for enemy in enemies]}
            for ally in allies
        ],
    }


def controls(payload, seats):
    """Which form the viewer gets now, with only legal choices in it."""
    seen = payload["view"]
    seat = payload["seat"]
    status = payload["status"]
    base = {
        "client_id": uuid.uuid4().hex,
        "version": payload["version"],
        "post_url": url("game:move", payload["match"]),
    }
    if status != "live" or seat is None:
        return {"mode": status if status != "live" else "watching", **base}
    # The viewer's own clock again, beside the form: the board's can be scrolled out of sight.
    base["clock"] = seats[seat]["clock"]
    if seen["phase"] == "pick":
        if payload["pick"] is None:
            return {"mode": "waiting_pick", **base}
        species = payload["pick"]["species"]
        return {
            "mode": "pick",
            "count": payload["pick"]["count"],
            "options": [
                {"id": s, "name": species_name(s), "skill": skill_text(s), "image": fish_image(s)} for s in species
            ],
            "mimic_targets": (
                [{"id": s, "name": species_name(s)} for s in SPECIES if s != MIMIC] if MIMIC in species else []
            ),
            **base,
        }
    if not payload["legal"]:
        return {"mode": "wait", **base}
    language = get_language()
    if seen["phase"] == "assert":
        guesses = [c["assert"] for c in payload["legal"] if c["assert"] is not None]
        targets = sorted({g["target"] for g in guesses})
        named = {g["fish"] for g in guesses}
        return {
            "mode": "assert",
            "targets": [{"pos": t, "label": fish_label(language, payload, 1 - seat, t)} for t in targets],
            "species": [{"id": s, "name": species_name(s), "image": fish_image(s)} for s in SPECIES if s in named],
            **base,
        }
    actors = {}
    for command in payload["legal"]:
        act = command["act"]
        moves = actors.setdefault(act["actor"], {"attacks": [], "skills": []})
        # Side by side on the page: attacks in one column, the skill's uses in the other.
        moves["attacks" if act["kind"] == "attack" else "skills"].append(
            {"act": act, "value": json.dumps(act, separators=(",", ":")), "label": move_label(language, payload, act)}
        )
    for moves in actors.values():
        (moves["attacks"] or moves["skills"])[0]["checked"] = True
        moves["skill_grid"] = skill_grid(language, payload, moves["skills"])
    return {
        "mode": "act",
        "actors": [
            {
                "pos": pos,
                "label": fish_label(language, payload, seat, pos),
                "image": fish_image(seen["teams"][seat][pos]["fish"]),
                **moves,
            }
            for pos, moves in sorted(actors.items())
        ],
        **base,
    }


def status(payload, seats):
    seen = payload["view"]
    info = {"round": None, "turn": None, "rounds": [], "mine": None, "theirs": None}
    if not seen:
        return info
    info["round"] = seen["round"]
    info["max_turns"] = seen["max_turns"]
    if seen["phase"] in ("assert", "act"):
        info["turn"] = seen["turn"] + 1
    info["phase"] = seen["phase"]
    info["score"] = seen["score"]
    if payload["seat"] is not None:
        info["mine"], info["theirs"] = seen["score"][payload["seat"]], seen["score"][1 - payload["seat"]]
    info["to_move"] = seats[seen["to_move"]]["label"] if seen["to_move"] is not None else None
    info["your_turn"] = seen["to_move"] is not None and seen["to_move"] == payload["seat"]
    info["rounds"] = [
        {
            "number": n,
            "winner": seats[r["winner"]]["label"],
            "you_won": r["winner"] == payload["seat"],
            "turns": r["turns"],
            "reason": ROUND_END_REASONS.get(r["reason"], r["reason"]),
        }
        for n, r in enumerate(seen["rounds"], start=1)
    ]
    if seen["phase"] == "pick" and info["rounds"]:
        # Between rounds the board is empty: the banner says how the last one ended.
        info["last_round"] = info["rounds"][-1]
    return info


def page_context(payload, marks, seats):
    """``marks``: the newest version's marks from the viewer's ``LogBook``, flashed on the board;
    ``seats``: each side's label and running clock."""
    return {
        "status": status(payload, seats),
        "sides": board(payload, marks, seats),
        "controls": controls(payload, seats),
    }
