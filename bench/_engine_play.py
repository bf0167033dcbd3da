"""What both engine benches time: random-vs-random matches played straight on an engine, the random
policy's time kept apart from the engine's (bench/engine_bench.py, bench/miracle_engine_bench.py)."""
from __future__ import annotations

import random
import time
import tracemalloc

AUDIENCES = (0, 1, "spectator")
MODES = ("simulation", "live")


def play(engine, movers, random_command, seed: int, live: bool, clock=time.perf_counter) -> tuple:
    """One match on ``engine`` (its ``new_match``, ``apply``, ``project``, ``view``), ``movers(state)``
    naming the seats that owe a command; returns (final state, commands, seconds in the policy,
    seconds in the engine). ``live`` plays as the server does: apply on a copy, then project and
    view for both players and the spectator, keeping the event log."""
    rng = random.Random(seed)
    state = engine.new_match(seed)
    log = []
    policy = spent = 0.0
    commands = 0
    while state.phase != "over":
        t0 = clock()
        player = movers(state)[0]
        command = random_command(state, player, rng)
        t1 = clock()
        if live:
            state, events = engine.apply(state, player, command)
            for audience in AUDIENCES:
                engine.project(events, audience)
                engine.view(state, audience)
            log.extend(events)
        else:
            state, events = engine.apply(state, player, command, in_place=True)
        t2 = clock()
        policy += t1 - t0
        spent += t2 - t1
        commands += 1
    return state, commands, policy, spent


def peak_memory(play_one, mode: str, matches: int, seed: int) -> int:
    """Largest tracemalloc peak of one match (``play_one(seed, live)``), in bytes above what was
    allocated before it."""
    worst = 0
    tracemalloc.start()
    try:
        for i in range(matches):
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            play_one(seed + i, mode == "live")
            worst = max(worst, tracemalloc.get_traced_memory()[1] - base)
    finally:
        tracemalloc.stop()
    return worst
