"""A 三国 seat played by a program: the socket ``/ws/sanguo/<id>/bot/`` (docs/bot-api.md, "三国").

Its own socket rather than frames on ``/ws/bot/``: that one is the two-seat match's (a ``Match``,
versions, a 3 s contest clock, a forfeit for any illegal command), none of which 三国 has. What it
keeps of it: the API token and how it is sent, no Origin check (a foreign page cannot produce a
token), the per-account socket limit, the frame rate limit, and the socket closing when its token
is revoked.

A seat gets what its page shows it and no more: the engine's ``view`` for its audience
(``access.audience``), its ``legal`` commands at the server's clock now, and a fresh ``state`` only
when that view changes (``access.digest``, as the page's socket does). No version travels: the
game's version counts every seat's submissions, so it would tell a seat when the others acted. A
seat's command goes on only if its page would offer it (``offered``), then to ``services.command``,
the one service layer; a refusal changes nothing and is answered with an ``error`` — no forfeit,
unlike a match's program seat, as a person's page refuses a stale form. The process's recheck
(sanguo/live.py) rings it for a doorbell a Redis restart lost.

Its messages are in the language the program asks for in its handshake's ``Accept-Language``, read
as the site's page sockets read it (``page_language``); a program that asks none reads English, as
on ``/ws/bot/``. The ``welcome`` frame says which.
"""
import asyncio
import json
from datetime import datetime, timezone as tz

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from game.errors import ServiceError
from game.games.three_kingdoms import engine
from game.live import presence, recheck
from game.live.consumers import page_language
from game.live.protocol import MAX_FRAME_BYTES, ProtocolError, _client_id
from game.live.ratelimit import FrameRate
from game.programs import tokens
from game.programs.protocol import INVITE_TOKEN, token_from
from game.programs.socket import TOO_MANY, UNAUTHORIZED, account_group

from . import access, services
from .live import Watched, game_group, read_after
from .models import Event, Game, Seat

TYPES = ("hello", "sign_up", "leave", "command")


def parse(text, game_id):
    """A checked frame ``{"type", ...}`` for the socket of game ``game_id``, or ``ProtocolError``.
    Pure: text in, request out."""
    if text is None:
        raise ProtocolError("binary_frame", _("Send text frames with JSON in them."))
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", _("Frames are limited to %(bytes)d bytes.") % {"bytes": MAX_FRAME_BYTES})
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json", _("That frame is not valid JSON.")) from None
    if not isinstance(frame, dict):
        raise ProtocolError("bad_frame", _("A frame is a JSON object with a \"type\"."))
    kind = frame.get("type")
    if kind not in TYPES:
        raise ProtocolError("unknown_type", _("Unknown frame type; expected one of: %(types)s.")
                            % {"types": ", ".join(TYPES)})
    if "game" in frame and frame["game"] != game_id:
        raise ProtocolError("wrong_game", _("This socket is for game %(game)d.") % {"game": game_id})
    if kind == "sign_up":
        invite = frame.get("invite")
        if invite is not None and not (isinstance(invite, str) and INVITE_TOKEN.fullmatch(invite)):
            raise ProtocolError("bad_field", _("\"invite\" must be the game's invite token."))
        return {"type": "sign_up", "invite": invite}
    if kind != "command":
        return {"type": kind}
    try:
        client_id = _client_id(frame)
    except ProtocolError as error:
        error.message = _("\"id\" must be 1 to 64 letters, digits or any of . _ : -")
        raise
    if not isinstance(frame.get("command"), dict):
        raise ProtocolError("bad_field", _("\"command\" must be a JSON object."), client_id)
    return {"type": "command", "id": client_id, "command": frame["command"]}


def _moment(seconds):
    return datetime.fromtimestamp(seconds, tz=tz.utc).isoformat() if seconds else None


def state_of(row, user, audience):
    """What ``user`` (of ``audience``) sees of the game now, as a ``state`` frame's body."""
    actor = services.actor_of(row, user)
    # While it recruits, each sign-up is news (what the page shows everyone): how full the game is.
    body = {"game": row.pk, "status": row.status, "seat": actor, "seats": row.seat_count,
            "signed_up": Seat.objects.filter(game=row).count(), "phase": None, "deadline": None, "view": None,
            "legal": []}
    if row.status in (Game.Status.RECRUITING, Game.Status.CANCELLED):
        return body
    view = engine.view(row.state, audience)
    legal = engine.legal_commands(_now(row), actor) if actor is not None and row.status == Game.Status.LIVE else []
    return dict(body, phase=view["phase"], deadline=_moment(view["deadline"]) if view["phase"] != "over" else None,
                view=view, legal=legal)


def _now(row):
    """The game's state at the server's clock: the engine's clock is the last command's, and the 立刻
    cutoff is judged now, as the page's forms are (sanguo/player.py) and as the service will."""
    return dict(row.state, clock=max(row.state["clock"], services.clock()))


def _canonical(command):
    return json.dumps(command, ensure_ascii=False, sort_keys=True)


def _holder(slot):
    return slot["chain"][slot["holder"]]


def offered(state, seat, command):
    """Whether ``seat``'s page would offer ``command`` now (sanguo/player.py): a listed legal command,
    a target named as the character the seat knows holds that ID (ruling 10) read as the ID; an
    identification or a 遗言 of a listed one's character and index, or decision (their targets and
    text are the engine's to judge); a withdrawal by one of the seat's own characters. Nothing else
    reaches the engine, whose refusals would answer about what the seat may not know: whether
    another seat, or the game master, has a decision pending under a key, say."""
    if len(command) != 1:
        return False
    (kind, body), = command.items()
    if not isinstance(body, dict):
        return False
    if kind == "cancel":
        return any(s["controller"] == seat and _holder(s) == body.get("actor") for s in state["slots"])
    legal = engine.legal_commands(state, seat)
    if kind == "identify":
        return any((c["identify"]["actor"], c["identify"]["index"]) == (body.get("actor"), body.get("index"))
                   for c in legal if "identify" in c)
    if kind == "last_words":
        return any(c["last_words"]["decision"] == body.get("decision") for c in legal if "last_words" in c)
    known = state["known"][str(seat)]
    as_id = {_holder(s): s["id"] for s in state["slots"] if _holder(s) in known.get(str(s["id"]), ())}
    body = dict(body)
    if "target" in body and isinstance(body["target"], str):
        body["target"] = as_id.get(body["target"], body["target"])
    if isinstance(body.get("targets"), list):
        body["targets"] = [as_id.get(t, t) if isinstance(t, str) else t for t in body["targets"]]
    return _canonical({kind: body}) in {_canonical(c) for c in legal}


def _command(game_id, user, client_id, body):
    """``services.command`` for a program, after the check its seat's page makes (``offered``); a
    command id already used is the service's to acknowledge, whatever it was."""
    row = _load(game_id)
    actor = services.actor_of(row, user) if row is not None else None
    if isinstance(actor, int) and row.status == Game.Status.LIVE and not offered(_now(row), actor, body):
        repeated = Event.objects.filter(game=row, actor=str(actor), client_id=client_id).exists()
        if not repeated:
            raise ServiceError("not_offered", _("That command is not among your seat's commands now: "
                                                "send one that your last state's legal lists."))
    return services.command(game_id, user, client_id, body)


def _load(game_id):
    return Game.objects.filter(pk=game_id).first()


def _sign_up(game_id, user, invite):
    """``services.sign_up``, but an invite-only game without its token is no game, as for ``hello``."""
    row = _load(game_id)
    if row is None or not access.may_see(row, user, invite):
        raise ServiceError("no_game", _("There is no such game."))
    services.sign_up(game_id, user, invite)


class ProgramConsumer(Watched, AsyncWebsocketConsumer):
    async def connect(self):
        self.game_id = self.scope["url_route"]["kwargs"]["game_id"]
        self.user = None
        self.heartbeat_task = None
        self.language = page_language(self.scope)
        # What this socket last told of (``access.digest``); None until its first ``state``, before
        # which nothing is pushed.
        self.seen = None
        self.rate = FrameRate(*settings.BOT_SOCKET_RATE)
        # Refusing needs a close code, and a close code needs an accepted socket.
        await self.accept()
        with translation.override(self.language):
            await self.log_in()

    async def log_in(self):
        token = await database_sync_to_async(tokens.row_for)(token_from(self.scope))
        if token is None:
            await self.send_error("bad_token", _("Unknown or revoked API token."))
            await self.close(code=UNAUTHORIZED)
            return
        limit = settings.MAX_BOT_SOCKETS_PER_USER
        if not await database_sync_to_async(presence.bot_arrive)(self.channel_name, token.user.pk, limit):
            await self.send_error("too_many_sockets", _("This account has %(count)d bot sockets open already.")
                                  % {"count": limit})
            await self.close(code=TOO_MANY)
            return
        self.user, self.token_id = token.user, token.pk
        self.heartbeat_task = asyncio.create_task(self.heartbeat())
        await self.channel_layer.group_add(account_group(self.user.pk), self.channel_name)
        await self.channel_layer.group_add(game_group(self.game_id), self.channel_name)
        recheck.watch(self)
        await self.send_json({"type": "welcome", "user": self.user.username, "game": self.game_id,
                              "language": self.language})

    async def disconnect(self, code):
        if self.user is None:
            return
        self.heartbeat_task.cancel()
        recheck.forget(self)
        await recheck.leave_group(self.channel_layer, account_group(self.user.pk), self.channel_name)
        await recheck.leave_group(self.channel_layer, game_group(self.game_id), self.channel_name)
        await database_sync_to_async(presence.bot_leave)(self.channel_name)

    async def heartbeat(self):
        # Keeps this socket counted against the account's limit; a process that dies stops doing so.
        while True:
            await asyncio.sleep(presence.HEARTBEAT.total_seconds())
            await database_sync_to_async(presence.bot_touch)(self.channel_name)

    async def dispatch(self, message):
        # The account's group also carries the match bot socket's news (``bot.assigned``), which is
        # not this socket's concern and must not kill it.
        if message["type"].startswith("websocket.") or message["type"] in ("game.changed", "bot.token_revoked"):
            await super().dispatch(message)

    async def receive(self, text_data=None, bytes_data=None):
        if self.user is None:
            return
        with translation.override(self.language):
            await self.answer(text_data)

    async def answer(self, text_data):
        if self.rate.refuse():
            await self.send_error("rate_limited", self.rate.message())
            return
        try:
            frame = parse(text_data, self.game_id)
        except ProtocolError as error:
            await self.send_error(error.code, error.message, error.client_id)
            return
        await getattr(self, f"on_{frame['type']}")(frame)

    async def on_hello(self, frame):
        await self.send_state(await database_sync_to_async(self.read)(), refused=True)

    async def on_sign_up(self, frame):
        if await self.act(None, _sign_up, self.game_id, self.user, frame["invite"]):
            await self.send_json({"type": "signed_up", "game": self.game_id})
            await self.send_state(await database_sync_to_async(self.read)())

    async def on_leave(self, frame):
        if await self.act(None, services.leave, self.game_id, self.user):
            await self.send_json({"type": "left", "game": self.game_id})
            await self.send_state(await database_sync_to_async(self.read)())

    async def on_command(self, frame):
        result = await self.act(frame["id"], _command, self.game_id, self.user, frame["id"], frame["command"])
        if result:
            await self.send_json({"type": "ack", "id": frame["id"], "duplicate": result.duplicate})

    async def act(self, client_id, service, *args):
        """Run a service; its refusal becomes an ``error`` frame (and it changed nothing)."""
        try:
            return await database_sync_to_async(service)(*args) or True
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            return None

    def read(self, known=None, row=None):
        """(the game's version, what this account sees of the game now, as ``access.digest``, the
        ``state`` body — None if that is ``known``), or None if it sees no game (an invite-only game it has not signed up for
        looks like no game at all). ``row``: the game as just read for it (else it is read here)."""
        if row is None:
            row = _load(self.game_id)
        if row is None or not access.may_see(row, self.user, None):
            return None
        audience = access.audience(row, self.user)
        seen = access.digest(row, audience)
        return row.version, seen, (None if seen == known else state_of(row, self.user, audience))

    async def send_state(self, read, refused=False):
        if read is None:
            if refused:
                await self.send_error("no_game", _("There is no such game."))
            return
        self.last_sent, self.seen, body = read
        await self.send_json({"type": "state", **body})

    async def game_changed(self, message):
        if self.seen is None:
            return
        read = await read_after(self.game_id, message, lambda row: row and self.read(self.seen, row))
        if read is None:
            return
        if read[2] is None:
            self.last_sent = read[0]
        else:
            await self.send_state(read)

    async def bot_token_revoked(self, message):
        if not await database_sync_to_async(tokens.exists)(self.token_id):
            with translation.override(self.language):
                await self.send_error("token_revoked", _("This socket's API token was revoked."))
            await self.close(code=UNAUTHORIZED)

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, ensure_ascii=False, separators=(",", ":")))

    async def send_error(self, code, message, client_id=None):
        await self.send_json({"type": "error", "code": code, "message": str(message), "id": client_id})
