"""Run a 2021 contest program against the site: it plays one seat, through the bridge.

    python -m game.games.aquawar.contest --url http://127.0.0.1:8000 --token TOKEN --vs greedy -- ./contest_ai
    python -m game.games.aquawar.contest --url … --token … --create -- ./contest_ai    (wait for anyone)
    python -m game.games.aquawar.contest --url … --token … --match 17 -- ./contest_ai  (join, or take back)

Everything after ``--`` is the program's command line, run in the current folder (so its
``ai_debug_info.txt`` lands there). Needs ``websockets`` (``pip install -e .[examples]``); see
docs/contest-programs.md. Exit status: 0 won, 1 lost, 2 no result (stopped by Ctrl-C, SIGTERM or
SIGHUP included: the program is killed and a match opened with ``--create`` cancelled first).
"""
import argparse
import asyncio
import signal
import sys
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .bridge import Bridge, BridgeError, ConnectionLost, Program

GAME = "aquawar"  # the bot socket's name of the game (docs/bot-api.md)


class Socket:
    """The bot socket over ``websockets``, as the bridge wants it: ``ConnectionLost`` when it drops."""

    def __init__(self, connection):
        self.connection = connection

    async def recv(self):
        try:
            return await self.connection.recv()
        except ConnectionClosed:
            raise ConnectionLost from None

    async def send(self, text):
        try:
            await self.connection.send(text)
        except ConnectionClosed:
            raise ConnectionLost from None

    async def close(self):
        await self.connection.close()


def socket_url(url):
    parts = urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws/bot/", "", ""))


def seat_request(args):
    # Named although it is the site's default game: a contest program plays Aquawar whatever the
    # default becomes.
    if args.create:
        return {"type": "create", "private": False, "game": GAME}
    if args.match:
        return {"type": "join", "match": args.match}
    if args.invite:
        return {"type": "join", "invite": args.invite}
    return {"type": "play", "level": args.vs, "game": GAME}


def parse(argv):
    parser = argparse.ArgumentParser(prog="python -m game.games.aquawar.contest", description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the site")
    parser.add_argument("--token", required=True, help="an API token (make one on your profile page)")
    seat = parser.add_mutually_exclusive_group()
    seat.add_argument("--vs", choices=["random", "greedy", "expert"], default="greedy",
                      help="play the built-in bot of this level (the default)")
    seat.add_argument("--create", action="store_true", help="open a match and wait for an opponent")
    seat.add_argument("--match", type=int, metavar="MATCH_ID", help="join this match (or take your seat back)")
    seat.add_argument("--invite", metavar="INVITE_TOKEN", help="join a private match by its invite token")
    parser.add_argument("--quiet", action="store_true", help="drop the program's standard error")
    parser.add_argument("program", nargs=argparse.REMAINDER, help="-- then the program and its arguments")
    args = parser.parse_args(argv)
    args.program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not args.program:
        parser.error("give the program's command line after --")
    return args


async def run(args):
    url, headers = socket_url(args.url), {"Authorization": f"Bearer {args.token}"}

    async def open_socket():
        try:
            return Socket(await connect(url, additional_headers=headers))
        except (OSError, InvalidHandshake) as error:
            raise ConnectionLost(str(error)) from None

    def relay(line):
        if not args.quiet:
            print(f"[program] {line}", file=sys.stderr)

    bridge = Bridge(Program(args.program, on_stderr=relay), open_socket, seat_request(args), say=print)
    try:
        outcome = await bridge.run()
    except (BridgeError, ConnectionLost) as error:
        print(f"bridge: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"bridge: cannot run {args.program[0]}: {error}", file=sys.stderr)
        return 2
    if outcome.status != "finished":
        print(f"match {outcome.match} {outcome.status}")
        return 2
    won = outcome.winner == outcome.seat
    print(f"match {outcome.match}: {'won' if won else 'lost'} ({outcome.end_reason})")
    return 0 if won else 1


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


async def stoppable(play):
    """Await ``play``, cancelling it on the first stop signal so that every ``finally`` runs (the
    program's process group killed, an open match cancelled): a signal's default action would end
    the bridge at once and leave the program running, and Ctrl-C would print a traceback."""
    task, loop, received = asyncio.current_task(), asyncio.get_running_loop(), []

    def stop(signum):
        if not received:  # a second signal must not cut the cleaning up short
            received.append(signum)
            task.cancel()

    for signum in STOP_SIGNALS:
        loop.add_signal_handler(signum, stop, signum)
    try:
        return await play
    except asyncio.CancelledError:
        if not received:
            raise
        print(f"bridge: stopped ({signal.Signals(received[0]).name})", file=sys.stderr)
        return 2


def main(argv=None):
    sys.exit(asyncio.run(stoppable(run(parse(argv)))))


if __name__ == "__main__":
    main()
