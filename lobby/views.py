import hashlib
from functools import wraps

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from aquawar_site.security import request_address
from game import games
from game.access import may_watch
from game.history.views import moved
from game.live.presenter import how_to_play_url
from game.models import Match
from game.programs import dispatch, tokens
from game.programs.seats import start_vs_computer
from game.services import ServiceError, cancel_match, create_match, join_match
from game.sweep import sweep_now_and_then

from ratings.api import is_program, ratings_of

from . import challenges, connections
from .challenges import challenge_lists
from .forms import ChallengeForm, NewMatchForm, TokenForm, VsComputerForm, level_choices
from .signups import SignupForm

LIST_LIMIT = 50
PROFILE_LIMIT = 20
# The session key of the game, time control (and level) last chosen in each of the lobby's forms,
# which the lobby offers again.
LAST_CHOICE = "lobby_last_choice"


def remember_choice(request, form_name, cleaned, fields):
    last = dict(request.session.get(LAST_CHOICE, {}))
    last[form_name] = {field: cleaned[field] for field in fields}
    request.session[LAST_CHOICE] = last


def match_url(match):
    return reverse("game:match", args=[match.pk])


def login_url(next_path):
    return f"{reverse('login')}?{urlencode({'next': next_path})}"


def member_post(view):
    """POST only, by a logged-in user.

    An anonymous visitor is sent to log in and then back to the lobby: the action URL itself only
    takes POST, so it can't be the place the login page returns to.
    """

    @require_POST
    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if not request.user.is_authenticated:
            messages.info(request, _("Log in or sign up to play."))
            return redirect(login_url(reverse("lobby")))
        return view(request, *args, **kwargs)

    return wrapper


def match_lists(user):
    """What the lobby shows `user`, plus a digest that changes whenever any of it does. What each
    match's row says besides is read by ``described``, only when the lists are drawn."""
    public_live = Q(status="live", private=False)
    if user.is_authenticated:
        mine = list(
            Match.objects.filter(Q(host=user) | Q(guest=user), status__in=["open", "live"])
            .select_related("host", "guest")
            .order_by("-created")
        )
        open_matches = Match.objects.filter(status="open", private=False).exclude(host=user)
        live = Match.objects.filter(public_live).exclude(host=user).exclude(guest=user)
    else:
        mine = []
        open_matches = Match.objects.filter(status="open", private=False)
        live = Match.objects.filter(public_live)
    open_matches = list(open_matches.select_related("host").order_by("-created")[:LIST_LIMIT])
    live = list(live.select_related("host", "guest").order_by("-updated")[:LIST_LIMIT])
    challenges = challenge_lists(user)
    # Whoever reads it logged in is online, whether or not the count (cached) has seen their socket yet.
    online = max(connections.online_count(), 1 if user.is_authenticated else 0)
    # The version: a live match's score and turn change with every move.
    shown = [(m.pk, m.status, m.guest_id, m.version) for group in (mine, open_matches, live) for m in group]
    shown += [(c.pk, c.status) for group in challenges.values() for c in group]
    digest = hashlib.sha256(repr((shown, online)).encode()).hexdigest()[:16]
    return {
        "my_matches": mine, "open_matches": open_matches, "live_matches": live, "online": online,
        "digest": digest, **challenges,
    }


def described(lists):
    """``lists`` (``match_lists``), each match given what its row shows besides: ``ratings``, each
    seat's ``Standing`` in the match's game (None for an empty seat), and ``progress``, a live
    match's score and turn in its game's words. Two queries per game shown, whatever the number of
    matches; not done for a poll answered "unchanged"."""
    matches = lists["my_matches"] + lists["open_matches"] + lists["live_matches"]
    by_game = {}
    for match in matches:
        by_game.setdefault(match.game, set()).update(filter(None, (match.host_id, match.guest_id)))
    standings = {game: ratings_of(ids, game) for game, ids in by_game.items()}
    for match in matches:
        match.ratings = [standings[match.game].get(seat) for seat in (match.host_id, match.guest_id)]
        match.progress = None
        if match.status == Match.Status.LIVE:
            game = match.game_object
            match.progress = game.web.progress(game.load(match.state))
    return lists


def computer_levels():
    """[(level, label, [(game title, measured rating)])]: the lobby's levels, each with where it
    stands on the rating scale in each game that measured it."""
    measured = {}
    for game in games.every():
        for level, rating in game.level_ratings.items():
            measured.setdefault(level, []).append((game.title, f"{rating:,}"))
    return [(level, label, measured.get(level, [])) for level, label in level_choices()]


@require_safe
def lobby(request):
    # Abandoned matches must not linger in anyone's list; cheap: at most one sweep a minute.
    sweep_now_and_then()
    last = request.session.get(LAST_CHOICE, {})
    lists = match_lists(request.user)
    context = {
        "form": NewMatchForm(initial=last.get("new", {})),
        # Both forms have a time control: distinct ids keep each one's label on its own field.
        "vs_computer_form": VsComputerForm(auto_id="computer_%s", initial=last.get("computer", {})),
        "challenge_form": ChallengeForm(auto_id="challenge_%s", initial=last.get("challenge", {})),
        "computer_available": dispatch.available(),
        "computer_levels": computer_levels(),
        **described(lists),
        # The open matches the person sees waiting here: joined before the lobby's socket listens
        # (the page still loading, the socket reconnecting), the socket tells of it when it connects.
        "news_waiting": [match.pk for match in lists["my_matches"] if match.status == Match.Status.OPEN],
        "guides": [(game.title, how_to_play_url(game)) for game in games.every() if how_to_play_url(game)],
    }
    return render(request, "lobby/lobby.html", context)


@require_safe
def lobby_matches(request):
    context = match_lists(request.user)
    # Swapping identical HTML every few seconds would steal keyboard focus and text selection (the
    # invite links), so an unchanged list answers 204, which htmx leaves alone.
    if request.GET.get("digest") == context["digest"]:
        return HttpResponse(status=204)
    return render(request, "lobby/lobby.html#match-lists", described(context))


@member_post
def match_new(request):
    form = NewMatchForm(request.POST)
    if not form.is_valid():
        if "move_seconds" in form.errors:
            messages.error(request, form.errors["move_seconds"][0])
        elif "game" in form.errors:
            messages.error(request, _("Choose a game."))
        elif "rated" in form.errors:
            messages.error(request, _("Choose a rated or a casual match."))
        else:
            messages.error(request, _("Choose who may join the match."))
        return redirect("lobby")
    remember_choice(request, "new", form.cleaned_data, ("game", "move_seconds", "bank_seconds", "visibility"))
    try:
        match = create_match(
            request.user,
            private=form.private,
            **form.time_control,
            game=form.cleaned_data["game"],
            rated=form.cleaned_data["rated"],
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    if match.private:
        messages.success(request, _("Private match created. Send the invite link below to your opponent."))
    else:
        messages.success(request, _("Match created. It is listed in the lobby until someone joins."))
    return redirect("lobby")


def form_error(form):
    """What a refused game-and-clock form says: its first error, the time control's first."""
    for field in ("move_seconds", "opponent", "game", "rated"):
        if field in form.errors:
            return form.errors[field][0]
    return next(iter(form.errors.values()))[0]


@member_post
def challenge_new(request):
    """A challenge to the player named in the form (the lobby's, or a profile's button)."""
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        messages.error(request, form_error(form))
        return redirect("lobby")
    remember_choice(request, "challenge", form.cleaned_data, ("game", "move_seconds", "bank_seconds"))
    try:
        opponent = challenges.opponent_named(form.cleaned_data["opponent"])
        challenges.challenge(
            request.user, opponent, game=form.cleaned_data["game"], rated=form.cleaned_data["rated"], **form.time_control
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    messages.success(
        request, _("Challenge sent to %(name)s. You will be taken to the match here when they accept.") % {"name": opponent.username}
    )
    return redirect("lobby")


@member_post
def challenge_accept(request, challenge_id):
    try:
        match = challenges.accept(challenge_id, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect(match_url(match))


def _answer(request, action, challenge_id, done):
    try:
        action(challenge_id, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return redirect("lobby")


@member_post
def challenge_decline(request, challenge_id):
    return _answer(request, challenges.decline, challenge_id, _("Challenge declined."))


@member_post
def challenge_cancel(request, challenge_id):
    return _answer(request, challenges.cancel, challenge_id, _("Challenge cancelled."))


def visible_match(request, match_id):
    """The match, if it exists for this user: a private match does not for anyone outside it (no
    invite link reaches these URLs), who gets the same 404 as for an id that was never used."""
    match = get_object_or_404(Match, pk=match_id)
    if not may_watch(match, request.user):
        raise Http404
    return match


@member_post
def match_join(request, match_id):
    match = visible_match(request, match_id)
    if match.private:
        # Only its own players get here: the host, or the guest who joined already.
        messages.error(request, _("This match is private: you can only join it from its invite link."))
        return redirect("lobby")
    return join_and_redirect(request, match)


@member_post
def match_cancel(request, match_id):
    match = visible_match(request, match_id)
    try:
        cancel_match(match, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Match cancelled."))
    return redirect("lobby")


def join_and_redirect(request, match):
    try:
        match = join_match(match, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect(match_url(match))


@require_http_methods(["GET", "HEAD", "POST"])
def invite(request, token):
    match = get_object_or_404(Match.objects.select_related("host", "guest"), invite_token=token)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(login_url(request.path))
        return join_and_redirect(request, match)
    seat = match.seat_of(request.user) if request.user.is_authenticated else None
    return render(request, "lobby/invite.html", {"match": match, "seat": seat})


def local_next(request):
    """The page to return to after signing up: a path on this site, else the lobby."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    # Only absolute paths: redirect() would take a bare word for a URL name and fail to reverse it.
    local = next_url.startswith("/") and url_has_allowed_host_and_scheme(
        next_url, {request.get_host()}, request.is_secure()
    )
    return next_url if local else reverse("lobby")


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    next_url = local_next(request)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignupForm(request.POST if request.method == "POST" else None, address=request_address(request))
    if form.is_bound and form.is_valid():
        user = form.save()
        # Named, as there is more than one backend: django-axes' only watches logins.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(username)s!") % {"username": user.username})
        return redirect(next_url)
    # 429 Too Many Requests when the address has made its share of accounts, as a login lockout.
    status = 429 if form.is_bound and form.refused else 200
    return render(request, "registration/signup.html", {"form": form, "next": next_url}, status=status)


def result_of(match, seat):
    """(label, badge style) of `match` for the player in `seat`; words, not colours, carry it."""
    if match.status == "finished" and match.winner is not None:
        return (_("Won"), "won") if match.winner == seat else (_("Lost"), "lost")
    labels = {"open": _("Waiting"), "live": _("Playing"), "finished": _("Finished"), "aborted": _("Aborted")}
    return labels.get(match.status, match.status), "live" if match.status == "live" else "neutral"


@require_safe
def profile(request, username):
    player = get_object_or_404(get_user_model(), username=username)
    played = Match.objects.filter(Q(host=player) | Q(guest=player))
    # Imported records are unranked (their players are names, not accounts): never in the totals.
    finished = played.filter(status="finished", imported=False)
    won = finished.filter(Q(host=player, winner=0) | Q(guest=player, winner=1)).count()
    lost = finished.filter(Q(host=player, winner=1) | Q(guest=player, winner=0)).count()
    # A private match is listed only to the people in it; it still counts in the totals above.
    visible = Q(private=False)
    if request.user.is_authenticated:
        visible |= Q(host=request.user) | Q(guest=request.user)
    # As in history: no aborted match, nor a finished one a side never moved in (a play-resign loop).
    shown = Q(status__in=[Match.Status.OPEN, Match.Status.LIVE]) | Q(moved(0), moved(1), status=Match.Status.FINISHED)
    recent = played.filter(shown).filter(visible)
    recent = recent.select_related("host", "guest").order_by("-created")[:PROFILE_LIMIT]
    rows = []
    for match in recent:
        seat = match.seat_of(player)
        label, style = result_of(match, seat)
        opponent = match.guest if seat == 0 else match.host
        rows.append({"match": match, "opponent": opponent, "result": label, "style": style})
    context = {"player": player, "played": finished.count(), "won": won, "lost": lost, "rows": rows}
    if request.user.is_authenticated and request.user.pk != player.pk and player.is_active and not is_program(player):
        last = request.session.get(LAST_CHOICE, {}).get("challenge", {})
        context["challenge_form"] = ChallengeForm(auto_id="challenge_%s", initial={**last, "opponent": player.username})
    return render(request, "lobby/profile.html", context)


def profile_url(user):
    return reverse("profile", args=[user.username])


@member_post
def vs_computer(request):
    form = VsComputerForm(request.POST)
    if not form.is_valid():
        if "move_seconds" in form.errors:
            messages.error(request, form.errors["move_seconds"][0])
        else:
            messages.error(request, _("Choose a game.") if "game" in form.errors else _("Choose a level."))
        return redirect("lobby")
    remember_choice(request, "computer", form.cleaned_data, ("game", "move_seconds", "bank_seconds", "level"))
    try:
        match = start_vs_computer(
            request.user,
            form.cleaned_data["level"],
            **form.time_control,
            game=form.cleaned_data["game"],
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect(match_url(match))


@member_post
def token_new(request):
    form = TokenForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the token a name (up to 64 characters)."))
        return redirect(profile_url(request.user))
    try:
        row, token = tokens.create(request.user, form.cleaned_data["name"])
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect(profile_url(request.user))
    # The token is in this one response and nowhere else: not in a redirect's flash message (the
    # cookie message store would keep it in the browser), and never in a cache.
    response = render(request, "lobby/token_created.html", {"row": row, "token": token})
    response["Cache-Control"] = "no-store"
    return response


@member_post
def token_revoke(request, token_id):
    if tokens.revoke(request.user, token_id):
        messages.success(request, _("Token revoked: programs using it can no longer connect."))
    else:
        messages.error(request, _("There is no such token."))
    return redirect(profile_url(request.user))
