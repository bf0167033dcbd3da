"""Malformed frames for the socket fuzz tests: deterministic, so a failure names its frame."""
import json
import random

BAD_VALUES = [
    None, True, False, 0, -1, 2**63, 2**70, -(2**70), 1.5, -0.0, float("nan"), float("inf"),
    "", " ", "x" * 200, "0", "-1", "1e3", "٣", "²", "\u0000", "\ud800", "é\u2028\u202e",
    [], [None], [[[]]], {}, {"a": 1}, {"type": "hello"},
]


def dumps(value):
    # allow_nan: Python's decoder takes NaN / Infinity, so clients can send them.
    return json.dumps(value, allow_nan=True)


def mutations(base):
    """``base`` with each field (at every depth) replaced by each bad value, removed, and with an
    extra key at each level."""
    out = []

    def walk(node, path):
        if isinstance(node, dict):
            for key in list(node):
                for value in BAD_VALUES:
                    out.append(_replace(base, path + [key], value))
                out.append(_replace(base, path + [key], _REMOVE))
                walk(node[key], path + [key])
            out.append(_replace(base, path + ["surprise"], 1))
        elif isinstance(node, list):
            for index, item in enumerate(node):
                for value in BAD_VALUES[:12]:
                    out.append(_replace(base, path + [index], value))
                walk(item, path + [index])

    walk(base, [])
    return out


_REMOVE = object()


def _replace(base, path, value):
    copy = json.loads(json.dumps(base))
    node = copy
    for key in path[:-1]:
        node = node[key]
    if value is _REMOVE:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return copy


def garbage(seed, count):
    """Random text frames: bytes-ish noise, broken JSON, unicode, deep nesting."""
    rng = random.Random(seed)
    out = [
        "", " ", "null", "0", "true", '"command"', "[]", "{}", "{\"type\":", "{'type': 'hello'}",
        "[" * 8000, "{\"a\":" * 2000 + "1" + "}" * 2000, "[" * 500 + "]" * 500,
        json.dumps({"type": "command", "command": {"act": json.loads("[" * 200 + "]" * 200)}}),
        "\ufeff{\"type\":\"hello\"}", "{\"type\":\"hello\",\"version\":1e400}",
        json.dumps({"type": "hello", "pad": "é" * 4000}),  # under 8 K characters, over 8 KB
        "x" * 9000,
    ]
    for _ in range(count):
        size = rng.choice([1, 5, 40, 300])
        out.append("".join(chr(rng.choice([rng.randrange(32, 127), rng.randrange(0, 0x2FFFF)])) for _ in range(size)))
    return out
