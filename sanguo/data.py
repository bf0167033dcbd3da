"""The game master's game data: the starter file, and a character's form on the recruiting page.

The starter is the engine's defaults for the game (the seed's skills and identifications, each
country's roster, this game's 在野 draw) as the ``setup`` command takes them, with ``notes``: what
the rules text says of each character (``data/characters.json``, the shared roster's source), for
the game master to read while filling in what it leaves open. ``notes`` is dropped on import.
"""
import json
from functools import cache
from pathlib import Path

from django.utils.translation import gettext as _

from game.errors import ServiceError


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



def character_forms(state):
    """Each character's facts and successors as its form on the recruiting page shows them."""
    data = state["data"]
    return [{"name": name, "identity": facts.get("identity") or "", "rank": facts.get("rank") or "",
             "evaluations": "、".join(facts.get("evaluations") or []),
             "successors": "、".join(data["successors"].get(name, []))}
            for name, facts in data["characters"].items()]


def _names(text):
    return [n.strip() for n in text.replace("，", "、").replace(",", "、").split("、") if n.strip()]


def character_command(state, post):
    """A character's form as the engine's ``setup``: its identity, rank and evaluations, and its
    successors in the game's successors (the others kept). The engine judges every value; an empty
    field is "none" (evaluations, successors) or "not confirmed" (identity, rank)."""
    name = post.get("name", "")
    if name not in state["data"]["characters"]:
        raise ServiceError("bad_setup", _("Choose a character of this game."))
    evaluations = _names(post.get("evaluations", ""))
    facts = {"identity": post.get("identity", "").strip() or None, "rank": post.get("rank") or None,
             "evaluations": evaluations or None}
    successors = {k: v for k, v in state["data"]["successors"].items() if k != name}
    if _names(post.get("successors", "")):
        successors[name] = _names(post.get("successors", ""))
    return {"setup": {"characters": {name: facts}, "successors": successors}}
