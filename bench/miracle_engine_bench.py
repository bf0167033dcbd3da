"""神迹之战 engine throughput: random-vs-random full matches (100 turns) in two modes.

simulation  apply(..., in_place=True), every event generated, no views: what a bot's search does.
live        apply() on a copy, then project() and view() for players 0, 1 and the spectator after
            every command, keeping the event log: what the server does.

The random policy (``randomplay.random_command``, which builds the full legal-command list) is
timed apart from the engine calls; "engine ms/match" counts only time inside them, in CPU time of
this process (``time.process_time``), which other work on a shared machine disturbs far less than
wall clock (``--clock wall`` for the latter). Medians over the matches are printed; peak memory
per match comes from a separate tracemalloc pass.

    .venv/bin/python bench/miracle_engine_bench.py --matches 100 --seed 1
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import _engine_play  # noqa: E402
from _engine_play import MODES  # noqa: E402
from game.games.miracle import engine as miracle  # noqa: E402
from game.games.miracle.engine import to_move  # noqa: E402
from game.games.miracle.engine.randomplay import random_command  # noqa: E402


def play(seed: int, live: bool, clock=time.perf_counter) -> tuple[int, float, float]:
    """One match; returns (commands, seconds in the policy, seconds in the engine)."""
    return _engine_play.play(miracle, to_move, random_command, seed, live, clock)[1:]


CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def run(mode: str, matches: int, seed: int, clock) -> dict:
    live = mode == "live"
    results = [play(seed + i, live, clock) for i in range(matches)]
    engine_ms = [e * 1000 for _, _, e in results]
    total_engine = sum(e for _, _, e in results)
    total_commands = sum(c for c, _, _ in results)
    return {
        "engine_ms_per_match_median": statistics.median(engine_ms),
        "engine_ms_per_match_p90": sorted(engine_ms)[int(0.9 * (len(engine_ms) - 1))],
        "engine_matches_per_s": matches / total_engine,
        "engine_commands_per_s": total_commands / total_engine,
        "commands_per_match": total_commands / matches,
        "policy_ms_per_match_median": statistics.median(p * 1000 for _, p, _ in results),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100, help="matches per mode (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first match seed (default 1)")
    parser.add_argument("--memory-matches", type=int, default=10, help="matches traced for peak memory (default 10)")
    parser.add_argument("--mode", choices=MODES, action="append", help="run only this mode (repeatable)")
    parser.add_argument("--clock", choices=CLOCKS, default="cpu", help="time engine calls in CPU (default) or wall time")
    args = parser.parse_args(argv)

    results = {}
    cpu_start, wall_start = time.process_time(), time.perf_counter()
    for mode in args.mode or MODES:
        results[mode] = run(mode, args.matches, args.seed, CLOCKS[args.clock])
        results[mode]["peak_kib_per_match"] = (
            _engine_play.peak_memory(play, mode, args.memory_matches, args.seed) / 1024 if args.memory_matches else None)
    cpu_per_wall = (time.process_time() - cpu_start) / (time.perf_counter() - wall_start)

    print(f"{args.matches} random matches per mode from seed {args.seed}, Python {sys.version.split()[0]}, "
          f"{args.clock} clock, cpu/wall {cpu_per_wall:.2f}")
    print(f"{'mode':<11} {'engine ms/match':>16} {'p90':>7} {'matches/s':>10} {'commands/s':>11} "
          f"{'commands/match':>15} {'policy ms/match':>16} {'peak KiB/match':>15}")
    for mode, r in results.items():
        peak = r["peak_kib_per_match"]
        print(f"{mode:<11} {r['engine_ms_per_match_median']:>16.1f} {r['engine_ms_per_match_p90']:>7.1f} "
              f"{r['engine_matches_per_s']:>10.1f} {r['engine_commands_per_s']:>11.0f} "
              f"{r['commands_per_match']:>15.0f} {r['policy_ms_per_match_median']:>16.1f} "
              f"{'-' if peak is None else f'{peak:.0f}':>15}")
    print(json.dumps({"bench": "miracle_engine", "matches": args.matches, "seed": args.seed, "clock": args.clock,
                      "cpu_per_wall": cpu_per_wall, "results": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
