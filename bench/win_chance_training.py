"""Train the win-chance estimators (docs/win-chances.md): self-play data, then a fitted model.

    nice -n 10 .venv/bin/python bench/win_chance_training.py data --game aquawar --matches 600 --jobs 2 --out /tmp/aquawar-wc.jsonl.gz
    nice -n 10 .venv/bin/python bench/win_chance_training.py data --game aquawar --first 600 --matches 400 --jobs 2 --out /tmp/aquawar-wc2.jsonl.gz
    .venv/bin/python bench/win_chance_training.py fit --game aquawar --data /tmp/aquawar-wc.jsonl.gz /tmp/aquawar-wc2.jsonl.gz

``data`` plays matches between mixed levels (bench/_win_chance_play.py) from seeds that the calibration
benchmark never uses (it starts at ``CALIBRATION_SEEDS``), and keeps up to ``--positions`` spectator
views per match with the match's final spectator view (who won each round and the match). ``fit``
turns each kept view into the game's public features (``winchance.features``), fits the logistic
models with numpy (Newton's method, a small ridge penalty) and writes the weights the site reads,
``game/games/<game>/winchance.json``. Only numpy is needed beyond the site's own code.
"""
import argparse
import gzip
import json
import os
import random
import sys
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench._win_chance_play import DEFAULT_VARIETY, pairing, play  # noqa: E402

# Seeds of the training matches are below this, the calibration benchmark's from it on.
CALIBRATION_SEEDS = 1_000_000


def _play(task):
    game, index, positions, variety = task
    seen, winner = play(game, index, pairing(index), lambda view, events: view, variety)
    keep = sorted(random.Random(index).sample(range(len(seen) - 1), min(positions, len(seen) - 1)))
    return {"views": [seen[i] for i in keep], "final": seen[-1], "winner": winner}


def make_data(args):
    if args.first + args.matches > CALIBRATION_SEEDS:
        raise SystemExit("too many matches: their seeds would reach the calibration benchmark's")
    tasks = [(args.game, index, args.positions, args.variety) for index in range(args.first, args.first + args.matches)]
    with gzip.open(args.out, "wt", encoding="utf-8") as out, Pool(args.jobs) as pool:
        for record in pool.imap(_play, tasks, chunksize=4):
            out.write(json.dumps(record, separators=(",", ":")) + "\n")


def read_data(paths):
    records = []
    for path in paths:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            records += [json.loads(line) for line in lines]
    return records


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("step", choices=("data", "fit", "halves"))
    parser.add_argument("--game", choices=("aquawar", "miracle"), required=True)
    parser.add_argument("--matches", type=int, default=600)
    parser.add_argument("--first", type=int, default=0, help="the first match's seed (to add to data made before)")
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--variety", type=float,
                        help="greedy and expert play a random command with this probability "
                             "(default: the game's, bench/_win_chance_play.DEFAULT_VARIETY)")
    parser.add_argument("--out")
    parser.add_argument("--data", nargs="+", help="the files ``data`` wrote")
    parser.add_argument("--recalibrate", type=int, default=0, metavar="K",
                        help="神迹之战: end the models in a recalibration fitted on K held-out folds of the matches")
    parser.add_argument("--ridge", type=float, help="the ridge penalty per position (default: the game's, "
                                                    "bench/_win_chance_fit.RIDGE)")
    args = parser.parse_args(argv)
    if args.variety is None:
        args.variety = DEFAULT_VARIETY[args.game]
    if args.step == "data":
        make_data(args)
        return
    from bench import _win_chance_fit  # numpy only here
    if args.ridge is not None:
        _win_chance_fit.RIDGE[args.game] = args.ridge
    if args.step == "fit":
        _win_chance_fit.fit(args.game, read_data(args.data), args.recalibrate)
    elif args.game == "miracle":
        _win_chance_fit.halves(read_data(args.data), args.recalibrate)
    else:
        raise SystemExit("halves: 神迹之战 only (Aquawar's models were checked on calibration runs)")


if __name__ == "__main__":
    main()
