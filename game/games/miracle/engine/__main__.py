"""Command line: ``python -m game.games.miracle.engine replay FILE [--view 0|1|spectator|all]`` and
``python -m game.games.miracle.engine play --seed N [--bots A,B]``. See ``docs/record-format.md``.

Errors about the input (unreadable file, bad JSON, bad record, illegal command, unknown bot) go to
stderr as one JSON object ``{"error": {"code", "message", "command_index"}}`` with exit status 2,
never a traceback.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from . import project, view
from .record import RecordError, replay

EXIT_BAD_INPUT = 2
AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}
# The opponents live beside the engine, in game.games.miracle.bots, and use only its API; they are
# loaded for ``play`` alone, so the engine itself never depends on them.
BOTS_MODULE = "game.games.miracle.bots"


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise RecordError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from exc


def _fail(error: RecordError) -> int:
    json.dump({"error": error.to_json()}, sys.stderr)
    sys.stderr.write("\n")
    return EXIT_BAD_INPUT


def _dump(obj, indent) -> None:
    json.dump(obj, sys.stdout, indent=indent, ensure_ascii=False)
    sys.stdout.write("\n")


def _cmd_replay(args) -> int:
    audience = AUDIENCES[args.view]
    try:
        state, events = replay(_read(args.file))
    except RecordError as exc:
        return _fail(exc)
    _dump({"events": project(events, audience), "state": view(state, audience)}, args.indent)
    return 0


def _cmd_play(args) -> int:
    levels = args.bots.split(",")
    bots = importlib.import_module(BOTS_MODULE)
    if len(levels) != 2 or any(level not in bots.LEVELS for level in levels):
        return _fail(RecordError("bad_bots", f"--bots must be two of {', '.join(bots.LEVELS)}, comma-separated"))
    _dump(bots.play_match(args.seed, levels), args.indent)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.games.miracle.engine",
                                     description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--indent", type=int, default=None, help="pretty-print the JSON output")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", parents=[common], help="replay a record and print what an audience sees")
    rep.add_argument("file", help='record file, or "-" for stdin')
    rep.add_argument("--view", choices=list(AUDIENCES), default="all",
                     help="audience: player 0, player 1, spectator or all (default: all)")
    rep.set_defaults(run=_cmd_replay)
    play = sub.add_parser("play", parents=[common], help="play built-in opponents against each other, print the record")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--bots", default="random,random", help="levels of players 0 and 1 (default random,random)")
    play.set_defaults(run=_cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
