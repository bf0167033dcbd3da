"""神迹之战 match pages' inputs at many points of random matches, without a database: the payload
each viewer gets (``frames.payload``'s fields the game's parts read), the log book's marks and the
seats' labels and clocks, as the live presenter builds them. For the markup tests and their bench."""
import random

from django.utils import translation

from game import games
from game.games.miracle.engine import randomplay
from game.games.miracle.log import LogBook
from tests.games.positions import PLAYERS, payload, seats


def positions(seed, every, languages=("en", "zh-hans"), deck_positions=True):
    """Yield (language, payload, marks, seats) for each of seat 0, seat 1 and a spectator every
    ``every`` commands of a random match, at its start and after the first deck (the deck choice,
    unless ``deck_positions`` is false), and at its end (then seen as a finished match's)."""
    game = games.get("miracle")
    rng = random.Random(seed)
    state = game.new_match(seed)
    # One log book per audience, read as the socket's is, version by version: only its marks count.
    audiences = (0, 1, "spectator")
    books = {audience: LogBook(audience, list(PLAYERS)) for audience in audiences}
    played = []  # (version, events), for the finished match's whole log
    version = 0
    kinds = ("none", "calm", "urgent", "bank")
    while True:
        over = game.outcome(state) is not None
        if version % every == 0 or over or (deck_positions and version == 1):
            status = "finished" if over else "live"
            if over:
                # A finished match is seen whole ("all"), as its page shows it to everyone.
                finished = LogBook("all", list(PLAYERS))
                finished.entries([(v, game.project(events, "all")) for v, events in played])
            for language in languages:
                with translation.override(language):
                    for seat in (0, 1, None):
                        marks = finished.marks if over else books[seat if seat is not None else "spectator"].marks
                        marks = dict(marks)
                        if version % (3 * every) == every and marks["cells"]:
                            # A mark a template would have to escape, on the first cell marked.
                            first = next(iter(marks["cells"]))
                            marks["cells"] = {**marks["cells"], first: [*marks["cells"][first], 'x"<&']}
                        seen = payload(game, state, seat, status, version, 40 + seed, kinds[version // every % 4])
                        yield language, seen, marks, seats(seen)
        if over:
            return
        mover = game.to_move(state)[0]
        state, events = game.apply(state, mover, randomplay.random_command(state, mover, rng))
        version += 1
        played.append((version, events))
        for audience, book in books.items():
            book.entries([(version, game.project(events, audience))])
