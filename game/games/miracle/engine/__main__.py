"""Command line: ``python -m game.games.miracle.engine replay FILE [--view 0|1|spectator|all]`` and
``python -m game.games.miracle.engine play --seed N [--bots A,B]``. See ``docs/record-format.md``.

Errors about the input (unreadable file, bad JSON, bad record, illegal command, unknown bot) go to
stderr as one JSON object ``{"error": {"code", "message", "command_index"}}`` with exit status 2,
never a traceback.
"""
from __future__ import annotations

import importlib
import sys

from ...engines import cli
from . import project, view
from .record import RecordError, replay

# The opponents live beside the engine, in game.games.miracle.bots, and use only its API; they are
# loaded for ``play`` alone, so the engine itself never depends on them.
BOTS_MODULE = "game.games.miracle.bots"


def _cmd_play(args) -> int:
    levels = args.bots.split(",")
    bots = importlib.import_module(BOTS_MODULE)
    if len(levels) != 2 or any(level not in bots.LEVELS for level in levels):
        return cli.fail(RecordError("bad_bots", f"--bots must be two of {', '.join(bots.LEVELS)}, comma-separated"))
    cli.dump(bots.play_match(args.seed, levels), args.indent, ensure_ascii=False)
    return 0


def main(argv=None) -> int:
    parser, sub, common = cli.parser("python -m game.games.miracle.engine", __doc__)
    cli.add_replay(sub, common, replay, project, view, ensure_ascii=False)
    play = sub.add_parser("play", parents=[common], help="play built-in opponents against each other, print the record")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--bots", default="random,random", help="levels of players 0 and 1 (default random,random)")
    play.set_defaults(run=_cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
