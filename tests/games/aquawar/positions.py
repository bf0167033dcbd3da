"""Aquawar match pages' inputs at many points of random matches, without a database: the payload
each viewer gets (``frames.payload``'s fields the game's parts read), the log book's marks and the
seats' labels and clocks, as the live presenter builds them. For the markup test and its bench."""
import random

from django.utils import translation

from game import games
from game.games.aquawar.engine import randomplay
from game.games.aquawar.log import LogBook
from tests.games.positions import PLAYERS, payload, seats


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
                        yield language, seen, marks, seats(seen)
        if over:
            return
        mover = randomplay.players_to_move(state)[0]
        state, events = game.apply(state, mover, randomplay.random_command(state, mover, rng))
        version += 1
        played.append((version, events))
