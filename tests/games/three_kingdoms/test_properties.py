"""Random full games with the automatic GM, in every mode: they end with a winner or a draw, their
records replay exactly, the state's JSON round trip is exact, and no audience's view or events
ever hold an ID it does not know — checked at every step."""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.games.three_kingdoms.engine import apply, from_json, legal_commands, project, to_json, view
from game.games.three_kingdoms.engine.legal import concrete
from game.games.three_kingdoms.engine.records.randomplay import Player
from game.games.three_kingdoms.engine.records.record import make_record, replay
from game.games.three_kingdoms.engine.state import holder, seats

MODES = ["standard", "solo", "nine", "crowd"]
SECRET_KEYS = {"internal", "chain", "controller", "recognition", "known_by"}
NAMED_KEYS = {"name", "character", "identity"}
BUDGET = settings(max_examples=5, deadline=None, derandomize=True,
                  suppress_health_check=[HealthCheck.too_slow])


def recorded_game(seed, mode, characters, check=None):
    events = []

    def on_apply(state, seat, command, in_place=False):
        after, produced = apply(state, seat, command, in_place=in_place)
        events.extend(produced)
        if check:
            check(after, produced)
        return after, produced

    player = Player(seed, mode, characters, on_apply=on_apply)
    player.play()
    return player, events


@settings(max_examples=6, deadline=None, derandomize=True)
@given(st.integers(0, 10**6), st.sampled_from(MODES), st.sampled_from([27, 30, 33]))
def test_random_games_end_with_a_winner_or_a_draw_and_replay_exactly(seed, mode, characters):
    player, events = recorded_game(seed, mode, characters)
    state = player.state
    assert state["phase"] == "over" and state["winner"] in ("魏", "蜀", "吴", "draw")
    record = make_record(seed, mode, characters, player.commands)
    replayed, replayed_events = replay(json.dumps(record, ensure_ascii=False))
    assert replayed == state and replayed_events == events
    assert from_json(json.loads(json.dumps(to_json(state)))) == state


def test_every_mode_ends_by_the_countries_falling():
    """Not by the automatic GM's stalemate draw: the end checks decide these games."""
    for index, mode in enumerate(MODES):
        player, _ = recorded_game(100 + index, mode, 33 if mode == "crowd" else 27)
        assert player.state["end_reason"] in ("conquest", "destroyed_together"), mode


def _walk(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), key, item
            yield from _walk(item, path + (key,))
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, path)


class LeakCheck:
    """Keeps each audience's known (name, ID) pairs across steps and checks each new one."""

    def __init__(self):
        self.shown = {}

    def __call__(self, state, events):
        self.spectator(state, events)
        for seat in seats(state):
            self.seat(state, events, seat)

    def spectator(self, state, events):
        seen = view(state, "spectator")
        assert all(c["id"] is None and c["status"] is None for c in seen["characters"])
        assert seen["pending"] == [] and "known" not in seen and "submissions" not in seen
        over = state["phase"] == "over"
        for event in project(events, "spectator"):
            assert event["to"] == "public"
            assert not any(key in NAMED_KEYS for _, key, _ in _walk(event)), event
        if not over and state["mode"] != "crowd" and state["night"] <= 3 and not _revealed(state):
            assert seen["ballots"] == {}, "ballots 1–3 stay secret until after vote 3"

    def seat(self, state, events, seat):
        seen = view(state, seat)
        text = json.dumps(seen, ensure_ascii=False)
        assert not any(key in SECRET_KEYS for _, key, _ in _walk(seen)), text[:300]
        pairs = {(c["name"], c["id"]) for c in seen["characters"] if c["id"] is not None}
        learned = {(e["name"], e["id"]) for e in project(events, seat) if e["type"] == "learn"}
        before = self.shown.get(seat, set())
        assert before <= pairs, "knowledge never shrinks"
        assert pairs - before <= learned, f"seat {seat} shows IDs it was never told: {pairs - before - learned}"
        for name, ident in pairs:
            assert name in state["slots"][ident - 1]["chain"], "a shown ID is true"
        controlled = {n for s in state["slots"] if s["controller"] == seat for n in s["chain"]}
        for submission in seen["submissions"]:
            assert submission["character"] in controlled, "a seat sees only its own submissions"
        for event in project(events, seat):
            assert event["to"] == "public" or seat in event["to"]
            if event["type"] in ("submitted", "void", "status", "feedback", "cancelled"):
                assert event["character"] in controlled
        self.shown[seat] = pairs


def _revealed(state):
    return state["night"] > 3 or (state["night"] == 3 and state["phase"] == "day_feedback")


@BUDGET
@given(st.integers(0, 10**6), st.sampled_from(["standard", "solo", "nine"]))
def test_no_audience_ever_sees_an_id_it_does_not_know(seed, mode):
    recorded_game(seed, mode, 30, check=LeakCheck())


@settings(max_examples=1, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_no_seat_of_a_crowd_game_ever_sees_an_id_it_does_not_know(seed):
    recorded_game(seed, "crowd", 27, check=LeakCheck())


def test_the_leak_check_catches_a_leak():
    """The check above would fail if a view showed an ID the seat was not told."""
    check = LeakCheck()

    def on_apply(state, seat, command, in_place=False):
        after, produced = apply(state, seat, command, in_place=in_place)
        check(after, produced)
        return after, produced

    player = Player(3, "standard", 27, on_apply=on_apply)
    for _ in range(5):
        player.step()
    leaked = json.loads(json.dumps(player.state))
    other = next(s for s in leaked["slots"] if s["controller"] != 0)
    leaked["known"]["0"][str(other["id"])] = [holder(other)]
    try:
        check(leaked, [])
    except AssertionError:
        return
    raise AssertionError("a leaked ID went unnoticed")


@settings(max_examples=2, deadline=None, derandomize=True)
@given(st.integers(0, 10**6))
def test_every_listed_legal_command_applies(seed):
    """A sample of each seat's listed commands at every step, each applied to the state of that step."""
    player = Player(seed, "nine", 27)
    sample = random.Random(seed)
    while player.state["phase"] != "over":
        state = player.state
        for seat in [*seats(state), "gm"]:
            commands = legal_commands(state, seat)
            for command in sample.sample(commands, min(1, len(commands))):
                apply(state, seat, {"at": state["clock"], **concrete(command, sample)})
        player.step()


def test_a_view_shares_nothing_with_the_state():
    player = Player(2, "standard", 27)
    for _ in range(60):
        player.step()
    before = json.dumps(player.state, sort_keys=True)
    for audience in ["gm", "spectator", 0, 1, 2]:
        seen = view(player.state, audience)
        for _, _, value in _walk(seen):
            if isinstance(value, list):
                value.append("x")
            elif isinstance(value, dict):
                value["x"] = 1
    assert json.dumps(player.state, sort_keys=True) == before
