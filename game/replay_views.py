"""The replay viewer, record download and record upload.

The live rule: while a match is being played, a replay shows only what a spectator saw, whatever
``?as=`` asks for and whoever asks (see ``replays.audience_allowed``), and its record cannot be
downloaded at all: the record holds both teams.
"""
import json

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from . import frames, imports, replays
from .access import may_watch
from .engine.record import RecordError
from .history_views import finished_match, official_notes
from .models import Match
from .species_text import image as fish_image
from .species_text import name as species_name


def named_species(steps):
    """Every species id a frame names: the only ones whose names and drawings the page may carry."""
    named = set()
    for step in steps:
        for team in step["view"]["teams"]:
            for fish in team:
                named.update(s for s in (fish["fish"], fish["mimic_of"]) if s)
        for pick in [*step["view"]["picks"], *(p for pair in step["view"]["past_picks"] for p in pair)]:
            if pick:
                named.update(pick["fish"] + ([pick["mimic"]] if pick["mimic"] else []))
    return sorted(named)


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
    audience = replays.audience_allowed(match, request.GET.get("as"))
    steps = replays.replay_frames(match, audience)
    names = frames.players(match)
    species = named_species(steps)
    data = {
        "players": names,
        "audience": audience,
        "frames": steps,
        "species": {s: {"name": str(species_name(s)), "image": fish_image(s)} for s in species},
        "hidden_image": fish_image("hidden"),
        "dead_image": fish_image("dead"),
    }
    context = {
        "match": match,
        "names": names,
        "audience": "0" if audience == 0 else "1" if audience == 1 else audience,
        "perspectives": perspectives(match, names),
        "invite": invite if match.private else None,
        "data": data,
        "rounds": range(1, steps[-1]["view"]["round"] + 1),
        "official_notes": official_notes(match, names),
        "log": [line for step in steps for line in step["lines"] if line],
    }
    return render(request, "history/replay.html", context)


@require_safe
def record_json(request, match_id):
    match = finished_match(request, match_id)
    body = json.dumps(replays.record(match), indent=1)
    response = HttpResponse(body, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="aquawar-match-{match.pk}.json"'
    return response


class ImportForm(forms.Form):
    record = forms.FileField(
        label=gettext_lazy("Record or official replay file (at most 2 MB)"),
        widget=forms.FileInput(attrs={"accept": "application/json,.json"}),
    )


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
        except RecordError as refused:
            error = refusal(refused)
        else:
            if match.official_notes is not None:
                messages.success(request, _("Official replay imported as an unranked match."))
            else:
                messages.success(request, _("Record imported as an unranked match."))
            return redirect("history:summary", match_id=match.pk)
    return render(request, "history/import.html", {"form": form, "error": error}, status=400 if error else 200)
