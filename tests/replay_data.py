"""A replay page's data as the page's script reads it: every frame's view rebuilt from the first
and the changes after it (game/history/deltas.py; static/game/replay.js does the same in the page).
Written here again, independently, so that the tests check the encoding rather than reuse it.
And a long match's record, for the page-size test and bench/replay_page_bench.py."""
import copy
import json
import random
import re

from game import games


def _apply(view, ops):
    root = {"v": copy.deepcopy(view)}
    for op in ops:
        path = ["v", *op[1]]
        parent = root
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        if op[0] == "s":
            if isinstance(parent, list) and last == len(parent):
                parent.append(op[2])
            else:
                parent[last] = op[2]
        elif op[0] == "d":
            del parent[last]
        else:
            assert op[0] == "t", op
            del parent[last][op[2]:]
    return root["v"]


def rebuilt(data):
    """``data`` (the page's "replay-data") with each frame's ``view`` whole again."""
    frames = data["frames"]
    for before, frame in zip(frames, frames[1:]):
        frame["view"] = _apply(before["view"], frame.pop("changes"))
    return data


def replay_data(html):
    found = re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', html, re.S)
    assert found, "no replay-data on the page"
    return rebuilt(json.loads(found.group(1)))


def long_miracle_record(seed=7):
    """A whole 神迹之战 match of uniformly random legal commands: it runs to the turn limit (turn
    100), about 1,300 commands, a record of about 65 KB, as the review's."""
    game = games.get("miracle")
    rng = random.Random(seed)
    state = game.new_match(seed)
    commands = []
    while game.outcome(state) is None:
        seat = game.to_move(state)[0]
        command = rng.choice(game.legal_commands(state, seat))
        state, _events = game.apply(state, seat, command)
        commands.append((seat, command))
    return json.dumps(game.make_record(seed, commands, players=("North", "South"))).encode()
