"""Level "expert": assertions by expected value, actions by determinised two-ply search (PIMC).

Assertion: the candidate sets give, by joint sampling (four distinct species per team), a
probability for every (hidden enemy, species). It asserts the most valuable one when
P(correct) × (50 HP off every enemy, kills counted) outweighs P(wrong) × (50 HP off every own fish).

Action: it samples ``worlds`` complete states consistent with its projection (``world.Knowledge``)
and, in each, scores every legal action by the position after the opponent's best reply (the
opponent sees that world fully: a pessimistic, cheap stand-in for its real uncertainty). Scores are
summed over the worlds (perfect-information Monte Carlo). The number of worlds is fixed, so a
decision is deterministic for a seed; a wall-clock cap (``time_cap`` seconds) drops the remaining
worlds only when a machine is too slow or busy for the budget (then fewer worlds decide).
"""
import time

from game.games.aquawar.engine import apply, legal_commands

from .base import Bot
from .world import ALIVE_BONUS, ROUND_WIN, Knowledge, clone, evaluate, round_over

ASSERT_HP = 50
REVEAL_VALUE = 20  # a revealed fish makes the rest of the round easier to read
HEADROOM = 0.8  # stop searching at this share of the time cap: one reply search may still be running


class ExpertBot(Bot):
    name = "expert"

    def __init__(self, worlds=16, beam=8, time_cap=1.0, assert_samples=200):
        self.worlds = worlds
        self.beam = beam
        self.time_cap = time_cap
        self.assert_samples = assert_samples

    def assertion(self, player_view, projected_events, legal, player, rng):
        knowledge = Knowledge(player_view, projected_events, player)
        marginals = knowledge.marginals(rng, self.assert_samples)
        gain = _assert_swing(player_view["teams"][1 - player])
        loss = _assert_swing(player_view["teams"][player])
        best, best_value = {"assert": None}, 0.0
        for target, seen in enumerate(player_view["teams"][1 - player]):
            if not seen["alive"] or seen["revealed"]:
                continue
            for species, p in sorted(marginals[target].items()):
                value = p * (gain + REVEAL_VALUE) - (1 - p) * loss
                if value > best_value:
                    best, best_value = {"assert": {"target": target, "fish": species}}, value
        return best

    def act(self, player_view, projected_events, legal, player, rng):
        start = time.perf_counter()
        knowledge = Knowledge(player_view, projected_events, player)
        round_number = player_view["round"]
        worlds = [knowledge.world(rng) for _ in range(self.worlds)]
        # Cheap first pass on one world: only the most promising actions get the reply search.
        ranked = sorted(range(len(legal)), key=lambda i: -_value(worlds[0], player, legal[i], round_number))
        shortlist = ranked[: self.beam]
        totals = dict.fromkeys(shortlist, 0.0)  # ties keep the immediate ranking's order
        deadline = start + self.time_cap * HEADROOM
        for world in worlds:
            values = {}
            for i in shortlist:
                if time.perf_counter() > deadline:
                    break  # only on a machine too slow (or too busy) for the budget
                values[i] = _after_reply(world, player, legal[i], round_number)
            if len(values) < len(shortlist):
                break  # a partly searched world would bias the sums
            for i, value in values.items():
                totals[i] += value
        return legal[max(shortlist, key=lambda i: totals[i])]


def _value(world, player, command, round_number):
    state = clone(world)
    apply(state, player, command, in_place=True)
    return evaluate(state, player, round_number)


def _assert_swing(team):
    """What 50 HP off every living fish of ``team`` is worth (a wiped team loses the round)."""
    living = [f for f in team if f["alive"]]
    if living and all(f["hp"] <= ASSERT_HP for f in living):
        return ROUND_WIN
    return sum(min(ASSERT_HP, f["hp"]) + (ALIVE_BONUS if f["hp"] <= ASSERT_HP else 0) for f in living)


def _after_reply(world, player, command, round_number):
    """Our evaluation after ``command`` and the opponent's best immediate answer to it."""
    state = clone(world)
    apply(state, player, command, in_place=True)
    if round_over(state, round_number):
        return evaluate(state, player, round_number)
    opponent = 1 - player
    apply(state, opponent, {"assert": None}, in_place=True)
    worst = None
    for reply in legal_commands(state, opponent):
        after = clone(state)
        apply(after, opponent, reply, in_place=True)
        value = evaluate(after, player, round_number)
        if worst is None or value < worst:
            worst = value
    return worst
