"""A replay page's data as the page's script reads it: every frame's view rebuilt from the first
and the changes after it (game/history/deltas.py; static/game/replay.js does the same in the page).
Written here again, independently, so that the tests check the encoding rather than reuse it."""
import copy
import json
import re


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
