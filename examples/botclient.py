"""What the example programs share: the bot socket's address and login, their command line, and the
unattended mode (``--wait``) that plays every match the server assigns, reconnecting with backoff
whenever a socket is lost (a server restarted, a network gone) — docs/bot-api.md.

An example supplies ``play_on(ws, rng, ids)``: play the seat just taken on ``ws`` to the end of
its match and return the exit status (``ids``: the commands' ids); ``play_seat`` does that with the
example's own ``choose`` and ``report``.
"""
import argparse
import asyncio
import itertools
import json
import random
import sys
from contextlib import asynccontextmanager
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

# Errors after which the seat asked for will not come: this socket has nothing to play.
SEAT_REFUSED = ("no_match", "not_open", "bad_level", "bad_field", "too_many", "busy")
# Waits between reconnects: doubling from the first to the longest, each drawn from half to the
# whole (so that programs cut off together by a restart do not all come back at the same instant).
FIRST_WAIT, LONGEST_WAIT = 0.5, 30.0


class SocketLost(Exception):
    """The socket closed, or no socket could be opened: the server may be back in a while."""


class Refused(Exception):
    """The server refused the token: no use trying again."""


def socket_url(server, path="/ws/bot/"):
    parts = urlsplit(server)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def command_ids():
    """The ids of one match's commands. One series for the whole match, across reconnects: a
    command sent again under an id already used would be taken for the earlier one (applied once)."""
    return (f"c{n}" for n in itertools.count(1))


async def play_seat(ws, rng, ids, choose, report, out=sys.stdout):
    """Play the seat just requested on ``ws`` to the end of its match. ``choose(frame, seat, rng)``:
    a command for a state frame, or None when the seat owes none; ``report(frame, seat, out)``: the
    last state said in words, and the exit status."""
    seat, waiting_for = None, None  # the id of our command not yet acknowledged
    while True:
        # recv(), not ``async for``: a socket the server closes (a restart) must raise, not end the match.
        frame = json.loads(await ws.recv())
        kind = frame["type"]
        if kind == "match":
            seat = frame["seat"]
            print(f"match {frame['match']}, playing seat {seat}", file=out)
        elif kind == "error":
            print(f"error {frame['code']}: {frame['message']}", file=sys.stderr)
            if frame["id"] is not None and frame["id"] == waiting_for:
                waiting_for = None
            if frame["code"] in SEAT_REFUSED:
                return 2
        elif kind == "ack" and frame["id"] == waiting_for:
            waiting_for = None
        elif kind in ("state", "snapshot"):
            if frame["status"] in ("finished", "cancelled"):
                return report(frame, seat, out)
            # A state sent before our last command landed must not make us move twice.
            command = None if waiting_for or frame["view"] is None else choose(frame, seat, rng)
            if command is not None:
                waiting_for = next(ids)
                await ws.send(json.dumps(
                    {"type": "command", "id": waiting_for, "version": frame["version"], "command": command}
                ))


@asynccontextmanager
async def opened(args, path="/ws/bot/"):
    """An open bot socket (a 三国 game's: ``path``), past its welcome: ``(ws, welcome)``.
    ``SocketLost`` when it cannot be opened or closes while in use, ``Refused`` when the token is
    refused."""
    try:
        async with connect(socket_url(args.server, path), additional_headers={"Authorization": f"Bearer {args.token}"}) as ws:
            welcome = json.loads(await ws.recv())
            if welcome["type"] != "welcome":
                raise Refused(welcome.get("message"))
            yield ws, welcome
    except (ConnectionClosed, InvalidHandshake, OSError, TimeoutError) as error:
        raise SocketLost(str(error) or type(error).__name__) from None


async def play_one(args, request, play_on):
    """The attended modes (``--vs``, ``--create``, ``--join``, ``--invite``): the match ``request``
    (a seat request) takes, on one socket."""
    try:
        async with opened(args) as (ws, _welcome):
            await ws.send(json.dumps(request))
            return await play_on(ws, random.Random(args.seed), command_ids())
    except Refused as error:
        print(f"refused: {error}", file=sys.stderr)
    except SocketLost as error:
        print(f"connection lost: {error}", file=sys.stderr)
    return 2


async def reconnecting(work):
    """Run ``work()`` (which opens a socket and uses it) until it returns, again after every
    ``SocketLost``, waiting longer each time it fails in a row; ``work`` says when it got through
    by calling the function it is given (the wait starts short again)."""
    failures = 0

    def connected():
        nonlocal failures
        failures = 0

    while True:
        try:
            return await work(connected)
        except SocketLost as error:
            wait = min(LONGEST_WAIT, FIRST_WAIT * 2**failures) * random.uniform(0.5, 1)
            print(f"connection lost ({error}); trying again in {wait:.1f} s", file=sys.stderr)
            failures += 1
            await asyncio.sleep(wait)


async def play_assigned(args, match_id, rng, play_on):
    """One match the server seated us in, on a socket of its own (the ladder may run two at once),
    taken back after every reconnect: the server sends what the seat missed."""
    ids = command_ids()

    async def play(connected):
        async with opened(args) as (ws, _welcome):
            connected()
            await ws.send(json.dumps({"type": "join", "match": match_id}))
            return await play_on(ws, rng, ids)

    return await reconnecting(play)


async def wait(args, play_on):
    """Play every match the server assigns (tournament rounds, the ladder) until ``--matches`` are
    done; the socket that hears of them is opened again whenever it is lost, and the ``welcome``
    of each new one lists the matches assigned meanwhile."""
    rng = random.Random(args.seed)
    started, tasks = set(), set()

    def start(match_id):
        """Play ``match_id`` unless it is already being played; False once ``--matches`` are started."""
        if match_id not in started and (not args.matches or len(started) < args.matches):
            started.add(match_id)
            tasks.add(asyncio.create_task(play_assigned(args, match_id, random.Random(rng.random()), play_on)))
        return not args.matches or len(started) < args.matches

    async def listen(connected):
        async with opened(args) as (ws, welcome):
            connected()
            print(f"waiting for matches as {welcome['user']}")
            # Matches assigned before this socket connected first, then each one as it is assigned.
            going = all([start(match_id) for match_id in welcome["assigned"]])
            while going:
                frame = json.loads(await ws.recv())
                if frame["type"] == "assigned":
                    going = start(frame["match"])

    try:
        await reconnecting(listen)
    except Refused as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2
    await asyncio.gather(*tasks)
    return 0


def parser(description):
    """The command line every example takes."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an API token (make one on your profile page)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--vs", choices=["random", "greedy", "expert"], default="greedy",
                        help="play the built-in bot of this level (the default)")
    choice.add_argument("--create", action="store_true", help="open a match and wait for an opponent")
    choice.add_argument("--join", type=int, metavar="MATCH_ID", help="join an open match")
    choice.add_argument("--invite", metavar="INVITE_TOKEN", help="join a private match by its invite token")
    choice.add_argument("--wait", action="store_true",
                        help="play every match the server starts for this account (tournaments, the ladder), "
                             "reconnecting whenever the connection is lost")
    parser.add_argument("--matches", type=int, default=0, help="with --wait: stop after this many (0: never)")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    return parser


def seat_request(args, game=None):
    """The frame that takes the seat the command line asks for (``game``: the game a new match is of)."""
    named = {"game": game} if game else {}
    if args.create:
        return {"type": "create", "private": False, **named}
    if args.join:
        return {"type": "join", "match": args.join}
    if args.invite:
        return {"type": "join", "invite": args.invite}
    return {"type": "play", "level": args.vs, **named}


def main(description, play_on, game=None):
    args = parser(description).parse_args()
    play = wait(args, play_on) if args.wait else play_one(args, seat_request(args, game), play_on)
    try:
        sys.exit(asyncio.run(play))
    except KeyboardInterrupt:
        sys.exit(2)
