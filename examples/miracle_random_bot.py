"""A program that plays 神迹之战 (Miracle) on Aquawar Online over the bot socket, at random among what the
server's options offer, with a push: it hits the enemy miracle when it can, attacks more often than
not, walks its units toward the enemy miracle, and ends its turn when it has nothing left to do.

    python examples/miracle_random_bot.py --server http://127.0.0.1:8000 --token TOKEN --vs greedy
    python examples/miracle_random_bot.py --server ... --token ... --create     (wait for anyone to join)
    python examples/miracle_random_bot.py --server ... --token ... --join 17    (or --invite TOKEN)
    python examples/miracle_random_bot.py --server ... --token ... --wait       (tournaments, the ladder)

Needs the ``websockets`` package (``pip install -e '.[examples]'``) and ``botclient.py`` beside it
(what the examples share). The protocol: docs/bot-api.md ("神迹之战"). It prints the result and
exits with 0 if it won, 1 if it lost, 2 if the match did not finish (``--wait``: as
examples/random_bot.py, the same code).
"""
import json
import sys

import botclient

GAME = "miracle"


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


async def play(ws, request, rng, out=sys.stdout):
    """Play one match on ``ws``, an open bot socket (``send(text)``, ``recv()``) not yet welcomed."""
    welcome = json.loads(await ws.recv())
    if welcome["type"] != "welcome":
        print(f"refused: {welcome.get('message')}", file=sys.stderr)
        return 2
    await ws.send(json.dumps(request))
    return await play_on(ws, rng, botclient.command_ids(), out)


def play_on(ws, rng, ids, out=sys.stdout):
    """Play the seat just requested on ``ws`` to the end of its match; the exit status."""
    return botclient.play_seat(ws, rng, ids, choose, report, out)


def report(state, seat, out):
    if state["status"] == "cancelled":
        print("the match was cancelled", file=out)
        return 2
    hp = state["view"]["miracle_hp"]
    outcome = "won" if state["winner"] == seat else "lost"
    print(f"{outcome} ({state['end_reason']}), miracle HP {hp[seat]} to {hp[1 - seat]}, as "
          f"{state['players'][seat]} against {state['players'][1 - seat]}", file=out)
    return 0 if outcome == "won" else 1


if __name__ == "__main__":
    botclient.main(__doc__.splitlines()[0], play_on, GAME)
