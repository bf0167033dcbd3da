"""The commands the match page's forms stand for (flat string fields, see ``aquawar/_controls.html``).

Pure: a frame in, an engine command or ``BadForm`` out. Whether the command is legal is the
engine's call.
"""
import json

from ..base import BadForm

FORMS = ("pick", "assert", "skip", "act")


def _text(frame, key):
    value = frame.get(key)
    if not isinstance(value, str):
        raise BadForm(f"\"{key}\" is missing.")
    return value


def form_command(frame):
    """The engine command a browser form stands for."""
    form = frame.get("form")
    if form == "pick":
        fish = frame.get("fish")
        fish = [fish] if isinstance(fish, str) else fish
        if not isinstance(fish, list) or not all(isinstance(s, str) for s in fish):
            raise BadForm("Tick the fish you want.")
        command = {"pick": fish}
        # The Mimic's select is on the form whether or not the Mimic is ticked; only count it then.
        if "mimic_fish" in fish:
            command["mimic"] = frame.get("mimic") or None
        return command
    if form == "skip":
        return {"assert": None}
    if form == "assert":
        target = _text(frame, "target")
        if not (target.isascii() and target.isdigit() and len(target) < 3):
            raise BadForm("Choose an enemy fish.")
        return {"assert": {"target": int(target), "fish": _text(frame, "fish")}}
    if form == "act":
        try:
            act = json.loads(_text(frame, "move"))
        except (ValueError, RecursionError):
            act = None
        if not isinstance(act, dict):
            raise BadForm("Choose a move.")
        return {"act": act}
    raise BadForm(f"\"form\" must be one of: {', '.join(FORMS)}.")
