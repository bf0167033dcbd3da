"""Aquawar match pages' inputs at many points of random matches, without a database: the payload
each viewer gets (``frames.payload``'s fields the game's parts read), the log book's marks and the
seats' labels and clocks, as the live presenter builds them. For the markup test and its bench."""
import random

from django.utils import translation

from game import games
from game.games.aquawar.engine import randomplay
from game.games.aquawar.log import LogBook
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
        "clock": clock(clock_kind, randomplay.players_to_move(state) if status == "live" else ()),
        "rated": False,
        "tutorial": False,
        "rating_changes": [],
    }


def positions(seed, every, languages=("en", "zh-hans")):
    """Yield (language, payload, marks, seats) for each of seat 0, seat 1 and a spectator every
    ``every`` commands of a random match, and at its end (then seen as a finished match's)."""
    game = games.get("aquawar")
    rng = random.Random(seed)
    state = game.new_match(seed)
    played = []  # (version, events)
    version = 0
    kinds = ("none", "calm", "urgent", "bank")
    while True:
        over = game.outcome(state) is not None
        if version % every == 0 or over:
            status = "finished" if over else "live"
            for language in languages:
                with translation.override(language):
                    for seat in (0, 1, None):
                        audience = "all" if over else ("spectator" if seat is None else seat)
                        book = LogBook(audience, list(PLAYERS))
                        book.entries([(v, game.project(events, audience)) for v, events in played])
                        marks = dict(book.marks)
                        if version % (3 * every) == 0 and marks:
                            # A mark a template would have to escape, on the first fish marked.
                            first = next(iter(marks))
                            marks[first] = [*marks[first], {"kind": 'x"<', "text": "<&'\">"}]
                        seen = payload(game, state, seat, status, version, 40 + seed, kinds[version // every % 4])
                        seats = [
                            {"label": presenter.side_label(seen, side), "clock": presenter.countdown(seen, side), "program": False}
                            for side in (0, 1)
                        ]
                        yield language, seen, marks, seats
        if over:
            return
        mover = randomplay.players_to_move(state)[0]
        state, events = game.apply(state, mover, randomplay.random_command(state, mover, rng))
        version += 1
        played.append((version, events))
