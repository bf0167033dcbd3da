"""What a match page's parts read at a point of a random match, without a database: the payload
each viewer gets (``frames.payload``'s fields the games' parts read), with names a template would
have to escape and each kind of clock. For the games' markup tests and their benches
(``aquawar/positions.py``, ``miracle/positions.py``)."""

from game.live import presenter

# A name for each seat that a template would have to escape.
PLAYERS = ['<b>"Tom\'s" & co</b>', "ana&<i>"]
NOW = 1_796_000_000_000


def clock(kind, to_move):
    """The payload's clock: none, a running decision (calm or urgent), or banks (one running)."""
    if kind == "none":
        return {"move_seconds": 0, "bank_seconds": 0, "banks": [None, None], "deadlines": [None, None], "server_time": NOW}
    if kind in ("calm", "urgent"):
        left = 45_000 if kind == "calm" else 7_000
        deadlines = [NOW + left if side in to_move else None for side in (0, 1)]
        return {"move_seconds": 60, "bank_seconds": 0, "banks": [None, None], "deadlines": deadlines, "server_time": NOW}
    deadlines = [NOW + 3_723_000 if side in to_move else None for side in (0, 1)]
    return {"move_seconds": 0, "bank_seconds": 600, "banks": [200_000, 95_000], "deadlines": deadlines, "server_time": NOW}


def payload(game, state, seat, status, version, match_id, clock_kind):
    audience = "all" if status == "finished" else ("spectator" if seat is None else seat)
    player = seat if status == "live" else None
    outcome = game.outcome(state)
    return {
        "match": match_id,
        "version": version,
        "status": status,
        "seat": seat,
        "audience": audience,
        "players": list(PLAYERS),
        "programs": [False, False],
        "private": False,
        "winner": outcome[0] if outcome else None,
        "end_reason": outcome[1] if outcome else None,
        "view": game.view(state, audience),
        **game.choices(state, player),
        "rematch": None,
        "clock": clock(clock_kind, game.to_move(state) if status == "live" else ()),
        "rated": False,
        "tutorial": False,
        "rating_changes": [],
    }


def seats(seen):
    """The seats' labels and clocks, as the live presenter makes them for a payload."""
    return [
        {"label": presenter.side_label(seen, side), "clock": presenter.countdown(seen, side), "program": False}
        for side in (0, 1)
    ]
