"""Level "master": a whole turn planned by search over command sequences, a deck from a self-play
matchup table (``decks``), and a time budget per whole turn.

The plan is improved step by step (a rollout algorithm): every candidate is a command sequence for
the rest of the turn, scored by a short rollout (the turn finished greedily, then the opponent's
greedy answer, capped as the expert's) and ``evaluate``. It starts as the greedy turn; at each
step of the current best plan the next best commands there (by their immediate score, ending the
turn included) are tried in its place, each continued by a rollout, and any that scores better
becomes the plan from that step on. One sweep down the plan tries ``width`` alternatives a step;
with a time budget, sweeps are repeated with twice the width until the time is spent.

The clock counts a whole turn, but a bot is asked one command at a time and keeps nothing between
calls. So a call first looks its position up in a small per-process cache of planned positions
(``_PLANS``: the rest of a plan, keyed by the exact position it expects) and replays the planned
command if the position is the one planned and the command is legal; otherwise it plans afresh
from the position it is shown. A turn's first call gets ``FIRST_SHARE`` of the turn's budget and
the k-th call after it half of what the one before could have had, so even if no call of a turn
finds the cache (another worker, a restart) the turn's calls together stay within the budget.
With ``width`` given and no time limit (``turn_seconds=None``) the plan is a pure function of the
position: reproducible in tests and benchmarks, and the cache changes no decision.
"""
import functools
import json
import time
from collections import OrderedDict

from game.games.miracle.engine import apply, legal_commands

from .base import Bot
from .decks import load_table, pick
from .evaluate import evaluate
from .expert import ANSWER_CAP, finish_turn
from .greedy import END_TURN, best_of, ranked
from .world import state_from_view

# The contest gives a program 3 s of wall clock for a whole turn (``game.TURN_SECONDS``); a second of
# it is left for a busy machine and the runner's own work around a decision.
TURN_SECONDS = 2.0
FIRST_SHARE = 0.75
# The first sweep's width: what the fixed-work benchmark plays (docs/bots.md).
WIDTH = 4
# Time mode widens its sweeps WIDTH, 2·WIDTH, … up to this (no position has more commands worth it).
MAX_WIDTH = 256
PLAN_CACHE = 512
# How many first commands the search tries before it refines a plan: the expert's width.
EXPERT_WIDTH = 10
_PLANS = OrderedDict()
COMMAND_EVENTS = ("summon", "move", "attack", "artifact")


@functools.cache
def chosen_deck():
    return {"deck": pick(load_table())}


class Budget:
    """A deadline read through ``clock`` (None: no time limit)."""

    def __init__(self, seconds, clock):
        self.clock = clock
        self.deadline = None if seconds is None else clock() + seconds

    def out(self):
        return self.deadline is not None and self.clock() >= self.deadline


def commands_this_turn(events, player):
    """How many commands ``player`` has made since its turn started, read from its projected events."""
    count = 0
    for event in reversed(events):
        if event["type"] == "turn_start":
            return count if event["player"] == player else 0
        count += event["type"] in COMMAND_EVENTS
    return count


def call_seconds(turn_seconds, calls_before):
    """This call's share of the turn: FIRST_SHARE for the first, then halving shares of the rest,
    which sum to at most the whole turn however many calls miss the cache."""
    if turn_seconds is None:
        return None
    if calls_before == 0:
        return turn_seconds * FIRST_SHARE
    return turn_seconds * (1 - FIRST_SHARE) * 0.5 ** calls_before


def position_key(state):
    return json.dumps(state.to_json(), sort_keys=True)


class Search:
    """One turn's plan search from ``world`` for ``player`` within ``budget``."""

    def __init__(self, world, player, budget, answer_cap):
        self.world = world
        self.player = player
        self.budget = budget
        self.answer_cap = answer_cap
        self.values = {}

    def rollout(self, state, first):
        """``(commands, value)`` of playing ``first`` then the turn greedily, answered greedily by the
        opponent; None if the budget ran out meanwhile."""
        done = finish_turn(state, self.player, first, out_of_time=self.budget.out)
        if done is None:
            return None
        commands, after = done
        key = position_key(after)
        if key not in self.values:
            if after.phase == "play":
                answered = finish_turn(after, after.current, work=[0], cap=self.answer_cap, out_of_time=self.budget.out)
                if answered is None:
                    return None
                after = answered[1]
            self.values[key] = evaluate(after, self.player)
        return commands, self.values[key]

    def states_along(self, plan, start=0, states=None):
        """The positions before each command of ``plan`` (reusing ``states[:start + 1]``)."""
        states = (states or [self.world])[:start + 1]
        for command in plan[start:-1]:
            states.append(apply(states[-1], self.player, command)[0])
        return states

    def plan(self, legal, widths):
        root = ranked(self.world, self.player, legal)
        # The greedy command comes first: the answer when the budget allows nothing more.
        scored = self.rollout(self.world, best_of(root))
        if scored is None:
            return [best_of(root)]
        plan, value = scored
        # Then the expert's plans (each of the best first commands, the turn finished greedily), so
        # the search starts from the expert's choice and only improves on it.
        for _, first in root[:EXPERT_WIDTH]:
            if first == plan[0]:
                continue
            scored = self.rollout(self.world, first)
            if scored is None:
                return plan
            if scored[1] > value:
                plan, value = scored
        states = self.states_along(plan)
        for width in widths:
            step = 0
            while step < len(plan) and plan[step] != END_TURN:
                if self.budget.out():
                    return plan
                state = states[step]
                choices = root if step == 0 else ranked(state, self.player, legal_commands(state, self.player))
                for _, alternative in choices[:width]:
                    if alternative == plan[step]:
                        continue
                    scored = self.rollout(state, alternative)
                    if scored is None:
                        return plan
                    if scored[1] > value:
                        plan, value = plan[:step] + scored[0], scored[1]
                        states = self.states_along(plan, step, states)
                step += 1
        return plan


class MasterBot(Bot):
    name = "master"

    def __init__(self, turn_seconds=TURN_SECONDS, width=None, answer_cap=ANSWER_CAP, clock=time.perf_counter):
        """``width`` None: time mode, sweeps widening until ``turn_seconds`` per whole turn are spent.
        ``width`` given: one sweep of that width (and a time limit only if ``turn_seconds`` is set)."""
        self.turn_seconds = turn_seconds
        self.width = width
        self.answer_cap = answer_cap
        self.clock = clock

    def deck(self, legal, player, rng):
        return chosen_deck()

    def choose(self, player_view, projected_events, legal, player, rng):
        if player_view["phase"] == "deck":
            return self.deck(legal, player, rng)
        world = state_from_view(player_view)
        key = (player, self.turn_seconds, self.width, self.answer_cap, position_key(world))
        planned = _PLANS.get(key)
        if planned is not None and planned in legal:
            return planned
        budget = Budget(call_seconds(self.turn_seconds, commands_this_turn(projected_events, player)), self.clock)
        plan = Search(world, player, budget, self.answer_cap).plan(legal, self.widths())
        self.remember(key, world, player, plan)
        return plan[0]

    def widths(self):
        if self.width is not None:
            return (self.width,)
        widths = [WIDTH]
        while widths[-1] < MAX_WIDTH:
            widths.append(2 * widths[-1])
        return widths

    @staticmethod
    def remember(key, world, player, plan):
        """Cache the rest of ``plan`` under each position it leads to (the oldest entries go first)."""
        state = world
        for index, command in enumerate(plan[:-1]):
            state = apply(state, player, command)[0]
            _PLANS[key[:-1] + (position_key(state),)] = plan[index + 1]
        while len(_PLANS) > PLAN_CACHE:
            _PLANS.popitem(last=False)
