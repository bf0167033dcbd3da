"""Quick pairing's pages: "Play now" (a seek), the waiting page, its poll, and cancelling."""
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from game import games
from game.services import ServiceError
from lobby.views import login_url, member_post

from . import pairing
from .forms import PlayNowForm


def _match_url(match_id):
    return reverse("game:match", args=[match_id])


@member_post
def play_now(request):
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        messages.error(request, next(iter(form.errors.values()))[0] if form.errors else _("Choose a game."))
        return redirect("lobby")
    try:
        seek = pairing.seek(
            request.user,
            game=form.cleaned_data["game"],
            **form.time_control,
            rated=form.cleaned_data["rated"],
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("ratings:waiting" if error.code == "already_seeking" else "lobby")
    if seek.match_id is not None:
        pairing.poll(request.user)
        return redirect(_match_url(seek.match_id))
    return redirect("ratings:waiting")


@require_safe
def waiting(request):
    if not request.user.is_authenticated:
        return redirect(login_url(request.path))
    status, match_id = pairing.poll(request.user)
    if status == "paired":
        return redirect(_match_url(match_id))
    if status == "none":
        return redirect("lobby")
    seek = pairing.waiting(request.user)
    context = {"seek": seek, "game": games.get(seek.game), "poll_seconds": pairing.POLL_SECONDS}
    return render(request, "ratings/waiting.html", context)


@require_safe
def waiting_status(request):
    """The waiting page's poll (htmx): 204 while waiting; once paired (or gone), htmx is told to go
    to the match (or the lobby)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=403)
    status, match_id = pairing.poll(request.user)
    if status == "waiting":
        return HttpResponse(status=204)
    response = HttpResponse(status=204)
    response["HX-Redirect"] = _match_url(match_id) if status == "paired" else reverse("lobby")
    return response


@member_post
def cancel(request):
    match_id = pairing.cancel(request.user)
    if match_id is not None:
        messages.info(request, _("An opponent was found just before you cancelled."))
        return redirect(_match_url(match_id))
    messages.success(request, _("You left the pool."))
    return redirect("lobby")
