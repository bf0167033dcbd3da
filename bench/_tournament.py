"""What both bot tournaments share (bench/bot_tournament.py, bench/miracle_tournament.py): the
command line, playing the matches (in worker processes with --jobs), and the win rate with its 95 %
Wilson score interval and the illegal commands, read from each match's (A won?, A's times, B's
times, "A"/"B" for the side that lost by an illegal command or None, …)."""
import argparse
import math
import time
from multiprocessing import Pool


def arguments(doc, matches, argv=None, extra=None):
    """The parsed command line: --a, --b, --matches, --seed, --jobs, and whatever ``extra(parser)`` adds."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("--a", required=True)
    parser.add_argument("--b", required=True)
    parser.add_argument("--matches", type=int, default=matches)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    if extra:
        extra(parser)
    return parser.parse_args(argv)


def play_all(play_match, tasks, jobs, report=None):
    """``(results in the order of the tasks, seconds of wall time)``; ``report(task, result)`` is
    called as each match ends (in the tasks' order), so a long run shows its progress."""
    started = time.perf_counter()
    results = []
    with Pool(jobs) if jobs > 1 else _Serial() as pool:
        for task, result in zip(tasks, pool.imap(play_match, tasks, chunksize=1)):
            results.append(result)
            if report:
                report(task, result)
    return results, time.perf_counter() - started


class _Serial:
    """The pool's ``imap`` in this process (``--jobs 1``)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def imap(self, function, tasks, chunksize=1):
        return map(function, tasks)


def wilson(wins, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def print_wins(args, results):
    wins = sum(1 for won, *_ in results if won)
    low, high = wilson(wins, len(results))
    print(f"{args.a} wins {wins}/{len(results)} = {wins / len(results):.1%} (95% Wilson {low:.1%} - {high:.1%})")


def print_illegal(results):
    offenders = [r[3] for r in results if r[3] is not None]
    print(f"  illegal commands: A {offenders.count('A')}, B {offenders.count('B')}")
