import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from . import frames, presence, presenter, rematch, services
from .access import may_watch
from .models import Match
from .protocol import CLIENT_ID


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
    seat = match.seat_of(request.user)
    query = {"ui": "html"}
    if invite and seat is None:
        query["invite"] = invite
    book, log = presenter.full_log(match, seat)
    spectators, players = presence.counts(match.pk)
    context = presenter.context(frames.payload(match, seat), spectators, book.marks, players)
    context.update(
        {
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


@require_GET
@login_required
def deduction_aid(request, match_id):
    """The optional aid beside each hidden enemy: what it can still be, from the player's own view."""
    match = get_object_or_404(Match, pk=match_id)
    seat = match.seat_of(request.user)
    if seat is None:
        raise Http404
    aid = [
        {"pos": pos, "species": [{"id": s, "name": presenter.species_name(s)} for s in species]}
        for pos, species in frames.deduction_aid(match, seat)
    ]
    return render(request, "game/_aid.html", {"aid": aid})


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
