"""What one viewer may see of a match, read from the database: the only way views leave the server.

Every function takes the viewer's seat (0, 1 or None) and decides the audience itself, so a caller
cannot ask for more than the viewer may know. Raw state and full events stay in here.
"""
from django.utils import timezone

from ..games.aquawar import engine
from .. import rematch
from ..games.aquawar.engine.deduction import candidates
from ..models import Match, MatchEvent

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


def epoch_ms(moment):
    return None if moment is None else int(moment.timestamp() * 1000)


def clock(match):
    """The match's time control and each seat's deadline (epoch ms, or null), from the row alone.

    ``server_time`` is the server's now, taken as the frame is built, so a client can count down
    against it instead of trusting its own clock. A clock is no secret: both players and every
    spectator see both.
    """
    return {
        "move_seconds": match.move_seconds,
        "deadlines": [epoch_ms(deadline) for deadline in match.deadlines],
        "server_time": epoch_ms(timezone.now()),
    }


def engine_part(match, seat):
    """(view, legal, pick): the engine's share of ``payload``, which depends on nothing but the
    match's state and status and the viewer's seat (the match sockets share it, game/fanout.py)."""
    audience = audience_for(match, seat)
    seen, legal, pick = None, [], None
    if match.state is not None:
        state = engine.MatchState.from_json(match.state)
        seen = engine.view(state, audience)
        if match.status == Match.Status.LIVE and seat is not None:
            if seen["phase"] == "pick":
                # The full pick list is every team times every Mimic target (thousands); the
                # options say the same in a few lines.
                if not seen["picked"][seat]:
                    pick = engine.pick_options(state, seat)
            else:
                legal = engine.legal_commands(state, seat)
    return seen, legal, pick


def payload(match, seat, part=None):
    """The current view and what the viewer may do now (the body of ``snapshot`` and ``state``).

    ``part``: ``engine_part(match, seat)`` if the caller has it already."""
    audience = audience_for(match, seat)
    seen, legal, pick = part if part is not None else engine_part(match, seat)
    return {
        "match": match.pk,
        "version": match.version,
        "status": match.status,
        "seat": seat,
        "audience": audience,
        "players": players(match),
        "private": match.private,
        "winner": match.winner,
        "end_reason": match.end_reason or None,
        "view": seen,
        "legal": legal,
        "pick": pick,
        "rematch": rematch.info(match),
        "clock": clock(match),
    }


def versions(match, seat, after):
    """[(version, projected events)] for every version in (after, match.version], none left out."""
    audience = audience_for(match, seat)
    rows = (
        MatchEvent.objects.filter(match_id=match.pk, version__gt=after, version__lte=match.version)
        .order_by("version")
        .values_list("version", "events")
    )
    return [(version, engine.project(events, audience)) for version, events in rows]


def deduction_aid(match, seat):
    """For the enemy's fish of this round, the species each may still be, worked out from nothing
    but ``seat``'s own projection (``engine.deduction``): ``[(position, [species])]`` for the
    hidden living ones. Empty outside a live round or for anyone but a player.

    It reads the match's whole event log, so it is built only when a player asks for it."""
    if seat is None or match.status != Match.Status.LIVE or match.state is None:
        return []
    seen = engine.view(engine.MatchState.from_json(match.state), seat)
    if seen["phase"] not in ("assert", "act"):
        return []
    projected = [event for _version, events in versions(match, seat, 0) for event in events]
    enemies = seen["teams"][1 - seat]
    options = candidates(seen, projected, seat)
    return [(pos, species) for pos, species in enumerate(options) if species is not None and enemies[pos]["alive"]]


def can_replay(match, known):
    return known is not None and 0 <= known <= match.version and match.version - known <= REPLAY_LIMIT
