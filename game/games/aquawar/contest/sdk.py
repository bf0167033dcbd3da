"""The contest's program protocol: its framing, the messages a program is sent, its answers.

Shared docs: ``aquawar-protocol.md`` (the official SDK's behaviour) and docs/contest-programs.md.

- **To the program**: the message's JSON, with no framing at all. The SDK reads one character at a
  time until what it has read parses as one JSON value, so nothing may follow a message until the
  program has answered it.
- **From the program**: 4 bytes of big-endian length, then that many bytes of JSON (the SDK drops
  newlines and may add a space). At most ``MAX_ANSWER_BYTES``, the official limit.

Messages are built from one seat's view and projected events only (``actioninfo`` explains the
ActionInfo); answers become engine commands, or an ``AnswerError`` when they cannot be read.
"""
import json
import struct

from ..engine import SPECIES
from ..engine.species import ACTIVE, AOE, HEAL_CRIT, LIMITED_USES, SHARE_AOE, SKILL_TARGETS

from .actioninfo import species_id

MAX_ANSWER_BYTES = 1024
LENGTH = struct.Struct(">I")
EMPTY_ASSERT = {"AssertPos": None, "AssertContent": None, "AssertResult": None}
FINISH_ANSWER = {"Action": "Finish"}


class AnswerError(Exception):
    """An answer that is no move at all: the program forfeits the match (as "illegal")."""


def encode(message):
    """The bytes a program is sent for ``message``."""
    return json.dumps(message, separators=(",", ":")).encode()


def frame_answer(answer):
    """An answer framed as the SDK frames it (what a program writes)."""
    body = json.dumps(answer, separators=(",", ":")).encode()
    if len(body) & 0xFF in (10, 13):
        body += b" "
    return LENGTH.pack(len(body)) + body


def answer_length(prefix):
    """The body length a 4-byte prefix announces; ``AnswerError`` past the official limit."""
    (length,) = LENGTH.unpack(prefix)
    if length > MAX_ANSWER_BYTES:
        raise AnswerError(f"its answer announced {length} bytes (prefix {prefix!r}); the limit is {MAX_ANSWER_BYTES}")
    return length


def decode_answer(body):
    try:
        answer = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise AnswerError(f"its answer is not JSON: {body[:80]!r}") from None
    if not isinstance(answer, dict):
        raise AnswerError(f"its answer is not a JSON object: {body[:80]!r}")
    return answer


# --- what the program is told ----------------------------------------------------------------


def game_info(view, seat):
    """GameInfo: both boards as ``seat`` sees them (an own fish's id is negated once revealed)."""
    mine, theirs = view["teams"][seat], view["teams"][1 - seat]

    def own_id(fish):
        return -species_id(fish["fish"]) if fish["revealed"] else species_id(fish["fish"])

    return {
        "EnemyFish": [species_id(f["fish"]) if f["revealed"] else -1 for f in theirs],
        "EnemyHP": [f["hp"] if f["alive"] else 0 for f in theirs],
        "MyFish": [own_id(f) for f in mine],
        "MyHP": [f["hp"] if f["alive"] else 0 for f in mine],
        "MyATK": [f["atk"] for f in mine],
    }


def assert_info(event):
    """AssertInfo of an ``assert`` or ``assert_skip`` event (a skip is the object of nulls)."""
    if event["type"] == "assert_skip":
        return dict(EMPTY_ASSERT)
    return {"AssertPos": event["target"], "AssertContent": species_id(event["fish"]), "AssertResult": event["success"]}


def pick_message(view, seat):
    return {
        "Action": "Pick",
        "RemainFishs": [species_id(s) for s in view["available"][seat]],
        "FirstMover": 1 if view["first_mover"] == seat else 0,
    }


def assert_message(view, seat, last):
    """``last``: the latest ``enemy_assert``, ``enemy_action`` and ``my_action`` (None before any)."""
    return {
        "Action": "Assert",
        "EnemyAssert": last["enemy_assert"],
        "EnemyAction": last["enemy_action"],
        "MyAction": last["my_action"],
        "GameInfo": game_info(view, seat),
    }


def action_message(view, seat, my_assert):
    return {"Action": "Action", "AssertReply": my_assert, "GameInfo": game_info(view, seat)}


def finish_message(won, turn_limit, last, ended_by_me, in_assertion):
    """Finish, with the keys from which the SDK works out how the round ended."""
    message = {"Action": "Finish", "Result": "Win" if won else "Lose", "isStateLimitExceed": turn_limit}
    if ended_by_me:
        if in_assertion:
            message["MyAssert"] = last["my_assert"]
        else:
            message["MyAction"] = last["my_action"]
        return message
    message["EnemyAssert"] = last["enemy_assert"]
    message["EnemyAction"] = None if in_assertion else last["enemy_action"]
    message["MyAction"] = last["my_action"]
    return message


# --- what the program answers ----------------------------------------------------------------


def _int(answer, key, low=None, high=None):
    value = answer.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise AnswerError(f"{key} is not an integer: {value!r}")
    if low is not None and not low <= value <= high:
        raise AnswerError(f"{key} {value} is out of range {low}-{high}")
    return value


def _int_list(answer, key):
    value = answer.get(key, [])
    if not (isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise AnswerError(f"{key} is not a list of integers: {value!r}")
    return value


def _expect(answer, *actions):
    if answer.get("Action") not in actions:
        raise AnswerError(f"it answered Action {answer.get('Action')!r} where {' or '.join(actions)} was due")


def pick_command(answer):
    _expect(answer, "Pick")
    ids = _int_list(answer, "ChooseFishs")
    if any(not 1 <= i <= len(SPECIES) for i in ids):
        raise AnswerError(f"ChooseFishs holds an id outside 1-{len(SPECIES)}: {ids}")
    command = {"pick": [SPECIES[i - 1] for i in ids]}
    if len(SPECIES) in ids:
        command["mimic"] = SPECIES[_int(answer, "ImitateFish", 1, len(SPECIES)) - 1]
    return command


def assert_command(answer):
    _expect(answer, "Assert", "Null")
    if answer["Action"] == "Null":
        return {"assert": None}
    return {"assert": {"target": _int(answer, "Pos"), "fish": SPECIES[_int(answer, "ID", 1, len(SPECIES)) - 1]}}


def action_command(answer, view, seat):
    """An Action answer as our command. Targets the actor's skill takes are passed on as given (the
    engine judges them); an area skill's enemy list is not one (the SDK lists every living enemy)."""
    _expect(answer, "Action")
    kind, actor = _int(answer, "Type", 0, 1), _int(answer, "MyPos")
    if kind == 0:
        return {"act": {"actor": actor, "kind": "attack", "enemy": _int(answer, "EnemyPos")}}
    allies, enemies = _int_list(answer, "MyList"), _int_list(answer, "EnemyList")
    act = {"actor": actor, "kind": "skill"}
    if len(allies) > 1:
        raise AnswerError(f"MyList names {len(allies)} fish; a skill takes at most one teammate")
    if allies:
        act["ally"] = allies[0]
    if not 0 <= actor < len(view["teams"][seat]):
        return {"act": act}
    fish = view["teams"][seat][actor]
    active = ACTIVE[fish["mimic_of"] or fish["fish"]]
    if active in (AOE, SHARE_AOE):
        return {"act": act}
    takes_enemy = SKILL_TARGETS[active][1] is not None and not (active == HEAL_CRIT and fish["skill_uses"] >= LIMITED_USES)
    if len(enemies) > 1 and takes_enemy:
        raise AnswerError(f"EnemyList names {len(enemies)} fish; this skill takes one enemy")
    if enemies:
        act["enemy"] = enemies[0]
    return {"act": act}


def finish_ok(answer):
    _expect(answer, "Finish")
