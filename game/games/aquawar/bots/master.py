"""Level "master": the expert's sampled worlds, searched deeper and for as long as its budget allows.

Action: like the expert it samples complete states consistent with its own projection, but
weighted by how plausible each enemy team makes the opponent's picks and choices
(``likelihood.WeightedKnowledge``), and ranks the legal actions by their immediate value in the first one. It
then plays every shortlisted action in world after world, each followed by ``plies`` greedy turns
of both sides (``lookahead``), and sums the evaluations (determinised, perfect-information Monte
Carlo with rollouts). Every ``halve_every`` worlds the worse half of the shortlist is dropped
(successive halving), so the time goes to telling the best actions apart. Each action also pays
``hide`` times what it gives away: the HP the opponent's next assertion is expected to take once it
has seen the action; and gains ``learn`` times what it teaches: the HP our next assertions are
expected to gain from how the enemy fish it hits answer (a share, a heal, a dodge; ``exposure``).

Assertion: in each sampled world it plays out the three things an assertion can do (nothing, a
failed guess: 50 HP off its own fish, a right guess on a given fish: 50 HP off every enemy and a
reveal), each followed by the greedy action and the same rollout. A guess's value is its
probability (the deduction's marginals) times the right outcome plus the rest times the failed one:
its effect on the position a few turns on (kills it enables, a lost round it risks), not a
one-step swing.

Picks: by evaluation (``matchups.plan_pick``): the allocation of its roster over the remaining
rounds that gives the best chance to win the match against the enemy's likely picks, by a fitted
model of which team beats which.

The budget (``budget.Budget``) is seconds on an injectable clock (default 1.5 s) or a fixed number
of worlds (``iterations``), which makes a decision deterministic for a seed.
"""
from game.games.aquawar.engine.species import SPECIES

from .base import Bot
from .budget import DEFAULT_SECONDS, Budget
from .expert import REVEAL_VALUE
from .exposure import information
from .lookahead import immediate_value, line_value
from .likelihood import TRUST, WeightedKnowledge
from .matchups import plan_pick

MIN_GUESS = 0.15  # guesses less likely than this are never worth the 50 HP they risk
MAX_GUESSES = 6


class MasterBot(Bot):
    name = "master"

    def __init__(self, seconds=DEFAULT_SECONDS, iterations=None, clock=None, beam=10, plies=4,
                 halve_every=4, assert_samples=200, trust=TRUST, hide=1.0, learn=1.0, min_guess=MIN_GUESS):
        options = {"seconds": seconds, "iterations": iterations}
        self.budget = Budget(**options, clock=clock) if clock else Budget(**options)
        self.beam = beam
        self.plies = plies
        self.halve_every = halve_every
        self.assert_samples = assert_samples
        self.trust = trust
        self.hide = hide
        self.learn = learn
        self.min_guess = min_guess
        self.searched = 0  # worlds searched in the last decision (a diagnostic, never read back)

    def choose(self, player_view, projected_events, legal, player, rng):
        if player_view["phase"] == "pick":
            # Unlike the other levels' fixed table, the pick reads what the enemy showed before.
            return plan_pick(player_view, projected_events, player, rng)
        return super().choose(player_view, projected_events, legal, player, rng)

    def assertion(self, player_view, projected_events, legal, player, rng):
        run = self.budget.start()
        knowledge = WeightedKnowledge(player_view, projected_events, player, trust=self.trust)
        marginals = knowledge.marginals(rng, self.assert_samples)
        targets = [
            target for target, seen in enumerate(player_view["teams"][1 - player])
            if seen["alive"] and not seen["revealed"]
        ]
        guesses = sorted(
            ((p, target, species) for target in targets for species, p in marginals[target].items() if p >= self.min_guess),
            key=lambda guess: (-guess[0], guess[1], guess[2]),
        )[:MAX_GUESSES]
        if not guesses:
            return {"assert": None}
        outcomes = self._assertion_outcomes(run, knowledge, targets, player, player_view["round"], rng)
        if outcomes is None:
            return {"assert": None}  # not one world searched in time: a guess would be blind
        skip, wrong, right = outcomes
        best, best_value = {"assert": None}, skip
        for p, target, species in guesses:
            value = p * (right[target] + REVEAL_VALUE) + (1 - p) * wrong
            if value > best_value:
                best, best_value = {"assert": {"target": target, "fish": species}}, value
        return best

    def _assertion_outcomes(self, run, knowledge, targets, player, round_number, rng):
        """Mean rollout values, over sampled worlds, of skipping, of a failed guess and of a right
        guess on each target. A guess's outcome is all that changes the board (50 HP off one side
        and a reveal), so a guess's value is P(right) from the deduction's marginals times the
        second plus P(wrong) times the first: the worlds estimate outcomes, never the odds."""
        sums, worlds = None, 0
        while run.more():
            world = knowledge.world(rng)
            enemies = world.teams[1 - player]
            miss = next(s for s in SPECIES if s != enemies[targets[0]].species)
            commands = [{"assert": None}, {"assert": {"target": targets[0], "fish": miss}}]
            commands += [{"assert": {"target": t, "fish": enemies[t].species}} for t in targets]
            values = []
            for command in commands:
                if run.expired():
                    break
                values.append(line_value(world, player, command, round_number, self.plies))
            if len(values) < len(commands):
                break
            sums = values if sums is None else [a + b for a, b in zip(sums, values)]
            run.finished()
            worlds += 1
        self.searched = worlds
        if not worlds:
            return None
        means = [value / worlds for value in sums]
        return means[0], means[1], dict(zip(targets, means[2:]))

    def act(self, player_view, projected_events, legal, player, rng):
        if len(legal) == 1:
            return legal[0]
        run = self.budget.start()
        knowledge = WeightedKnowledge(player_view, projected_events, player, trust=self.trust)
        bonus = [0.0] * len(legal)
        if self.hide or self.learn:
            priced = information(knowledge.world(rng), player, legal, projected_events, player_view)
            bonus = [self.learn * gain - self.hide * cost for cost, gain in priced]
        return legal[self._search(run, knowledge, legal, bonus, player, player_view["round"], rng)]

    def _search(self, run, knowledge, commands, bonus, player, round_number, rng):
        """The index of the command of ``commands`` with the best summed rollout value."""
        world = knowledge.world(rng)
        first = {i: immediate_value(world, player, c, round_number) for i, c in enumerate(commands)}
        shortlist = sorted(first, key=lambda i: -first[i])[: self.beam]
        totals = dict.fromkeys(shortlist, 0.0)  # ties keep the immediate ranking's order
        worlds = 0
        while len(shortlist) > 1 and run.more():
            values = {}
            for i in shortlist:
                if run.expired():
                    break
                values[i] = line_value(world, player, commands[i], round_number, self.plies) + bonus[i]
            if len(values) < len(shortlist):
                break  # a partly searched world would bias the sums: the time is up
            for i, value in values.items():
                totals[i] += value
            run.finished()
            worlds += 1
            if worlds % self.halve_every == 0 and len(shortlist) > 2:
                shortlist = sorted(shortlist, key=lambda i: -totals[i])[: (len(shortlist) + 1) // 2]
            world = knowledge.world(rng)
        self.searched = worlds
        return max(shortlist, key=lambda i: totals[i])
