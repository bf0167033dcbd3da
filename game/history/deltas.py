"""Each replay frame's view as the change from the frame before, so that a page carries a long
match's states in about the size of its record (issue #30: 1,388 whole 神迹之战 views made a 13.4 MB
page). static/game/replay.js (``Replay.page``) applies the changes again, in order.

A change is a list of operations on the JSON of the view before, each at a ``path`` of dict keys
and list indices from its root:

- ``["s", path, value]``: set the value there (a key or an index one past a list's end added);
- ``["d", path]``: remove that key of a dict;
- ``["t", path, length]``: cut the list there to ``length`` items.
"""


def changes(old, new):
    """The operations that turn ``old`` into ``new`` (both JSON values); [] when they are equal."""
    ops = []
    _diff(old, new, [], ops)
    return ops


def _diff(old, new, path, ops):
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old.keys() - new.keys():
            ops.append(["d", [*path, key]])
        for key, value in new.items():
            if key in old:
                _diff(old[key], value, [*path, key], ops)
            else:
                ops.append(["s", [*path, key], value])
    elif isinstance(old, list) and isinstance(new, list):
        for index, (before, after) in enumerate(zip(old, new)):
            _diff(before, after, [*path, index], ops)
        if len(new) < len(old):
            ops.append(["t", path, len(new)])
        for index in range(len(old), len(new)):
            ops.append(["s", [*path, index], new[index]])
    else:
        ops.append(["s", path, new])


def packed(frames):
    """``frames`` (``{"version", "view", "events", "lines"}``) with the first frame's whole view and
    every later frame's ``changes`` from the one before it (``"changes"`` instead of ``"view"``)."""
    result = []
    for index, frame in enumerate(frames):
        step = {key: value for key, value in frame.items() if key != "view"}
        if index == 0:
            step["view"] = frame["view"]
        else:
            step["changes"] = changes(frames[index - 1]["view"], frame["view"])
        result.append(step)
    return result
