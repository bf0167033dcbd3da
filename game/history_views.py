"""Finished matches: the history lists and a match's summary (rounds, teams, HP chart).

Only finished matches appear here, and a finished match hides nothing any more (its audience is
``"all"``), so these pages may show every species. A live match is never listed and has no summary.
"""
from django import forms
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from . import engine, frames
from .access import may_watch
from .chart import round_chart
from .games.aquawar.contest import notes
from .log import MATCH_END_REASONS, ROUND_END_REASONS
from .models import Match
from .replays import hp_series
from .species_text import image as fish_image
from .species_text import name as species_name

PAGE_SIZE = 20


class HistoryFilter(forms.Form):
    # Only characters a username may hold: anything else names nobody (and NUL would upset PostgreSQL).
    player = forms.RegexField(label=gettext_lazy("Player"), regex=r"^[\w.@+-]+\Z", required=False, max_length=150)
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        required=False,
        choices=[("any", gettext_lazy("Any")), ("won", gettext_lazy("Won")), ("lost", gettext_lazy("Lost"))],
    )


def finished_matches(viewer):
    """Finished matches ``viewer`` may see: public ones, and private ones they played in."""
    visible = Q(private=False)
    if viewer.is_authenticated:
        visible |= Q(host=viewer) | Q(guest=viewer)
    return Match.objects.filter(visible, status=Match.Status.FINISHED).select_related("host", "guest")


def won_by(player):
    return Q(host=player, winner=0) | Q(guest=player, winner=1)


def lost_by(player):
    return Q(host=player, winner=1) | Q(guest=player, winner=0)


def history_row(match, player):
    """What a history table shows of one finished match, from ``player``'s side when one is chosen."""
    seen = engine.view(engine.MatchState.from_json(match.state), "all")
    names = frames.players(match)
    accounts = [None, None] if match.imported else [match.host, match.guest]
    row = {
        "match": match,
        "sides": [{"name": name, "account": account} for name, account in zip(names, accounts)],
        "winner": names[match.winner] if match.winner is not None else None,
        "score": seen["score"],
        "turns": sum(r["turns"] for r in seen["rounds"]),
        "reason": MATCH_END_REASONS.get(match.end_reason, match.end_reason),
    }
    seat = match.seat_of(player) if player else None
    if seat is not None:
        row["result"] = "won" if match.winner == seat else "lost"
        row["opponent"] = row["sides"][1 - seat]
    return row


def history_page(request, owner=None):
    """``owner``: the player a /users/<name>/history/ path names; otherwise ``?player=`` may pick one."""
    player = owner
    form = HistoryFilter(request.GET)
    # A bad value drops out of cleaned_data on its own; the other filters still apply.
    form.is_valid()
    matches = finished_matches(request.user)
    result = form.cleaned_data.get("result")
    name = form.cleaned_data.get("player")
    if player is None and name:
        player = get_user_model().objects.filter(username=name).first()
        if player is None:
            matches = matches.none()
    if player is not None:
        matches = matches.filter(Q(host=player) | Q(guest=player))
        if result == "won":
            matches = matches.filter(won_by(player))
        elif result == "lost":
            matches = matches.filter(lost_by(player))
    page = Paginator(matches.order_by("-finished", "-pk"), PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "owner": owner,
        "player": player,
        "page": page,
        "rows": [history_row(match, player) for match in page],
        "query": query.urlencode(),
    }
    return render(request, "history/list.html", context)


@require_safe
def history(request):
    return history_page(request)


@require_safe
def user_history(request, username):
    return history_page(request, get_object_or_404(get_user_model(), username=username))


def finished_match(request, match_id):
    """The finished match ``match_id`` if the viewer may watch it; 404 for anything else."""
    match = frames.load_match(match_id)
    if match is None or not may_watch(match, request.user, request.GET.get("invite")):
        raise Http404
    if match.status != Match.Status.FINISHED:
        raise Http404
    return match


def official_notes(match, names):
    """An imported official replay's departures from the rules, worded; None for any other match."""
    if match.official_notes is None:
        return None
    return [notes.describe(note, names) for note in match.official_notes]


def team(pick):
    if pick is None:
        return None
    return [
        {
            "species": species,
            "name": species_name(species),
            "image": fish_image(species),
            "mimic_of": species_name(pick["mimic"]) if species == "mimic_fish" and pick["mimic"] else None,
        }
        for species in pick["fish"]
    ]


def round_rows(seen, names, series):
    """Every round that had a team picked, the one a resignation cut short included."""
    pairs = list(seen["past_picks"])
    if seen["end_reason"] != "rounds" and any(seen["picks"]):
        # The engine files a round's picks under past_picks only when the round ends.
        pairs.append(seen["picks"])
    rounds = []
    for index, pair in enumerate(pairs):
        played = seen["rounds"][index] if index < len(seen["rounds"]) else None
        first_mover = played["first_mover"] if played else seen["first_mover"]
        rounds.append(
            {
                "number": index + 1,
                "winner": names[played["winner"]] if played else None,
                "turns": played["turns"] if played else None,
                "reason": ROUND_END_REASONS.get(played["reason"], played["reason"]) if played else None,
                "first_mover": names[first_mover] if first_mover is not None else None,
                "teams": [{"name": names[side], "fish": team(pair[side])} for side in (0, 1)],
                "chart": round_chart(series[index]) if index < len(series) else None,
            }
        )
    return rounds


@require_safe
def summary(request, match_id):
    match = finished_match(request, match_id)
    seen = engine.view(engine.MatchState.from_json(match.state), "all")
    names = frames.players(match)
    context = {
        "match": match,
        "names": names,
        "score": seen["score"],
        "winner": names[match.winner],
        "reason": MATCH_END_REASONS.get(match.end_reason, match.end_reason),
        "rounds": round_rows(seen, names, hp_series(match)),
        "official_notes": official_notes(match, names),
        "invite": request.GET.get("invite") if match.private else None,
        "title": _("Match %(id)s: summary") % {"id": match.pk},
    }
    return render(request, "history/summary.html", context)
