"""Engine throughput: random-vs-random full matches in two modes.

simulation  apply(..., in_place=True), every event generated, no views: what a bot's search does.
live        apply() on a copy, then project() and view() for players 0, 1 and the spectator after
            every command, keeping the event log: what the server does.

A "turn" is one assertion plus one action, counted as the engine does (``rounds[i]["turns"]``).
The random policy's time is measured apart from the engine's, because the policy (which builds
the full legal-command list every move) costs about as much as the engine and would otherwise hide
it. Peak memory per match comes from a separate tracemalloc pass, which would distort the timings.

Columns: matches/s and turns/s are wall clock, policy included; "engine turns/s" counts only the
time inside engine calls; "policy" is the random policy's share of the wall time. The "/cpu-s"
columns are the same per CPU second, which a busy machine disturbs far less than wall clock;
"cpu/wall" near 1 means the run had a core to itself and both kinds of figure agree.

    .venv/bin/python bench/engine_bench.py --matches 300 --seed 1 --repeat 3
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import _engine_play
from _engine_play import MODES
from game.games.aquawar import engine as aquawar
from game.games.aquawar.engine.randomplay import players_to_move, random_command


def play(seed: int, live: bool, clock=time.perf_counter) -> tuple[int, float, float]:
    """One match; returns (turns, seconds in the policy, seconds in the engine)."""
    state, _, policy, spent = _engine_play.play(aquawar, players_to_move, random_command, seed, live, clock)
    return sum(r["turns"] for r in state.rounds), policy, spent


def timed_run(mode: str, matches: int, seed: int) -> dict:
    live = mode == "live"
    turns = 0
    policy = engine = 0.0
    start, cpu_start = time.perf_counter(), time.process_time()
    for i in range(matches):
        t, p, e = play(seed + i, live)
        turns += t
        policy += p
        engine += e
    wall = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    return {
        "matches_per_s": matches / wall,
        "turns_per_s": turns / wall,
        "engine_turns_per_s": turns / engine,
        "policy_share": policy / wall,
        "turns_per_match": turns / matches,
        "turns_per_cpu_s": turns / cpu,
        # Preemption hits policy and engine alike, so scale the engine's wall time by cpu/wall.
        "engine_turns_per_cpu_s": turns / (engine * cpu / wall),
        # Below ~0.95 the machine was busy with something else and the rates are pessimistic.
        "cpu_per_wall": cpu / wall,
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=300, help="matches per run (default 300)")
    parser.add_argument("--seed", type=int, default=1, help="first match seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per mode; medians are shown")
    parser.add_argument("--memory-matches", type=int, default=50,
                        help="matches traced for peak memory (default 50)")
    parser.add_argument("--mode", choices=MODES, action="append",
                        help="run only this mode (repeatable; default: both), e.g. under a profiler")
    args = parser.parse_args(argv)

    results = {}
    for mode in args.mode or MODES:
        runs = [timed_run(mode, args.matches, args.seed) for _ in range(args.repeat)]
        summary = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        summary["peak_kib_per_match"] = (
            _engine_play.peak_memory(play, mode, args.memory_matches, args.seed) / 1024 if args.memory_matches else None
        )
        results[mode] = summary

    print(f"{args.matches} matches x {args.repeat} runs from seed {args.seed} (medians), "
          f"Python {sys.version.split()[0]}")
    print(f"{'mode':<11} {'matches/s':>10} {'turns/s':>9} {'engine turns/s':>15} {'policy':>7} "
          f"{'turns/cpu-s':>12} {'engine turns/cpu-s':>19} {'cpu/wall':>9} {'turns/match':>12} "
          f"{'peak KiB/match':>15}")
    for mode, r in results.items():
        peak = r["peak_kib_per_match"]
        print(f"{mode:<11} {r['matches_per_s']:>10.1f} {r['turns_per_s']:>9.0f} "
              f"{r['engine_turns_per_s']:>15.0f} {r['policy_share']:>7.0%} "
              f"{r['turns_per_cpu_s']:>12.0f} {r['engine_turns_per_cpu_s']:>19.0f} "
              f"{r['cpu_per_wall']:>9.2f} {r['turns_per_match']:>12.1f} "
              f"{'-' if peak is None else f'{peak:.1f}':>15}")
    print(json.dumps({"bench": "engine", "matches": args.matches, "seed": args.seed,
                      "repeat": args.repeat, "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
