""""Your games": every live match of a person, those waiting for their move first, with time left.

Whether a match waits for its person is read from the row where it can be: a timed seat of a person
has a deadline exactly while they owe a decision (game/live/clocks.py); only a match without a
clock needs its state loaded and asked (``Game.to_move``).
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


class Row(NamedTuple):
    match: Match
    opponent: object
    your_move: bool
    deadline: object  # when the person's clock runs out (None: no clock running for them)

    @property
    def clock(self):
        """The row's clock for ``game/_clock.html``, or None."""
        if self.deadline is None:
            return None
        now = timezone.now()
        left = max(0, math.ceil((self.deadline - now).total_seconds()))
        return {
            "deadline": epoch_ms(self.deadline), "server_time": epoch_ms(now), "text": clock_text(left),
            "urgent": left <= URGENT_SECONDS,
        }


def _waits_for(match, seat):
    if time_controls.of(match).timed:
        return match.deadlines[seat] is not None
    game = match.game_object
    return seat in game.to_move(game.load(match.state))


def rows(user):
    """The live matches of ``user``: theirs to move first, the soonest deadline first; then the rest,
    the most recently moved first."""
    live = Match.objects.filter(Q(host=user) | Q(guest=user), status=Match.Status.LIVE).select_related("host", "guest")
    found = []
    for match in live:
        seat = match.seat_of(user)
        opponent = match.guest if seat == 0 else match.host
        found.append(Row(match, opponent, _waits_for(match, seat), match.deadlines[seat]))
    waiting = sorted((r for r in found if r.your_move), key=lambda r: (r.deadline is None, r.deadline or 0))
    others = sorted((r for r in found if not r.your_move), key=lambda r: r.match.updated, reverse=True)
    return waiting + others


@require_safe
def your_games(request):
    if not request.user.is_authenticated:
        return redirect(login_url(request.path))
    context = {"rows": rows(request.user), "notices": notify_services.unseen_notices(request.user)}
    return render(request, "lobby/your_games.html", context)
