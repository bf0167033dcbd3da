"""Official replay files of the 2021 contest, turned into ``aquawar-record/1`` records.

A file is a JSON array of frames, each the whole game before one operation plus that operation
(docs/history.md, "Official replays"). The conversion replays every operation with our engine as it
goes, takes each dodge's outcome from the file (no seed reproduces the official program's rolls),
and compares every fish's HP after each operation with the file's next frame. Where the official
program departed from the rules, the result carries a note at that step saying why (``notes``); a
file the rules cannot replay is refused with the step and the reason, never approximated.
"""
import json

from ..engine import SPECIES, IllegalCommand, apply, new_match, resign, view
from ..engine.legal import skill_targets
from ..engine.record import RecordError, make_record, replay
from ..engine.species import DODGE, SHIELD
from ..engine.state import MAX_TURNS, OFFICIAL_TURN_LIMIT

# The official program's error codes (its replay viewer's list); 3 is a timeout, the rest lose as
# illegal moves do here (a crash included: the rules treat it alike).
TIMEOUT_ERROR = 3
PLAYER_NAMES = {1: "Saiblo AI {}", 2: "Saiblo web player {}"}
SUPERSEDED = (
    "this file was written by a build of the official program from before 2021-01-23 ({what}). Those builds "
    "played under superseded rules (an Electric Eel or Sunfish never gained ATK from damage taken, a Clownfish "
    "killed by a direct attack did not counter, and the earliest ones credited rounds to the wrong side), so "
    "its operations cannot be replayed under the rules."
)
A1_CLOWNFISH = (
    "a Clownfish killed by a direct attack counters under the rules, but this file's build of the official "
    "program (2021-01-23 00:04-01:22) did not let it; the match cannot be replayed under the rules from here"
)


def _refuse(code, message, step=None):
    where = f", step {step}" if step is not None else ""
    return RecordError(code, f"official replay{where}: {message}")


def _frames(data):
    try:
        frames = json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise _refuse("invalid_json", f"not valid JSON: {exc}") from None
    if not (isinstance(frames, list) and len(frames) >= 2 and frames[-1] is None):
        raise _refuse("bad_replay", "an official replay is a JSON array of frames ending with null")
    frames = frames[:-1]
    for frame in frames:
        if not (isinstance(frame, dict) and isinstance(frame.get("players"), list) and len(frame["players"]) == 2
                and all(isinstance(frame.get(key), int) for key in ("state", "gamestate", "cur_turn", "rounds", "score"))):
            raise _refuse("bad_replay", "every frame needs players, state, gamestate, cur_turn, rounds and score")
    return frames


def _operation(frame):
    operation = frame.get("operation")
    if operation is None or operation == []:
        return None
    if not (isinstance(operation, list) and len(operation) == 1 and isinstance(operation[0], dict)):
        raise _refuse("bad_replay", "an operation is a list holding one object", frame["state"])
    return operation[0]


def _check_era(frames):
    """Refuse files of builds before the final rules, recognisable by their shape alone."""
    for frame in frames:
        op = _operation(frame)
        if op is None:
            continue
        fish = op.get("Fish")
        if op.get("Action") == "Pick" and isinstance(fish, list) and len(fish) != 4:
            raise _refuse("superseded_rules", SUPERSEDED.format(what="one pick frame holds both teams"))
        info = op.get("ActionInfo")
        entries = [e for key in ("hit", "passive") for e in ((info.get(key) if isinstance(info, dict) else None) or [])]
        if any(isinstance(entry, dict) and "time" not in entry for entry in entries):
            raise _refuse("superseded_rules", SUPERSEDED.format(what="its events carry no order"))


def _is_int(value, low=None, high=None):
    return isinstance(value, int) and not isinstance(value, bool) and (low is None or low <= value <= high)


def _need(ok, what, step):
    if not ok:
        raise _refuse("bad_replay", what, step)


def _check_shapes(frames):
    """Everything the conversion reads is there and of its type, so a bad file is refused, never a crash."""
    for frame in frames:
        step = frame["state"]
        for player in frame["players"]:
            _need(isinstance(player, dict) and _is_int(player.get("type")) and isinstance(player.get("fight_fish", []), list),
                  "a player has a type and a fight_fish list", step)
            for fish in player.get("fight_fish", []):
                _need(isinstance(fish, dict) and all(_is_int(fish.get(k)) for k in ("pos", "hp", "id")), "bad fish", step)
        for error in frame.get("errors") or []:
            _need(isinstance(error, dict) and _is_int(error.get("type")) and _is_int(error.get("action_rules_error_type", 0)),
                  "an error has an integer type", step)
        op = _operation(frame)
        if op is None:
            continue
        kind = op.get("Action")
        if kind == "Pick":
            fish = op.get("Fish")
            _need(isinstance(fish, list) and all(isinstance(f, dict) and _is_int(f.get("player")) for f in fish),
                  "a pick lists its fish", step)
        elif kind == "Action":
            _need(all(isinstance(op.get(key, []), list) for key in ("MyList", "EnemyList")), "target lists are lists", step)
            _check_action_info(op.get("ActionInfo"), step)


def _check_action_info(info, step):
    _need(isinstance(info, dict), "an action carries its ActionInfo", step)
    for key, fields in (("hit", ("target", "value")), ("passive", ("source",))):
        entries = info.get(key, [])
        _need(isinstance(entries, list), f"{key} is a list", step)
        for entry in entries:
            _need(isinstance(entry, dict) and _is_int(entry.get("player"), 0, 1) and _is_int(entry.get("time"))
                  and all(_is_int(entry.get(k)) for k in fields), f"bad {key} entry", step)
            _need(key != "hit" or 0 <= entry["target"] <= 3, "a hit names a position 0-3", step)


def _species(value, step):
    if not (isinstance(value, int) and 1 <= value <= len(SPECIES)):
        raise _refuse("superseded_rules", f"fish id {value!r} is not one of the final game's twelve", step)
    return SPECIES[value - 1]


def _pick(op, step):
    fish = op["Fish"]
    players = {f.get("player") for f in fish if isinstance(f, dict)}
    if len(players) != 1 or players - {0, 1}:
        raise _refuse("bad_replay", "a pick names one player's four fish", step)
    command = {"pick": [_species(f.get("id"), step) for f in fish]}
    mimic = [f.get("imitate") for f in fish if f.get("id") == len(SPECIES)]
    if mimic:
        command["mimic"] = _species(mimic[0], step)
    return players.pop(), command


def _position(value, step):
    if not (isinstance(value, int) and 0 <= value <= 3):
        raise _refuse("bad_replay", f"position {value!r} is not 0-3", step)
    return value


def _act(state, player, op, step):
    actor = _position(op.get("MyPos"), step)
    if op.get("Type") == 0:
        return {"act": {"actor": actor, "kind": "attack", "enemy": _position(op.get("EnemyPos"), step)}}
    allies, enemies = op.get("MyList") or [], op.get("EnemyList") or []
    act = {"actor": actor, "kind": "skill"}
    ally_rule, enemy_rule = skill_targets(state.teams[player][actor])
    if ally_rule and allies:
        act["ally"] = _position(allies[0], step)
    # An area skill lists every living enemy; only a single-target skill names its target.
    if enemy_rule and enemies:
        act["enemy"] = _position(enemies[0], step)
    return {"act": act}


def _command(state, op, step):
    kind = op.get("Action")
    if kind == "Pick":
        return _pick(op, step)
    player = op.get("ID")
    if player not in (0, 1) or player != state.to_move:
        raise _refuse("bad_replay", f"operation by player {player!r} out of turn", step)
    if kind == "Null":
        return player, {"assert": None}
    if kind == "Assert":
        return player, {"assert": {"target": _position(op.get("Pos"), step), "fish": _species(op.get("id"), step)}}
    if kind == "Action":
        return player, _act(state, player, op, step)
    raise _refuse("bad_replay", f"unknown operation {kind!r}", step)


def _dodges(state, op):
    """The outcome of each dodge roll this action makes, in roll order, read from its hits.

    Hits come in the order our engine resolves them (the file's ``time``). A fish with a shield left
    spends it without a roll; a fish that can dodge rolls, and the file shows a dodge as a hit of 0.
    """
    info = op.get("ActionInfo") or {}
    hits = sorted(info.get("hit") or [], key=lambda h: h["time"])
    shields = {(p, i): fish.shields for p in (0, 1) for i, fish in enumerate(state.teams[p])}
    outcomes = []
    for entry in hits:
        key = (entry["player"], entry["target"])
        fish = state.teams[key[0]][key[1]]
        if shields[key]:
            shields[key] -= 1
        elif fish.passive == DODGE or fish.passive == SHIELD:
            outcomes.append(entry["value"] == 0)
    return outcomes


def _board_after(board, events):
    for event in events:
        if event["type"] == "round_start":
            board.update({(p, i): 400 for p in (0, 1) for i in range(4)})
        elif event["type"] in ("hp_loss", "damage", "heal"):
            board[(event["side"], event["pos"])] = event["hp"]


def _compare(board, frame, step, events, op):
    for p in (0, 1):
        for fish in frame["players"][p].get("fight_fish") or []:
            ours, theirs = board.get((p, fish.get("pos"))), max(fish.get("hp", 0), 0)
            if ours != theirs:
                raise _refuse("rules_differ", _difference(p, fish.get("pos"), ours, theirs, events, op), step)


def _difference(player, pos, ours, theirs, events, op):
    passives = (op.get("ActionInfo") or {}).get("passive") or []
    killed = {(e["side"], e["pos"]) for e in events if e["type"] == "damage" and e["hp"] == 0}
    for event in events:
        fish = (event.get("side"), event.get("pos"))
        if event["type"] == "counter" and event["by"] == event["pos"] and fish in killed:
            ours_count = sum(1 for e in events if e["type"] == "counter" and (e["side"], e["pos"]) == fish)
            theirs_count = sum(1 for p in passives if p.get("type") == "counter" and (p.get("player"), p.get("source")) == fish)
            if theirs_count < ours_count:
                return A1_CLOWNFISH
    return f"player {player}'s fish {pos} has {theirs} HP in the file where the rules give {ours}"


def _forfeit(frame, step):
    errors = frame.get("errors")
    if not errors:
        return None
    if not (isinstance(errors, list) and len(errors) == 1 and errors[0].get("player") in (0, 1)):
        raise _refuse("no_winner", "both programs broke the rules at once: the match has no winner", step)
    error = errors[0]
    reason = "timeout" if error.get("type") == TIMEOUT_ERROR else "illegal"
    note = {"code": "forfeit", "step": step, "round": frame["rounds"] + 1, "player": error["player"],
            "error": error.get("type"), "rule": error.get("action_rules_error_type")}
    return error["player"], reason, note


def read_frames(data):
    """The frames of an official replay file (bytes or text), the trailing null dropped; files of
    builds before the final rules are refused."""
    frames = _frames(data)
    _check_era(frames)
    _check_shapes(frames)
    return frames


def start(frames, turn_limit=OFFICIAL_TURN_LIMIT):
    """A match in the pick phase of the file's first round, its first mover as in the file."""
    first = next((f for f in frames if f["gamestate"] == 3), frames[0])
    return new_match(0, first["cur_turn"], dodges=(), turn_limit=turn_limit)


def play(frames, state):
    """Apply the file's operations to ``state`` (in place) in order, each checked against the file.

    Yields ``(index, op, player, command, dodges, events)`` after each one: the frame's index, the
    file's operation, our command for it, the outcomes of its dodge rolls and the engine's full
    events. Stops where the match is over in ours (the official program went on to a third round).
    """
    board = {}
    for index, frame in enumerate(frames):
        op = _operation(frame)
        if op is None:
            continue
        if state.phase == "over":
            return
        step = frame["state"]
        player, command = _command(state, op, step)
        outcomes = _dodges(state, op) if op.get("Action") == "Action" else []
        # Each action gets the outcomes read for it; the whole record's replay checks them again.
        state.use_dodges(outcomes)
        try:
            state, events = apply(state, player, command, in_place=True)
        except IllegalCommand as exc:
            raise _refuse("rules_differ", f"the rules refuse player {player}'s {op.get('Action')}: {exc}", step) from None
        if state.dodges_left():
            raise _refuse("rules_differ", "the file's hits do not match the rules' damage instances", step)
        _board_after(board, events)
        following = frames[index + 1] if index + 1 < len(frames) else None
        if following is not None and "pick" not in command:
            _compare(board, following, step, events, op)
        ended = next((e for e in events if e["type"] == "round_end"), None)
        credited = following.get("score", 0) - frame["score"] if ended and following is not None else None
        if ended and credited != (1 if ended["winner"] == 0 else -1):
            raise _refuse("rules_differ", f"the file credits round {ended['round']} to the other player", step)
        yield index, op, player, command, outcomes, events


def is_replay(data):
    """Whether ``data`` (bytes or text) is meant as an official replay: a JSON array, as no record is."""
    return data.lstrip()[:1] in (b"[", "[")


def convert(data):
    """``(record dict, notes)`` for an official replay file's bytes or text, or None when ``data`` is
    no official replay at all (a JSON array); ``RecordError`` if it is one that cannot be replayed.

    ``notes``: where the official program departed from the rules, each ``{"code", "step", "round",
    …}`` (``turn_limit``: the round ended after 63 turns; ``third_round``: round 3 was played at 2-0
    and is left out; ``forfeit``: the official program ended the match on a program's error).
    """
    if not is_replay(data):
        return None
    frames = read_frames(data)
    state = start(frames)
    commands, dodges, notes, last = [], [], [], -1
    for last, _op, player, command, outcomes, events in play(frames, state):
        commands.append({"player": player, **command})
        dodges.extend(outcomes)
        ended = next((e for e in events if e["type"] == "round_end"), None)
        if ended and ended["reason"] == "turn_limit":
            step = frames[last]["state"]
            notes.append({"code": "turn_limit", "step": step, "round": ended["round"], "turns": OFFICIAL_TURN_LIMIT})
    later = next((f for f in frames[last + 1:] if _operation(f) is not None), None)
    forfeit = None
    if state.phase == "over" and later is not None:
        notes.append({"code": "third_round", "step": later["state"], "round": state.round + 1})
    elif state.phase != "over":
        forfeit = _forfeit(frames[-1], frames[-1]["state"])
    if forfeit:
        player, reason, note = forfeit
        resign(state, player, reason, in_place=True)
        notes.append(note)
    if state.phase != "over":
        raise _refuse("unfinished", "the file stops before the match ends")
    record = make_record(
        0,
        commands,
        first_mover=start(frames).first_mover,
        players=[PLAYER_NAMES.get(p.get("type"), PLAYER_NAMES[1]).format(i) for i, p in enumerate(frames[0]["players"])],
        forfeit=forfeit[:2] if forfeit else None,
        dodges=dodges,
        turn_limit=OFFICIAL_TURN_LIMIT if any(n["code"] == "turn_limit" for n in notes) else MAX_TURNS,
    )
    # The limit only decides a round that reached it, so the views agree but for ``max_turns``.
    if {**view(replay(record)[0], "all"), "max_turns": None} != {**view(state, "all"), "max_turns": None}:
        raise _refuse("rules_differ", "the converted record does not replay to the same match")
    return record, notes
