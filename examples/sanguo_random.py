"""A program that plays a seat of a 三国 game on Aquawar Online, choosing at random among its legal commands.

    python examples/sanguo_random.py --server http://127.0.0.1:8000 --token TOKEN --game 5
    python examples/sanguo_random.py --server ... --token ... --game 5 --invite INVITE_TOKEN

It signs up for the game (if it is still recruiting; an invite-only game needs its invite token),
waits for the game master to start it, then, each time what its seat may see changes, submits one
random legal command (most of the time, as a person would; never 自杀 or 议和) until the game is over. It
reconnects whenever the connection is lost. Needs the ``websockets`` package
(``pip install -e '.[examples]'``) and ``botclient.py`` beside it. The protocol: docs/bot-api.md,
"三国". It prints the result and exits with 0 if its seat won, 1 if it lost, 2 if the game did not
finish.
"""
import argparse
import asyncio
import itertools
import json
import random
import secrets
import sys

import botclient

# Not chosen at random: 自杀 ends the character, 议和 (asked by every seat) the game.
QUITTING = {"suicide", "peace"}
# Errors after which this socket has nothing to play.
HOPELESS = ("no_game", "bad_token", "token_revoked")
# A sign-up refused because it is not needed: the account is already in, or the game has started.
HARMLESS = ("signed_up", "not_recruiting")


def concrete(command, rng):
    """A command of a listed family (an identification of many possible sets) made into one of its
    members, as the engine's ``legal.concrete`` does (an example imports nothing of the site); any
    other command as it is."""
    body = command.get("identify")
    if not body or "choose" not in body:
        return command
    choose = body["choose"]
    chosen = {"actor": body["actor"], "index": body["index"],
              "targets": sorted(rng.sample(choose["from"], rng.randint(choose["min"], choose["max"])))}
    if "names_from" in body:
        chosen["names"] = [rng.choice(body["names_from"])]
    return {"identify": chosen}


async def play(ws, rng, ids, invite=None, share=0.7, out=sys.stdout):
    """Sign up for the game of ``ws`` and play its seat to the end; the exit status. ``ids``: the
    commands' ids, never used twice in the game (reconnects and restarts included)."""
    await ws.send(json.dumps({"type": "sign_up", **({"invite": invite} if invite else {})}))
    await ws.send(json.dumps({"type": "hello"}))
    waiting_for, decided, last = None, None, None

    async def decide(state):
        """At most one command per set of options: a state that offers what the last one did (our
        own submission shown back, say) is not a new decision."""
        nonlocal waiting_for, decided
        options = [c for c in state["legal"] if not QUITTING.intersection(c)]
        key = json.dumps(options, sort_keys=True)
        if waiting_for or not options or key == decided:
            return
        decided = key
        if rng.random() < share:
            waiting_for = next(ids)
            command = concrete(rng.choice(options), rng)
            await ws.send(json.dumps({"type": "command", "id": waiting_for, "command": command}))

    while True:
        # recv(), not ``async for``: a socket the server closes (a restart) must raise, not end the game.
        frame = json.loads(await ws.recv())
        kind = frame["type"]
        if kind == "error":
            if frame["code"] not in HARMLESS:
                print(f"error {frame['code']}: {frame['message']}", file=sys.stderr)
            if frame["code"] in HOPELESS:
                return 2
        if kind in ("ack", "error") and frame["id"] is not None and frame["id"] == waiting_for:
            waiting_for = None
            await decide(last)
        elif kind == "state":
            last = frame
            if frame["status"] in ("finished", "cancelled"):
                return report(frame, out)
            if frame["status"] == "live":
                await decide(frame)


def report(state, out):
    if state["status"] == "cancelled":
        print(f"game {state['game']} was cancelled", file=out)
        return 2
    view = state["view"]
    won = state["seat"] in view["winning_seats"]
    print(f"game {state['game']} over ({view['end_reason']}): seat {state['seat']} {'won' if won else 'lost'}",
          file=out)
    return 0 if won else 1


async def main(args):
    rng = random.Random(args.seed)
    # Unique to this run: an id the seat used before in the game would be taken for that command.
    run = secrets.token_hex(4)
    ids = (f"{run}-{n}" for n in itertools.count(1))

    async def session(connected):
        async with botclient.opened(args, f"/ws/sanguo/{args.game}/bot/") as (ws, welcome):
            connected()
            print(f"playing game {args.game} as {welcome['user']}")
            return await play(ws, rng, ids, args.invite, args.share)

    try:
        return await botclient.reconnecting(session)
    except botclient.Refused as error:
        print(f"refused: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True, help="an API token (make one on your profile page)")
    parser.add_argument("--game", type=int, required=True, help="the 三国 game's number (its page is /sanguo/<number>/)")
    parser.add_argument("--invite", metavar="INVITE_TOKEN", help="the invite token of an invite-only game")
    parser.add_argument("--share", type=float, default=0.7, help="how often it acts when it may (0 to 1)")
    parser.add_argument("--seed", type=int, help="seed of the random choices")
    try:
        sys.exit(asyncio.run(main(parser.parse_args())))
    except KeyboardInterrupt:
        sys.exit(2)
