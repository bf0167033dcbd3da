"""A program that plays 神迹之战 (Miracle) on Aquawar Online over the bot socket, at random among what the
server's options offer, with a push: it hits the enemy miracle when it can, attacks more often than
not, walks its units toward the enemy miracle, and ends its turn when it has nothing left to do.

    python examples/miracle_random_bot.py --server http://127.0.0.1:8000 --token TOKEN --vs greedy
    python examples/miracle_random_bot.py --server ... --token ... --create     (wait for anyone to join)
    python examples/miracle_random_bot.py --server ... --token ... --join 17    (or --invite TOKEN)

Needs the ``websockets`` package (``pip install -e .[examples]``). The protocol: docs/bot-api.md
("神迹之战"). It prints the result and exits with 0 if it won, 1 if it lost, 2 if the match did not finish.
"""
import argparse
import asyncio
import itertools
import json
import random
import sys
from urllib.parse import urlsplit, urlunsplit

GAME = "miracle"


def socket_url(server):
    parts = urlsplit(server)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws/bot/", "", ""))


def distance(a, b):
    """Cells are cube coordinates [x, y, z]: the distance is the largest difference."""
    return max(abs(p - q) for p, q in zip(a, b))


def choose(frame, seat, rng):
    """A command from the frame's ``options``, or None if we owe nothing now."""
    options = frame["options"]
    if "deck" in options:
        deck = options["deck"]
        return {"deck": {"artifact": rng.choice(deck["artifacts"]),
                         "creatures": rng.sample(deck["creatures"], deck["count"])}}
    if not options.get("end_turn"):
        return None
    units = options["units"]
    on_miracle = [u for u in units if "miracle" in u["attacks"]]
    if on_miracle:
        return {"attack": {"unit": rng.choice(on_miracle)["unit"], "target": "miracle"}}
    attackers = [u for u in units if u["attacks"]]
    if attackers and rng.random() < 0.7:
        unit = rng.choice(attackers)
        return {"attack": {"unit": unit["unit"], "target": rng.choice(unit["attacks"])}}
    walkers = [u for u in units if u["moves"]]
    if walkers:
        enemy = frame["view"]["miracles"][1 - seat]
        unit = rng.choice(walkers)
        step = min(unit["moves"], key=lambda m: (distance(m["to"], enemy), rng.random()))
        return {"move": {"unit": unit["unit"], "to": step["to"]}}
    if options["summons"] and rng.random() < 0.8:
        summon = rng.choice(options["summons"])
        return {"summon": {"type": summon["type"], "level": summon["level"], "at": rng.choice(summon["cells"])}}
    return {"end_turn": {}}


def seat_request(args):
    if args.create:
        return {"type": "create", "private": False, "game": GAME}
    if args.join:
        return {"type": "join", "match": args.join}
    if args.invite:
        return {"type": "join", "invite": args.invite}
    return {"type": "play", "level": args.vs, "game": GAME}


async def play(ws, request, rng, out=sys.stdout):
    """Play one match on ``ws`` (an open bot socket: ``send(text)``, ``recv()``, ``async for``)."""
    ids = (f"c{n}" for n in itertools.count(1))
    welcome = json.loads(await ws.recv())
    if welcome["type"] != "welcome":
        print(f"refused: {welcome.get('message')}", file=sys.stderr)
        return 2
    await ws.send(json.dumps(request))
    seat, waiting_for = None, None  # the id of our command not yet acknowledged
    async for text in ws:
        frame = json.loads(text)
        kind = frame["type"]
        if kind == "match":
            seat = frame["seat"]
            print(f"match {frame['match']}, playing seat {seat}", file=out)
        elif kind == "error":
            print(f"error {frame['code']}: {frame['message']}", file=sys.stderr)
            if frame["id"] is not None and frame["id"] == waiting_for:
                waiting_for = None
            if frame["code"] in ("no_match", "not_open", "bad_level", "bad_field", "too_many", "busy"):
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
    return 2


def report(state, seat, out):
    if state["status"] == "cancelled":
        print("the match was cancelled", file=out)
        return 2
    hp = state["view"]["miracle_hp"]
    outcome = "won" if state["winner"] == seat else "lost"
    print(f"{outcome} ({state['end_reason']}), miracle HP {hp[seat]} to {hp[1 - seat]}, as "
          f"{state['players'][seat]} against {state['players'][1 - seat]}", file=out)
    return 0 if outcome == "won" else 1


async def main_async(args):
    from websockets.asyncio.client import connect

    headers = {"Authorization": f"Bearer {args.token}"}
    async with connect(socket_url(args.server), additional_headers=headers) as ws:
        return await play(ws, seat_request(args), random.Random(args.seed))


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
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    sys.exit(asyncio.run(main_async(parser.parse_args())))


if __name__ == "__main__":
    main()
