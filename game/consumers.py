"""The match socket: ``/ws/match/<id>/``. Thin: check the frame, call a service, send views.

Two dialects share one consumer. JSON clients (programs, tests) speak the protocol of
docs/protocol.md. Browser sockets (``?ui=html``) get the same information as htmx fragments
swapped out of band, and send their forms with htmx's ``ws-send``.

A socket only ever learns of a change through the doorbell (``match.changed``) and then reads the
versions it missed from the database, so a lost doorbell delays an update but never skips one.
"""
import asyncio
import json
import time
from collections import deque
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from . import frames, presence, presenter, rematch, services
from .access import may_watch
from .models import Match
from .protocol import ProtocolError, parse
from .services import ServiceError, match_group


def page_language(scope):
    """The language the page was rendered in, for the fragments: chosen as LocaleMiddleware chose it
    for the page, from the language cookie, else the browser's Accept-Language, else the default."""
    headers = dict(scope.get("headers", []))
    accepted = parse_accept_lang_header(headers.get(b"accept-language", b"").decode("latin-1"))
    wanted = [scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)] + [code for code, _q in accepted]
    for code in wanted:
        if code and code != "*":
            try:
                return translation.get_supported_language_variant(code)
            except LookupError:
                continue
    return settings.LANGUAGE_CODE


def sent_key(match, seat):
    """What a socket last brought its viewer up to; an unchanged key means nothing new to send."""
    return (match.version, match.status, seat, match.rematch_status)


def presence_fields(match_id):
    return {"spectators": presence.spectators(match_id), "connected": presence.players(match_id)}


class MatchConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.html = query.get("ui") == ["html"]
        self.invite = (query.get("invite") or [None])[0]
        self.user = self.scope.get("user")
        self.language = page_language(self.scope)
        self.joined = False
        # The seat this socket's presence row is registered under (None: a spectator); see register().
        self.present = False
        self.seat = None
        self.heartbeat_task = None
        # Arrival times of the frames accepted within the rate window (settings.MATCH_SOCKET_RATE).
        self.recent = deque()
        # The last version this socket was brought up to; None until a JSON client says hello.
        self.version = None
        self.last_sent = None
        self.log_book = None
        await self.accept()
        match = await database_sync_to_async(frames.load_match)(self.match_id)
        if match is None or not may_watch(match, self.user, self.invite):
            # The same answer for "no such match" and "private": ids are guessable, matches are not.
            await self.send_error("no_match", "There is no such match.")
            await self.close(code=4404)
            return
        if await self.too_many_sockets():
            await self.send_error(
                "too_many_sockets",
                f"You have {settings.MAX_SOCKETS_PER_USER} match sockets open already: close some tabs first.",
            )
            await self.close(code=4429)
            return
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        self.joined = True
        await self.register(match.seat_of(self.user))
        self.heartbeat_task = asyncio.create_task(self.heartbeat())
        if self.html:
            # Read again now that the doorbell can reach us: a change committed between the first
            # read and joining the group would otherwise go unseen until the next one.
            await self.hello(None)

    async def disconnect(self, code):
        if not self.joined:
            return
        if self.heartbeat_task:
            self.heartbeat_task.cancel()
        await self.channel_layer.group_discard(match_group(self.match_id), self.channel_name)
        await database_sync_to_async(presence.leave)(self.channel_name)
        # A player's other sockets (tabs) still count: only the seat's last one leaving is news.
        if self.seat is None or not (await self.connected_players())[self.seat]:
            await self.ring_presence()

    @database_sync_to_async
    def too_many_sockets(self):
        if not getattr(self.user, "is_authenticated", False):
            return False
        return presence.sockets_of(self.user.pk) >= settings.MAX_SOCKETS_PER_USER

    async def register(self, seat):
        """Record (or re-record, after a watcher took a seat) this socket's presence row."""
        was_connected = seat is not None and (await self.connected_players())[seat]
        self.seat, self.present = seat, True
        user = self.user if getattr(self.user, "is_authenticated", False) else None
        await database_sync_to_async(presence.arrive)(self.channel_name, self.match_id, seat, user)
        if not was_connected:
            await self.ring_presence(origin=self.channel_name)

    async def ring_presence(self, origin=None):
        """``origin``: the arriving socket, which needs no news of itself (its state tells it)."""
        await self.channel_layer.group_send(match_group(self.match_id), {"type": "presence.changed", "origin": origin})

    async def connected_players(self):
        return await database_sync_to_async(presence.players)(self.match_id)

    async def heartbeat(self):
        # Keeps this socket's row fresh; a process that dies stops doing so (see game/presence.py).
        while True:
            await asyncio.sleep(presence.HEARTBEAT.total_seconds())
            await database_sync_to_async(presence.touch)(self.channel_name)

    def rate_limited(self):
        """True if this frame is one too many for the window; otherwise it is counted."""
        limit, window = settings.MATCH_SOCKET_RATE
        now = time.monotonic()
        while self.recent and self.recent[0] <= now - window:
            self.recent.popleft()
        if len(self.recent) >= limit:
            return True
        self.recent.append(now)
        return False

    async def receive(self, text_data=None, bytes_data=None):
        if self.rate_limited():
            limit, window = settings.MATCH_SOCKET_RATE
            await self.send_error(
                "rate_limited", f"Slow down: at most {limit} frames per {window} seconds. That one was ignored."
            )
            return
        try:
            frame = parse(text_data, self.match_id, rematch=True)
            if frame["type"] == "hello":
                await self.hello(frame["version"])
            elif frame["type"] == "rematch":
                await self.answer_rematch(frame["id"], frame["answer"])
            elif frame["type"] == "resign":
                await self.act(frame["id"], services.resign, Match(pk=self.match_id), self.user, frame["id"])
            else:
                await self.act(
                    frame["id"],
                    services.apply_command,
                    self.match_id,
                    self.user,
                    frame["id"],
                    frame["version"],
                    frame["command"],
                )
        except ProtocolError as error:
            await self.send_error(error.code, error.message, error.client_id)

    async def act(self, client_id, service, *args):
        try:
            # A refusal is read by the person at the page, in its language; programs get English.
            with translation.override(self.language if self.html else settings.LANGUAGE_CODE):
                result = await database_sync_to_async(service)(*args)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            return
        if self.html:
            await self.send(presenter.render_notice())
        else:
            await self.send_json(
                {"type": "ack", "id": client_id, "version": result.version, "duplicate": result.duplicate}
            )

    async def answer_rematch(self, client_id, action):
        try:
            with translation.override(self.language if self.html else settings.LANGUAGE_CODE):
                match = await database_sync_to_async(rematch.answer)(self.match_id, self.user, action)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            return
        if self.html:
            await self.send(presenter.render_notice())
        else:
            answer = await database_sync_to_async(rematch.info)(match)
            await self.send_json({"type": "rematch", "id": client_id, **answer})

    async def hello(self, known):
        match = await database_sync_to_async(frames.load_match)(self.match_id)
        if match is None:
            await self.send_error("no_match", "There is no such match.")
            return
        if self.html:
            await self.send(await database_sync_to_async(self.render_full)(match))
            return
        if frames.can_replay(match, known):
            self.version = known
            self.last_sent = None
            await self.catch_up(match)
        else:
            await self.send_json(await database_sync_to_async(self.snapshot)(match))

    async def match_changed(self, message):
        match = await database_sync_to_async(frames.load_match)(self.match_id)
        if match is None:
            return
        if self.present and match.seat_of(self.user) != self.seat:
            # A watcher who just took the empty seat is a player now.
            await self.register(match.seat_of(self.user))
        if self.html:
            html = await database_sync_to_async(self.render_update)(match)
            if html:
                await self.send(html)
        elif self.version is not None:
            await self.catch_up(match)

    async def presence_changed(self, message):
        if message.get("origin") == self.channel_name:
            return
        count = await database_sync_to_async(presence.spectators)(self.match_id)
        players = await self.connected_players()
        if self.html:
            match = await database_sync_to_async(frames.load_match)(self.match_id)
            status = match.status if match else None
            ctx = {"spectators": count, "opponent": presenter.opponent(self.seat, players, status)}
            with translation.override(self.language):
                await self.send(presenter.render_parts(ctx, ("spectators", "opponent")))
        else:
            await self.send_json({"type": "presence", "spectators": count, "players": players})

    async def catch_up(self, match):
        seat = match.seat_of(self.user)
        if not frames.can_replay(match, self.version):
            await self.send_json(await database_sync_to_async(self.snapshot)(match))
            return
        if sent_key(match, seat) == self.last_sent:
            return
        missed = await database_sync_to_async(frames.versions)(match, seat, self.version)
        for version, events in missed:
            await self.send_json({"type": "version", "version": version, "events": events})
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        state = await database_sync_to_async(frames.payload)(match, seat)
        await self.send_json({"type": "state", **state, **await database_sync_to_async(presence_fields)(match.pk)})

    def snapshot(self, match):
        seat = match.seat_of(self.user)
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return {"type": "snapshot", **frames.payload(match, seat), **presence_fields(match.pk)}

    def render_full(self, match):
        seat = match.seat_of(self.user)
        with translation.override(self.language):
            self.log_book, entries = presenter.full_log(match, seat)
            ctx = presenter.context(
                frames.payload(match, seat),
                presence.spectators(match.pk),
                self.log_book.marks,
                presence.players(match.pk),
            )
            html = presenter.render_parts(ctx) + presenter.render_log(entries, append=False)
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return html

    def render_update(self, match):
        seat = match.seat_of(self.user)
        if sent_key(match, seat) == self.last_sent:
            # Redrawing unchanged forms would wipe what the player has ticked so far.
            return ""
        if self.log_book is None or self.log_book.audience != frames.audience_for(match, seat):
            # The viewer's audience changed (the match ended, or they took a seat): redraw from scratch.
            return self.render_full(match)
        if not frames.can_replay(match, self.version):
            return self.render_full(match)
        with translation.override(self.language):
            entries = self.log_book.entries(frames.versions(match, seat, self.version))
            ctx = presenter.context(
                frames.payload(match, seat),
                presence.spectators(match.pk),
                self.log_book.marks,
                presence.players(match.pk),
            )
            html = presenter.render_parts(ctx, ("status", "board", "controls")) + presenter.render_log(
                entries, append=True
            )
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return html

    async def send_json(self, content):
        await self.send(text_data=json.dumps(content, separators=(",", ":")))

    async def send_error(self, code, message, client_id=None):
        if self.html:
            with translation.override(self.language):
                await self.send(presenter.render_notice(presenter.refusal_text(code, message)))
        else:
            await self.send_json({"type": "error", "code": code, "message": str(message), "id": client_id})
