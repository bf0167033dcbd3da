""""Your games": every live match of a person, those waiting for their move first, with time left.

Whether a match waits for its person is read from the row where it can be: a timed seat of a person
has a deadline exactly while they owe a decision (game/live/clocks.py); only a match without a
clock needs its state loaded and asked (``Game.to_move``).

Games that are not matches (三国's) are listed too, through ``ELSEWHERE``: their app registers there
how to find those waiting for a person, so the lobby knows nothing of them but the row to show.
"""
import math
from typing import NamedTuple

from django.db.models import Q
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_safe

from game import time_controls
from game.live.frames import epoch_ms
from game.live.presenter import URGENT_SECONDS, clock_text
from game.models import Match
from notify import services as notify_services

from .views import login_url


def _clock(deadline):
    """A row's clock for ``game/_clock.html``, or None."""
    if deadline is None:
        return None
    now = timezone.now()
    left = max(0, math.ceil((deadline - now).total_seconds()))
    return {
        "deadline": epoch_ms(deadline), "server_time": epoch_ms(now), "text": clock_text(left),
        "urgent": left <= URGENT_SECONDS,
    }


class Row(NamedTuple):
    match: Match
    opponent: object
    your_move: bool
    deadline: object  # when the person's clock runs out (None: no clock running for them)

    @property
    def clock(self):
        return _clock(self.deadline)


class Elsewhere(NamedTuple):
    """A game of another app waiting for the person now: its name, what it waits for (in words),
    its page, and when what it waits for closes (None: no deadline)."""
    title: str
    waiting_for: str
    link: str
    deadline: object
    match = None
    your_move = True

    @property
    def clock(self):
        return _clock(self.deadline)


# Functions user -> [Elsewhere], one per app with games of its own (sanguo/apps.py adds 三国's).
ELSEWHERE = []


def _waits_for(match, seat):
    if time_controls.of(match).timed:
        return match.deadlines[seat] is not None
    game = match.game_object
    return seat in game.to_move(game.load(match.state))


def rows(user):
    """The live matches of ``user`` and the other games waiting for them (``ELSEWHERE``): those
    waiting for them first, the soonest deadline first; then the rest, the most recently moved first."""
    live = Match.objects.filter(Q(host=user) | Q(guest=user), status=Match.Status.LIVE).select_related("host", "guest")
    found = []
    for match in live:
        seat = match.seat_of(user)
        opponent = match.guest if seat == 0 else match.host
        found.append(Row(match, opponent, _waits_for(match, seat), match.deadlines[seat]))
    found += [row for source in ELSEWHERE for row in source(user)]
    waiting = sorted((r for r in found if r.your_move), key=lambda r: (r.deadline is None, r.deadline or 0))
    others = sorted((r for r in found if not r.your_move), key=lambda r: r.match.updated, reverse=True)
    return waiting + others


@require_safe
def your_games(request):
    if not request.user.is_authenticated:
        return redirect(login_url(request.path))
    context = {"rows": rows(request.user), "notices": notify_services.unseen_notices(request.user)}
    return render(request, "lobby/your_games.html", context)
