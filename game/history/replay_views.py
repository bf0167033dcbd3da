"""The replay viewer, record download and record upload.

The live rule: while a match is being played, a replay shows only what a spectator saw, whatever
``?as=`` asks for and whoever asks (see ``replays.audience_allowed``), and its record cannot be
downloaded at all: the record holds both teams.
"""
import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from .. import games
from ..access import may_watch
from ..chat import service as chat
from ..games.base import RecordError
from ..live import frames, presenter
from ..models import Match
from ..programs import winchances
from . import deltas, imports, replays
from .views import finished_match, source


def perspectives(match, names):
    choices = [("spectator", _("Spectator"))]
    if match.status == Match.Status.FINISHED:
        choices = [
            ("0", _("%(name)s (player A)") % {"name": names[0]}),
            ("1", _("%(name)s (player B)") % {"name": names[1]}),
            *choices,
            ("all", _("Everything")),
        ]
    return choices


@require_safe
def replay(request, match_id):
    match = frames.load_match(match_id)
    invite = request.GET.get("invite")
    if match is None or not may_watch(match, request.user, invite):
        raise Http404
    if match.status not in (Match.Status.LIVE, Match.Status.FINISHED):
        raise Http404
    game = games.get(match.game)
    audience = replays.audience_allowed(match, request.GET.get("as"))
    names = frames.players(match)
    built = viewer(match, game, audience, names)
    # Once the match is over, every step's win chance as the workers stored it (None until they have).
    chances = winchances.series(match)
    context = {
        "match": match,
        "names": names,
        "audience": "0" if audience == 0 else "1" if audience == 1 else audience,
        "perspectives": perspectives(match, names),
        "invite": invite if match.private else None,
        **built,
        "data": {**built["data"], "win_chances": [presenter.win_chance(c)["host"] for _v, c in chances]} if chances else built["data"],
        "win_chance": presenter.win_chance(chances[0][1]) if chances else None,
        "win_chances_pending": winchances.pending(match, chances),
        "parts": game.web.templates,
        "script": game.web.replay_script,
        "source": source(match, names),
        # The chat is shown once the match is over (both rooms then: game/chat/service.py), less
        # the lines of whoever the viewer muted.
        "chat": chat.box(match, None, request.user) if match.status == Match.Status.FINISHED else None,
    }
    return render(request, "history/replay.html", context)


# Long enough that a page visited again is served from the cache; a finished match never changes,
# and a live one is keyed by its version.
REPLAY_CACHE_SECONDS = 3600


def viewer(match, game, audience, names):
    """The replay viewer's data, jump list and plain log for ``audience`` at the match's version,
    in the current language (its log lines and names are words): built once, then cached, since
    replaying a long match costs a second and the page is open to anyone who may watch it."""
    key = f"replay:{match.pk}:{match.version}:{audience}:{get_language()}"
    built = cache.get(key)
    if built is None:
        steps = replays.replay_frames(match, audience)
        drawing = game.web.replay_data(steps, audience)
        built = {
            # Each view as the change from the one before: the page's size follows the record's.
            "data": {"players": names, "audience": audience, "frames": deltas.packed(steps), **drawing["data"]},
            "rounds": list(drawing["rounds"]),
            "log": [line for step in steps for line in step["lines"] if line],
        }
        cache.set(key, built, REPLAY_CACHE_SECONDS)
    return built


@require_safe
def record_json(request, match_id):
    match = finished_match(request, match_id)
    body = json.dumps(replays.record(match), indent=1)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{match.game}-match-{match.pk}.json"'
    return response


def record_formats():
    return ", ".join(game.record_format for game in games.every())


class ImportForm(forms.Form):
    record = forms.FileField(widget=forms.FileInput(attrs={"accept": "application/json,.json"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Every game's format is read (the file's "format" says which game it is of).
        self.fields["record"].label = _("Record file (%(formats)s, at most 2 MB)") % {"formats": record_formats()}


def refusal(error):
    if error.command_index is None:
        return _("The record was refused: %(message)s") % {"message": error.message}
    return _("The record was refused at command %(index)d (counting from 0): %(message)s") % {
        "index": error.command_index,
        "message": error.message,
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_record(request):
    posted = request.method == "POST"
    form = ImportForm(request.POST, request.FILES) if posted else ImportForm()
    error = None
    if posted and form.is_valid():
        upload = form.cleaned_data["record"]
        try:
            # The size is checked before reading, so a huge upload is never pulled into memory.
            imports.check_size(upload.size)
            match = imports.import_record(upload.read(), request.user)
        except imports.AlreadyImported as duplicate:
            # Taken to the match that holds it, told so: nothing new is stored.
            existing = duplicate.match.pk
            messages.info(
                request, _("This record is already here, as match %(id)s: nothing was imported again.") % {"id": existing}
            )
            return redirect("history:summary", match_id=existing)
        except RecordError as refused:
            error = refusal(refused)
        else:
            if match.source is None:
                messages.success(request, _("Record imported as an unranked match."))
            else:
                label = source(match, frames.players(match))["label"]
                messages.success(request, _("Imported as an unranked match: %(what)s.") % {"what": label})
            return redirect("history:summary", match_id=match.pk)
    notes = [game.web.import_note for game in games.every() if game.web.import_note]
    context = {"form": form, "error": error, "formats": record_formats(), "notes": notes}
    return render(request, "history/import.html", context, status=400 if error else 200)
