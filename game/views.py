"""The match page, and the POST forms beside its socket (moves, resign, rematch) for pages without one."""
import json
import uuid
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST, require_safe

from . import fairness, games, rematch, services
from .chat import service as chat
from .access import may_watch
from .live import frames, presence, presenter
from .live.protocol import CLIENT_ID, ProtocolError, parse
from .models import Match
from .programs.seats import start_tutorial


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
            "chat": chat.box(match, seat, request.user),
            "tournament_round": frames.tournament_round(match.pk),
        }
    )
    return render(request, "game/match.html", context)


def game_page(suffix):
    """The view at ``match/<id>/<suffix>`` for a match's two players: the match's own game's
    (``Presentation.player_views``), called as ``view(request, match, seat, projected)`` where
    ``projected()`` is every event so far as that seat may see it. A 404 for anyone else, as for a
    match that does not exist, and for a match whose game has no such page."""

    @require_GET
    @login_required
    def page(request, match_id):
        match = get_object_or_404(Match, pk=match_id)
        seat = match.seat_of(request.user)
        views = {own_suffix: view for own_suffix, _name, view in games.get(match.game).web.player_views}
        if seat is None or suffix not in views:
            raise Http404
        return views[suffix](request, match, seat, partial(projected, match, seat))

    return page


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
def move(request, match_id):
    """A move form sent as a plain POST (a page without JavaScript): the same fields, the same
    checks and the same service as the socket's ``form`` frame."""
    match = get_object_or_404(Match, pk=match_id)
    if match.seat_of(request.user) is None:
        raise Http404
    game = games.get(match.game)
    # A field sent more than once (ticked boxes) becomes a list, as the socket's form frames send it.
    fields = {key: values if len(values) > 1 else values[0] for key, values in request.POST.lists()}
    fields.pop("csrfmiddlewaretoken", None)
    try:
        frame = parse(json.dumps({**fields, "type": "form"}), match.pk, game.web.form_command)
        services.apply_command(match.pk, request.user, frame["id"], frame["version"], frame["command"])
    except (ProtocolError, services.ServiceError) as error:
        messages.error(request, presenter.refusal_text(game, error.code, error.message))
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


def _settled(request, match_id, service, done):
    """A POST beside the socket that ends the match for its player (``service(match_id, user)``)."""
    match = get_object_or_404(Match, pk=match_id)
    if match.seat_of(request.user) is None:
        raise Http404
    try:
        service(match.pk, request.user)
    except services.ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, done)
    return redirect("game:match", match_id=match.pk)


@require_POST
@login_required
def abort(request, match_id):
    """End the match without a result (against the computer, or an opponent long gone)."""
    return _settled(request, match_id, fairness.abort, _("The match was aborted: no result."))


@require_POST
@login_required
def claim(request, match_id):
    """Claim the win from an opponent who has been away longer than the clock allows."""
    return _settled(request, match_id, fairness.claim_win, _("You claimed the win."))


def _chat_form(request, match_id, act):
    """A chat form posted without the socket (no JavaScript): ``act(match)``, then back to the page."""
    match, _invite = watchable_match(request, match_id)
    try:
        act(match)
    except services.ServiceError as error:
        messages.error(request, error.message)
    return redirect("game:match", match_id=match.pk)


@require_POST
@login_required
def chat_post(request, match_id):
    return _chat_form(request, match_id, lambda match: chat.post(match, request.user, request.POST.get("text", "")))


@require_POST
@login_required
def chat_mute(request, match_id):
    on = request.POST.get("mute", "on") != "off"
    return _chat_form(request, match_id, lambda match: chat.mute(request.user, request.POST.get("user", ""), on))


@require_safe
def how_to_play(request, name):
    """A game's rules for people: the goal, a turn, the pieces, what each side sees."""
    try:
        game = games.get(name)
    except games.UnknownGame:
        raise Http404 from None
    if game.web.how_to_play is None:
        raise Http404
    context = {"game": game, "body": game.web.how_to_play, **game.web.how_to_play_context()}
    return render(request, "game/how_to_play.html", context)


@require_http_methods(["GET", "POST"])
@login_required
def tutorial(request, name):
    """Start ``name``'s tutorial (POST; ``restart``: the tutorial match it replaces, aborted first),
    or go back to the one under way. A GET (a login's way back) leads to the how-to page, where the
    button is."""
    try:
        game = games.get(name)
    except games.UnknownGame:
        raise Http404 from None
    if game.tutorial is None:
        raise Http404
    if request.method == "GET":
        return redirect(reverse("game:how_to_play", args=[name]) + "#tutorial")
    restart = request.POST.get("restart", "")
    _leave_tutorial(restart, request.user)
    going = Match.objects.filter(host=request.user, game=name, tutorial=True, status=Match.Status.LIVE).first()
    if going is not None and not restart:
        return redirect("game:match", match_id=going.pk)  # the one under way, where it stands
    try:
        match = start_tutorial(request.user, name)
    except services.ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game:match", match_id=match.pk)


@require_POST
@login_required
def tutorial_leave(request, match_id):
    """Leave a tutorial midway: its match ends without a result; back to the game's how-to page."""
    match = get_object_or_404(Match, pk=match_id, tutorial=True)
    if match.seat_of(request.user) is None:
        raise Http404
    _leave_tutorial(str(match.pk), request.user)
    return redirect("game:how_to_play", name=match.game)


def _leave_tutorial(match_id, user):
    """Abort ``user``'s live tutorial ``match_id`` (a string from a form); anything else is left as is."""
    if not match_id.isdigit():
        return
    match = Match.objects.filter(pk=int(match_id), tutorial=True, host=user, status=Match.Status.LIVE).first()
    if match is not None:
        try:
            fairness.abort(match.pk, user)
        except services.ServiceError:
            pass  # it ended meanwhile: nothing to leave
