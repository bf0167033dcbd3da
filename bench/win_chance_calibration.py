"""Are the win chances right? Calibration of the estimators over self-play (docs/win-chances.md).

    nice -n 10 .venv/bin/python bench/win_chance_calibration.py --game aquawar --matches 1000 --jobs 2 [--out results.jsonl]
    .venv/bin/python bench/win_chance_calibration.py --game aquawar --report results.jsonl   # the matches done so far

Plays ``--matches`` matches between mixed levels (every pairing of random, greedy and expert, either
seat; bench/_win_chance_play.py) from seeds the training never used, and asks the estimator for the
host's chance after every command, from the spectator's view alone, timing each call. Up to
``--positions`` positions per match, evenly spread, are scored (as in training, so that long
matches between random bots do not outweigh the rest; finished positions, whose answer is known, are
left out): the reliability table (predicted against observed host wins per decile of the
prediction), and the Brier score of the estimator, of the trivial 50 % forecast and of the simple
baseline (the host's share of the HP in play, or of the miracles' HP).
"""
import argparse
import gzip
import json
import os
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._win_chance_play import DEFAULT_VARIETY, pairing, play  # noqa: E402
from bench.win_chance_training import CALIBRATION_SEEDS  # noqa: E402

# A decile is judged (within 5 points of the observed rate) only with this many positions and matches.
ENOUGH_POSITIONS = 200
ENOUGH_MATCHES = 30


def _play(task):
    game, index, positions, first, variety = task
    winchance = __import__(f"game.games.{game}.winchance", fromlist=["estimate"])

    def observe(view, events):
        started = time.perf_counter()
        p = winchance.estimate(view, events)
        return p, winchance.baseline(view), time.perf_counter() - started, view["phase"] == "over", view

    seen, winner = play(game, CALIBRATION_SEEDS + first + index, pairing(index), observe, variety)
    timings = [s[2] for s in seen]
    open_positions = [s for s in seen if not s[3]]
    step = max(1, len(open_positions) / positions)
    scored = [open_positions[int(i * step)] for i in range(min(positions, len(open_positions)))]
    # Each scored position's chance before the model's recalibration as well: what
    # bench/win_chance_recalibration.py fits one on (a run is held-out data for the model it measured);
    # and its view, so that ``--rescore`` can measure a revised model without playing again.
    return [(p, b, index, winchance.uncalibrated(view), view) for p, b, _, _, view in scored], winner == 0, timings


def rescore(game, results):
    """The results of a saved run scored by the model now in ``winchance.json``, each estimate timed."""
    winchance = __import__(f"game.games.{game}.winchance", fromlist=["estimate"])
    rescored = []
    for scored, won, _ in results:
        positions, timings = [], []
        for _p, _b, index, _raw, view in scored:
            started = time.perf_counter()
            p = winchance.estimate(view)
            timings.append(time.perf_counter() - started)
            positions.append((p, winchance.baseline(view), index, winchance.uncalibrated(view), view))
        rescored.append((positions, won, timings))
    return rescored


def brier(pairs):
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs)


def report(results):
    positions = [(p, b, won, match) for scored, won, _ in results for p, b, match, *_ in scored]
    outcome = [1.0 if won else 0.0 for *_, won, _ in positions]
    model = brier([(p, y) for (p, *_), y in zip(positions, outcome)])
    base = brier([(b, y) for (_, b, *_), y in zip(positions, outcome)])
    print(f"{len(results)} matches, {len(positions)} positions scored")
    print(f"Brier: estimator {model:.4f}, baseline {base:.4f}, 50 % forecast {brier([(0.5, y) for y in outcome]):.4f}")
    print("decile     positions  matches  predicted  observed  gap")
    judged_ok, judged_count = True, 0
    for decile in range(10):
        rows = [(p, y, match) for (p, _, _, match), y in zip(positions, outcome)
                if min(int(p * 10), 9) == decile]
        if not rows:
            print(f"{decile / 10:.1f}-{(decile + 1) / 10:.1f}    {0:>9}")
            continue
        predicted = sum(r[0] for r in rows) / len(rows)
        observed = sum(r[1] for r in rows) / len(rows)
        matches = len({r[2] for r in rows})
        judged = len(rows) >= ENOUGH_POSITIONS and matches >= ENOUGH_MATCHES
        gap = abs(predicted - observed)
        judged_ok &= not judged or gap <= 0.05
        judged_count += judged
        mark = ("ok" if gap <= 0.05 else "OFF") if judged else "(few)"
        print(f"{decile / 10:.1f}-{(decile + 1) / 10:.1f}    {len(rows):>9}  {matches:>7}  {predicted:>9.3f}  "
              f"{observed:>8.3f}  {gap * 100:4.1f} pts {mark}")
    # Wall time of each call on a shared machine: a call the scheduler paused shows in the tail.
    timings = sorted(t for *_, match_timings in results for t in match_timings)
    # Positions scored offline (bench/_win_chance_fit.py) were not timed.
    if timings:
        quantile = lambda q: timings[int(q * (len(timings) - 1))] * 1e6  # noqa: E731
        print(f"time per estimate: {len(timings)} estimates, mean {sum(timings) / len(timings) * 1e6:.0f} µs, "
              f"median {quantile(0.5):.0f} µs, p99 {quantile(0.99):.0f} µs, max {timings[-1] * 1e6:.0f} µs")
    print("verdict:", "beats both" if model < base and model < 0.25 else "does NOT beat both", ";",
          f"{judged_count} deciles judged,",
          "each within 5 points" if judged_ok else "some off by more than 5 points")


def _open(path, mode):
    """A run's file, gzipped if its name ends in .gz (a run keeps its positions' views: some 100 MB)."""
    return (gzip.open if path.endswith(".gz") else open)(path, mode, encoding="utf-8")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("aquawar", "miracle"), required=True)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--first", type=int, default=0,
                        help="seeds from CALIBRATION_SEEDS + FIRST: fresh matches to check a model revised after a run")
    parser.add_argument("--variety", type=float,
                        help="greedy and expert play a random command with this probability "
                             "(default: the game's, bench/_win_chance_play.DEFAULT_VARIETY)")
    parser.add_argument("--out", help="also write each match's result to this file (JSON lines) as it ends")
    parser.add_argument("--report", help="only report on the results a run wrote with --out")
    parser.add_argument("--rescore", help="score the matches a run wrote with --out by the model as it is now")
    args = parser.parse_args(argv)
    if args.variety is None:
        args.variety = DEFAULT_VARIETY[args.game]
    if args.report or args.rescore:
        with _open(args.report or args.rescore, "rt") as lines:
            results = [json.loads(line) for line in lines]
        report(rescore(args.game, results) if args.rescore else results)
        return
    started = time.perf_counter()
    results = []
    out = _open(args.out, "wt") if args.out else None
    with Pool(args.jobs) as pool:
        for scored, won, timings in pool.imap_unordered(
                _play, [(args.game, i, args.positions, args.first, args.variety) for i in range(args.matches)]):
            if out:
                out.write(json.dumps((scored, won, timings)) + "\n")
                out.flush()
            # The views are only for the file: a thousand matches' of them would fill the memory.
            results.append(([position[:4] for position in scored], won, timings))
    if out:
        out.close()
    print(f"{args.game}: {time.perf_counter() - started:.0f} s")
    report(results)


if __name__ == "__main__":
    main()
