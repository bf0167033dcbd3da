"""What one viewer may see of a match, read from the database: the only way views leave the server.

Every function takes the viewer's seat (0, 1 or None) and decides the audience itself, so a caller
cannot ask for more than the viewer may know. Raw state and full events stay in here.
"""
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.utils import timezone

from .. import games, offloop, rematch
from ..models import Match, MatchEvent, program_marked

# A client further behind than this gets a fresh snapshot instead of the versions it missed.
REPLAY_LIMIT = 256


def load_match(match_id):
    # [:1], not first(): first()'s ORDER BY costs more to compile than the read itself (a primary
    # key matches one row), and every match socket reads this; see docs/performance.md, "Load".
    return next(iter(Match.objects.select_related("host", "guest").filter(pk=match_id)[:1]), None)


def audience_for(match, seat):
    if match.status == Match.Status.FINISHED:
        return "all"
    return "spectator" if seat is None else seat


def players(match):
    if match.imported:
        # An uploaded record names its players; they need not be (and are not linked to) accounts.
        return list(match.player_names)
    return [match.host.username, match.guest.username if match.guest_id else None]


def programs(match):
    """[host, guest]: whether a program plays under the seat's account. One query per match object,
    kept on it; none for a match the fanout read (it reads these with the row, ``remember_programs``)."""
    if match.imported:
        return [False, False]  # an uploaded record's players are names, not accounts
    seats = [match.host_id, match.guest_id]
    known = getattr(match, "_programs", None)
    # Keyed by the seats' accounts: a guest who joins after the first read is read too.
    if known is None or known[0] != seats:
        offloop.need_database()
        found = set(
            get_user_model()
            .objects.filter(program_marked(), pk__in=[user_id for user_id in seats if user_id is not None])
            .values_list("pk", flat=True)
        )
        known = remember_programs(match, [user_id in found for user_id in seats])
    return list(known[1])


def remember_programs(match, flags):
    """Keep ``flags`` ([host, guest], read along with the match) as ``programs(match)``'s answer."""
    match._programs = ([match.host_id, match.guest_id], [bool(flag) for flag in flags])
    return match._programs


def remember_machines(match, levels):
    """Keep ``levels`` ([host's, guest's] ``BotSeat.level``, None for a person; read along with the
    match) as ``machines(match)``'s answer."""
    match._machines = {seat: level for seat, level in enumerate(levels) if level is not None}


def machines(match):
    """{seat: level} of the seats machines play (``fairness.machines``) as read with the match, or
    None if it was not (the caller reads them)."""
    return getattr(match, "_machines", None)


def epoch_ms(moment):
    return None if moment is None else int(moment.timestamp() * 1000)


def bank_ms(match, bank):
    if not match.bank_seconds:
        return None
    return match.bank_seconds * 1000 if bank is None else int(bank.total_seconds() * 1000)


def clock(match):
    """The match's time control and each seat's deadline (epoch ms, or null), from the row alone.

    ``server_time`` is the server's now, taken as the frame is built, so a client can count down
    against it instead of trusting its own clock. A clock is no secret: both players and every
    spectator see both.
    """
    return {
        "move_seconds": match.move_seconds,
        "bank_seconds": match.bank_seconds,
        # Under a bank: what is left of each seat's while it does not run (ms; its deadline says
        # when a running one runs out).
        "banks": [bank_ms(match, bank) for bank in match.banks],
        "deadlines": [epoch_ms(deadline) for deadline in match.deadlines],
        "server_time": epoch_ms(timezone.now()),
    }


def game_part(match, seat, state=None):
    """(view, choices): the game's share of ``payload`` (``Game.view`` and ``Game.choices``), which
    depends on nothing but the match's state and status and the viewer's seat (the match sockets
    share it, game/live/fanout.py). Only a player of a live match has choices. ``state``: the
    match's state loaded already (``Game.load``); both calls only read it."""
    game = games.get(match.game)
    if match.state is None:
        return None, game.choices(None, None)
    if state is None:
        state = game.load(match.state)
    player = seat if match.status == Match.Status.LIVE else None
    return game.view(state, audience_for(match, seat)), game.choices(state, player)


def win_chance_key(match_id, seed, version):
    # The seed as well: an id the database hands out again (SQLite, a test database) never meets an
    # old match's number.
    return f"win-chance:{match_id}:{seed}:{version}"


def win_chance(match, seat, carried=None):
    """The host's win chance at the match's current version, as the bot workers estimated it from
    the spectator's view (game/programs/winchances.py), for a spectator of a live match only: it is
    engine help, never shown to a player while the match is live. None for anyone else, and while
    no estimate of this version is stored yet. ``carried``: the estimate of this very version, as a
    worker's ring carried it (no cache read), if the caller has it."""
    if audience_for(match, seat) != "spectator" or match.status != Match.Status.LIVE:
        return None
    if carried is not None:
        return carried
    return cached_win_chance(win_chance_key(match.pk, match.seed, match.version))


def cached_win_chance(key):
    """The estimate stored under ``key`` (``win_chance_key``), or None: only for a caller that has
    decided the viewer is a spectator of the live match at that version (``win_chance``)."""
    offloop.need_database()
    return cache.get(key)


def payload(match, seat, part=None, estimate=True):
    """The current view and what the viewer may do now (the body of ``snapshot`` and ``state``).

    ``part``: ``game_part(match, seat)`` if the caller has it already. ``estimate``: False for a
    caller that shows no win chance (a page's parts other than its bar, which ``win_chance`` frames
    update): the field is there as for any spectator of a live match, None, and no cache is read."""
    audience = audience_for(match, seat)
    seen, choices = part if part is not None else game_part(match, seat)
    # Only a spectator's frames of a live match have the field at all (tests/game/leaks.py looks for
    # it in players').
    live = audience == "spectator" and match.status == Match.Status.LIVE
    spectating = {"win_chance": win_chance(match, seat) if estimate else None} if live else {}
    return {
        "match": match.pk,
        "version": match.version,
        "status": match.status,
        "seat": seat,
        "audience": audience,
        "players": players(match),
        "programs": programs(match),
        "private": match.private,
        "winner": match.winner,
        "end_reason": match.end_reason or None,
        "view": seen,
        **choices,
        "rematch": rematch.info(match),
        "clock": clock(match),
        "rated": match.rated,
        "tutorial": match.tutorial,
        "rating_changes": rating_changes(match),
        **spectating,
    }


def rating_changes(match):
    """[{seat, before, after, delta}] of a finished rated match, in whole points as shown; else []. Read
    through the reverse accessor of the ratings app's ``RatingChange``, so this module needs no
    import of that app (which depends on this one)."""
    if not match.rated or match.status != Match.Status.FINISHED:
        return []
    offloop.need_database()
    rows = match.rating_changes.order_by("seat").values_list("seat", "before", "after")
    return [
        {"seat": seat, "before": round(before), "after": round(after), "delta": round(after) - round(before)}
        for seat, before, after in rows
    ]


def tournament_round(match_id):
    """{round, tournament (its id), name} of the tournament round ``match_id`` was paired in, for a
    link back to it; None for any other match. One query, read through the reverse accessor of the
    tournaments app's ``Pairing`` (as ``rating_changes`` reads the ratings app's), so this module
    needs no import of that app. A match's pairing is made with it and never changes: the page and
    each socket read it once, never per frame. Nothing in it is hidden from anyone."""
    row = (
        Match.objects.filter(pk=match_id, tournament_pairing__isnull=False)
        .values_list("tournament_pairing__round", "tournament_pairing__tournament_id", "tournament_pairing__tournament__name")
        .first()
    )
    return None if row is None else {"round": row[0], "tournament": row[1], "name": row[2]}


def versions(match, seat, after):
    """[(version, projected events)] for every version in (after, match.version], none left out."""
    offloop.need_database()
    audience = audience_for(match, seat)
    rows = (
        MatchEvent.objects.filter(match_id=match.pk, version__gt=after, version__lte=match.version)
        .order_by("version")
        .values_list("version", "events")
    )
    game = games.get(match.game)
    return [(version, game.project(events, audience)) for version, events in rows]


def can_replay(match, known):
    return known is not None and 0 <= known <= match.version and match.version - known <= REPLAY_LIMIT
