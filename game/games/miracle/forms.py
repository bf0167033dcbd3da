"""The commands the match page's forms stand for (flat string fields, ``form`` one of
``FORMS``; docs/games.md lists them).

Pure: a frame in, an engine command or ``BadForm`` out. The shapes are checked here (a cell is
three integers, a unit an id); whether the command is legal is the engine's call.
"""
import re

from ..base import BadForm

FORMS = ("deck", "summon", "move", "attack", "artifact", "end_turn", "surrender")
# Short on purpose: nothing on the board needs more digits, and int() of a huge string is slow.
_INT = re.compile(r"-?\d{1,4}")


def _text(frame, key, what):
    value = frame.get(key)
    if not isinstance(value, str) or not value.strip():
        raise BadForm(what)
    return value.strip()


def _int(frame, key, what):
    value = _text(frame, key, what)
    if not _INT.fullmatch(value):
        raise BadForm(what)
    return int(value)


def _cell(frame, key, what):
    parts = _text(frame, key, what).split(",")
    if len(parts) != 3 or not all(_INT.fullmatch(p.strip()) for p in parts):
        raise BadForm(what)
    return [int(p) for p in parts]


def _names(value):
    """A comma list ("archer,priest,…") or a list of strings (ticked boxes of one name)."""
    if isinstance(value, str):
        value = value.split(",")
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        return None
    return [v.strip() for v in value if v.strip()]


def _deck(frame):
    artifact = _text(frame, "artifact", "Choose an artifact.")
    creatures = _names(frame.get("creatures"))
    if not creatures:
        raise BadForm("Choose three creature types.")
    return {"deck": {"artifact": artifact, "creatures": creatures}}


def _summon(frame):
    return {"summon": {
        # Not "type": that is the socket frame's own ("form").
        "type": _text(frame, "creature", "Choose a creature type."),
        "level": _int(frame, "level", "Choose a level."),
        "at": _cell(frame, "at", "Choose a spawn point."),
    }}


def _move(frame):
    return {"move": {"unit": _int(frame, "unit", "Choose one of your units."), "to": _cell(frame, "to", "Choose a cell.")}}


def _attack(frame):
    unit = _int(frame, "unit", "Choose one of your units.")
    target = _text(frame, "target", "Choose a target.")
    if target != "miracle":
        target = _int(frame, "target", "Choose a target.")
    return {"attack": {"unit": unit, "target": target}}


def _artifact(frame):
    if frame.get("unit") not in (None, ""):
        return {"artifact": {"unit": _int(frame, "unit", "Choose one of your units.")}}
    return {"artifact": {"at": _cell(frame, "at", "Choose where to use the artifact.")}}


_BUILDERS = {
    "deck": _deck,
    "summon": _summon,
    "move": _move,
    "attack": _attack,
    "artifact": _artifact,
    "end_turn": lambda frame: {"end_turn": {}},
    "surrender": lambda frame: {"surrender": {}},
}


def form_command(frame):
    """The engine command a browser form stands for."""
    build = _BUILDERS.get(frame.get("form")) if isinstance(frame.get("form"), str) else None
    if build is None:
        raise BadForm(f"\"form\" must be one of: {', '.join(FORMS)}.")
    return build(frame)
