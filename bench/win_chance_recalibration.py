"""Recalibrate a win-chance model on held-out matches (docs/win-chances.md): an isotonic regression of
the host's observed wins on the model's chance, over the positions of calibration runs.

    .venv/bin/python bench/win_chance_recalibration.py --game aquawar --runs /tmp/a.jsonl [--write]

``--runs``: what bench/win_chance_calibration.py wrote with ``--out`` (each position's chance before
the recalibration is in it), on seeds that neither the training nor the run that will check the
result uses. Prints the reliability table of the runs recalibrated *cross-fitted* (each half of the
matches mapped by the fit on the other half: held out, as a fresh run would see it), then with
``--write`` stores the fit on all of them as the model's ``"calibration"`` in
``game/games/<game>/winchance.json``, which ``winchance.estimate`` then applies.

The fit pools positions in bins of ``BIN`` of the chance, then pools adjacent bins until the observed
rate increases (pool-adjacent-violators); a bin's point is its mean chance and observed rate, so the
map is piecewise linear between them. Every position counts from both seats (chance and outcome
turned round), as the models were fitted: the map is the same for host and guest.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.win_chance_calibration import _open, report  # noqa: E402
from game.games.engines.winchance import recalibrated  # noqa: E402

BIN = 0.05
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def isotonic(pairs):
    """Points ``[[chance, observed], …]`` of the increasing fit of ``pairs`` (chance, won 0/1)."""
    bins = {}
    for p, won in pairs:
        for q, y in ((p, won), (1 - p, 1 - won)):
            total = bins.setdefault(min(int(q / BIN), int(1 / BIN) - 1), [0.0, 0.0, 0])
            total[0] += q
            total[1] += y
            total[2] += 1
    blocks = []
    for _, (p_sum, y_sum, n) in sorted(bins.items()):
        blocks.append([p_sum, y_sum, n])
        # Pool while the rate falls: the last block's rate must exceed the one before it.
        while len(blocks) > 1 and blocks[-2][1] / blocks[-2][2] >= blocks[-1][1] / blocks[-1][2]:
            p_sum, y_sum, n = blocks.pop()
            blocks[-1] = [blocks[-1][0] + p_sum, blocks[-1][1] + y_sum, blocks[-1][2] + n]
    return [[round(p_sum / n, 4), round(y_sum / n, 4)] for p_sum, y_sum, n in blocks]


def positions(results):
    """(raw chance, host won) of every scored position the recalibration maps (not 神迹之战's deck
    phase, whose chance before the recalibration is None: its estimate is not mapped)."""
    return [(raw, 1.0 if won else 0.0) for scored, won, _ in results for _p, _b, _match, raw, *_ in scored
            if raw is not None]


def mapped(results, points):
    """The runs' results with each position's chance recalibrated by ``points``."""
    return [([(p if raw is None else recalibrated(points, raw), b, match, raw) for p, b, match, raw, *_ in scored],
             won, timings)
            for scored, won, timings in results]


def cross_fitted(results):
    """``results`` with each half of the matches recalibrated by the fit on the other half."""
    # Matches, not positions, are split: a match's positions are not independent.
    halves = [[r for r in results if r[0] and r[0][0][2] % 2 == side] for side in (0, 1)]
    crossed = []
    for side in (0, 1):
        crossed += mapped(halves[side], isotonic(positions(halves[1 - side])))
    return crossed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=("aquawar", "miracle"), required=True)
    parser.add_argument("--runs", nargs="+", required=True)
    parser.add_argument("--write", action="store_true", help="store the fit on all the runs in winchance.json")
    args = parser.parse_args(argv)
    results = []
    for path in args.runs:
        with _open(path, "rt") as lines:
            results += [json.loads(line) for line in lines]
    print("before the recalibration:")
    report(mapped(results, None))
    print("\nrecalibrated, cross-fitted (each half of the matches by the other half's fit):")
    report(cross_fitted(results))
    points = isotonic(positions(results))
    print(f"\nthe fit on all {len(results)} matches: {points}")
    if args.write:
        path = os.path.join(ROOT, "game", "games", args.game, "winchance.json")
        with open(path, encoding="utf-8") as source:
            models = json.load(source)
        models["calibration"] = points
        models["calibration_matches"] = len(results)
        with open(path, "w", encoding="utf-8") as out:
            json.dump(models, out, indent=1, sort_keys=True)
            out.write("\n")
        print(f"-> {path}")


if __name__ == "__main__":
    main()
