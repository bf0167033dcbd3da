"""Command line: ``python -m game.games.three_kingdoms.engine replay FILE [--view SEAT|gm|spectator|all]``
prints ``{"events": [...], "state": {...}}``; ``play --seed N --mode standard|solo|nine|crowd
[--characters 27|30|33]`` plays random legal commands with an automatic game master to the end
and prints the record.

Errors about the input go to stderr as one JSON object ``{"error": {"code", "message",
"command_index"}}`` with exit status 2, never a traceback.
"""
from __future__ import annotations

import sys

from ...engines import cli
from ...engines.errors import IllegalCommand
from ...engines.records import RecordError
from .records.randomplay import play_random_game
from .records.record import replay
from .state import MODES
from .views.view import project, view


def _audience(text):
    return int(text) if text.isdigit() else text


def _cmd_play(args) -> int:
    record, _ = play_random_game(args.seed, args.mode, args.characters)
    cli.dump(record, args.indent, ensure_ascii=False)
    return 0


def main(argv=None) -> int:
    parser, sub, common = cli.parser("python -m game.games.three_kingdoms.engine", __doc__)
    cli.add_replay(sub, common, replay, project, view, ensure_ascii=False, audience=_audience,
                   audience_help="a seat number, gm, spectator or all (after the end only)")
    play = sub.add_parser("play", parents=[common], help="play a random game with an automatic GM, print the record")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--mode", choices=MODES, default="standard")
    play.add_argument("--characters", type=int, choices=(27, 30, 33), default=27)
    play.set_defaults(run=_cmd_play)
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as exc:
        return cli.fail(RecordError("bad_view", str(exc)))
    except IllegalCommand as exc:
        return cli.fail(RecordError(exc.code, exc.message))


if __name__ == "__main__":
    sys.exit(main())
