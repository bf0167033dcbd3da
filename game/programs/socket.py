"""The bot socket, ``/ws/bot/``: programs play here, authenticated by an API token.

A program takes a seat (``create``, ``join`` or ``play``), then receives its projection after every
change, legal commands included, and sends commands as on the match socket (docs/bot-api.md). Its
seat is under the contest rules: an illegal command or a malformed frame loses the whole match at
once, and so does letting the move clock run out (``game.programs.runner`` keeps that clock even when
nobody is connected). Like the match socket, it learns of changes only through the doorbell and
reads what it missed from the database; game/recheck.py rings it for whatever the doorbell missed
(a Redis restart forgets every group).
"""
import asyncio

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from ratings import pairing

from .. import games, services
from ..access import may_watch
from ..live import clocks, frames, presence, recheck
from ..live.protocol import ProtocolError, encode
from ..live.ratelimit import FrameRate
from ..models import Match
from ..live.groups import match_group, ring_presence
from ..services import ServiceError
from . import runner, seats, tokens
from .models import BotSeat
from .protocol import parse, token_from

UNAUTHORIZED = 4401
TOO_MANY = 4429
# How often a socket in quick pairing's pool checks in (keeping its seek fresh, trying to pair it).
SEEK_POLL_SECONDS = 0.5


def account_group(user_id):
    """Every bot socket of one account: told of matches the server started for it (``assign``)."""
    return f"bot-user-{user_id}"


def assign(user_id, match_id):
    """Tell ``user_id``'s open bot sockets that the server seated it in ``match_id`` (a tournament's
    round, the ladder): each gets an ``assigned`` frame, and its program takes the seat with ``join``.
    Call it after the commit that made the match. A socket that misses it (none open, a lost message)
    finds the match in its next ``welcome``, and the seat's clock rules either way."""
    async_to_sync(get_channel_layer().group_send)(
        account_group(user_id), {"type": "bot.assigned", "match": match_id}
    )


def seated_in(user_id):
    """The live matches a program plays for ``user_id`` (a seat under the contest rules), oldest first."""
    seats = BotSeat.objects.filter(level=BotSeat.PROGRAM, match__status=Match.Status.LIVE)
    mine = seats.filter(match__host_id=user_id, seat=0) | seats.filter(match__guest_id=user_id, seat=1)
    return list(mine.order_by("match_id").values_list("match_id", flat=True).distinct())


def load_by_invite(token):
    return Match.objects.select_related("host", "guest").filter(invite_token=token).first()


def play_here(channel_name, match_id, seat):
    """Mark the bot socket as playing ``match_id`` from ``seat`` (its presence there) and tell the
    match's sockets."""
    presence.bot_plays(channel_name, match_id, seat)
    ring_presence(match_id)


def gone(channel_name, match_id):
    """The bot socket closed: it no longer counts anywhere; the match it played hears of it."""
    presence.bot_leave(channel_name)
    if match_id is not None:
        ring_presence(match_id)


def deadline_of(match_id, seat):
    deadline = BotSeat.objects.filter(match_id=match_id, seat=seat).values_list("deadline", flat=True).first()
    return deadline.isoformat() if deadline else None


class BotConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        runner.serve_from(asyncio.get_running_loop())
        self.user = None
        self.match_id = None
        self.game = None
        # The last version this socket was brought up to, and what it last reported (as on the
        # match socket): a doorbell for nothing new sends nothing.
        self.version = None
        self.last_sent = None
        self.rate = FrameRate(*settings.BOT_SOCKET_RATE)
        self.heartbeat_task = None
        self.seek_task = None
        # Refusing needs a close code, and a close code needs an accepted socket.
        await self.accept()
        token = await database_sync_to_async(tokens.row_for)(token_from(self.scope))
        if token is None:
            await self.send_error("bad_token", "Unknown or revoked API token.")
            await self.close(code=UNAUTHORIZED)
            return
        user, self.token_id = token.user, token.pk
        limit = settings.MAX_BOT_SOCKETS_PER_USER
        if not await database_sync_to_async(presence.bot_arrive)(self.channel_name, user.pk, limit):
            await self.send_error("too_many_sockets", f"This account has {limit} bot sockets open already.")
            await self.close(code=TOO_MANY)
            return
        self.user = user
        self.heartbeat_task = asyncio.create_task(self.heartbeat())
        await self.channel_layer.group_add(account_group(user.pk), self.channel_name)
        # What a new match gets unless ``create`` or ``play`` names another game: the default game's.
        default = games.get(games.DEFAULT)
        welcome = {
            "user": self.user.username,
            "levels": list(default.levels),
            "move_seconds": clocks.program_seconds(default, None),
            # Matches the server seated this account in (tournaments, the ladder): take them with ``join``.
            "assigned": await database_sync_to_async(seated_in)(user.pk),
        }
        await self.send_json({"type": "welcome", **welcome})

    async def disconnect(self, code):
        recheck.forget(self)
        if self.seek_task is not None:
            # A program that is gone must not be paired: leave the pool (a pairing that came first
            # stands, and its clock runs as for any program that does not show).
            self.seek_task.cancel()
            await database_sync_to_async(pairing.cancel)(self.user)
        if self.heartbeat_task:
            self.heartbeat_task.cancel()
            await self.channel_layer.group_discard(account_group(self.user.pk), self.channel_name)
            await database_sync_to_async(gone)(self.channel_name, self.match_id)
        if self.match_id is not None:
            await recheck.leave_group(self.channel_layer, match_group(self.match_id), self.channel_name)

    async def heartbeat(self):
        # Keeps this socket counted; a process that dies stops doing so (see game/live/presence.py).
        while True:
            await asyncio.sleep(presence.HEARTBEAT.total_seconds())
            await database_sync_to_async(presence.bot_touch)(self.channel_name)

    async def dispatch(self, message):
        # The match group also carries news meant for browsers (spectator counts, …): only a change
        # of the match concerns a program, and an unknown message must not kill its socket.
        kind = message["type"]
        if kind.startswith("websocket.") or kind in ("match.changed", "bot.assigned", "bot.token_revoked"):
            try:
                await super().dispatch(message)
            except recheck.LAYER_DOWN:
                await recheck.close_to_retry(self, message)

    async def receive(self, text_data=None, bytes_data=None):
        # Frames are handled only once connect() has finished, so no user here means a refused
        # token: the socket is closing and the frame has nobody to act for.
        if self.user is None:
            return
        if self.rate.refuse():
            # Not a breach of the rules of play: nothing was looked at, so nothing is forfeited.
            await self.send_error("rate_limited", self.rate.message())
            return
        try:
            frame = parse(text_data, self.match_id, self.game)
        except ProtocolError as error:
            await self.send_error(error.code, error.message, error.client_id)
            await self.lose("illegal")
            return
        await getattr(self, f"on_{frame['type']}")(frame)

    async def on_hello(self, frame):
        if await self.require_match(None):
            await self.catch_up(await self.load(), frame["version"])

    async def on_command(self, frame):
        if await self.require_match(frame["id"]):
            arguments = (self.match_id, self.user, frame["id"], frame["version"], frame["command"])
            await self.act(frame["id"], services.apply_command, *arguments)

    async def on_resign(self, frame):
        if not await self.require_match(frame["id"]):
            return
        if frame["reason"] == "resign":
            await self.act(frame["id"], services.resign, Match(pk=self.match_id), self.user, frame["id"])
        else:
            await self.act(frame["id"], services.forfeit, self.match_id, self.user, frame["reason"], frame["id"])

    async def on_cancel(self, frame):
        if await self.require_match(frame["id"]):
            await self.act(frame["id"], seats.cancel, self.match_id, self.user)

    async def on_create(self, frame):
        if await self.seat_free():
            await self.take_seat(seats.create_for_program, self.user, private=frame["private"], game=frame["game"])

    async def on_play(self, frame):
        if await self.seat_free():
            await self.take_seat(
                seats.start_vs_computer, self.user, frame["level"], program=True, game=frame["game"]
            )

    async def on_seek(self, frame):
        """Quick pairing: wait in the pool; the seat is taken once an opponent is found."""
        if not await self.seat_free():
            return
        options = {key: frame[key] for key in ("game", "rated", "move_seconds")}
        try:
            seek = await database_sync_to_async(pairing.seek)(self.user, program=True, **options)
        except ServiceError as error:
            await self.send_error(error.code, error.message)
            return
        await self.send_json({"type": "seeking", **options, "rating": round(seek.rating)})
        self.seek_task = asyncio.create_task(self.wait_for_pairing())

    async def wait_for_pairing(self):
        while True:
            status, match_id = await database_sync_to_async(pairing.poll)(self.user)
            if status != "waiting":
                break
            await asyncio.sleep(SEEK_POLL_SECONDS)
        self.seek_task = None
        if status == "paired":
            await self.take_seat(frames.load_match, match_id)
        else:
            await self.send_json({"type": "seek_cancelled"})

    async def on_cancel_seek(self, frame):
        if self.seek_task is None:
            await self.send_error("not_seeking", "This socket is not seeking.")
            return
        self.seek_task.cancel()
        self.seek_task = None
        match_id = await database_sync_to_async(pairing.cancel)(self.user)
        if match_id is not None:
            await self.take_seat(frames.load_match, match_id)
        else:
            await self.send_json({"type": "seek_cancelled"})

    async def on_join(self, frame):
        if not await self.seat_free():
            return
        if frame["invite"] is not None:
            match = await database_sync_to_async(load_by_invite)(frame["invite"])
        else:
            match = await database_sync_to_async(frames.load_match)(frame["match"])
        if match is None or not may_watch(match, self.user, frame["invite"]):
            # As on the match socket: a private match without its invite looks like no match at all.
            await self.send_error("no_match", "There is no such match.")
            return
        # ``version``: the last version the program has, as in ``hello`` (a reconnect resumes there).
        if match.seat_of(self.user) is not None:
            await self.take_seat(seats.claim_seat, match.pk, self.user, known=frame["version"])
        else:
            await self.take_seat(seats.join_for_program, match, self.user, known=frame["version"])

    async def take_seat(self, service, *args, known=None, **kwargs):
        try:
            match = await database_sync_to_async(service)(*args, **kwargs)
        except ServiceError as error:
            await self.send_error(error.code, error.message)
            return
        previous = self.match_id
        if previous is not None:
            await self.channel_layer.group_discard(match_group(previous), self.channel_name)
        self.match_id = match.pk
        self.game = games.get(match.game)
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        recheck.watch(self)
        # Read after joining the group: a change committed in between is then caught by its doorbell.
        match = await self.load()
        seat = match.seat_of(self.user)
        await database_sync_to_async(play_here)(self.channel_name, match.pk, seat)
        if previous not in (None, match.pk):
            # Counted after the move, so the match it left reads it gone.
            await database_sync_to_async(ring_presence)(previous)
        invite = match.invite_token if match.private else None
        seated = {"match": match.pk, "seat": seat, "private": match.private, "invite": invite}
        await self.send_json({"type": "match", **seated})
        await self.catch_up(match, known)

    async def act(self, client_id, service, *args):
        try:
            result = await database_sync_to_async(service)(*args)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            if error.illegal:
                await self.lose("illegal")
            return
        await self.send_json({"type": "ack", "id": client_id, "version": result.version, "duplicate": result.duplicate})

    async def lose(self, reason):
        """The contest rule: a program that breaks the rules of play loses the match it plays."""
        if self.match_id is None:
            return
        try:
            await database_sync_to_async(services.forfeit)(self.match_id, self.user, reason)
        except ServiceError:
            pass  # not being played (not started, or over): there is nothing to lose

    async def require_match(self, client_id):
        if self.match_id is None:
            await self.send_error("no_seat", "Take a seat first: send create, join or play.", client_id)
            return False
        return True

    async def seat_free(self):
        """A socket plays one match at a time; once that is over it may take another seat."""
        if self.seek_task is not None:
            await self.send_error("seeking", "This socket is waiting for an opponent: send cancel_seek first.")
            return False
        if self.match_id is not None:
            match = await self.load()
            if match is not None and match.status in (Match.Status.OPEN, Match.Status.LIVE):
                await self.send_error("busy", f"This socket is playing match {self.match_id}.")
                return False
        return True

    async def load(self):
        return await database_sync_to_async(frames.load_match)(self.match_id)

    followed = recheck.MATCHES

    @property
    def followed_id(self):
        return self.match_id

    def is_behind(self, version, status, _rematch_status):
        """Whether the match is past what this socket last sent (game/recheck.py asks)."""
        return self.last_sent is not None and (version, status) != self.last_sent[:2]

    async def bot_token_revoked(self, message):
        """One of the account's tokens was revoked: if it is this socket's, the program's access ends
        now, not at its next connect."""
        if self.user is not None and not await database_sync_to_async(tokens.exists)(self.token_id):
            await self.send_error("token_revoked", "This socket's API token was revoked.")
            await self.close(code=UNAUTHORIZED)

    async def bot_assigned(self, message):
        await self.send_json({"type": "assigned", "match": message["match"]})

    async def match_changed(self, message):
        if self.version is None:
            return
        match = await self.load()
        if match is not None and (match.version, match.status, match.seat_of(self.user)) != self.last_sent:
            await self.catch_up(match, self.version)

    async def catch_up(self, match, known):
        """Versions after ``known`` then a ``state`` — or, if that is not possible, a ``snapshot``."""
        if match is None:
            return
        seat = match.seat_of(self.user)
        replay = frames.can_replay(match, known)
        if replay:
            missed = await database_sync_to_async(frames.versions)(match, seat, known)
            for version, events in missed:
                await self.send_json({"type": "version", "version": version, "events": events})
        body = await database_sync_to_async(self.state_body)(match, seat)
        await self.send_json({"type": "state" if replay else "snapshot", **body})
        self.version = match.version
        self.last_sent = (match.version, match.status, seat)

    @staticmethod
    def state_body(match, seat):
        return {**frames.payload(match, seat), "deadline": deadline_of(match.pk, seat)}

    async def send_json(self, content):
        await self.send(text_data=encode(content))

    async def send_error(self, code, message, client_id=None):
        await self.send_json({"type": "error", "code": code, "message": str(message), "id": client_id})
