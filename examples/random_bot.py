"""A program that plays Aquawar Online over the bot socket, choosing uniformly among legal commands.

    python examples/random_bot.py --server http://127.0.0.1:8000 --token TOKEN --vs greedy
    python examples/random_bot.py --server ... --token ... --create        (wait for anyone to join)
    python examples/random_bot.py --server ... --token ... --join 17       (or --invite TOKEN)
    python examples/random_bot.py --server ... --token ... --wait          (tournaments, the ladder)

Needs the ``websockets`` package (``pip install -e '.[examples]'``) and ``botclient.py`` beside it
(what the examples share). The protocol: docs/bot-api.md. It prints the result and exits with 0 if
it won, 1 if it lost, 2 if the match did not finish (``--wait``: 0 once ``--matches`` matches are
over; it reconnects whenever the connection is lost, and runs until stopped if ``--matches`` is 0).
"""
import sys

import botclient

# Every species id; a Mimic Fish may copy any of the others, used or not.
SPECIES = ("archerfish", "pufferfish", "electric_eel", "sunfish", "sea_wolf", "manta_ray", "sea_turtle",
           "octopus", "great_white_shark", "hammerhead_shark", "clownfish", "mimic_fish")


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


def play_on(ws, rng, ids, out=sys.stdout):
    """Play the seat just requested on ``ws`` to the end of its match; the exit status."""
    return botclient.play_seat(ws, rng, ids, lambda state, _seat, rng: random_command(state, rng), report, out)


def report(state, seat, out):
    if state["status"] == "cancelled":
        print("the match was cancelled", file=out)
        return 2
    score = state["view"]["score"]
    outcome = "won" if state["winner"] == seat else "lost"
    print(f"{outcome} {score[seat]}-{score[1 - seat]} ({state['end_reason']}) as {state['players'][seat]}"
          f" against {state['players'][1 - seat]}", file=out)
    return 0 if outcome == "won" else 1


if __name__ == "__main__":
    botclient.main(__doc__.splitlines()[0], play_on)
