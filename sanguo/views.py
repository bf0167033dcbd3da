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

from game.errors import ServiceError
from game.games.three_kingdoms import engine

from . import access, chat, data, notices, records, services
from .models import MODES, SIZES, Event, Game, Seat

MODE_NAMES = {"standard": "标准局", "solo": "孤单英雄局", "nine": "王侯将相局", "crowd": "群英荟萃局"}
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
        "modes": [(m, MODE_NAMES[m]) for m in MODES], "sizes": SIZES, "phases": services.PHASES,
        "mode_names": MODE_NAMES,
    })


def _durations(post):
    durations = {}
    for phase in services.PHASES:
        minutes = post.get(f"minutes_{phase}", "").strip()
        if minutes:
            try:
                durations[phase] = round(float(minutes) * 60)
            except ValueError:
                raise ServiceError("bad_durations", _("Each phase lasts from one minute to 14 days.")) from None
    return durations


@login_required
@require_POST
def create(request):
    try:
        characters = int(request.POST.get("characters") or 27)
        row = services.create_game(
            request.user, mode=request.POST.get("mode", ""), characters=characters,
            durations=_durations(request.POST), private=bool(request.POST.get("private")),
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


def _gm_feedback(post):
    try:
        ident = int(post.get("id", ""))
    except ValueError:
        raise ServiceError("bad_feedback", _("Choose an ID.")) from None
    return {"feedback": {"id": ident, "text": post.get("text", "")}}


# The console's forms besides the raw command box: each builds one GM command of the engine.
GM_FORMS = {
    "feedback": _gm_feedback,
    "announce": lambda post: {"announce": {"text": post.get("text", "")}},
    "advance": lambda post: {"advance": {"reason": post.get("reason", "")}},
}


def _decisions(view, state):
    """The GM's pending decisions, each with the engine's default answer as an editable command."""
    defaults = {}
    for command in engine.legal_commands(state, "gm"):
        body = command.get("resolve")
        if body is not None:
            defaults.setdefault(body["decision"], json.dumps(command, ensure_ascii=False))
    return [dict(d, answer=defaults.get(d["key"], "")) for d in view["pending"] if d["for"] == "gm"]


def _choices(state, seat):
    """The seat's legal commands now, grouped by the character acting, each with its JSON."""
    groups = {}
    for command in engine.legal_commands(state, seat):
        (kind, body), = command.items()
        if "choose" in body:
            # A family too large to list (the engine's ``choose``) needs a targets picker, not an option.
            continue
        who = body.get("actor") or body.get("voter") or ""
        groups.setdefault(who, []).append({"json": json.dumps(command, ensure_ascii=False),
                                           "label": data.describe(kind, body)})
    return sorted(groups.items())


def game_page(request, game_id):
    row = Game.objects.select_related("gm").filter(pk=game_id).first()
    if row is None or row.status == Game.Status.CANCELLED and request.user.pk != row.gm_id:
        raise Http404
    if not access.may_see(row, request.user, request.GET.get("invite")):
        raise Http404
    audience = access.audience(row, request.user)
    view = engine.view(row.state, audience)
    seats = list(Seat.objects.filter(game=row).select_related("user"))
    context = {
        "game": row, "audience": audience, "view": view, "mode_name": MODE_NAMES[row.mode],
        "is_gm": audience == "gm", "seat": audience if isinstance(audience, int) else None,
        "signed_up": any(s.user_id == request.user.pk for s in seats), "places": seats,
        "seat_numbers": range(row.seat_count), "log": _log(row, audience),
        "invite": request.GET.get("invite", ""),
    }
    if row.status == Game.Status.LIVE and isinstance(audience, int):
        context["choices"] = _choices(row.state, audience)
    if audience == "gm" and row.status == Game.Status.LIVE:
        context["gm_pending"] = _decisions(view, row.state)
        context["ids"] = range(1, len(row.state["slots"]) + 1)
    if row.status in (Game.Status.LIVE, Game.Status.FINISHED):
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
        elif do == "start":
            services.start(game_id, user)
        elif do == "cancel":
            services.cancel(game_id, user)
        elif do in GM_FORMS:
            services.command(game_id, user, "", GM_FORMS[do](request.POST))
        elif do == "command":
            try:
                body = json.loads(request.POST.get("command", ""))
            except ValueError:
                raise ServiceError("bad_command", _("A command is a JSON object.")) from None
            services.command(game_id, user, request.POST.get("client_id", ""), body)
        else:
            raise ServiceError("bad_request", _("Nothing to do."))
    except ServiceError as refused:
        messages.error(request, refused.message)
    except ValueError:
        messages.error(request, _("Choose one of the game's seats."))
    return _back_to(game_id, invite=request.POST.get("invite"))


def starter(request, game_id):
    """The game data to start from (``sanguo.data.starter``), for the game master to edit and import."""
    row = Game.objects.filter(pk=game_id, gm_id=getattr(request.user, "pk", None)).first()
    if row is None:
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
    """The game's record: its game master's at any time, everyone's once it is over."""
    row = _visible_game(request, game_id)
    if not records.may_download(row, request.user):
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
    return render(request, "sanguo/replay.html", {
        "game": row, "audience": chosen, "audiences": allowed, "step": step, "count": len(steps),
        "view": engine.view(state, shown), "seen": seen, "mode_name": MODE_NAMES[row.mode],
        "previous": step - 1 if step > 1 else None, "next": step + 1 if step < len(steps) else None,
        "may_download": records.may_download(row, request.user), "invite": request.GET.get("invite", ""),
    })
