"""The match socket's presence: its row in the database while it is open (game/live/presence.py),
the rings that tell the match's other sockets when someone comes or goes, and the counts and
"opponent" line each socket sends after such a ring.

A mixin of ``MatchConsumer`` (game/live/consumers.py), whose ``connect`` sets what it uses:
``match_id``, ``seed``, ``user``, ``address``, ``html`` and ``language``, and starts it with
``seat`` None, ``present`` and ``recount`` False.
"""
from channels.db import database_sync_to_async
from django.utils import translation

from .. import fairness, offloop, time_controls
from . import fanout, frames, presence, presence_news, presenter


class PresenceSocket:
    def depart(self):
        """Remove this socket's presence row; what ``presence_news.claim`` says of that news for the
        others (None: no news)."""
        presence.leave(self.channel_name)
        # A player's other sockets (tabs) still count: only the seat's last one leaving is news.
        return self.news(self.seat is None or not presence.players(self.match_id)[self.seat])

    async def register(self, seat):
        """Record (or re-record, after a watcher took a seat) this socket's presence row."""
        await self.ring_presence(await database_sync_to_async(self.arrive)(seat), origin=self.channel_name)

    def arrive(self, seat):
        """Write this socket's presence row under ``seat``; the news of it for the others (``depart``)."""
        was_connected = seat is not None and presence.players(self.match_id)[seat]
        self.seat, self.present = seat, True
        user = self.user if getattr(self.user, "is_authenticated", False) else None
        presence.arrive(self.channel_name, self.match_id, seat, user, self.address)
        return self.news(not was_connected)

    def news(self, changed):
        """For a database call that changed (``changed``) what the others count: whether and when to
        ring them (``presence_news.claim``), or None."""
        return presence_news.claim(self.match_id) if changed else None

    async def ring_presence(self, claimed, origin=None):
        """Ring the others as ``claimed`` says (``news``). ``origin``: the arriving socket, which
        needs no news of itself (its state tells it)."""
        await presence_news.ring(self.channel_layer, self.match_id, claimed, origin)

    def beat(self):
        """The heartbeat (``sessions.SessionSocket.heartbeat``): keeps this socket's row fresh, as a process
        that dies stops doing (see game/live/presence.py); whether the login holds."""
        presence.touch(self.channel_name)
        return self.login.holds()

    def take_seat(self, match):
        """A watcher who just took the empty seat is a player now: if so, this socket's next counts
        must be read afresh, and the others have news (one spectator fewer): returned as ``news``."""
        seat = match.seat_of(self.user)
        if self.present and seat != self.seat:
            # Before anything changes: work tried on the event loop is made again on the thread.
            offloop.need_database()
            self.arrive(seat)
            self.recount = True
            return self.news(True)
        return None

    def counts(self, match, fresh=False):
        """The presence counts for a frame: this process's latest, unless this socket is new or just
        moved (it hears no news of its own arrival), or ``fresh``."""
        counts = fanout.presence(match.pk, match.seed, fresh=fresh or self.recount)
        # Only once they are read: a read refused on the event loop is made again on the thread.
        self.recount = False
        return counts

    async def presence_changed(self, message):
        if message.get("origin") == self.channel_name:
            return
        ring = message.get("ring")
        if self.html:
            count, opponent = await database_sync_to_async(self.presence_news)(ring)
            ctx = {"spectators": count, "opponent": opponent}
            with translation.override(self.language):
                await self.send(presenter.render_parts(ctx, ("spectators", "opponent")))
            return
        # Counted once per ring per process: the other sockets here take the same numbers.
        counts = fanout.cached_presence(self.match_id, self.seed, ring)
        if counts is None:
            counts = await database_sync_to_async(fanout.presence)(self.match_id, self.seed, ring)
        count, players = counts
        await self.send_json({"type": "presence", "spectators": count, "players": players})

    def presence_news(self, ring):
        """(spectators, what the status line says of the opponent) after a presence ring."""
        count, players = fanout.presence(self.match_id, self.seed, ring)
        match = fanout.match_after(self.match_id)
        if match is None:
            return count, None
        control = time_controls.of(match)
        return count, fairness.opponent(match.pk, self.seat, match.status, control, players, frames.machines(match))
