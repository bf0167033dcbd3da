"""Against the ground truth: every action of the latest official replay, as each side was told it.

The official file holds, for every action, the ActionInfo the official program sent (``isEnemy``
relative to the acting player). Replayed by our engine, each action's events projected for a seat
and turned into ActionInfo by the bridge must give exactly that, for both seats, but for the two
documented exceptions (docs/contest-programs.md, "ActionInfo"), where the official program told
a seat more than the rules let it know:

- a Clownfish's delayed share: the official ``deflect`` value was the incoming amount, the
  bridge's is the amount the fish kept (on the opponent's fish it cannot tell that share from an
  Eel's);
- the opponent's hit on a fish of the seat's own that shared it before any amount showed: the
  official expected value followed from the opponent's ATK; the bridge sends the smallest amount
  of which the fish keeps what it kept, so it may be one less.
"""
import json

from game.games.aquawar.engine import new_match, project, view
from game.games.aquawar.contest import official
from game.games.aquawar.contest.actioninfo import action_info

from .official_files import LATEST, official_file


def relative_to(info, seat, actor):
    """The file's ActionInfo as ``seat`` was sent it: ``isEnemy`` turned round for the other
    player, the absolute ``player`` fields (added for the file) dropped."""
    info = json.loads(json.dumps(info))
    entries = info.get("hit", []) + info.get("passive", []) + (info["skill"]["targets"] or [])
    for entry in entries:
        del entry["player"]
        if seat != actor:
            entry["isEnemy"] = not entry["isEnemy"]
    return info


def shared_before_showing(events, side, pos):
    """Whether the first thing our events show of a hit on this fish is its own share."""
    first = next(e for e in events if (e.get("side"), e.get("pos")) == (side, pos) and e["type"] != "action")
    return first["type"] == "share"


def without_exceptions(ours, theirs, events, seat, actor):
    """Both ActionInfos with the documented exceptions' values set aside; ``(ours, theirs, count)``."""
    count = 0
    shares = iter(e for e in events if e["type"] == "share")
    for mine, official_entry in zip(ours.get("passive", []), theirs.get("passive", [])):
        if mine["type"] == official_entry["type"] == "deflect" and next(shares)["how"] == "delayed":
            mine["value"] = official_entry["value"] = None
            count += 1
    for mine, official_entry in zip(ours["skill"]["targets"] or [], theirs["skill"]["targets"] or []):
        estimated = actor != seat and not mine["isEnemy"] and shared_before_showing(events, seat, mine["pos"])
        if estimated and mine["value"] != official_entry["value"]:
            # Indistinguishable from what the seat sees: the fish kept the same either way.
            assert mine["value"] * 70 // 100 == official_entry["value"] * 70 // 100
            mine["value"] = official_entry["value"] = None
            count += 1
    return ours, theirs, count


def played(frames, state):
    """``(op, player, full events, each seat's view before it)`` for every action played."""
    before = [view(state, seat) for seat in (0, 1)]
    for _index, op, player, _command, _dodges, events in official.play(frames, state):
        if op["Action"] == "Action":
            yield op, player, events, before
        before = [view(state, seat) for seat in (0, 1)]


def every_action():
    frames = official.read_frames(official_file(LATEST))
    yield from played(frames, official.start(frames))
    # Round 3 was played at 2-0: not part of the match under the rules, but every one of its
    # actions was sent to both programs too. Its picks are the first of a fresh match.
    third = next(i for i, f in enumerate(frames) if f["rounds"] == 2 and f["gamestate"] == 0) + 1
    first_mover = next(f["cur_turn"] for f in frames[third:] if f["gamestate"] == 3)
    yield from played(frames[third:], new_match(0, first_mover, dodges=(), turn_limit=official.OFFICIAL_TURN_LIMIT))


def test_the_bridge_tells_each_side_what_the_official_program_told_it():
    compared, exempted = 0, 0
    file_actions = sum(
        1 for f in official.read_frames(official_file(LATEST)) for op in f.get("operation") or [] if op["Action"] == "Action"
    )
    for op, actor, events, before in every_action():
        for seat in (0, 1):
            ours = action_info(project(events, seat), seat, before[seat])
            theirs = relative_to(op["ActionInfo"], seat, actor)
            ours, theirs, count = without_exceptions(ours, theirs, events, seat, actor)
            assert ours == theirs, (op, seat)
            exempted += count
            compared += 1
    assert file_actions == 146 and compared == 2 * file_actions
    # The exceptions are narrow: a handful of values, against over a thousand hits, passives and targets.
    assert 0 < exempted <= 20
