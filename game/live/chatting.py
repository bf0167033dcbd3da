"""The chat half of the match socket (game/chat/): posting, muting, and passing on new lines.

A mixin of ``MatchConsumer`` (consumers.py), which owns the socket: its viewer (``user``), dialect
(``html``), language and sending. A new message rings every socket on the match (``chat.posted``,
its id only); each reads it for its own viewer, or nothing if they may not read it.
"""
from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from ..chat import service as chat
from ..services import ServiceError
from . import fanout, presenter


class ChatSocket:
    async def chat(self, frame):
        """Post a chat message; every socket on the match (this one too) hears of it by the ring."""
        try:
            with translation.override(self.language if self.html else settings.LANGUAGE_CODE):
                message = await database_sync_to_async(self.checked(self.post_chat))(frame["text"])
        except ServiceError as error:
            await self.send_error(error.code, error.message, frame["id"])
            return
        if self.html:
            await self.send(presenter.render_notice())
        else:
            await self.send_json({"type": "ack", "id": frame["id"], "chat": message.pk})

    def post_chat(self, text):
        return chat.post(fanout.read_match(self.match_id), self.user, text)

    async def mute(self, frame):
        try:
            with translation.override(self.language if self.html else settings.LANGUAGE_CODE):
                await database_sync_to_async(self.checked(chat.mute))(self.user, frame["user"], frame["on"])
        except ServiceError as error:
            await self.send_error(error.code, error.message, frame["id"])
            return
        if self.html:
            # Redrawn without the muted player's lines (or with them again).
            await self.send(await database_sync_to_async(lambda: self.render_chat(fanout.read_match(self.match_id)))())
        else:
            await self.send_json({"type": "ack", "id": frame["id"], "muted": frame["on"]})

    def render_chat(self, match, message_id=None):
        """The chat box as this viewer may read it (``message_id``: only that new line, appended)."""
        box = chat.box(match, match.seat_of(self.user), self.user, message_id)
        if message_id is not None and not box["lines"]:
            return ""
        template = "game/_chat_box.html" if message_id is None else "game/_chat_lines.html"
        with translation.override(self.language):
            return render_to_string(template, {"chat": box, "oob": True})

    async def chat_posted(self, message):
        frames_out = await database_sync_to_async(self.chat_news)(message["id"], message.get("ring"))
        await self.send_all(frames_out)

    def chat_news(self, message_id, ring):
        """The frames telling this viewer of chat message ``message_id`` (none if they may not read it)."""
        match = fanout.match_after(self.match_id, ring)
        if match is None:
            return []
        if self.html:
            html = self.render_chat(match, message_id)
            return [html] if html else []
        return self.chat_frames(match, message_id)

    def chat_frames(self, match, message_id=None):
        """A JSON viewer's ``chat`` frame: the newest lines it may read (or only ``message_id``)."""
        lines = chat.lines(match.pk, match.status, match.seat_of(self.user), self.user, message_id)
        return [{"type": "chat", "messages": lines}] if lines else []
