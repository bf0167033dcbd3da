"""The match page, and the POST forms beside its socket (resign, rematch) for pages without one."""
import uuid
from functools import partial, wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import games, rematch, services
from .access import may_watch
from .live import frames, presence, presenter
from .live.protocol import CLIENT_ID
from .models import Match


def watchable_match(request, match_id):
    match = frames.load_match(match_id)
    invite = request.GET.get("invite")
    if match is None or not may_watch(match, request.user, invite):
        # A private match looks exactly like a missing one to anyone without the link.
        raise Http404
    return match, invite


@require_GET
def match_page(request, match_id):
    match, invite = watchable_match(request, match_id)
    game = games.get(match.game)
    seat = match.seat_of(request.user)
    query = {"ui": "html"}
    if invite and seat is None:
        query["invite"] = invite
    book, log = presenter.full_log(match, seat)
    spectators, players = presence.counts(match.pk)
    context = presenter.context(game, frames.payload(match, seat), spectators, book.marks, players)
    context.update(
        {
            "game": game,
            "match": match,
            "seat": seat,
            "log": log,
            "ws_url": f"/ws/match/{match.pk}/?{urlencode(query)}",
            "invite_url": request.build_absolute_uri(reverse("invite", args=[match.invite_token])),
            "resign_id": uuid.uuid4().hex,
            "invite": invite,
        }
    )
    return render(request, "game/match.html", context)


def for_players(view):
    """A game's view on a match for its two players (``Presentation.player_views``), called as
    ``view(request, match, seat, projected)``: ``projected()`` is every event so far as that seat
    may see it. Anyone else gets a 404, as for a match that does not exist."""

    @require_GET
    @login_required
    @wraps(view)
    def wrapper(request, match_id):
        match = get_object_or_404(Match, pk=match_id)
        seat = match.seat_of(request.user)
        if seat is None:
            raise Http404
        return view(request, match, seat, partial(projected, match, seat))

    return wrapper


def projected(match, seat):
    return [event for _version, events in frames.versions(match, seat, 0) for event in events]


@require_POST
@login_required
def resign(request, match_id):
    match = get_object_or_404(Match, pk=match_id)
    if match.seat_of(request.user) is None:
        raise Http404
    client_id = request.POST.get("client_id", "")
    if not CLIENT_ID.fullmatch(client_id):
        client_id = ""
    try:
        services.resign(match, request.user, client_id)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, _("You resigned the match."))
    return redirect("game:match", match_id=match.pk)


@require_POST
@login_required
def rematch_answer(request, match_id):
    """Offer, accept or decline a rematch (``answer``); accepting leads both players to the new match."""
    match = get_object_or_404(Match, pk=match_id)
    if match.seat_of(request.user) is None:
        raise Http404
    try:
        match = rematch.answer(match.pk, request.user, request.POST.get("answer", "offer"))
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect("game:match", match_id=match.pk)
    new = rematch.info(match)["match"]
    return redirect("game:match", match_id=new or match.pk)
