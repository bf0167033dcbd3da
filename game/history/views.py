"""Ended matches: the history lists and a finished match's summary (its game's: for Aquawar the
rounds, teams and HP charts).

A finished match hides nothing any more (its audience is ``"all"``), so these pages may show
everything of it. An aborted match (docs/fairness.md) is listed too, marked "Aborted", but shows
nothing of its game: its state may hold a pick the other side never saw, so it has no score, no
turns, no summary and no replay. A live match is never listed and has no summary.

The lists leave out aborted matches and empty ones (finished before both sides made a move: a
resignation or a forfeit, say straight after the computer's first pick) unless asked (``?empty=on``, or ``?result=aborted``): a loop of
"play, resign" made hundreds of them, which would bury every match that was played.
"""
from django import forms
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_safe

from .. import games
from ..access import may_watch
from ..live import frames, presenter
from ..models import Match, MatchEvent
from ..programs import winchances
from .charts import plot
from .replays import steps

PAGE_SIZE = 20


class HistoryFilter(forms.Form):
    # Only characters a username may hold: anything else names nobody (and NUL would upset PostgreSQL).
    player = forms.RegexField(label=gettext_lazy("Player"), regex=r"^[\w.@+-]+\Z", required=False, max_length=150)
    result = forms.ChoiceField(
        label=gettext_lazy("Result"),
        required=False,
        choices=[
            ("any", gettext_lazy("Any")),
            ("won", gettext_lazy("Won")),
            ("lost", gettext_lazy("Lost")),
            ("aborted", gettext_lazy("Aborted")),
        ],
    )
    game = forms.ChoiceField(
        label=gettext_lazy("Game"), required=False, choices=lambda: [("", gettext_lazy("Any")), *games.choices()]
    )
    empty = forms.BooleanField(label=gettext_lazy("Aborted and empty matches too"), required=False)


# Why an aborted match ended without a result (its end_reason; docs/fairness.md).
ABORT_REASONS = {
    "no_first_move": gettext_lazy("no first move in time"),
    "aborted": gettext_lazy("called off against the computer"),
    "opponent_left": gettext_lazy("a player left"),
    "bot_error": gettext_lazy("the computer failed"),
}


def finished_matches(viewer):
    """Finished and aborted matches ``viewer`` may see: public ones, and private ones they played in."""
    visible = Q(private=False)
    if viewer.is_authenticated:
        visible |= Q(host=viewer) | Q(guest=viewer)
    ended = Q(status=Match.Status.FINISHED) | Q(status=Match.Status.ABORTED)
    return Match.objects.filter(visible, ended).select_related("host", "guest")


def moved(seat):
    """Matches in which ``seat`` made a command of the game (a forfeit stored for it is none)."""
    commands = MatchEvent.objects.filter(match=OuterRef("pk"), seat=seat).exclude(command__has_key="resign")
    return Exists(commands)


def played(matches):
    """The finished ``matches`` in which both sides made a move: not ended before one of them did."""
    return matches.filter(moved(0), moved(1), status=Match.Status.FINISHED)


def won_by(player):
    return Q(host=player, winner=0) | Q(guest=player, winner=1)


def lost_by(player):
    return Q(host=player, winner=1) | Q(guest=player, winner=0)


def history_row(match, player):
    """What a history table shows of one ended match, from ``player``'s side when one is chosen."""
    game = games.get(match.game)
    names = frames.players(match)
    accounts = [None, None] if match.imported else [match.host, match.guest]
    row = {
        "match": match,
        "game": game.title,
        "sides": [{"name": name, "account": account} for name, account in zip(names, accounts)],
        "source": source(match, names),
    }
    if match.status == Match.Status.ABORTED:
        # Its state is never read: it may hold a pick the other side never saw.
        row.update(aborted=True, reason=ABORT_REASONS.get(match.end_reason, match.end_reason))
    else:
        facts = game.web.history_facts(game.load(match.state))
        row.update(
            winner=names[match.winner] if match.winner is not None else None,
            score=facts["score"],
            turns=facts["turns"],
            reason=game.web.end_reason(match.end_reason),
        )
    seat = match.seat_of(player) if player else None
    if seat is not None:
        if match.status == Match.Status.ABORTED:
            row["result"] = "aborted"
        else:
            row["result"] = "won" if match.winner == seat else "lost"
            # "Lost 0–2", not the host-first "Lost 2–0": the score reads from the chosen player's side.
            row["score"] = (row["score"][seat], row["score"][1 - seat])
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
    if form.cleaned_data.get("game"):
        matches = matches.filter(game=form.cleaned_data["game"])
    if player is None and name:
        player = get_user_model().objects.filter(username=name).first()
        if player is None:
            matches = matches.none()
    if result == "aborted":
        matches = matches.filter(status=Match.Status.ABORTED)
    elif not form.cleaned_data.get("empty"):
        matches = played(matches)
    if player is not None:
        matches = matches.filter(Q(host=player) | Q(guest=player))
        # Won and lost are results: an aborted match has none (no winner), so it is in neither.
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


def source(match, names):
    """How the match's game names the file it was imported from (``Presentation.describe_source``),
    when that was not a record of the game's own; None for any other match."""
    if match.source is None:
        return None
    return match.game_object.web.describe_source(match.source, names)


@require_safe
def summary(request, match_id):
    match = finished_match(request, match_id)
    game = games.get(match.game)
    state = game.load(match.state)
    names = frames.players(match)
    commands = [(version, seat, command, events) for version, seat, command, _after, events in steps(match)]
    chances = winchances.series(match)
    context = {
        "match": match,
        "names": names,
        "score": game.web.history_facts(state)["score"],
        "winner": names[match.winner],
        "reason": game.web.end_reason(match.end_reason),
        "source": source(match, names),
        "invite": request.GET.get("invite") if match.private else None,
        "title": _("Match %(id)s: summary") % {"id": match.pk},
        "parts": game.web.templates,
        "tournament_round": frames.tournament_round(match.pk),
        **game.web.summary(state, names, commands, plot),
        # None while the workers have not estimated every step yet (the page says so).
        "win_chances": plot([(version, *percentages(chance)) for version, chance in chances], 100) if chances else None,
        "win_chances_pending": winchances.pending(match, chances),
    }
    return render(request, "history/summary.html", context)


def percentages(chance):
    """(host, guest): a win chance in whole per cent, as the spectators' bar shows it."""
    shown = presenter.win_chance(chance)
    return shown["host"], shown["guest"]
