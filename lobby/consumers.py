"""The lobby's socket, ``/ws/lobby/``: tells a logged-in person the moment someone joins a match of
theirs, or the server starts one for them (a tournament's round), so they are taken to it instead of
letting their clock run unseen (static/lobby/lobby.js). The lobby and a tournament's page open it.

It only listens: the joining is done by ``services.join_match``, which sends ``match.joined`` to the
host's group (``groups.user_group``) once the join is committed. Like the match page's socket, it
speaks htmx's websocket extension: the news arrives as an HTML fragment swapped into the page.
"""
from channels.generic.websocket import AsyncWebsocketConsumer
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from game.live.consumers import page_language
from game.live.groups import user_group


class LobbyConsumer(AsyncWebsocketConsumer):
    async def connect(self):
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            # Nobody to tell: anonymous visitors have no matches.
            await self.close(code=4401)
            return
        self.group = user_group(user.pk)
        self.language = page_language(self.scope)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code):
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data=None, bytes_data=None):
        """The lobby's socket takes nothing from the page."""

    async def match_joined(self, message):
        context = {"url": reverse("game:match", args=[message["match"]]), "guest": message["guest"], "match": message["match"]}
        await self.tell("lobby/_joined.html", context)

    async def match_started(self, message):
        """The server started a match of this person's (a tournament's round, tournaments/runner.py)."""
        context = {"url": reverse("game:match", args=[message["match"]]), **message}
        await self.tell("lobby/_started.html", context)

    async def tell(self, template, context):
        with translation.override(self.language):
            await self.send(render_to_string(template, context))
