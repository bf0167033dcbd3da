"""A match of any registered game played at random through the real services and sockets, every
frame each audience is sent collected and searched for what that audience may not know.

The table drives the match one command at a time: the player to move (chosen by the game's
``to_move``) sends a random legal command (the game's adapter chooses it) over its own match
socket, and the table waits until every socket has been brought up to the new version before the
next. So each frame is searched with the secrets of the version it was sent at.
"""
import json
import random

from channels.db import database_sync_to_async
from django.test import Client

from game import games, services
from game.live import frames
from game.models import Match, MatchEvent
from tests.accounts import client_for
from tests.game.helpers import open_socket

AUDIENCES = (0, 1, None)
# Pages re-render (and replays re-simulate) the whole match: searched every few versions, and at
# every version while the match is still in setup (blind picks: when a game's secrets are most at stake).
PAGE_EVERY = 8


def fingerprint(match_id):
    """Everything a refused command must leave as it was."""
    match = Match.objects.get(pk=match_id)
    return match.version, match.status, match.state, match.events.count(), match.deadline_0, match.deadline_1


class Audit:
    """Counts what was searched, so that an adapter that finds no secrets fails the kit."""

    def __init__(self):
        self.words = 0
        self.texts = 0

    def search(self, text, words, where):
        lowered = text.lower()
        found = sorted(word for word in words if word in lowered)
        # The neighbourhood of each word found, to see at a glance where it leaked.
        assert not found, (where, found, [lowered[max(0, lowered.index(w) - 300) : lowered.index(w) + 100] for w in found])
        self.words += len(words)
        self.texts += 1


class Table:
    def __init__(self, kit, match, users):
        self.kit = kit
        self.game = kit.game
        self.match_id = match.pk
        self.users = users  # (host, guest)
        self.json = {}  # audience → JSON match socket
        self.html = {}  # audience → browser (?ui=html) match socket
        self.seen = {}  # socket → how many of its frames have been searched
        self.clients = {}
        self.audit = Audit()
        self.sent = 0

    async def open(self, html=True):
        self.clients = await database_sync_to_async(
            lambda: {0: client_for(self.users[0]), 1: client_for(self.users[1]), None: Client()}
        )()
        for seat in AUDIENCES:
            user = self.users[seat] if seat is not None else None
            socket = await open_socket(self.match_id, user)
            await socket.hello(None)
            self.json[seat] = socket
            if html:
                self.html[seat] = await open_socket(self.match_id, user, html=True)
        await self.sync()
        return self

    async def close(self):
        for socket in [*self.json.values(), *self.html.values()]:
            await socket.disconnect()

    def sockets(self):
        return [(seat, s, False) for seat, s in self.json.items()] + [(seat, s, True) for seat, s in self.html.items()]

    async def current(self):
        return await database_sync_to_async(Match.objects.get)(pk=self.match_id)

    async def step(self, rng):
        """One random legal command of a seat that owes one; the new version."""
        match = await self.current()
        state = self.game.load(match.state)
        seat = self.game.to_move(state)[0]
        command = self.kit.adapter.random_command(state, seat, rng)
        self.sent += 1
        socket = self.json[seat]
        await socket.send({"type": "command", "id": f"k{self.sent}", "version": match.version, "command": command})
        answer = await self.answer(socket, f"k{self.sent}")
        assert answer["type"] == "ack", (answer, command)
        await self.sync()
        return answer["version"]

    async def answer(self, socket, client_id):
        frames_ = await socket.receive_until(lambda f: f["type"] in ("ack", "error") and f.get("id") == client_id)
        return frames_[-1]

    async def sync(self):
        """Wait until every socket has been brought up to the match's version, then search what it
        was sent since the last time."""
        match = await self.current()
        version = match.version
        for seat, socket, html in self.sockets():
            if html:
                mark = f'data-version="{version}"'
                if not any(mark in text for text in socket.frames[self.seen.get(socket, 0):]):
                    await socket.receive_until(lambda text: mark in text)
            else:
                fresh = socket.frames[self.seen.get(socket, 0):]
                if not any(self.is_state(text, version) for text in fresh):
                    await socket.receive_until(lambda f: f["type"] in ("state", "snapshot") and f["version"] == version)
        await database_sync_to_async(self.search_frames)(match)

    @staticmethod
    def is_state(text, version):
        frame = json.loads(text)
        return frame["type"] in ("state", "snapshot") and frame["version"] == version

    def secrets(self, match):
        rows = MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version).order_by("version")
        return self.kit.adapter.Secrets([(v, e) for v, events in rows.values_list("version", "events") for e in events])

    def own_view(self, match, seat):
        return frames.payload(match, seat)["view"] if seat is not None else None

    def search_frames(self, match):
        live = match.status == Match.Status.LIVE
        secrets = self.secrets(match) if live else None
        for seat, socket, html in self.sockets():
            start = self.seen.get(socket, 0)
            self.seen[socket] = len(socket.frames)
            if not live:
                continue  # over: the audience of everyone is "all", which may know everything
            words = secrets.words(seat)
            for text in socket.frames[start:]:
                where = ("html" if html else "json", seat, match.version)
                if html:
                    searched = secrets.html_text(text, seat, self.own_view(match, seat))
                else:
                    searched = secrets.json_text(json.loads(text), seat)
                self.audit.search(searched, words, where)

    def search_pages(self, match):
        """The match page for each audience, and while the match is live the replay (a spectator's,
        whatever it asks for) and the absence of summary and record."""
        live = match.status == Match.Status.LIVE
        secrets = self.secrets(match) if live else None
        for seat, client in self.clients.items():
            response = client.get(f"/match/{match.pk}/")
            assert response.status_code == 200
            if live:
                text = secrets.html_text(response.content.decode(), seat, self.own_view(match, seat))
                self.audit.search(text, secrets.words(seat), ("page", seat, match.version))
        for seat, client in self.clients.items():
            for asked in ("0", "1", "spectator", "all"):
                response = client.get(f"/match/{match.pk}/replay/?as={asked}")
                assert response.status_code == 200
                if live:
                    where = ("replay", seat, asked, match.version)
                    self.audit.search(secrets.replay_text(response.content.decode()), secrets.words(None), where)
            for page in ("summary/", "record.json"):
                assert client.get(f"/match/{match.pk}/{page}").status_code == (404 if live else 200)

    async def play_out(self, seed, *, pages=True, until=None):
        """Random legal commands to the end (or to version ``until``); returns the match."""
        rng = random.Random(seed)
        while True:
            match = await self.current()
            due = match.status != Match.Status.LIVE or match.version % PAGE_EVERY == 0
            if pages and (due or self.game.in_setup(self.game.load(match.state))):
                await database_sync_to_async(self.search_pages)(match)
            if match.status != Match.Status.LIVE or (until is not None and match.version >= until):
                return match
            await self.step(rng)


def new_match(kit, host, guest):
    return services.join_match(services.create_match(host, game=kit.game.name), guest)


class Kit:
    """A game and its adapter (tests/conformance/adapters/<name>.py)."""

    def __init__(self, name, adapter):
        self.game = games.get(name)
        self.adapter = adapter
