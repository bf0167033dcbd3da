"""Leaderboards per game, and marking one's account as a program's (quick pairing: pairing_views.py)."""
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from game import games
from game.services import ServiceError
from lobby.views import member_post

from . import glicko2, leaderboard
from .api import PROVISIONAL_DEVIATION, mark_program


def _game_or_404(name):
    try:
        return games.get(name)
    except games.UnknownGame:
        raise Http404 from None


@require_safe
def leaderboards(request):
    return redirect("ratings:leaderboard", game=games.DEFAULT, kind=leaderboard.PEOPLE)


@require_safe
def leaderboard_page(request, game, kind):
    chosen = _game_or_404(game)
    if kind not in (leaderboard.PEOPLE, leaderboard.PROGRAMS):
        raise Http404
    # An unreadable or out-of-range page number gets the nearest page, never an error.
    page = Paginator(leaderboard.ranked(chosen.name, kind), leaderboard.PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "game": chosen,
        "games": games.every(),
        "kind": kind,
        "page": page,
        "first_rank": page.start_index(),
        "provisional": list(leaderboard.provisional(chosen.name, kind)),
        "threshold": PROVISIONAL_DEVIATION,
        # Against established opponents (deviation 60) a rating settles fastest; against new ones slowest.
        "fastest": leaderboard.matches_to_establish(60.0),
        "slowest": leaderboard.matches_to_establish(glicko2.DEFAULT_DEVIATION),
        "inactive_days": leaderboard.INACTIVE_AFTER.days,
    }
    return render(request, "ratings/leaderboard.html", context)


@member_post
def mark_program_account(request):
    """The owner marks their own account as a program's, for good (``api.mark_program``)."""
    if request.POST.get("confirm") != "program":
        messages.error(request, _("Tick the box to confirm that a program plays under this account."))
    else:
        try:
            mark_program(request.user)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("This account is now marked as a program's (BOT)."))
    return redirect("profile", request.user.username)
