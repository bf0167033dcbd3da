"""The 三国 pages: the list of games (recruiting and running), creating one, and a game's page for
each audience — its game master, a seated player, anyone else (a spectator). Every form posts to
``sanguo.services`` and comes back to the page (post/redirect/get); what a page shows of a running
game is the engine's ``view`` and ``project`` for the viewer's audience, and nothing else."""
import json
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from game.chat import service as game_chat
from game.errors import ServiceError
from game.games.three_kingdoms import engine

from . import access, chat, console, data, known, notices, player, records, services, texts
from .models import MODES, SIZES, Event, Game, Seat

MODE_NAMES = {"standard": "标准局", "solo": "孤单英雄局", "nine": "王侯将相局", "crowd": "群英荟萃局"}
# The game data's forms on the recruiting page, each the engine's ``setup`` of its parts.
DATA_FORMS = {"character": data.character_command, "identifications": data.identifications_command,
              "natural_deaths": data.natural_deaths_command,
              "durations": lambda state, post: data.durations_command(console.durations(post))}
# How many of the game's latest events a page lists.
LOG_LENGTH = 60


def lobby(request):
    visible = Game.objects.filter(private=False, status__in=(Game.Status.RECRUITING, Game.Status.LIVE))
    mine = Game.objects.none()
    if request.user.is_authenticated:
        mine = (Game.objects.filter(gm=request.user) | Game.objects.filter(seats__user=request.user)).distinct()
        mine = mine.exclude(status=Game.Status.CANCELLED).order_by("-updated")[:30]
    finished = Game.objects.filter(private=False, status=Game.Status.FINISHED).select_related("gm")
    return render(request, "sanguo/lobby.html", {
        "games": visible.select_related("gm").order_by("-created")[:50], "mine": mine,
        "finished": finished.order_by("-finished")[:50],
        "modes": [(m, MODE_NAMES[m]) for m in MODES], "sizes": SIZES,
        "phases": [(phase, texts.phase(phase), engine.DEFAULT_DURATIONS[phase] // 60) for phase in services.PHASES],
        "mode_names": MODE_NAMES,
    })


@login_required
@require_POST
def create(request):
    try:
        characters = int(request.POST.get("characters") or 27)
        row = services.create_game(
            request.user, mode=request.POST.get("mode", ""), characters=characters,
            durations=console.durations(request.POST), private=bool(request.POST.get("private")),
            title=request.POST.get("title", ""),
        )
    except (ServiceError, ValueError) as refused:
        messages.error(request, getattr(refused, "message", _("Choose a mode.")))
        return redirect("sanguo:lobby")
    return redirect("sanguo:game", game_id=row.pk)


def _log(row, audience):
    """The latest events as ``audience`` may see them (the engine's ``project``), newest first.
    Versions are not shown: their gaps would count what the viewer may not see."""
    rows = Event.objects.filter(game=row).order_by("-version")[:LOG_LENGTH]
    return [event for e in rows for event in engine.project(e.events, audience)]


def _player(row, view, seat):
    """The seat's part of the page: its forms by character (``sanguo.player``), and its feedback,
    asked choices and the cutoffs in words."""
    now = services.clock()
    forms = player.Seat(row.state, seat, now)
    ballots = _own_ballots(e for stored in Event.objects.filter(game=row, version__gte=row.phase_opened).order_by("version")
                           for e in engine.project(stored.events, seat))
    asked = forms.asked()
    answered = {f["body"]["decision"] for f in asked}
    until = view["revision_until"]
    return {
        "characters": forms.characters(view, ballots), "asked": asked, "peace": forms.peace(),
        "immediate_until": forms.immediate_until(), "immediate_open": forms.immediate_open(),
        "revision_until": player.moment(until) if until else None,
        "feedback": [texts.feedback(f) for f in view["feedback"]],
        "known": known.lines(Event.objects.filter(game=row).order_by("version").values_list("actor", "command", "events"),
                             seat),
        "unanswerable": [texts.decision(d) for d in view["pending"] if d["key"] not in answered],
    }


def _own_ballots(seen):
    """The seat's ballots this phase, by character, from its own events since the phase opened
    (the view keeps ballots secret, its own too)."""
    ballots = {}
    for e in seen:
        if e["type"] == "submitted" and e.get("action") == "vote":
            ballots[e["character"]] = texts.choice_label("vote", e["detail"])
    return ballots


def _announced(view):
    """The announcements and public ballots of ``view``, in words, as the game's page shows them."""
    return {"announcements": [(a["night"], texts.announcement(a)) for a in reversed(view.get("announcements", []))],
            "ballots": texts.ballots(view.get("ballots") or {})}


def game_page(request, game_id):
    row = Game.objects.select_related("gm").filter(pk=game_id).first()
    if row is None or row.status == Game.Status.CANCELLED and request.user.pk != row.gm_id:
        raise Http404
    if not access.may_see(row, request.user, request.GET.get("invite")):
        raise Http404
    return _render_game(request, row)


def _render_game(request, row, preview=None):
    audience = access.audience(row, request.user)
    view = engine.view(row.state, audience)
    seats = list(Seat.objects.filter(game=row).select_related("user"))
    context = {
        "game": row, "audience": audience, "view": view, "mode_name": MODE_NAMES[row.mode],
        "is_gm": audience == "gm", "seat": audience if isinstance(audience, int) else None,
        "signed_up": any(s.user_id == request.user.pk for s in seats), "places": seats,
        "seat_numbers": range(row.seat_count), "log": [texts.event(e, audience) for e in _log(row, audience)],
        **_announced(view),
        "phase_title": texts.phase_title(view["night"], view["phase"]),
        "invite": request.GET.get("invite", ""),
    }
    if row.status == Game.Status.LIVE and isinstance(audience, int):
        context["player"] = _player(row, view, audience)
    if audience == "gm" and row.status == Game.Status.RECRUITING:
        context.update(character_forms=data.character_forms(row.state), timings=data.TIMINGS,
                       effect_kinds=data.EFFECT_KINDS, placeholders=data.PLACEHOLDERS,
                       identification_rows=data.identification_rows(row.state),
                       identification_kinds=data.IDENTIFICATION_KINDS,
                       identification_checks=data.EVALUATIONS + data.IDENTITIES,
                       natural_death_rows=data.natural_death_rows(row.state),
                       duration_rows=data.duration_rows(row.state), countries=console.COUNTRIES,
                       character_names=list(row.state["data"]["characters"]))
    if audience == "gm" and row.status == Game.Status.LIVE:
        context["console"] = dict(console.context(row, view), preview=preview, host=request.user.pk == row.gm_id)
    if row.status != Game.Status.CANCELLED:
        context["chat"] = chat.panel(row, audience, request.user, request.GET.get("chat", ""),
                                     view if isinstance(audience, int) else None)
    if request.user.is_authenticated:
        context["notices"] = notices.unseen(request.user, row)
    return render(request, "sanguo/game.html", context)


def _back_to(game_id, **query):
    target = redirect("sanguo:game", game_id=game_id)
    query = {k: v for k, v in query.items() if v}
    if query:
        target["Location"] += "?" + urlencode(query)
    return target


@login_required
@require_POST
def chat_post(request, game_id):
    """A chat line: back to the page on its channel, or for the page's script a JSON answer (the
    line itself comes with the page's next fetch, which the socket rings for)."""
    channel, invite = request.POST.get("channel", ""), request.POST.get("invite", "")
    fetched = request.headers.get("X-Requested-With") == "fetch"
    try:
        services.post_message(game_id, request.user, channel, request.POST.get("text", ""), invite)
    except ServiceError as refused:
        if fetched:
            return JsonResponse({"error": refused.message}, status=400)
        messages.error(request, refused.message)
    if fetched:
        return JsonResponse({"ok": True})
    target = _back_to(game_id, invite=invite, chat=chat.ref(game_id, channel))
    target["Location"] += "#sanguo-chat"
    return target


@login_required
@require_POST
def chat_mute(request, game_id):
    """Mute (``mute=off``: unmute) a person's chat lines for the viewer: the match chat's mutes, so
    here and beside every match alike. Back to the page on the channel it was sent from."""
    row = _visible_game(request, game_id)
    try:
        game_chat.mute(request.user, request.POST.get("user", ""), request.POST.get("mute", "on") != "off")
    except ServiceError as refused:
        messages.error(request, refused.message)
    target = _back_to(row.pk, invite=request.GET.get("invite", ""), chat=request.POST.get("chat", ""))
    target["Location"] += "#sanguo-chat"
    return target


@login_required
@require_POST
def act(request, game_id):
    """Every form of the game's page: ``do`` names the service, the rest its arguments."""
    do = request.POST.get("do", "")
    user = request.user
    try:
        if do == "sign_up":
            services.sign_up(game_id, user, request.POST.get("invite"))
        elif do == "leave":
            services.leave(game_id, user)
        elif do == "assign":
            seat = request.POST.get("seat", "")
            services.assign_seat(game_id, user, int(request.POST.get("user", 0)), int(seat) if seat else None)
        elif do == "randomise":
            services.randomise_seats(game_id, user)
        elif do == "import":
            upload = request.FILES.get("file")
            text = upload.read().decode("utf-8", "replace") if upload else request.POST.get("data", "")
            services.import_game_data(game_id, user, text)
        elif do in DATA_FORMS:
            services.command(game_id, user, "", _data_command(game_id, user, do, request.POST))
        elif do == "start":
            services.start(game_id, user)
        elif do == "cancel":
            services.cancel(game_id, user)
        elif do in console.FORMS:
            services.command(game_id, user, "", console.FORMS[do](request.POST))
        elif do == "share":
            services.share_console(game_id, user, request.POST.get("username", ""))
        elif do == "preview":
            return _preview(request, game_id)
        elif do == "play":
            services.command(game_id, user, "", _played(game_id, user, request.POST))
        elif do == "command":
            services.command(game_id, user, request.POST.get("client_id", ""), _console_command(game_id, user, request.POST))
        else:
            raise ServiceError("bad_request", _("Nothing to do."))
    except ServiceError as refused:
        messages.error(request, refused.message)
    except ValueError:
        messages.error(request, _("Choose one of the game's seats."))
    return _back_to(game_id, invite=request.POST.get("invite"))


def _data_command(game_id, user, do, post):
    """A game data form's ``setup``, read against the data as it is; the game master's only, so a
    refusal's message (which reads the data) tells nobody else anything of it."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or access.audience(row, user) != "gm":
        raise ServiceError("not_gm", _("Only the game master can do that."))
    return DATA_FORMS[do](row.state, post)


def _console_command(game_id, user, post):
    """The console's box for any GM command. The GM's only: a seat's commands come from its forms
    (``sanguo.player``), since the engine's refusal of a command nobody offered may tell what the
    seat may not know (whose a decision is, which exist)."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or access.audience(row, user) != "gm":
        raise ServiceError("not_gm", _("Only the game master can do that."))
    try:
        return json.loads(post.get("command", ""))
    except ValueError:
        raise ServiceError("bad_command", _("A command is a JSON object.")) from None


def _played(game_id, user, post):
    """The command a seat's form on the page stands for (``sanguo.player``), read from the game now."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or row.status != Game.Status.LIVE:
        raise ServiceError("not_live", _("The game is not running."))
    seat = access.audience(row, user)
    if not isinstance(seat, int):
        raise ServiceError("not_a_player", _("Only the game's players and its game master can act in it."))
    return player.Seat(row.state, seat, services.clock()).command(post)


def _preview(request, game_id):
    """The console's page with what a feedback or an announcement will read like to its audience,
    nothing sent: rendered in answer to the post, so the text travels in no URL."""
    row = Game.objects.select_related("gm").filter(pk=game_id).first()
    if row is None or row.status != Game.Status.LIVE or access.audience(row, request.user) != "gm":
        raise ServiceError("not_gm", _("Only the game master can do that."))
    what = request.POST.get("what")
    if what not in ("feedback", "announce"):
        raise ServiceError("bad_request", _("Nothing to do."))
    command = console.FORMS[what](request.POST)
    shown = console.preview(row.state, command, services.clock())
    return _render_game(request, row, dict(shown, what=what, text=request.POST.get("text", ""),
                                           id=command[what].get("id")))


def starter(request, game_id):
    """The game data to start from (``sanguo.data.starter``), for the game master (or co-GM) to edit
    and import."""
    row = Game.objects.filter(pk=game_id).first()
    if row is None or not access.is_game_master(row, request.user):
        raise Http404
    body = json.dumps(data.starter(row.state), ensure_ascii=False, indent=1)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sanguo-{row.pk}-data.json"'
    return response


def _visible_game(request, game_id):
    row = Game.objects.select_related("gm").filter(pk=game_id).first()
    if row is None or row.status == Game.Status.CANCELLED or not access.may_see(row, request.user,
                                                                                 request.GET.get("invite")):
        raise Http404
    return row


def record(request, game_id):
    """The game's record: its game master's and co-GM's at any time, everyone's once it is over."""
    row = _visible_game(request, game_id)
    if not access.may_download(row, request.user):
        raise Http404
    body = json.dumps(records.make_record(row), ensure_ascii=False)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sanguo-{row.pk}.json"'
    return response


@login_required
@require_POST
def import_record(request):
    upload = request.FILES.get("record")
    if upload is None:
        messages.error(request, _("Choose a record file."))
        return redirect("sanguo:lobby")
    try:
        row = records.import_record(request.user, upload.read(records.MAX_BYTES + 1))
    except ServiceError as refused:
        messages.error(request, refused.message)
        return redirect("sanguo:lobby")
    return redirect("sanguo:game", game_id=row.pk)


def _replay_feedback(view):
    """The feedback the step's audience had received by then: a seat's own; every seat's, named,
    for whoever sees everything; none for spectators."""
    if "internal" in view:
        return [_("Seat %(seat)s · %(line)s") % {"seat": seat, "line": texts.feedback(f)}
                for seat, lines in sorted(view["internal"]["feedback"].items(), key=lambda item: int(item[0]))
                for f in lines]
    return [texts.feedback(f) for f in view.get("feedback", [])]


def _since_phase(steps):
    """The events seen in ``steps`` since the last phase opened among them."""
    seen = [e for _state, events in steps for e in events]
    opened = max((i for i, e in enumerate(seen) if e["type"] == "phase"), default=-1)
    return seen[opened + 1:]


def _audience_named(text):
    return int(text) if text.isdigit() else text


def replay(request, game_id):
    """The game step by step as one audience saw it (``?as=``, ``?step=``): a viewer's own audience
    while it runs (every one for its game master), every audience once it is over."""
    row = _visible_game(request, game_id)
    own = access.audience(row, request.user)
    allowed = records.audiences_for(row, own)
    chosen = _audience_named(request.GET.get("as", str(allowed[0])))
    if chosen not in allowed:
        raise Http404
    steps = records.replay_steps(row, chosen)
    try:
        step = min(max(int(request.GET.get("step", len(steps))), 1), len(steps)) if steps else 0
    except ValueError:
        step = len(steps)
    state, seen = steps[step - 1] if steps else (row.state, [])
    shown = "gm" if chosen == "all" and state["phase"] != "over" else chosen
    view = engine.view(state, shown)
    return render(request, "sanguo/replay.html", {
        "game": row, "audience": chosen, "audiences": allowed, "step": step, "count": len(steps),
        "view": view, "mode_name": MODE_NAMES[row.mode], **_announced(view),
        "feedback": _replay_feedback(view), "step_ballots": _own_ballots(_since_phase(steps[:step])),
        "seen": [texts.event(e, chosen) for e in seen], "phase_title": texts.phase_title(state["night"], state["phase"]),
        "previous": step - 1 if step > 1 else None, "next": step + 1 if step < len(steps) else None,
        "may_download": access.may_download(row, request.user), "invite": request.GET.get("invite", ""),
        # The chat as the viewer may read it now (not as the chosen audience): their own channels
        # while the game runs, every channel once it is over. Read only: lines are written on the
        # game's page.
        "chat": dict(chat.panel(row, own, request.user, request.GET.get("chat", "")), can_post=False),
    })
