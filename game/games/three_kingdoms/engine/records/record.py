"""Records, format ``three-kingdoms-record/1``: ``{"format", "seed", "mode", "characters": 27|30|33,
"commands": [{"seat": 0.. | "gm" | "server", "at"?: time, <kind>: {...}}]}`` — every command of every
seat, the GM's and the server's included, so a record replays to the same game event for event.
"""
from __future__ import annotations

from ....engines.errors import IllegalCommand
from ....engines.records import RecordError, read_object
from .. import rules
from ..state import GM, MODES, SERVER

FORMAT = "three-kingdoms-record/1"
_TOP_KEYS = {"format", "seed", "mode", "characters", "commands"}


def parse_record(source) -> dict:
    record = read_object(source, FORMAT, _TOP_KEYS)
    if type(record.get("seed")) is not int:
        raise RecordError("bad_seed", '"seed" must be an integer')
    if record.get("mode") not in MODES:
        raise RecordError("bad_mode", f'"mode" must be one of {", ".join(MODES)}')
    if record.get("characters", 27) not in (27, 30, 33):
        raise RecordError("bad_characters", '"characters" must be 27, 30 or 33')
    commands = record.get("commands")
    if type(commands) is not list:
        raise RecordError("bad_record", '"commands" must be a list')
    for index, command in enumerate(commands):
        if type(command) is not dict or "seat" not in command:
            raise RecordError("bad_command", f"command {index}: an object with a seat", index)
        seat = command["seat"]
        if not (seat in (GM, SERVER) or (type(seat) is int and seat >= 0)):
            raise RecordError("bad_seat", f'command {index}: seat is a seat number, "gm" or "server"', index)
    return record


def replay(source) -> tuple:
    """``(final state, all events)`` of a record; the first illegal command stops it with a
    ``RecordError`` (code ``illegal_command``) naming its index."""
    record = parse_record(source)
    state = rules.new_match(record["seed"], record["mode"], record.get("characters", 27))
    events = []
    for index, command in enumerate(record["commands"]):
        body = {k: v for k, v in command.items() if k != "seat"}
        try:
            state, produced = rules.apply(state, command["seat"], body, in_place=True)
        except IllegalCommand as exc:
            raise RecordError("illegal_command", f"command {index}: {exc.code}: {exc.message}", index) from exc
        events.extend(produced)
    return state, events


def make_record(seed, mode, characters, commands) -> dict:
    record = {"format": FORMAT, "seed": seed, "mode": mode, "characters": characters,
              "commands": [dict(c) for c in commands]}
    parse_record(record)
    return record
