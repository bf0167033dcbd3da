"""The game master's game data: the starter file.

The starter is the engine's defaults for the game (the seed's skills and identifications, each
country's roster, this game's 在野 draw) as the ``setup`` command takes them, with ``notes``: what
the rules text says of each character (``data/characters.json``, the shared roster's source), for
the game master to read while filling in what it leaves open. ``notes`` is dropped on import.
"""
import json
from functools import cache
from pathlib import Path


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

