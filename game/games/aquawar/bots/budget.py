"""A decision's thinking budget: seconds on an injectable clock, or a fixed number of iterations.

Time mode (the default) is what the site plays with: the bot thinks until ``seconds`` have passed
on ``clock`` since the decision began. Iteration mode (``iterations=N``) ignores the clock for the
search's length and always does exactly N iterations, so a decision is a pure function of its
inputs and seed: tests and benchmarks use it to be reproducible on a busy machine.
"""
import time

DEFAULT_SECONDS = 1.5  # well inside the 3 s a program gets for each decision, on a busy machine


class Budget:
    def __init__(self, seconds=DEFAULT_SECONDS, iterations=None, clock=time.perf_counter):
        if iterations is None and not seconds > 0:
            raise ValueError("A time budget needs seconds > 0.")
        if iterations is not None and iterations < 1:
            raise ValueError("An iteration budget needs at least one iteration.")
        self.seconds = seconds
        self.iterations = iterations
        self.clock = clock

    def start(self):
        """The budget of one decision, its clock started now."""
        return Run(self)


class Run:
    """One decision's spending: ``more()`` before an iteration, ``expired()`` inside a long one."""

    def __init__(self, budget):
        self.iterations = budget.iterations
        self.clock = budget.clock
        self.deadline = None if self.iterations is not None else self.clock() + budget.seconds
        self.done = 0

    def more(self):
        """May another iteration start?"""
        if self.iterations is not None:
            return self.done < self.iterations
        return not self.expired()

    def expired(self):
        """Has the time run out? (Never in iteration mode: there the count alone decides.)"""
        return self.deadline is not None and self.clock() >= self.deadline

    def finished(self):
        self.done += 1
