"""What both engines' command lines (``python -m game.games.<name>.engine``) share: reading a record
file, the ``replay`` command, and how a problem with the input is told — one JSON object
``{"error": {"code", "message", "command_index"}}`` on stderr and exit status 2, never a traceback,
so scripts and the server handle it without parsing prose."""
from __future__ import annotations

import argparse
import json
import sys

from .records import RecordError

EXIT_BAD_INPUT = 2
AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}


def read(path: str) -> bytes:
    """A file's bytes, or stdin's for "-"."""
    if path == "-":
        return sys.stdin.buffer.read()
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as exc:
        raise RecordError("unreadable", f"cannot read {path}: {exc.strerror or exc}") from exc


def fail(error: RecordError) -> int:
    json.dump({"error": error.to_json()}, sys.stderr)
    sys.stderr.write("\n")
    return EXIT_BAD_INPUT


def dump(obj, indent, ensure_ascii=True) -> None:
    json.dump(obj, sys.stdout, indent=indent, ensure_ascii=ensure_ascii)
    sys.stdout.write("\n")


def parser(prog: str, doc: str) -> tuple:
    """``(the parser, its subcommands, the options every subcommand takes)``, with ``replay`` not yet
    added (``add_replay``)."""
    top = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--indent", type=int, default=None, help="pretty-print the JSON output")
    return top, top.add_subparsers(dest="command", required=True), common


def add_replay(sub, common, replay, project, view, ensure_ascii=True, audience=None, audience_help=None) -> None:
    """The ``replay FILE [--view AUDIENCE]`` command over an engine's ``replay``, ``project`` and
    ``view``: the record played through, and what the audience sees of its events and end state.
    A game with other audiences than the two players' passes ``audience`` (text -> audience, its
    ``view`` refusing an unknown one with ValueError) and its ``audience_help``."""

    def run(args) -> int:
        who = AUDIENCES[args.view] if audience is None else audience(args.view)
        try:
            state, events = replay(read(args.file))
        except RecordError as exc:
            return fail(exc)
        dump({"events": project(events, who), "state": view(state, who)}, args.indent, ensure_ascii)
        return 0

    command = sub.add_parser("replay", parents=[common], help="replay a record and print what an audience sees")
    command.add_argument("file", help='record file, or "-" for stdin')
    if audience is None:
        command.add_argument("--view", choices=list(AUDIENCES), default="all",
                             help="audience: player 0, player 1, spectator or all (default: all)")
    else:
        command.add_argument("--view", default="all", help=f"audience: {audience_help} (default: all)")
    command.set_defaults(run=run)
