"""Match records, format ``miracle-record/1``: the seed plus every command, enough to replay a
match event for event (see ``docs/record-format.md``).

Parsing checks the record's shape; whether a command is legal (and well-formed inside) is the
engine's call, made by ``replay``. Both report problems as ``RecordError`` naming the command.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engines.errors import IllegalCommand
from ...engines.records import RecordError, is_side, play_forfeit, read_forfeit, read_object, read_seats, write
from . import rules
from .checks import KINDS

FORMAT = "miracle-record/1"

_TOP_KEYS = {"format", "seed", "first_mover", "players", "commands", "forfeit"}


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


def _parse_command(index: int, cmd) -> tuple[int, dict]:
    if type(cmd) is not dict:
        raise RecordError("bad_command", f"command {index}: not an object", index)
    if not is_side(cmd.get("player")):
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
    source = read_object(source, FORMAT, _TOP_KEYS)
    seed = source.get("seed")
    if type(seed) is not int:
        raise RecordError("bad_seed", '"seed" must be an integer')
    first_mover, players, commands = read_seats(source)
    return Record(seed=seed, commands=tuple(_parse_command(i, c) for i, c in enumerate(commands)),
                  first_mover=first_mover, players=players,
                  forfeit=read_forfeit(source.get("forfeit"), rules.RESIGN_REASONS))


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
    state, produced = play_forfeit(state, record.forfeit, rules.resign, IllegalCommand)
    events.extend(produced)
    return state, events


def make_record(seed: int, commands, first_mover: int | None = None, players=None, forfeit=None) -> dict:
    """Build a record dict from commands in record form (``{"player": p, ...}``), checked with
    ``parse_record`` so nothing malformed is ever written out."""
    record = write(FORMAT, seed, commands, first_mover, players, forfeit)
    parse_record(record)
    return record
