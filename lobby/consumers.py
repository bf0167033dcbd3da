"""The lobby's socket, ``/ws/lobby/``: tells a logged-in person the moment someone joins a match of
theirs, or the server starts one for them (a tournament's round, an accepted challenge), so they are
taken to it instead of letting their clock run unseen (static/lobby/lobby.js); and of challenges
made to them or answered (lobby/challenges.py). The lobby and a tournament's page open it.

It only listens: the joining is done by ``services.join_match``, which sends ``match.joined`` to the
host's group (``groups.user_group``) once the join is committed. Like the match page's socket, it
speaks htmx's websocket extension: the news arrives as an HTML fragment swapped into the page.

The channel layer only says what happened while the socket was listening. A join that came while
the page was loading, or while its socket was reconnecting, is found in the database instead: the
lobby names the open matches it showed the person (``?waiting=3,7``), and on connecting the socket
tells of the newest of them that has been joined since.
"""
import asyncio
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from aquawar_site.security import scope_address
from game.live import connects, sessions
from game.live.consumers import page_language
from game.live.groups import user_group
from game.models import Match

from . import connections

# More than anyone may have open at once (game/limits.py): the rest of a longer list is ignored.
MAX_WAITING = 20


def waiting_for(scope):
    """The match ids in ``?waiting=``: a hint from the page, so anything that is not one (a word, a
    number too long for an id) is left out rather than refused, and the socket works as before."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    parts = (query.get("waiting") or [""])[0].split(",")
    return [int(part) for part in parts if part.isascii() and part.isdigit() and len(part) <= 18][:MAX_WAITING]


def joined_meanwhile(user, match_ids):
    """The news of the newest of ``match_ids`` that ``user`` hosts and someone has joined (it is
    live), or None. Only the person's own matches: the ids come from the client."""
    match = (
        Match.objects.filter(pk__in=match_ids, host=user, status=Match.Status.LIVE, guest__isnull=False)
        .select_related("guest")
        .order_by("-pk")
        .first()
    )
    return None if match is None else {"match": match.pk, "guest": match.guest.username}


class LobbyConsumer(sessions.SessionSocket, AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            # Nobody to tell: anonymous visitors have no matches.
            await self.close(code=4401)
            return
        refused = await database_sync_to_async(self.admit)(user)
        # Accepted even when refused: a close code reaches the page only on an open socket.
        await self.accept()
        if refused:
            # The page's script reconnects later, as after any close; the code says why.
            await self.close(code=refused)
            return
        self.heartbeat_task = asyncio.create_task(self.heartbeat())
        self.group = user_group(user.pk)
        self.language = page_language(self.scope)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.join_sessions()
        # After joining the group: a join committed from now on is rung, one before it is read here.
        waiting = waiting_for(self.scope)
        if waiting:
            news = await database_sync_to_async(joined_meanwhile)(user, waiting)
            if news:
                await self.match_joined(news)

    def admit(self, user):
        """None, or the close code refusing the socket if ``user`` connects too often, their login
        ended meanwhile, or they have too many lobby sockets open: the same limits as a match
        socket's (game/live/connects.py)."""
        address = scope_address(self.scope) or ""
        if connects.refusal(user, address):
            return connects.CLOSE_CODE
        self.login = sessions.Login(self.scope)
        if not self.login.holds():
            return sessions.CLOSE_CODE
        if connections.arrive(self.channel_name, user, address):
            return connects.CROWDED_CLOSE_CODE
        self.registered = True
        return None

    def beat(self):
        """The heartbeat (``sessions.SessionSocket.heartbeat``): keeps this socket's row fresh, as a process
        that dies stops doing (lobby/connections.py); whether the login holds."""
        connections.touch(self.channel_name)
        return self.login.holds()

    async def disconnect(self, code):
        if getattr(self, "heartbeat_task", None):
            self.heartbeat_task.cancel()
        if getattr(self, "registered", False):
            await database_sync_to_async(connections.leave)(self.channel_name)
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.leave_sessions()

    async def receive(self, text_data=None, bytes_data=None):
        """The lobby's socket takes nothing from the page."""

    async def match_joined(self, message):
        context = {"url": reverse("game:match", args=[message["match"]]), "guest": message["guest"], "match": message["match"]}
        await self.tell("lobby/_joined.html", context)

    async def match_started(self, message):
        """The server started a match of this person's (a tournament's round, tournaments/runner.py)."""
        context = {"url": reverse("game:match", args=[message["match"]]), **message}
        await self.tell("lobby/_started.html", context)

    async def challenge_changed(self, message):
        """A challenge made to this person, or taken back; or the answer to one they made
        (lobby/challenges.py): said on the page, whose lists then read it again."""
        await self.tell("lobby/_challenge_news.html", {"news": message["news"], "name": message["name"]})

    async def challenge_accepted(self, message):
        """The person challenged accepted: the match has started, and the page goes to it."""
        context = {"url": reverse("game:match", args=[message["match"]]), "name": message["name"]}
        await self.tell("lobby/_challenge_accepted.html", context)

    async def tell(self, template, context):
        with translation.override(self.language):
            await self.send(render_to_string(template, context))
