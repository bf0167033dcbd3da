"""The ``master`` level: legal, bounded by its time budget (on a fake clock), blind to the hidden
enemy team, and deterministic for a seed in its iteration mode."""
import random

import pytest

from game.games.aquawar.bots import make_bot
from game.games.aquawar.bots import master
from game.games.aquawar.bots.budget import Budget
from game.games.aquawar.bots.lookahead import line_value
from game.games.aquawar.engine import SPECIES, apply, is_legal, legal_commands, new_match, project, view

SMALL = {"iterations": 2, "beam": 4, "plies": 2}


def to_move(state):
    return (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move


def play_until(state, events, bots, rngs, stop=lambda state: False):
    """Play the bots (each fed only its own view) until ``stop(state)`` or the match ends; every
    command must be legal (``apply`` raises otherwise)."""
    while state.phase != "over" and not stop(state):
        player = to_move(state)
        legal = legal_commands(state, player)
        command = bots[player].choose(view(state, player), project(events, player), legal, player, rngs[player])
        assert is_legal(state, player, command), command
        state, produced = apply(state, player, command)
        events += produced
    return state, events


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_master_plays_only_legal_commands_over_many_matches(opponent):
    for seed in range(4):
        master_seat = seed % 2
        bots = {master_seat: make_bot("master", **SMALL), 1 - master_seat: make_bot(opponent)}
        rngs = {p: random.Random(f"{seed}:{p}") for p in (0, 1)}
        state, _ = play_until(new_match(1000 + seed), [], bots, rngs)
        assert state.phase == "over"


def mid_round(seed=7, turns=6):
    """A round-1 position ``turns`` operations into play, with its events."""
    bots = {p: make_bot("greedy") for p in (0, 1)}
    rngs = {p: random.Random(seed + p) for p in (0, 1)}
    operations = []

    def stop(state):
        operations.append(state.phase)
        return state.phase in ("assert", "act") and len(operations) > turns

    return play_until(new_match(seed), [], bots, rngs, stop)


class FakeClock:
    """Time that moves ``step`` seconds at every reading and ``work`` seconds at every rollout the
    search starts (recorded in ``rollouts``); reading on long after the deadline (a search that
    does not stop) fails the test instead of hanging it."""

    def __init__(self, step, work, limit):
        self.now, self.step, self.work, self.limit = 0.0, step, work, limit
        self.readings, self.rollouts = [], []

    def __call__(self):
        self.now += self.step
        self.readings.append(self.now)
        assert self.now < self.limit, "the search ran far past its budget"
        return self.now

    def rollout(self):
        self.rollouts.append(self.now)
        self.now += self.work


@pytest.mark.parametrize("phase", ["assert", "act"])
def test_time_budget_is_respected_and_used(phase, monkeypatch):
    state, events = mid_round()
    player = state.to_move
    if phase == "act" and state.phase == "assert":
        state, produced = apply(state, player, {"assert": None})
        events += produced
    arguments = (view(state, player), project(events, player), legal_commands(state, player), player)
    searched = {}
    for seconds in (0.05, 0.5):
        clock = FakeClock(step=0.001, work=0.0065, limit=seconds + 0.05)

        def timed_line(*args, clock=clock):
            clock.rollout()
            return line_value(*args)

        monkeypatch.setattr(master, "line_value", timed_line)
        bot = make_bot("master", seconds=seconds, clock=clock, beam=4, plies=1)
        command = bot.choose(*arguments, random.Random(1))
        assert command in arguments[2]
        deadline = clock.readings[0] + seconds
        # No rollout starts once the budget is spent, even inside a world's batch of rollouts ...
        assert clock.rollouts and max(clock.rollouts) < deadline
        # ... and the clock is read only once past the deadline: then the search stops.
        assert len([t for t in clock.readings if t >= deadline]) == 1
        searched[seconds] = bot.searched
    # Ten times the time buys more worlds: the budget is spent, not ignored.
    assert 1 <= searched[0.05] < searched[0.5]


def test_iteration_budget_ignores_the_clock():
    def broken_clock():
        raise AssertionError("iteration mode must not read the clock")

    state, events = mid_round()
    player = state.to_move
    bot = make_bot("master", iterations=3, clock=broken_clock, beam=4, plies=1)
    bot.choose(view(state, player), project(events, player), legal_commands(state, player), player, random.Random(2))
    assert bot.searched == 3 or bot.searched == 0  # 0 only when a single option was left
    with pytest.raises(ValueError):
        Budget(iterations=0)


def swap_hidden_enemies(state, player):
    """The same position with a different hidden enemy team: every hidden enemy fish becomes
    another species (and a Mimic copies something else); what ``player`` may see is unchanged."""
    other = state.copy()
    enemy = other.teams[1 - player]
    hidden = [fish for fish in enemy if not fish.revealed]
    shown = {fish.species for fish in enemy if fish.revealed}
    spare = [s for s in reversed(SPECIES) if s not in shown and s not in {f.species for f in hidden}]
    data = other.to_json()
    for pos, fish in enumerate(enemy):
        if not fish.revealed:
            replacement = spare.pop(0)
            data["teams"][1 - player][pos]["species"] = replacement
            data["teams"][1 - player][pos]["mimic_of"] = "sea_turtle" if replacement == "mimic_fish" else None
    team = data["teams"][1 - player]
    data["picks"][1 - player] = {"fish": [f["species"] for f in team],
                                 "mimic": next((f["mimic_of"] for f in team if f["mimic_of"]), None)}
    return type(state).from_json(data)


@pytest.mark.parametrize("turns", [0, 6, 15])
def test_master_decides_from_the_view_only(turns):
    state, events = mid_round(turns=turns)
    player = state.to_move
    swapped = swap_hidden_enemies(state, player)
    assert [f.species for f in swapped.teams[1 - player]] != [f.species for f in state.teams[1 - player]]
    assert view(swapped, player) == view(state, player)
    decisions = []
    for position in (state, swapped):
        bot = make_bot("master", **SMALL)
        arguments = (view(position, player), project(events, player), legal_commands(position, player), player)
        decisions.append(bot.choose(*arguments, random.Random(5)))
    assert decisions[0] == decisions[1]


def test_iteration_mode_is_deterministic_for_a_seed():
    def match(seed):
        bots = {0: make_bot("master", **SMALL), 1: make_bot("expert", worlds=2, beam=4)}
        rngs = {p: random.Random(f"{seed}:{p}") for p in (0, 1)}
        return play_until(new_match(seed), [], bots, rngs)[1]

    assert match(11) == match(11)
