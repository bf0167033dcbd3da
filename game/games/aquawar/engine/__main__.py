"""Command line: ``python -m game.games.aquawar.engine replay FILE [--view 0|1|spectator|all]`` and
``python -m game.games.aquawar.engine play --seed N``. See ``docs/record-format.md``.

Errors about the input (unreadable file, bad JSON, bad record, illegal command) go to stderr as one
JSON object with exit status 2, so scripts and the server can handle them without parsing prose.
"""
from __future__ import annotations

import argparse
import sys

from ...engines import cli
from . import project, view
from .randomplay import play_random_match
from .record import replay
from .state import SEED_MAX, SEED_MIN


def _cmd_play(args) -> int:
    cli.dump(play_random_match(args.seed), args.indent)
    return 0


def _seed(text):
    seed = int(text)
    if not SEED_MIN <= seed <= SEED_MAX:
        raise argparse.ArgumentTypeError("the seed must be from -2**63 to 2**63-1")
    return seed


def main(argv=None) -> int:
    parser, sub, common = cli.parser("python -m game.games.aquawar.engine", __doc__)
    cli.add_replay(sub, common, replay, project, view)
    play = sub.add_parser("play", parents=[common],
                          help="play a random-vs-random match and print its record")
    play.add_argument("--seed", type=_seed, required=True, help="an integer from -2**63 to 2**63-1")
    play.set_defaults(run=_cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
