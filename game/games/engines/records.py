"""The part of a match record every game's format has (``docs/record-format.md``): a JSON object
with ``format``, ``seed``, optionally ``first_mover`` and ``players``, ``commands`` and optionally
a ``forfeit``. Each engine's ``record`` module checks its seed, its own keys and its commands, and
replays them; the checks here run in the order a record's problems are reported."""
from __future__ import annotations

import json


class RecordError(ValueError):
    """A record that cannot be read or replayed. ``command_index`` is the 0-based index into
    ``commands`` of the command at fault, or None when the problem is not about one command."""

    def __init__(self, code: str, message: str, command_index: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.command_index = command_index

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "command_index": self.command_index}


def is_side(value) -> bool:
    # bool is an int subclass, but ``true`` is never a meaningful player.
    return type(value) is int and value in (0, 1)


def read_object(source, record_format: str, keys: set) -> dict:
    """The record's JSON object, from JSON text (str/bytes) or the decoded object, with its
    ``format`` checked and no key outside ``keys``."""
    if isinstance(source, (str, bytes, bytearray)):
        try:
            source = json.loads(source)
        except (ValueError, RecursionError) as exc:
            # RecursionError: absurdly deep nesting must still be a clean error, not a traceback.
            raise RecordError("invalid_json", f"not valid JSON: {str(exc)[:200]}") from exc
    if type(source) is not dict:
        raise RecordError("bad_record", "a record must be a JSON object")
    if source.get("format") != record_format:
        raise RecordError("bad_format", f'"format" must be "{record_format}"')
    unknown = source.keys() - keys
    if unknown:
        # Cut short: a key of any length may arrive, and the message goes back to whoever sent it.
        raise RecordError("bad_record", f"unknown key(s) {', '.join(sorted(str(k)[:40] for k in unknown))}")
    return source


def read_seats(source: dict) -> tuple:
    """``(first_mover, players, commands)``: the first mover (a seat or None), the two players'
    names (a tuple or None) and the list of commands, each as yet unchecked."""
    first_mover = source.get("first_mover")
    if first_mover is not None and not is_side(first_mover):
        raise RecordError("bad_first_mover", '"first_mover" must be 0, 1 or absent')
    players = source.get("players")
    if players is not None:
        if not (type(players) is list and len(players) == 2 and all(isinstance(n, str) for n in players)):
            raise RecordError("bad_players", '"players" must be a list of two names')
        players = tuple(players)
    commands = source.get("commands")
    if type(commands) is not list:
        raise RecordError("bad_record", '"commands" must be a list')
    return first_mover, players, commands


def read_forfeit(forfeit, reasons) -> tuple | None:
    """A record's ``forfeit`` as ``(player, reason)``, ``reason`` one of the engine's ``reasons``."""
    if forfeit is None:
        return None
    if not (type(forfeit) is dict and forfeit.keys() == {"player", "reason"} and is_side(forfeit["player"])
            and forfeit["reason"] in reasons):
        raise RecordError(
            "bad_forfeit", '"forfeit" must be {"player": 0 or 1, "reason": one of ' + ", ".join(reasons) + "}"
        )
    return forfeit["player"], forfeit["reason"]


def play_forfeit(state, forfeit, resign, refusal) -> tuple:
    """``(state, events)`` after the record's ``forfeit``, if any, played with the engine's
    ``resign`` (in place); the engine's ``refusal`` (its ``IllegalCommand``) becomes a RecordError."""
    if forfeit is None:
        return state, []
    player, reason = forfeit
    try:
        return resign(state, player, reason, in_place=True)
    except refusal as exc:
        raise RecordError("illegal_forfeit", f"forfeit: {exc}") from exc


def write(record_format: str, seed: int, commands, first_mover=None, players=None, forfeit=None) -> dict:
    """A record's common keys, from commands in record form (``{"player": p, ...}``); the engine adds
    its own keys after them and checks the whole before it is written out."""
    record = {"format": record_format, "seed": seed}
    if first_mover is not None:
        record["first_mover"] = first_mover
    if players is not None:
        record["players"] = list(players)
    record["commands"] = [dict(cmd) for cmd in commands]
    if forfeit is not None:
        record["forfeit"] = {"player": forfeit[0], "reason": forfeit[1]}
    return record
