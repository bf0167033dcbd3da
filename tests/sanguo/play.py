"""Playing a 三国 game through the services: random legal submissions from every seat, the game
master's default answers (the engine's automatic GM) and the server's closes at the deadlines."""
import random

from game.games.three_kingdoms import engine
from game.games.three_kingdoms.engine.legal import concrete
from sanguo import jobs, services
from sanguo.models import Game


def submit_randomly(row, players, rng, share=0.7):
    """Each seat that may act submits one random legal command (most do), as its person would."""
    for seat, player in enumerate(players):
        row.refresh_from_db()
        if row.status != Game.Status.LIVE:
            return
        options = [c for c in engine.legal_commands(row.state, seat) if "suicide" not in c and "cancel" not in c]
        if options and rng.random() < share:
            services.command(row.pk, player, "", concrete(rng.choice(options), rng))


def answer_as_gm(row, gm, limit=200):
    """The game master answers every pending decision with its default."""
    for _ in range(limit):
        row.refresh_from_db()
        if row.status != Game.Status.LIVE:
            return
        defaults = engine.legal_commands(row.state, "gm")
        if not defaults:
            return
        services.command(row.pk, gm, "", defaults[0])


def run_to_deadline(row, clock):
    row.refresh_from_db()
    if row.deadline is not None:
        clock.now = max(clock.now, row.deadline)
        jobs.close_due_phases()


def play_phases(row, gm, players, clock, phases, rng=None, each=None):
    """Play ``phases`` phase changes; ``each(row)`` after every step (to look at the pages)."""
    rng = rng or random.Random(row.seed)
    for _ in range(phases):
        row.refresh_from_db()
        if row.status != Game.Status.LIVE:
            return
        if row.state["phase"] in ("night_action", "day_wound", "day_vote"):
            submit_randomly(row, players, rng)
            each and each(row)
        answer_as_gm(row, gm)
        each and each(row)
        run_to_deadline(row, clock)
        answer_as_gm(row, gm)
        each and each(row)
