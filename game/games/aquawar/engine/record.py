"""Match records, format ``aquawar-record/1``: the seed plus every command, enough to replay a
match event for event (see ``docs/record-format.md``).

Parsing only checks the shape of a record; whether a command is legal is the engine's call, made
by ``replay``. Both report problems as ``RecordError``, so a caller handles one kind of error that
names the command at fault.
"""
from __future__ import annotations

from dataclasses import dataclass

from ...engines.errors import IllegalCommand
from ...engines.records import RecordError, is_side, play_forfeit, read_forfeit, read_object, read_seats, write
from . import rules
from .state import MAX_TURNS, SEED_MAX, SEED_MIN, TURN_LIMITS

FORMAT = "aquawar-record/1"

_TOP_KEYS = {"format", "seed", "first_mover", "players", "commands", "forfeit", "dodges", "turn_limit"}
_KINDS = ("pick", "assert", "act")


@dataclass(frozen=True)
class Record:
    seed: int
    commands: tuple[tuple[int, dict], ...]
    """``(player, command)`` pairs; ``command`` is in the engine's form (no ``player`` key)."""
    first_mover: int | None = None
    players: tuple[str, str] | None = None
    forfeit: tuple[int, str] | None = None
    """``(player, reason)``: after the commands, that player lost the whole match (resignation,
    clock, illegal move in bot play); see ``rules.resign``."""
    dodges: tuple[bool, ...] | None = None
    """Every dodge roll's outcome in roll order, in place of the seed's rolls; all must be used."""
    turn_limit: int | None = None
    """Turns after which a round ends: None for the rules' 64, or 63 (the official program's)."""

    def to_json(self) -> dict:
        return make_record(
            self.seed,
            [{"player": p, **c} for p, c in self.commands],
            first_mover=self.first_mover,
            players=self.players,
            forfeit=self.forfeit,
            dodges=self.dodges,
            turn_limit=self.turn_limit,
        )

    @property
    def setup(self) -> dict | None:
        """What ``new_match`` takes besides the seed and the first mover (its keyword arguments), as
        JSON; None for a record that carries nothing of the kind, as every match played here."""
        setup = {}
        if self.dodges is not None:
            setup["dodges"] = list(self.dodges)
        if self.turn_limit not in (None, MAX_TURNS):
            setup["turn_limit"] = self.turn_limit
        return setup or None

    def start(self):
        """The match state before the first command."""
        return rules.new_match(self.seed, self.first_mover, **(self.setup or {}))


def _is_int(value) -> bool:
    # bool is an int subclass, but ``true`` is never a meaningful seed, player or position.
    return isinstance(value, int) and not isinstance(value, bool)


def _bad(index: int, message: str) -> RecordError:
    return RecordError("bad_command", f"command {index}: {message}", index)


def _check_keys(index: int, what: str, obj: dict, required: set, optional: set = frozenset()):
    missing = required - obj.keys()
    if missing:
        raise _bad(index, f"{what} lacks {', '.join(sorted(missing))}")
    unknown = obj.keys() - required - optional
    if unknown:
        raise _bad(index, f"{what} has unknown key(s) {', '.join(sorted(map(str, unknown)))}")


def _check_pick(index: int, cmd: dict) -> None:
    _check_keys(index, "pick command", cmd, {"player", "pick"}, {"mimic"})
    fish = cmd["pick"]
    if not (isinstance(fish, list) and all(isinstance(s, str) for s in fish)):
        raise _bad(index, "pick must be a list of species ids")
    if "mimic" in cmd and not isinstance(cmd["mimic"], str):
        raise _bad(index, "mimic must be a species id")


def _check_assert(index: int, cmd: dict) -> None:
    _check_keys(index, "assert command", cmd, {"player", "assert"})
    body = cmd["assert"]
    if body is None:
        return
    if not isinstance(body, dict):
        raise _bad(index, "assert must be null (skip) or an object")
    _check_keys(index, "assert", body, {"target", "fish"})
    if not _is_int(body["target"]):
        raise _bad(index, "assert target must be an integer position")
    if not isinstance(body["fish"], str):
        raise _bad(index, "assert fish must be a species id")


def _check_act(index: int, cmd: dict) -> None:
    _check_keys(index, "act command", cmd, {"player", "act"})
    body = cmd["act"]
    if not isinstance(body, dict):
        raise _bad(index, "act must be an object")
    _check_keys(index, "act", body, {"actor", "kind"}, {"ally", "enemy"})
    if body["kind"] not in ("attack", "skill"):
        raise _bad(index, 'act kind must be "attack" or "skill"')
    for key in ("actor", "ally", "enemy"):
        if key in body and not _is_int(body[key]):
            raise _bad(index, f"act {key} must be an integer position")


_CHECKS = {"pick": _check_pick, "assert": _check_assert, "act": _check_act}


def _parse_command(index: int, cmd) -> tuple[int, dict]:
    if not isinstance(cmd, dict):
        raise _bad(index, "not an object")
    if not is_side(cmd.get("player")):
        raise RecordError("bad_player", f"command {index}: player must be 0 or 1", index)
    kinds = [k for k in _KINDS if k in cmd]
    if len(kinds) != 1:
        raise _bad(index, 'needs exactly one of "pick", "assert", "act"')
    _CHECKS[kinds[0]](index, cmd)
    return cmd["player"], {k: v for k, v in cmd.items() if k != "player"}


def parse_record(source) -> Record:
    """Check the structure of a record given as JSON text (str/bytes) or as the decoded object."""
    source = read_object(source, FORMAT, _TOP_KEYS)
    seed = source.get("seed")
    if not _is_int(seed) or not SEED_MIN <= seed <= SEED_MAX:
        raise RecordError("bad_seed", '"seed" must be an integer from -2**63 to 2**63-1 (signed 64-bit)')
    first_mover, players, commands = read_seats(source)
    dodges = source.get("dodges")
    if dodges is not None:
        if not (isinstance(dodges, list) and all(isinstance(d, bool) for d in dodges)):
            raise RecordError("bad_dodges", '"dodges" must be a list of true/false')
        dodges = tuple(dodges)
    turn_limit = source.get("turn_limit")
    if turn_limit is not None and not (_is_int(turn_limit) and turn_limit in TURN_LIMITS):
        raise RecordError("bad_turn_limit", '"turn_limit" must be ' + " or ".join(map(str, TURN_LIMITS)) + " or absent")
    return Record(
        seed=seed,
        commands=tuple(_parse_command(i, cmd) for i, cmd in enumerate(commands)),
        first_mover=first_mover,
        players=players,
        forfeit=read_forfeit(source.get("forfeit"), rules.RESIGN_REASONS),
        dodges=dodges,
        turn_limit=turn_limit,
    )


def replay(record) -> tuple:
    """Play a record from its seed; returns ``(final state, all events in order)``.

    Accepts a ``Record`` or anything ``parse_record`` accepts. The first illegal command stops the
    replay with a ``RecordError`` (code ``illegal_command``) naming its index.
    """
    if not isinstance(record, Record):
        record = parse_record(record)
    state = record.start()
    events: list[dict] = []
    for index, (player, command) in enumerate(record.commands):
        state, produced = apply_recorded(state, index, player, command)
        events.extend(produced)
    state, produced = play_forfeit(state, record.forfeit, rules.resign, IllegalCommand)
    events.extend(produced)
    check_dodges_used(state)
    return state, events


def apply_recorded(state, index, player, command):
    """Command ``index`` of a record, applied in place; a refusal is a ``RecordError`` naming it."""
    try:
        return rules.apply(state, player, command, in_place=True)
    except IllegalCommand as exc:
        code = "bad_dodges" if exc.code == "dodges_used_up" else "illegal_command"
        raise RecordError(code, f"command {index}: {exc}", index) from exc


def check_dodges_used(state) -> None:
    """A record's dodge outcomes must all be used: one left over belongs to no roll of the match."""
    if state.dodges_left():
        raise RecordError("bad_dodges", f"{state.dodges_left()} recorded dodge outcome(s) left over after the last command")


def make_record(
    seed: int, commands, first_mover: int | None = None, players=None, forfeit=None, dodges=None, turn_limit=None
) -> dict:
    """Build a record dict from commands in record form (``{"player": p, ...}``).

    The result is checked with ``parse_record`` so nothing malformed is ever written out.
    """
    record = write(FORMAT, seed, commands, first_mover, players, forfeit)
    if dodges is not None:
        record["dodges"] = list(dodges)
    if turn_limit is not None and turn_limit != MAX_TURNS:
        record["turn_limit"] = turn_limit
    parse_record(record)
    return record
