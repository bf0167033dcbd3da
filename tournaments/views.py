from datetime import timedelta

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from game import games
from game.models import Match
from game.programs.seats import bot_account
from game.services import ServiceError
from lobby.views import member_post
from ratings.api import is_program, ratings_of

from . import services, tables
from .forms import TournamentForm
from .models import LadderEntry, Tournament
from .runner import LADDER_MATCHES_AT_ONCE, connected_programs, live_ladder_counts

LIST_LIMIT = 30


@require_safe
def tournament_list(request):
    shown = Tournament.objects.select_related("organizer")
    context = {
        "form": TournamentForm(initial={"starts": timezone.now().replace(second=0, microsecond=0) + timedelta(hours=1)}),
        "upcoming": list(shown.filter(status=Tournament.Status.REGISTRATION).order_by("starts")[:LIST_LIMIT]),
        "running": list(shown.filter(status=Tournament.Status.RUNNING).order_by("starts")[:LIST_LIMIT]),
        "ended": list(
            shown.filter(status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]).order_by("-finished")[:LIST_LIMIT]
        ),
        "ladders": games.every(),
    }
    return render(request, "tournaments/list.html", context)


@member_post
def tournament_new(request):
    form = TournamentForm(request.POST)
    if not form.is_valid():
        first = next(iter(form.errors.values()))[0]
        messages.error(request, first)
        return redirect("tournaments:list")
    data = form.cleaned_data
    # Ticked by default: it enters the organiser where they may play (a person in a tournament for
    # people, a program's account in one for programs), and means nothing in the other kind.
    enter = data["enter"] and is_program(request.user) == form.for_programs
    try:
        tournament = services.create(
            request.user,
            name=data["name"],
            game=data["game"],
            kind=data["kind"],
            for_programs=form.for_programs,
            rated=data["rated"],
            move_seconds=data["move_seconds"],
            bank_seconds=data.get("bank_seconds", 0),
            starts=data["starts"],
            rounds=data["rounds"],
            enter=enter,
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("tournaments:list")
    if enter:
        messages.success(request, _("Tournament created, and you are registered: registration is open until it starts."))
    else:
        messages.success(request, _("Tournament created: registration is open until it starts."))
    return redirect("tournaments:detail", tournament.pk)


def detail_context(request, tournament):
    entries = list(tournament.entries.select_related("player"))
    registered = any(e.player_id == request.user.pk for e in entries) if request.user.is_authenticated else False
    if tournament.status == Tournament.Status.REGISTRATION:
        standing = ratings_of([e.player_id for e in entries], tournament.game)
        table = [(None, e, standing[e.player_id]) for e in entries]
    else:
        table = [(row, entry, None) for row, entry in tables.standings(tournament, entries=entries)]
    rounds = tables.rounds(tournament) if tournament.status != Tournament.Status.REGISTRATION else []
    registration_open = tournament.status == Tournament.Status.REGISTRATION and tournament.starts > timezone.now()
    return {
        "tournament": tournament,
        "game": games.get(tournament.game),
        "table": table,
        "rounds": rounds,
        "your_match": your_match(request.user, rounds),
        "registered": registered,
        # Until the runner's next sweep starts it, a tournament past its start time is closed already.
        "registration_open": registration_open,
        # Only the kind of account the tournament is for sees the button (the services check it too).
        "may_register": (
            request.user.is_authenticated and registration_open and is_program(request.user) == tournament.for_programs
        ),
        "is_organizer": request.user.is_authenticated and request.user.pk == tournament.organizer_id,
        "live": tournament.status in (Tournament.Status.REGISTRATION, Tournament.Status.RUNNING),
    }


def your_match(user, rounds):
    """The viewer's match of the latest round while it is being played (None: no such match)."""
    if not rounds or not user.is_authenticated:
        return None
    _number, pairings = rounds[0]
    for row in pairings:
        if row.match is not None and row.match.status == Match.Status.LIVE and user.pk in (row.first_id, row.second_id):
            return row.match
    return None


@require_safe
def tournament_detail(request, tournament_id):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    return render(request, "tournaments/detail.html", detail_context(request, tournament))


@require_safe
def tournament_live(request, tournament_id):
    """The standings and rounds alone, for the page's polling."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return render(request, "tournaments/detail.html#tournament-live", detail_context(request, tournament))


def _act(request, tournament_id, action, done):
    try:
        action(tournament_id, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        if error.code == "no_tournament":
            return redirect("tournaments:list")
    else:
        messages.success(request, done)
    return redirect("tournaments:detail", tournament_id)


@member_post
def tournament_register(request, tournament_id):
    return _act(request, tournament_id, services.register, _("You are registered."))


@member_post
def tournament_withdraw(request, tournament_id):
    return _act(request, tournament_id, services.withdraw, _("You have withdrawn."))


@member_post
def tournament_cancel(request, tournament_id):
    return _act(request, tournament_id, services.cancel, _("Tournament cancelled."))


@require_safe
def ladder(request, game):
    chosen = _game_or_404(game)
    entries = list(LadderEntry.objects.filter(game=chosen.name).select_related("player"))
    ids = [e.player_id for e in entries]
    standing = ratings_of(ids, chosen.name)
    connected = connected_programs(ids)
    counts = live_ladder_counts(chosen.name)
    rows = sorted(
        ({"entry": e, "rating": standing[e.player_id], "connected": e.player_id in connected,
          "playing": counts.get(e.player_id, 0)} for e in entries),
        key=lambda row: -row["rating"].rating,
    )
    levels = [(label, bot_account(level)) for level, label in chosen.levels.items()]
    level_ratings = ratings_of([user.pk for _label, user in levels], chosen.name)
    context = {
        "game": chosen,
        "rows": rows,
        "levels": [{"label": label, "user": user, "rating": level_ratings[user.pk], "playing": counts.get(user.pk, 0)}
                   for label, user in levels],
        "at_once": LADDER_MATCHES_AT_ONCE,
        "on_ladder": request.user.is_authenticated and request.user.pk in ids,
        "is_program": request.user.is_authenticated and is_program(request.user),
    }
    return render(request, "tournaments/ladder.html", context)


def _game_or_404(name):
    try:
        return games.get(name)
    except games.UnknownGame:
        raise Http404 from None


@member_post
def ladder_join(request, game):
    chosen = _game_or_404(game)
    try:
        services.join_ladder(request.user, chosen.name)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your program is on the ladder: keep its bot socket open to be paired."))
    return redirect("tournaments:ladder", chosen.name)


@member_post
def ladder_leave(request, game):
    chosen = _game_or_404(game)
    if services.leave_ladder(request.user, chosen.name):
        messages.success(request, _("Your program has left the ladder."))
    else:
        messages.error(request, _("Your program is not on this ladder."))
    return redirect("tournaments:ladder", chosen.name)
