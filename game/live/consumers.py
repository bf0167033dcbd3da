"""The match socket: ``/ws/match/<id>/``. Thin: check the frame, call a service, send views.

Two dialects share one consumer. JSON clients (programs, tests) speak the protocol of
docs/protocol.md. Browser sockets (``?ui=html``) get the same information as htmx fragments
swapped out of band, and send their forms with htmx's ``ws-send``.

A socket only ever learns of a change through the doorbell (``match.changed``) and then reads the
versions it missed from the database, so a lost doorbell delays an update but never skips one.
The sockets of one process share those reads and the views made from them (game/fanout.py), and
the sockets that heard one doorbell make one database call between them, not one each, and none
at all where the process keeps what they need (a spectators' fragment or frames drawn from the same
inputs are made once there; game/offloop.py). A doorbell lost for
good (a Redis restart forgets every group) is made up for by game/recheck.py.
"""
import asyncio
import inspect
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

from aquawar_site.security import scope_address

from .. import asyncdb, fairness, games, offloop, rematch, services
from ..access import may_watch
from ..models import Match
from ..services import ServiceError
from .groups import match_group, watchers_group
from . import connects, fanout, frames, presence, presenter, recheck, sessions
from .chatting import ChatSocket
from .presence_socket import PresenceSocket
from .protocol import ProtocolError, encode, parse
from .ratelimit import FrameRate


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


def presence_fields(counts):
    spectators, players = counts
    return {"spectators": spectators, "connected": players}


class MatchConsumer(ChatSocket, PresenceSocket, sessions.SessionSocket, AsyncWebsocketConsumer):
    async def dispatch(self, message):
        """Channels' dispatch, less its ``aclose_old_connections()``: that is one more call on the
        process's database thread for every message (each doorbell, each frame), queued behind the
        other sockets' database work, while every database call here goes through
        ``database_sync_to_async``, which closes old connections before and after it anyway.
        A channel layer that fails under a handler (Redis is down) closes the socket, to be retried."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        try:
            await handler(message)
        except recheck.LAYER_DOWN:
            await recheck.close_to_retry(self, message)

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
        # The groups joined besides the match's doorbell group (recheck re-joins them with it).
        self.also_joined = ()
        self.heartbeat_task = None
        self.rate = FrameRate(*settings.MATCH_SOCKET_RATE)
        # A hello costs the whole match (a page render for a browser socket) and a socket that
        # listens is sent every change anyway: more than a few are no use to anyone.
        self.hello_rate = FrameRate(*settings.MATCH_HELLO_RATE, what="hello frames")
        self.address = scope_address(self.scope) or ""
        # The last version this socket was brought up to; None until a JSON client says hello.
        self.version = None
        self.last_sent = None
        # (version, made) of the newest change this socket acknowledged: ``made``, whether that
        # change made the version (a command) rather than changed the match at it (an abort, a
        # rematch answer); see ``stale``.
        self.acked = None
        self.log_book = None
        self.log_players = None
        self.seed = None
        # The match's id as the database has it (``match_id`` is the URL's text).
        self.match_pk = None
        # The match's game (``game.games``): its forms, its board and its wording of refusals.
        self.game = None
        self.recount = False
        # The tournament round of the match, for the page's links: read once, at admission.
        self.tournament_round = None
        await self.accept()
        match, refused = await database_sync_to_async(self.admit)()
        if match is not None:
            self.match_pk = match.pk
            self.seed = match.seed
            self.game = games.get(match.game)
        if refused:
            code, message, close_code = refused
            await self.send_error(code, message)
            await self.close(code=close_code)
            self.game = None  # closing: receive() takes nothing more
            return
        await self.channel_layer.group_add(match_group(self.match_id), self.channel_name)
        if match.seat_of(self.user) is None:
            # A spectator's, or a player-to-be's of an open match (whose socket then ignores them).
            self.also_joined = (watchers_group(self.match_id),)
            await self.channel_layer.group_add(self.also_joined[0], self.channel_name)
        await self.join_sessions()
        self.joined = True
        recheck.watch(self)
        await self.register(match.seat_of(self.user))
        self.heartbeat_task = asyncio.create_task(self.heartbeat())
        if self.html:
            # Read again now that the doorbell can reach us: a change committed between the first
            # read and joining the group would otherwise go unseen until the next one.
            try:
                await self.hello(None)
            except sessions.Ended:
                await self.login_ended()

    async def disconnect(self, code):
        if not self.joined:
            return
        recheck.forget(self)
        if self.heartbeat_task:
            self.heartbeat_task.cancel()
        await self.leave_groups()
        await self.leave_sessions()
        await self.ring_presence(await database_sync_to_async(self.depart)())

    def admit(self):
        """(match, refused): the match, if this socket may watch it; refused: (error code, message,
        close code) if it may not, None if it may. Refused before anything is read if the account or
        the client address connects too often, then if the login has ended meanwhile, if the match
        is not there for them, or if they have too many match sockets open already."""
        too_often = connects.refusal(self.user, self.address)
        if too_often:
            return None, (connects.CODE, too_often, connects.CLOSE_CODE)
        self.login = sessions.Login(self.scope)
        if not self.login.holds():
            return None, ("login_ended", sessions.ENDED, sessions.CLOSE_CODE)
        match = fanout.read_match(self.match_id)
        if match is None or not may_watch(match, self.user, self.invite):
            # The same answer for "no such match" and "private": ids are guessable, matches are not.
            return None, ("no_match", "There is no such match.", 4404)
        if self.html:
            self.tournament_round = frames.tournament_round(match.pk)
        crowded = connects.crowded(self.user, self.address, presence.sockets_of, presence.sockets_from, "match sockets")
        return match, crowded and ("too_many_sockets", crowded, connects.CROWDED_CLOSE_CODE)

    followed = recheck.MATCHES

    @property
    def followed_id(self):
        return self.match_id

    def is_behind(self, version, status, rematch_status):
        """Whether the match is past what this socket last sent (game/recheck.py asks)."""
        if self.last_sent is None:
            return False
        sent_version, sent_status, _seat, sent_rematch = self.last_sent
        return (version, status, rematch_status) != (sent_version, sent_status, sent_rematch)

    async def receive(self, text_data=None, bytes_data=None):
        if self.game is None:
            return  # no such match: the socket was refused in connect() and is closing
        if self.rate.refuse():
            await self.send_error("rate_limited", presenter.TOO_FAST if self.html else self.rate.message())
            return
        try:
            frame = parse(text_data, self.match_id, self.game.web.form_command, rematch=True)
            if frame["type"] == "hello":
                if self.hello_rate.refuse():
                    await self.send_error("rate_limited", self.hello_rate.message())
                    return
                await self.hello(frame["version"])
            elif frame["type"] == "rematch":
                await self.answer_rematch(frame["id"], frame["answer"])
            elif frame["type"] == "chat":
                await self.chat(frame)
            elif frame["type"] == "mute":
                await self.mute(frame)
            elif frame["type"] == "abort":
                await self.act(frame["id"], fairness.abort, self.match_id, self.user, made=False)
            elif frame["type"] == "claim":
                await self.act(frame["id"], fairness.claim_win, self.match_id, self.user)
            elif frame["type"] == "resign":
                await self.act(frame["id"], services.resign, Match(pk=self.match_id), self.user, frame["id"])
            else:
                await self.act(
                    frame["id"], self.apply_command, frame["id"], frame["version"], frame["command"], checked=False
                )
        except ProtocolError as error:
            await self.send_error(error.code, error.message, error.client_id)
        except sessions.Ended:
            await self.login_ended()

    async def apply_command(self, client_id, version, command):
        """``services.apply_command``; first, from the newest row of the match this process has
        (``fanout.latest``), ``services.apply_known_from_loop``: its one statement sent from the event
        loop, with no call on the database thread. Its write asks the database whether the login
        holds, so only when it writes nothing is the login checked (``checked``) before the locked
        path. When the loop's connection gives no answer, the database thread's path decides."""
        known = fanout.latest(self.match_pk)
        if known is not None:
            try:
                result = await services.apply_known_from_loop(
                    known, self.user, client_id, version, command, self.login.written_while()
                )
            except asyncdb.Unavailable:
                return await database_sync_to_async(self.apply_unanswered)(known, client_id, version, command)
            if result is not None:
                return result
        return await database_sync_to_async(self.checked(services.apply_command))(
            self.match_id, self.user, client_id, version, command
        )

    def apply_unanswered(self, known, client_id, version, command):
        """The command whose statement from the event loop got no answer, on the database thread:
        ``services.apply_known``, else the locked path. A repeat found there may be that statement's,
        committed but unrung: it is rung (``services.rung_again``)."""
        result = services.apply_known(known, self.user, client_id, version, command, self.login.written_while())
        if result is None:
            result = self.checked(services.apply_command)(self.match_id, self.user, client_id, version, command)
            if result.duplicate:
                services.rung_again(self.match_pk, result.version)
        return result

    async def login_ended(self):
        # Closing: receive() takes nothing more, and no further change of the match reaches the
        # socket (its viewer may no longer see what the login let it) before it is gone.
        self.game = None
        recheck.forget(self)
        await self.leave_groups()
        await super().login_ended()

    async def leave_groups(self):
        for group in (match_group(self.match_id), *self.also_joined):
            await recheck.leave_group(self.channel_layer, group, self.channel_name)

    async def call(self, client_id, service, *args, checked=True):
        """``service(*args)`` off the event loop (awaited, if it is a coroutine function: it decides
        where its work runs): its result, or None once its refusal is sent. ``checked``: only while
        the login holds (``SessionSocket.checked``); False for a service that checks it itself."""
        try:
            # A refusal is read by the person at the page, in its language; programs get English.
            with translation.override(self.language if self.html else settings.LANGUAGE_CODE):
                if inspect.iscoroutinefunction(service):
                    return await service(*args)
                return await database_sync_to_async(self.checked(service) if checked else service)(*args)
        except ServiceError as error:
            await self.send_error(error.code, error.message, client_id)
            return None

    async def act(self, client_id, service, *args, made=True, checked=True):
        """``service(*args)``, acknowledged; ``made``: whether its change makes a version of its own."""
        result = await self.call(client_id, service, *args, checked=checked)
        if result is None:
            return
        self.acknowledged(result.version, made)
        if self.html:
            await self.send(presenter.render_notice())
        else:
            await self.send_json(
                {"type": "ack", "id": client_id, "version": result.version, "duplicate": result.duplicate}
            )

    async def answer_rematch(self, client_id, action):
        match = await self.call(client_id, rematch.answer, self.match_id, self.user, action)
        if match is None:
            return
        self.acknowledged(match.version, False)
        if self.html:
            await self.send(presenter.render_notice())
        else:
            answer = await database_sync_to_async(rematch.info)(match)
            await self.send_json({"type": "rematch", "id": client_id, **answer})

    def acknowledged(self, version, made):
        """Note a change this socket is about to acknowledge (an acknowledged repeat of an older
        command leaves the newer one noted)."""
        if self.acked is None or version > self.acked[0]:
            self.acked = (version, made)
        elif version == self.acked[0]:
            self.acked = (version, made and self.acked[1])

    def stale(self, match):
        """Whether ``match``, the row kept or read for a ring (``fanout.match_for``), may be older
        than what this socket has been sent or acknowledged: then it must not be sent from."""
        if self.last_sent is not None:
            version = self.last_sent[0]
            if match.version < version or (match.version == version and sent_key(match, match.seat_of(self.user)) != self.last_sent):
                return True
        if self.acked is not None:
            version, made = self.acked
            if match.version < version or (match.version == version and not made):
                return True
        return False

    async def hello(self, known):
        news, frames_out = await database_sync_to_async(self.checked(self.greet))(known)
        await self.send_all(frames_out)
        await self.ring_presence(news, origin=self.channel_name)

    def greet(self, known):
        """(presence news, frames) for a hello: the versions since ``known``, else a snapshot."""
        match = fanout.read_match(self.match_id)
        if match is None:
            return None, [self.error_frame("no_match", "There is no such match.")]
        news = self.take_seat(match)
        # A new socket never hears its own arrival (see register): its first counts are read now.
        self.recount = True
        if self.html:
            return news, [self.render_full(match)]
        if frames.can_replay(match, known):
            self.version = known
            self.last_sent = None
            out = self.catch_up(match)
        else:
            out = [self.snapshot(match)]
        return news, out + self.chat_frames(match)

    async def match_changed(self, message):
        # One database call for all the sockets of this process that heard the ring (game/fanout.py),
        # and none where the process keeps everything they need (the command was applied here).
        ring = message.get("ring")
        news, frames_out = await fanout.together(
            ("changed", self.match_id, ring), lambda shared: self.changes(ring, shared), on_loop=True
        )
        await self.send_all(frames_out)
        await self.ring_presence(news, origin=self.channel_name)

    def changes(self, ring, shared):
        """(presence news, frames) after the doorbell ``ring``: what brings this viewer up to date.
        ``shared``: what the sockets that heard the ring share (``fanout.together``). Tried on the
        event loop first: nothing of the socket changes before its last read (game/offloop.py)."""
        match = fanout.match_for(shared, self.match_id, ring, self.stale)
        if match is None:
            return None, []
        news = self.take_seat(match)
        if self.html:
            html = self.render_update(match, shared)
            return news, [html] if html else []
        if self.version is None:
            return news, []
        return news, self.catch_up(match, shared)

    async def win_chance_ready(self, message):
        if self.seat is not None:
            # A player: ``frames.win_chance`` answers them nothing, and a seat once taken is never
            # left (``take_seat``), so there is nothing to read.
            return
        ring = message.get("ring")
        version = message.get("version")
        # The estimate itself, in the rings of workers that carry it (older ones do not: it is read).
        chance = message.get("chance")
        if self.last_sent is not None and version is not None and version < self.last_sent[0]:
            # The estimate of a version this socket has moved past: the current version's has a ring
            # of its own (a ring names the version it was estimated for, game/programs/winchances.py).
            return
        if self.shows_live(version):
            # The version this spectator's socket was last brought to, live: the row read then
            # decides what a read now would for this version, so only the estimate is read.
            frame = await fanout.together(
                ("win_chance_cached", self.match_id, ring),
                lambda shared: self.cached_win_chance_frame(version, shared, chance),
                on_loop=True,
            )
        else:
            frame = await fanout.together(
                ("win_chance", self.match_id, ring),
                lambda shared: self.win_chance_frame(ring, shared, version, chance),
                on_loop=True,
            )
        if frame is not None:
            await self.send_all([frame])

    def shows_live(self, version):
        """Whether this socket was last brought to ``version`` of the live match, as a spectator."""
        if self.last_sent is None:
            return False
        sent_version, sent_status, sent_seat, _rematch = self.last_sent
        return sent_version == version and sent_status == Match.Status.LIVE and sent_seat is None

    def cached_win_chance_frame(self, version, shared, carried=None):
        """``win_chance_frame`` for a spectator's socket at ``version`` of the live match: ``carried``,
        the estimate of that version its ring carried, else the cache's (read once per batch),
        without reading the match."""
        if carried is not None:
            chance = carried
        else:
            key = frames.win_chance_key(self.match_pk, self.seed, version)
            chance = fanout.once(shared, ("win_chance", key), lambda: frames.cached_win_chance(key))
        fanout.heard_estimate(self.match_pk, self.seed, version, chance)
        return self.win_chance_message(version, chance)

    def win_chance_frame(self, ring, shared, version=None, carried=None):
        """A spectator's new win chance (game/programs/winchances.py), or None: for a player of the live
        match (``frames.win_chance`` answers them nothing), or while the version has no estimate.
        ``carried``: the estimate of ``version`` the ring carried, if it did."""
        match = fanout.match_for(shared, self.match_id, ring, self.stale)
        if match is None:
            return None
        chance = frames.win_chance(match, match.seat_of(self.user), carried if match.version == version else None)
        fanout.heard_estimate(match.pk, match.seed, match.version, chance)
        return self.win_chance_message(match.version, chance)

    def win_chance_message(self, version, chance):
        """The frame that gives this socket the estimate ``chance`` of ``version`` (None: no frame)."""
        if chance is None:
            return None
        if self.html:
            with translation.override(self.language):
                return presenter.render_win_chance(chance)
        return {"type": "win_chance", "version": version, "host": chance}

    def catch_up(self, match, shared=None):
        """The frames that bring a JSON viewer from ``self.version`` to ``match`` (none if it is there).
        ``shared``: what the sockets that heard the same ring share (``MatchConsumer.changes``)."""
        seat = match.seat_of(self.user)
        if not frames.can_replay(match, self.version):
            return [self.snapshot(match)]
        if sent_key(match, seat) == self.last_sent:
            return []
        counts = self.counts(match)

        def build():
            out = [
                {"type": "version", "version": version, "events": events}
                for version, events in fanout.versions(match, seat, self.version)
            ]
            state = frames.payload(match, seat, fanout.game_part(match, seat), estimate=False)
            if "win_chance" in state:
                # A spectator's: as heard rung, with no cache read (``fanout.estimate``).
                state["win_chance"] = fanout.estimate(match)
            return out + [{"type": "state", **state, **presence_fields(counts)}]

        if seat is None and shared is not None:
            # Spectators who were at the same version get the same frames, made and encoded once;
            # only spectators, as for the pages (``render_update``).
            out = fanout.once(shared, ("json", self.version, counts), lambda: [encode(frame) for frame in build()])
        else:
            out = build()
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return out

    def snapshot(self, match):
        seat = match.seat_of(self.user)
        state = frames.payload(match, seat, fanout.game_part(match, seat))
        counts = self.counts(match, fresh=True)
        # Only once everything is read (``changes``, tried on the event loop first).
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return {"type": "snapshot", **state, **presence_fields(counts)}

    def render_full(self, match):
        # The whole log, the chat and fresh counts are read: never from the event loop.
        offloop.need_database()
        seat = match.seat_of(self.user)
        spectators, players = self.counts(match, fresh=True)
        with translation.override(self.language):
            self.log_book, entries = presenter.full_log(match, seat)
            self.log_players = frames.players(match)
            seen = frames.payload(match, seat)
            ctx = presenter.context(self.game, seen, spectators, self.log_book.marks, players, frames.machines(match))
            html = presenter.render_parts({**ctx, **self.page_extras()}) + presenter.render_log(entries, append=False)
            if ctx["spectating_live"]:
                html += presenter.render_win_chance(seen["win_chance"])
            elif seat is None and match.status == Match.Status.FINISHED:
                # A spectator's bar of the match as it was live must not stay drawn once it is over.
                html += presenter.render_win_chance(None, over=True)
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        # The chat too: whose lines the viewer reads changes with the audience (the match ended).
        return html + self.render_chat(match)

    def page_extras(self):
        """What the page's parts need beyond the payload, fixed for the socket's life."""
        return {"invite": self.invite, "tournament_round": self.tournament_round}

    def render_update(self, match, shared):
        seat = match.seat_of(self.user)
        if sent_key(match, seat) == self.last_sent:
            # Redrawing unchanged forms would wipe what the player has ticked so far.
            return ""
        if self.log_book is None or (self.log_book.audience, self.log_players) != (
            frames.audience_for(match, seat),
            frames.players(match),
        ):
            # The viewer's audience changed (the match ended, or they took a seat), or the log book
            # names a player who was not there yet (the guest joined): redraw from scratch.
            return self.render_full(match)
        if not frames.can_replay(match, self.version):
            return self.render_full(match)
        spectators, players = self.counts(match)
        missed = fanout.versions(match, seat, self.version)
        with translation.override(self.language):
            # Everything that may read is read before the log book reads on (which changes it), so
            # that a call refused on the event loop is made again on the thread from the same book.
            # The page is drawn from the game's part this process's sockets share (the presenter only
            # reads a payload: tests/game/test_presenter_reads_only.py); spectators of one language
            # share one payload.
            def page_payload():
                return frames.payload(match, seat, fanout.game_part(match, seat), estimate=False)

            seen = fanout.once(shared, ("page payload", self.language), page_payload) if seat is None else page_payload()
            opponent = presenter.opponent(seen, players, frames.machines(match))
            entries = self.log_book.entries(missed)
            if match.status != self.last_sent[1]:
                entries += presenter.called_off(match)
            # The history links change with the status only (the match went live, say).
            parts = ("status", "board", "controls") + (("links",) if match.status != self.last_sent[1] else ())
            parts += ("tutorial",) if match.tutorial else ()

            def draw():
                # None of these parts shows the win chance: its bar has frames of its own.
                ctx = presenter.context(self.game, seen, spectators, self.log_book.marks)
                return presenter.render_parts({**ctx, "opponent": opponent, **self.page_extras()}, parts)

            def log():
                return presenter.render_log(entries, append=True)

            if seat is None:
                # Spectators who heard the same ring in this process and would be drawn from the same
                # inputs get the same bytes, drawn once. Only spectators: a player's page has a form
                # id of its own (a rematch's), and a seat is one person's. The key holds all that the
                # fragment is drawn from besides the match, which is the same row for the whole batch.
                inputs = (self.language, parts, self.log_book.marks, spectators, players, self.page_extras())
                html = fanout.once(shared, ("parts", *inputs), draw) + fanout.once(shared, ("log", self.language, entries), log)
            else:
                html = draw() + log()
        self.version = match.version
        self.last_sent = sent_key(match, seat)
        return html

    async def send_all(self, frames_out):
        """Send frames built in a database call: dicts as JSON, strings (HTML, or JSON encoded
        already) as they are."""
        for frame in frames_out:
            if isinstance(frame, str):
                await self.send(frame)
            else:
                await self.send_json(frame)

    def error_frame(self, code, message):
        if self.html:
            with translation.override(self.language):
                return presenter.render_notice(presenter.refusal_text(self.game, code, message))
        return {"type": "error", "code": code, "message": str(message), "id": None}

    async def send_json(self, content):
        await self.send(text_data=encode(content))

    async def send_error(self, code, message, client_id=None):
        if self.html:
            with translation.override(self.language):
                await self.send(presenter.render_notice(presenter.refusal_text(self.game, code, message)))
        else:
            await self.send_json({"type": "error", "code": code, "message": str(message), "id": client_id})
