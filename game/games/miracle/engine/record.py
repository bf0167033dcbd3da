"""Match records, format ``miracle-record/1``: the seed plus every command, enough to replay a
match event for event (see ``docs/record-format.md``).

Parsing checks the record's shape; whether a command is legal (and well-formed inside) is the
engine's call, made by ``replay``. Both report problems as ``RecordError`` naming the command.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from . import rules
from .checks import KINDS
from .errors import IllegalCommand

FORMAT = "miracle-record/1"

_TOP_KEYS = {"format", "seed", "first_mover", "players", "commands", "forfeit"}


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


@dataclass(frozen=True)
class Record:
    seed: int
    commands: tuple[tuple[int, dict], ...]
    """``(player, command)`` pairs; ``command`` is in the engine's form (no ``player`` key)."""
    first_mover: int | None = None
    players: tuple[str, str] | None = None
    forfeit: tuple[int, str] | None = None
    """``(player, reason)``: after the commands, that player lost (``rules.resign``)."""

    def to_json(self) -> dict:
        return make_record(self.seed, [{"player": p, **c} for p, c in self.commands],
                           first_mover=self.first_mover, players=self.players, forfeit=self.forfeit)


def _is_side(value) -> bool:
    return type(value) is int and value in (0, 1)


def _parse_command(index: int, cmd) -> tuple[int, dict]:
    if type(cmd) is not dict:
        raise RecordError("bad_command", f"command {index}: not an object", index)
    if not _is_side(cmd.get("player")):
        raise RecordError("bad_player", f"command {index}: player must be 0 or 1", index)
    kinds = [k for k in cmd if k != "player"]
    if len(kinds) != 1 or kinds[0] not in KINDS:
        raise RecordError("bad_command", f"command {index}: needs exactly one of {', '.join(KINDS)} besides player",
                          index)
    if type(cmd[kinds[0]]) is not dict:
        raise RecordError("bad_command", f"command {index}: {kinds[0]} must be an object", index)
    return cmd["player"], {kinds[0]: cmd[kinds[0]]}


def parse_record(source) -> Record:
    """Check the structure of a record given as JSON text (str/bytes) or as the decoded object."""
    if isinstance(source, (str, bytes, bytearray)):
        try:
            source = json.loads(source)
        except (ValueError, RecursionError) as exc:
            # RecursionError: absurdly deep nesting must still be a clean error, not a traceback.
            raise RecordError("invalid_json", f"not valid JSON: {str(exc)[:200]}") from exc
    if type(source) is not dict:
        raise RecordError("bad_record", "a record must be a JSON object")
    if source.get("format") != FORMAT:
        raise RecordError("bad_format", f'"format" must be "{FORMAT}"')
    unknown = source.keys() - _TOP_KEYS
    if unknown:
        raise RecordError("bad_record", f"unknown key(s) {', '.join(sorted(str(k)[:40] for k in unknown))}")
    seed = source.get("seed")
    if type(seed) is not int:
        raise RecordError("bad_seed", '"seed" must be an integer')
    first_mover = source.get("first_mover")
    if first_mover is not None and not _is_side(first_mover):
        raise RecordError("bad_first_mover", '"first_mover" must be 0, 1 or absent')
    players = source.get("players")
    if players is not None:
        if not (type(players) is list and len(players) == 2 and all(isinstance(n, str) for n in players)):
            raise RecordError("bad_players", '"players" must be a list of two names')
        players = tuple(players)
    commands = source.get("commands")
    if type(commands) is not list:
        raise RecordError("bad_record", '"commands" must be a list')
    return Record(seed=seed, commands=tuple(_parse_command(i, c) for i, c in enumerate(commands)),
                  first_mover=first_mover, players=players, forfeit=_parse_forfeit(source.get("forfeit")))


def _parse_forfeit(forfeit):
    if forfeit is None:
        return None
    if not (type(forfeit) is dict and forfeit.keys() == {"player", "reason"} and _is_side(forfeit["player"])
            and forfeit["reason"] in rules.RESIGN_REASONS):
        raise RecordError("bad_forfeit", '"forfeit" must be {"player": 0 or 1, "reason": one of '
                                         + ", ".join(rules.RESIGN_REASONS) + "}")
    return forfeit["player"], forfeit["reason"]


def replay(record) -> tuple:
    """Play a record from its seed; returns ``(final state, all events in order)``.

    Accepts a ``Record`` or anything ``parse_record`` accepts. The first illegal command stops the
    replay with a ``RecordError`` (code ``illegal_command``) naming its index.
    """
    if not isinstance(record, Record):
        record = parse_record(record)
    state = rules.new_match(record.seed, record.first_mover)
    events: list[dict] = []
    for index, (player, command) in enumerate(record.commands):
        try:
            state, produced = rules.apply(state, player, command, in_place=True)
        except IllegalCommand as exc:
            raise RecordError("illegal_command", f"command {index}: {exc.code}: {exc}", index) from exc
        events.extend(produced)
    if record.forfeit is not None:
        player, reason = record.forfeit
        try:
            state, produced = rules.resign(state, player, reason, in_place=True)
        except IllegalCommand as exc:
            raise RecordError("illegal_forfeit", f"forfeit: {exc}") from exc
        events.extend(produced)
    return state, events


def make_record(seed: int, commands, first_mover: int | None = None, players=None, forfeit=None) -> dict:
    """Build a record dict from commands in record form (``{"player": p, ...}``), checked with
    ``parse_record`` so nothing malformed is ever written out."""
    record = {"format": FORMAT, "seed": seed}
    if first_mover is not None:
        record["first_mover"] = first_mover
    if players is not None:
        record["players"] = list(players)
    record["commands"] = [dict(cmd) for cmd in commands]
    if forfeit is not None:
        record["forfeit"] = {"player": forfeit[0], "reason": forfeit[1]}
    parse_record(record)
    return record
