"""The master level: legal commands only, a whole turn within its time budget (a fake clock driven by
the engine's work), decisions from the seat's view alone, and the same match for the same seed in
its fixed-work mode. Its strength is measured by bench/miracle_tournament.py, not here."""
import random

import pytest

from game.games.miracle.bots import expert, greedy, make_bot, master, play_bots
from game.games.miracle.bots.decks import load_table, pick
from game.games.miracle.engine import apply, legal_commands, new_match, project, view
from game.games.miracle.engine.randomplay import play_random_match
from game.games.miracle.engine.record import replay

# Small and without a clock: these tests are about what it plays, not how well.
SMALL = {"width": 2, "answer_cap": 300, "turn_seconds": None}


@pytest.fixture(autouse=True)
def empty_plan_cache():
    master._PLANS.clear()
    yield
    master._PLANS.clear()


def position(record, cut):
    """The true state and the events so far after ``cut`` commands of ``record``."""
    return replay(dict(record, commands=record["commands"][:cut]))


def turn_start(record, near):
    """The position at the first turn start at or after ``near`` commands of ``record``."""
    cut = near
    while "end_turn" not in record["commands"][cut - 1]:
        cut += 1
    return position(record, cut)


def ask(bot, state, events):
    player = state.current
    return bot.choose(view(state, player), project(events, player), legal_commands(state, player), player,
                      random.Random(0))


def play_turn(state, events, make, between=None):
    """Let the master (``make()`` afresh for every call, as the site does) play the current player's
    whole turn on ``state`` in place; ``between()`` runs before each call."""
    player, turn = state.current, state.turn
    while state.phase == "play" and state.current == player and state.turn == turn:
        if between:
            between()
        command = ask(make(), state, events)
        state, produced = apply(state, player, command, in_place=True)
        events.extend(produced)
    return state


@pytest.mark.parametrize("opponent", ["random", "greedy"])
def test_the_master_plays_whole_matches_of_legal_commands(opponent):
    for seed in range(2):
        bots = [make_bot("master", **SMALL), make_bot(opponent)]
        record, state = play_bots(seed, bots if seed % 2 == 0 else bots[::-1])
        assert state.phase == "over"
        replayed, _ = replay(record)  # replay refuses any illegal command
        assert replayed.winner == state.winner


def test_every_command_of_the_master_is_legal_from_random_positions_with_and_without_its_plan_cache():
    for seed in range(6):
        record = play_random_match(seed)
        for cut in (6, len(record["commands"]) // 3, 2 * len(record["commands"]) // 3):
            state, events = position(record, cut)
            if state.phase != "play":
                continue
            # Every call planning afresh (another worker each time), then with the plan replayed.
            play_turn(state.copy(), list(events), lambda: make_bot("master", **SMALL), master._PLANS.clear)
            play_turn(state, events, lambda: make_bot("master", **SMALL))


class WorkClock:
    """A clock that moves only with the engine's work: ``TICK`` seconds for every ``apply`` a bot's
    search makes, so a test can tell what a turn cost whatever the machine's load."""

    TICK = 1e-4

    def __init__(self, monkeypatch):
        self.now = 0.0
        for module in (master, expert, greedy):
            monkeypatch.setattr(module, "apply", self.ticking(module.apply))

    def ticking(self, real):
        def counted(*args, **kwargs):
            self.now += self.TICK
            return real(*args, **kwargs)
        return counted

    def __call__(self):
        return self.now


@pytest.mark.parametrize("cache", [True, False])
def test_a_whole_turn_stays_within_the_masters_budget(monkeypatch, cache):
    record, _ = play_bots(9, [make_bot("greedy"), make_bot("greedy")])
    state, events = turn_start(record, 250)
    clock = WorkClock(monkeypatch)
    budget = 0.5
    legal_count = len(legal_commands(state, state.current))
    spent = []

    def timed():
        started = clock()
        bot = make_bot("master", turn_seconds=budget, clock=clock)
        original = bot.choose

        def choose(*args):
            command = original(*args)
            spent.append(clock() - started)
            return command
        bot.choose = choose
        return bot

    play_turn(state, events, timed, None if cache else master._PLANS.clear)
    # A search checks the clock before each scoring step, so a call may overrun its share by about
    # one step (scoring every legal command) and the plan it caches; a whole turn by that per call.
    step = 3 * legal_count * WorkClock.TICK
    for calls_before, seconds in enumerate(spent):
        assert seconds <= master.call_seconds(budget, calls_before) + step
    assert sum(spent) <= budget + len(spent) * step
    # The first call does use its share: the budget is what limits it, not a lack of things to try.
    assert spent[0] >= 0.9 * master.call_seconds(budget, 0)
    assert len(spent) > 1


def test_the_commands_of_a_turn_are_counted_from_the_projected_events():
    record, _ = play_bots(9, [make_bot("greedy"), make_bot("greedy")])
    state, events = turn_start(record, 200)
    player = state.current
    assert master.commands_this_turn(project(events, player), player) == 0
    command = next(c for c in legal_commands(state, player) if "move" in c)
    state, produced = apply(state, player, command)
    assert master.commands_this_turn(project(events + produced, player), player) == 1


def test_the_masters_deck_does_not_depend_on_the_hidden_enemy_deck():
    decks = [c for c in legal_commands(new_match(4), 0) if "deck" in c]
    seen, decisions = [], []
    for enemy_deck in (decks[0], decks[-1]):
        state, events = apply(new_match(4), 0, enemy_deck)
        seen.append((view(state, 1), project(events, 1)))
        decisions.append(make_bot("master").choose(*seen[-1], legal_commands(state, 1), 1, random.Random(0)))
    assert seen[0] == seen[1]
    assert decisions[0] == decisions[1] and decisions[0] in decks


def test_the_master_decides_the_same_whatever_the_hidden_match_seed():
    record, _ = play_bots(9, [make_bot("greedy"), make_bot("greedy")])
    state, events = position(record, 120)
    other = state.copy()
    other.seed, other.rng = 12345, 67890  # the only parts of a match in play that no player sees
    assert other.to_json() != state.to_json()
    decisions = []
    for true_state in (state, other):
        master._PLANS.clear()
        decisions.append(ask(make_bot("master", **SMALL), true_state, events))
    assert decisions[0] == decisions[1]


def test_the_same_seed_gives_the_same_match_in_fixed_work_mode():
    records = []
    for _ in range(2):
        master._PLANS.clear()
        records.append(play_bots(3, [make_bot("expert"), make_bot("master", **SMALL)])[0])
    assert records[0] == records[1]


def test_the_deck_is_the_tables_best_worst_case_then_best_total():
    decks = [{"artifact": "holy_light", "creatures": [c, "archer", "priest"]}
             for c in ("swordsman", "black_bat", "frost_dragon")]
    # The first wins most in all but loses one matchup 0-4; the second wins less but never 0.
    table = {"matches_per_pair": 4, "decks": decks, "wins": [[None, 0, 4], [1, None, 1], [0, 3, None]]}
    assert pick(table) == decks[1]
    table["wins"] = [[None, 2, 4], [2, None, 1], [0, 3, None]]
    assert pick(table) == decks[0]
    assert make_bot("master").deck([], 0, random.Random(0)) == {"deck": pick(load_table())}
