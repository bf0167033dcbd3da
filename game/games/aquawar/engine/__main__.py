"""Command line: ``python -m game.games.aquawar.engine replay FILE [--view 0|1|spectator|all]`` and
``python -m game.games.aquawar.engine play --seed N``. See ``docs/record-format.md``.

Errors about the input (unreadable file, bad JSON, bad record, illegal command) go to stderr as one
JSON object with exit status 2, so scripts and the server can handle them without parsing prose.
"""
from __future__ import annotations

import argparse
import json
import sys

from . import project, view
from .randomplay import play_random_match
from .state import SEED_MAX, SEED_MIN
from .record import RecordError, replay

EXIT_BAD_INPUT = 2
AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}


def _read(path: str) -> bytes:
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise RecordError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from exc


def _dump(obj, indent) -> None:
    json.dump(obj, sys.stdout, indent=indent)
    sys.stdout.write("\n")


def _cmd_replay(args) -> int:
    audience = AUDIENCES[args.view]
    try:
        state, events = replay(_read(args.file))
    except RecordError as exc:
        json.dump({"error": exc.to_json()}, sys.stderr)
        sys.stderr.write("\n")
        return EXIT_BAD_INPUT
    _dump({"events": project(events, audience), "state": view(state, audience)}, args.indent)
    return 0


def _cmd_play(args) -> int:
    _dump(play_random_match(args.seed), args.indent)
    return 0


def _seed(text):
    seed = int(text)
    if not SEED_MIN <= seed <= SEED_MAX:
        raise argparse.ArgumentTypeError("the seed must be from -2**63 to 2**63-1")
    return seed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.games.aquawar.engine", description=__doc__.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--indent", type=int, default=None, help="pretty-print the JSON output")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("replay", parents=[common],
                         help="replay a record and print what an audience sees")
    rep.add_argument("file", help='record file, or "-" for stdin')
    rep.add_argument("--view", choices=list(AUDIENCES), default="all",
                     help="audience: player 0, player 1, spectator or all (default: all)")
    rep.set_defaults(run=_cmd_replay)
    play = sub.add_parser("play", parents=[common],
                          help="play a random-vs-random match and print its record")
    play.add_argument("--seed", type=_seed, required=True, help="an integer from -2**63 to 2**63-1")
    play.set_defaults(run=_cmd_play)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
