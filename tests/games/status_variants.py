"""The platform's states of a status line (templates/game/_status.html and its includes), for the
tests of a game's status drawn in Python: each position of a random match is drawn as it is and
changed into every opponent line, bots on either seat, every rematch state, rating changes up,
down and even, a resignation and a clock run out, and open, cancelled and aborted matches with
each reason; as a socket's fragment and as a page with a csrf token."""
from itertools import product

from game import games
from game.live import presenter

EXTRAS = ({"oob": True}, {"oob": False, "csrf_token": 'tok<&"\'>'})
OPPONENTS = (
    None,
    {"match": 51, "connected": True, "computer": False, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": False, "computer": False, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": True, "computer": True, "claim_at": None, "claimable": False, "winnable": False},
    {"match": 51, "connected": False, "computer": False, "claim_at": 1_796_000_123_456, "claimable": True, "winnable": True},
    {"match": 51, "connected": False, "computer": False, "claim_at": 1_796_000_123_456, "claimable": False, "winnable": False},
)
REMATCHES = (
    None,
    {"status": "offered", "offered_by": 0, "match": None},
    {"status": "offered", "offered_by": 1, "match": None},
    {"status": "accepted", "offered_by": 1, "match": 1234},
    {"status": "declined", "offered_by": 0, "match": None},
)
RATINGS = (
    [],
    [{"seat": 0, "before": 1500, "after": 1516, "delta": 16}, {"seat": 1, "before": 1487, "after": 1471, "delta": -16}],
    [{"seat": 0, "before": 998, "after": 998, "delta": 0}, {"seat": 1, "before": 2001, "after": 2001, "delta": 0}],
)
CALLED_OFF = {
    "cancelled": ("timeout", "expired", None),
    "aborted": ("no_first_move", "aborted", "opponent_left", "bot_error", None),
}
# What every game's status test must have met (with its own features).
WANTED = {
    "language:en", "language:zh-hans", "seat:0", "seat:1", "seat:None", "as is", "open", "your_move",
    "opponent:presence", "opponent:computer", "opponent:connected:True", "opponent:connected:False",
    "opponent:claimable:True:True", "opponent:claimable:False:False", "bot", "result:won", "result:lost", "result:over",
    *(f"{status}:{reason}" for status, reasons in CALLED_OFF.items() for reason in reasons),
    *(f"finished:{reason}:{r and r['status']}:{rated}" for reason in ("resign", "timeout") for r in REMATCHES for rated in (False, True)),
}


def context(name, payload, marks, opponent=None):
    ctx = presenter.context(games.get(name), payload, 1, marks, [True, True], {})
    # Each line of the opponent's, whatever the fairness rules would make of this position.
    ctx["opponent"] = opponent if payload["seat"] is not None and payload["status"] in ("live", "finished") else None
    return ctx


def variants(name, index, payload, marks):
    """(what it exercises, context) for the position as it is and changed as the other states have it."""
    # Positions come in threes (seat 0, seat 1, a spectator): the variants turn with each three.
    opponent = OPPONENTS[(index // 3 + index) % len(OPPONENTS)]
    programs = ([False, False], [True, False], [False, True])[index // 3 % 3]
    yield "as is", context(name, {**payload, "programs": programs}, marks, opponent)
    if payload["status"] == "finished":
        for rematch, ratings, reason in product(REMATCHES, RATINGS, (payload["end_reason"], "resign", "timeout")):
            changed = {**payload, "rematch": rematch, "rating_changes": ratings, "end_reason": reason, "rated": bool(ratings)}
            yield f"finished:{reason}:{rematch and rematch['status']}:{bool(ratings)}", context(name, changed, marks, opponent)
    elif index % 5 == 0:
        for status, reasons in CALLED_OFF.items():
            for reason in reasons:
                yield f"{status}:{reason}", context(name, {**payload, "status": status, "end_reason": reason}, marks)
        yield "open", context(name, {**payload, "status": "open", "view": None, "players": [payload["players"][0], None]}, marks)


def features(ctx):
    """The platform's lines a context exercises."""
    found = {"your_move"} if ctx["your_move"] else set()
    if ctx["opponent"]:
        o = ctx["opponent"]
        found.add("opponent:" + ("computer" if o["computer"] else "claim" if o["claim_at"] else "presence"))
        found |= {f"opponent:connected:{o['connected']}"}
        found |= {f"opponent:claimable:{o['claimable']}:{o['winnable']}"} if o["claim_at"] else set()
    found |= {"bot"} if any(ctx["payload"]["programs"]) else set()
    if ctx["result"]:
        r = ctx["result"]
        found.add("result:" + ("won" if r["you_won"] else "lost" if r["you_lost"] else "over"))
    return found
