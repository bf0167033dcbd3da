"""A program that plays Aquawar Online over the bot socket, choosing uniformly among legal commands.

    python examples/random_bot.py --server http://127.0.0.1:8000 --token TOKEN --vs greedy
    python examples/random_bot.py --server ... --token ... --create        (wait for anyone to join)
    python examples/random_bot.py --server ... --token ... --join 17       (or --invite TOKEN)
    python examples/random_bot.py --server ... --token ... --wait          (tournaments, the ladder)

Needs the ``websockets`` package (``pip install -e .[examples]``). The protocol: docs/bot-api.md.
It prints the result and exits with 0 if it won, 1 if it lost, 2 if the match did not finish
(``--wait``: 0 once ``--matches`` matches are over).
"""
import argparse
import asyncio
import itertools
import json
import random
import sys
from urllib.parse import urlsplit, urlunsplit

from websockets.asyncio.client import connect

# Every species id; a Mimic Fish may copy any of the others, used or not.
SPECIES = ("archerfish", "pufferfish", "electric_eel", "sunfish", "sea_wolf", "manta_ray", "sea_turtle",
           "octopus", "great_white_shark", "hammerhead_shark", "clownfish", "mimic_fish")


def socket_url(server):
    parts = urlsplit(server)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws/bot/", "", ""))


def random_command(state, rng):
    """A uniformly random legal command for this state, or None if it is not our move."""
    if state["pick"]:
        # Any four of our unused species, in any order (the order sets the positions 0-3).
        options = state["pick"]
        team = rng.sample(options["species"], options["count"])
        command = {"pick": team}
        if "mimic_fish" in team:
            command["mimic"] = rng.choice([s for s in SPECIES if s != "mimic_fish"])
        return command
    if state["legal"]:
        return rng.choice(state["legal"])
    return None


def seat_request(args):
    if args.create:
        return {"type": "create", "private": False}
    if args.join:
        return {"type": "join", "match": args.join}
    if args.invite:
        return {"type": "join", "invite": args.invite}
    return {"type": "play", "level": args.vs}


async def play(args):
    async with connect(socket_url(args.server), additional_headers=auth(args)) as ws:
        welcome = json.loads(await ws.recv())
        if welcome["type"] != "welcome":
            print(f"refused: {welcome.get('message')}", file=sys.stderr)
            return 2
        await ws.send(json.dumps(seat_request(args)))
        return await play_on(ws, random.Random(args.seed))


def auth(args):
    return {"Authorization": f"Bearer {args.token}"}


async def play_on(ws, rng):
    """Play the seat just requested on ``ws`` to the end of its match; the exit status."""
    ids = (f"c{n}" for n in itertools.count(1))
    seat, waiting_for = None, None  # the id of our command not yet acknowledged
    async for text in ws:
        frame = json.loads(text)
        kind = frame["type"]
        if kind == "match":
            seat = frame["seat"]
            print(f"match {frame['match']}, playing seat {seat}")
        elif kind == "error":
            print(f"error {frame['code']}: {frame['message']}", file=sys.stderr)
            if frame["id"] is not None and frame["id"] == waiting_for:
                waiting_for = None
            if frame["code"] in ("no_match", "not_open", "bad_level", "too_many", "busy"):
                return 2
        elif kind == "ack" and frame["id"] == waiting_for:
            waiting_for = None
        elif kind in ("state", "snapshot"):
            if frame["status"] in ("finished", "cancelled"):
                return report(frame, seat)
            # A state sent before our last command landed must not make us move twice.
            command = None if waiting_for else random_command(frame, rng)
            if command is not None:
                waiting_for = next(ids)
                await ws.send(json.dumps(
                    {"type": "command", "id": waiting_for, "version": frame["version"], "command": command}
                ))
    return 2


async def play_assigned(args, match_id, rng):
    """One match the server seated us in, on a socket of its own (the ladder may run two at once)."""
    async with connect(socket_url(args.server), additional_headers=auth(args)) as ws:
        await ws.recv()  # the welcome
        await ws.send(json.dumps({"type": "join", "match": match_id}))
        return await play_on(ws, rng)


async def wait(args):
    """Play every match the server assigns (tournament rounds, the ladder) until ``--matches`` are done."""
    rng = random.Random(args.seed)
    started, tasks = set(), set()

    def start(match_id):
        """Play ``match_id`` unless it is already being played; False once ``--matches`` are started."""
        if match_id not in started and (not args.matches or len(started) < args.matches):
            started.add(match_id)
            tasks.add(asyncio.create_task(play_assigned(args, match_id, random.Random(rng.random()))))
        return not args.matches or len(started) < args.matches

    async with connect(socket_url(args.server), additional_headers=auth(args)) as ws:
        welcome = json.loads(await ws.recv())
        if welcome["type"] != "welcome":
            print(f"refused: {welcome.get('message')}", file=sys.stderr)
            return 2
        print(f"waiting for matches as {welcome['user']}")
        # Matches assigned before this socket connected first, then each one as it is assigned.
        going = all([start(match_id) for match_id in welcome["assigned"]])
        while going:
            frame = json.loads(await ws.recv())
            if frame["type"] == "assigned":
                going = start(frame["match"])
    await asyncio.gather(*tasks)
    return 0


def report(state, seat):
    if state["status"] == "cancelled":
        print("the match was cancelled")
        return 2
    score = state["view"]["score"]
    outcome = "won" if state["winner"] == seat else "lost"
    print(f"{outcome} {score[seat]}-{score[1 - seat]} ({state['end_reason']}) as {state['players'][seat]}"
          f" against {state['players'][1 - seat]}")
    return 0 if outcome == "won" else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an API token (make one on your profile page)")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--vs", choices=["random", "greedy", "expert"], default="greedy",
                        help="play the built-in bot of this level (the default)")
    choice.add_argument("--create", action="store_true", help="open a match and wait for an opponent")
    choice.add_argument("--join", type=int, metavar="MATCH_ID", help="join an open match")
    choice.add_argument("--invite", metavar="INVITE_TOKEN", help="join a private match by its invite token")
    choice.add_argument("--wait", action="store_true",
                        help="play every match the server starts for this account (tournaments, the ladder)")
    parser.add_argument("--matches", type=int, default=0, help="with --wait: stop after this many (0: never)")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    args = parser.parse_args()
    sys.exit(asyncio.run(wait(args) if args.wait else play(args)))


if __name__ == "__main__":
    main()
