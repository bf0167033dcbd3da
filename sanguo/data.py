"""The game master's game data: the starter file, and the short words the 天庭 console's queue shows for a
submission.

The starter is the engine's defaults for the game (the seed's skills and identifications, each
country's roster, this game's 在野 draw) as the ``setup`` command takes them, with ``notes``: what
the rules text says of each character (``data/characters.json``, the shared roster's source), for
the game master to read while filling in what it leaves open. ``notes`` is dropped on import.
"""
import json
from functools import cache
from pathlib import Path

from django.utils.translation import gettext as _

CHARACTERS = Path(__file__).resolve().parent / "data" / "characters.json"
PARTS = ("characters", "skills", "identifications", "successors", "natural_deaths", "durations")


@cache
def _mentions():
    entries = json.loads(CHARACTERS.read_text(encoding="utf-8"))
    return {e["name"]: e.get("seed_mentions", []) for e in entries}


def starter(state):
    data = {part: state["data"][part] for part in PARTS}
    # ``inferred`` marks what the engine guessed from the roster order; the setup takes the facts alone.
    data["characters"] = {name: {k: v for k, v in facts.items() if k != "inferred"}
                          for name, facts in data["characters"].items()}
    mentions = _mentions()
    data["notes"] = {name: mentions.get(name, []) for name in data["characters"] if mentions.get(name)}
    return data


def _targets(body):
    targets = body.get("targets", [body.get("target")] if "target" in body else [])
    return ", ".join("—" if t is None else str(t) for t in targets)


def describe(kind, body):
    """A seat's command as its page lists it (the IDs and names are the seat's own options)."""
    targets = _targets(body)
    if kind == "assassinate":
        return _("刺杀 %(targets)s") % {"targets": targets}
    if kind == "skill":
        return f"{body['skill']} → {targets}" if targets else body["skill"]
    if kind == "identify":
        names = body.get("names") or []
        extra = f" + {', '.join(names)}" if names else ""
        return _("指认 %(targets)s") % {"targets": targets} + extra
    if kind == "reassign":
        return _("改刀 → %(targets)s") % {"targets": targets}
    if kind == "request":
        return _("主动投奔 %(country)s") % {"country": body["country"]}
    if kind == "suicide":
        return _("自杀")
    if kind == "cancel":
        return _("Withdraw %(what)s") % {"what": body["what"]}
    if kind == "vote":
        if body.get("scatter"):
            return _("散票")
        follow = {"call": _(" (跟票)"), "group": _(" (group call)")}.get(body.get("follow"), "")
        return _("Vote %(target)s") % {"target": targets} + follow
    if kind == "answer":
        return _("Answer %(choice)s") % {"choice": body["choice"]}
    if kind == "peace":
        return _("议和")
    return kind
