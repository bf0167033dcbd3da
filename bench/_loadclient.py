"""The load generator's websocket clients: tables of two players and S spectators, and one run of N tables.

A *table* is one match on ``/ws/match/<id>/`` (or one room on the bench echo socket) with its two
players and its spectators. Players play random legal moves taken from each ``state`` frame; every
socket checks version numbering (gaps, duplicates) and, on the match socket, hidden data
(``_loadscan``). Latency is measured from the moment a player sends a command to (a) its ``ack``,
(b) the opponent's socket receiving that ``version`` frame, (c) each spectator's receiving it.
A ``version`` frame can arrive before the sender's ``ack`` (they travel on different sockets), so
receipts wait in ``pending`` until the ack has told which command the version was.

With ``ui="html"`` the spectators connect as browsers do (``?ui=html``) and each player opens such
a browser socket beside its JSON one: the HTML dialect carries no machine-readable legal commands
and acknowledges a command with an empty notice that names neither it nor its version, so the
players still choose and send over JSON, while what people see (the opponent's and spectators'
latency, duplicates, leaks) is measured on the HTML sockets. An HTML socket learns a version from
its ``#match-status`` fragment (``data-version``); the dialect sends one fragment for all versions
a socket missed, so a version it skips is no gap there (its log lines come with the fragment), and
a duplicate is a status older than the last one or a log line appended again.
"""
import asyncio
import json
import random
import time
from collections import Counter, defaultdict

from websockets.asyncio.client import connect

from _loadpolicy import choose
from _loadscan import HtmlScanner, MiracleScanner, MiracleTruth, Scanner, Truth, appended_log_versions, html_status

CONNECT_TIMEOUT = 30
# Handshakes at once. daphne drops a socket whose application has not accepted it within 5 s
# (--websocket_connect_timeout); each connect costs the server several database round trips, so a
# larger storm measures that timeout instead of the steady state (see docs/performance.md).
CONNECTING = 16


class Run:
    """What all tables of one measured run share: settings, the window, the match pool and counters."""

    def __init__(self, kind, urls, matches, spectators, think, duration, pool=None, pad=0, seed=1, drain=15.0,
                 game="aquawar", ui="json"):
        self.kind, self.urls, self.matches, self.spectators = kind, urls, matches, spectators
        self.game, self.ui = game, ui
        self.think, self.duration, self.pad, self.seed, self.drain = think, duration, pad, seed, drain
        self.pool = pool or []
        # Called at the window's start and end: CPU counters are read over the window alone.
        self.probe = lambda: {}
        self.probes = ({}, {})
        self.on_window = lambda: None  # e.g. start the profilers: connecting is not the steady state
        self.start = asyncio.Event()
        self.stop = asyncio.Event()
        self.t0 = self.t1 = None
        self.connecting = asyncio.Semaphore(CONNECTING)
        self.latency = {"ack": [], "opponent": [], "spectator": []}
        self.applied = 0
        self.count = Counter()  # gaps, duplicates, resyncs, behind, frames, scanned, finished, ...
        self.errors = Counter()
        self.leaks = []

    def in_window(self, t):
        return self.t0 is not None and self.t0 <= t and (self.t1 is None or t < self.t1)

    def next_match(self):
        if self.kind == "echo":
            self.count["tables"] += 1
            return self.count["tables"], (None, None)
        if not self.pool:
            self.count["pool_exhausted"] += 1
            return None
        self.count["tables"] += 1
        return self.pool.pop()


class Table:
    def __init__(self, run, index, match_id, cookies):
        self.run, self.index, self.match_id = run, index, match_id
        self.rng = random.Random(run.seed * 100003 + run.count["tables"])
        self.truth = MiracleTruth() if run.game == "miracle" else Truth()
        self.playing = False
        self.sent = {}  # client id -> (sent at, seat)
        self.commands = {}  # client id -> command, until acked: the truth learns what it applied
        self.known_through = 0  # every version up to this one has been acked
        self.version_sent = {}  # version -> (sent at, seat)
        self.pending = defaultdict(list)  # version -> [(receiver seat, received at)]
        self.final = None  # the last version, once the match is over
        self.last_acked = 0
        self.changed = asyncio.Event()
        urls = run.urls
        # Each match's two players on different processes (when there are two); spectators spread.
        html = run.ui == "html" and run.kind == "game"
        self.sockets = [Viewer(self, seat, urls[(index + seat) % len(urls)], cookies[seat]) for seat in (0, 1)]
        if html:
            # The players' browser sockets: on the process of the other player's JSON one, so that
            # what a player sees crosses processes as in the JSON run.
            self.sockets += [Viewer(self, seat, urls[(index + 1 + seat) % len(urls)], cookies[seat], html=True)
                             for seat in (0, 1)]
        self.sockets += [
            Viewer(self, None, urls[(index + 2 + k) % len(urls)], None, html=html) for k in range(run.spectators)
        ]

    def path(self, html):
        if self.run.kind == "echo":
            return f"/ws/bench-echo/{self.match_id}/?pad={self.run.pad}"
        return f"/ws/match/{self.match_id}/" + ("?ui=html" if html else "")

    async def open(self):
        await asyncio.gather(*(socket.open() for socket in self.sockets))

    def begin(self):
        self.playing = True
        if self.run.kind == "echo":
            # Seat 0 opens the rally; from then on each player answers the other's version.
            self.sockets[0].acting = True
            asyncio.get_running_loop().create_task(self.sockets[0].send_echo(1))
            return
        for socket in self.sockets[:2]:
            socket.maybe_act()

    def acked(self, client_id, version, duplicate, t):
        sent_at, seat = self.sent.pop(client_id, (None, None))
        if sent_at is None:
            self.run.errors["unknown_ack"] += 1
            return
        self.version_sent[version] = (sent_at, seat)
        self.last_acked = max(self.last_acked, version)
        command = self.commands.pop(client_id, None)
        if command is not None and not duplicate:
            self.truth.applied(version, command, seat)
        while self.known_through + 1 in self.version_sent:
            self.known_through += 1
        for socket in self.sockets:
            if socket.html:
                self.judge(socket)
        # Throughput counts acks that arrive in the window (whenever the command was sent: a
        # saturated server works off a queue); latency counts commands sent in the window.
        if self.run.in_window(t) and not duplicate:
            self.run.applied += 1
        if self.run.in_window(sent_at) and not duplicate:
            self.run.latency["ack"].append(t - sent_at)
        for receiver, received_at in self.pending.pop(version, ()):
            self.record(version, receiver, received_at)
        self.changed.set()

    def judge(self, socket):
        socket.scanner.judge(self.known_through)
        if socket.scanner.findings:
            self.run.leaks.extend(socket.scanner.findings)
            socket.scanner.findings = []

    def received(self, version, receiver, t):
        if version in self.version_sent:
            self.record(version, receiver, t)
        else:
            self.pending[version].append((receiver, t))

    def record(self, version, receiver, t):
        sent_at, seat = self.version_sent[version]
        if receiver == seat or not self.run.in_window(sent_at):
            return
        self.run.latency["opponent" if receiver is not None else "spectator"].append(t - sent_at)

    def in_flight(self):
        return bool(self.sent) or any(socket.acting for socket in self.sockets[:2])

    async def settle(self):
        """Wait until no command is in flight and every socket has the last version, or time out."""
        deadline = time.perf_counter() + self.run.drain
        while time.perf_counter() < deadline:
            target = self.final if self.final is not None else self.last_acked
            if not self.in_flight() and all(s.version is not None and s.version >= target for s in self.sockets):
                break
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), max(0.01, deadline - time.perf_counter()))
            except asyncio.TimeoutError:
                break
        target = self.final if self.final is not None else self.last_acked
        self.run.errors["no_ack"] += len(self.sent)
        for socket in self.sockets:
            if socket.html:
                self.judge(socket)
                # Fragments past a version that never got its ack: their truth is not known.
                self.run.count["html_unjudged"] += len(socket.scanner.waiting)
        for socket in self.sockets:
            behind = target - (socket.version or 0)
            if behind > 0:
                self.run.count["behind"] += behind

    async def close(self):
        await asyncio.gather(*(socket.close() for socket in self.sockets))

    async def play(self, first):
        """Play this table until its match ends or the run stops."""
        if first:
            await self.run.start.wait()
        if self.run.stop.is_set():
            return
        self.begin()
        stop = asyncio.create_task(self.run.stop.wait())
        over = asyncio.create_task(self._over())
        await asyncio.wait({stop, over}, return_when=asyncio.FIRST_COMPLETED)
        self.playing = False
        for task in (stop, over):
            task.cancel()
        await self.settle()

    async def _over(self):
        while self.final is None:
            self.changed.clear()
            await self.changed.wait()


class Viewer:
    """One websocket: a player (seat 0/1) or a spectator (None)."""

    def __init__(self, table, seat, base_url, cookie, html=False):
        self.table, self.seat, self.base_url, self.cookie = table, seat, base_url, cookie
        self.html = html
        # Whose latency this socket measures: in the HTML run the players' JSON sockets only play.
        self.measured = html or table.run.ui == "json" or table.run.kind == "echo"
        self.ws = None
        self.reader = None
        self.version = None
        self.latest = None
        self.acting = False
        self.acted_at = None
        self.acked_version = -1
        self.commands = 0
        if html:
            self.scanner = HtmlScanner(table.truth, seat)
        elif table.run.game == "miracle":
            self.scanner = MiracleScanner(table.truth, seat)
        else:
            self.scanner = Scanner(table.truth, seat)

    async def open(self):
        run = self.table.run
        headers = {"Cookie": self.cookie} if self.cookie else {}
        async with run.connecting:
            self.ws = await connect(
                self.base_url + self.table.path(self.html),
                origin=self.base_url.replace("ws://", "http://", 1),
                additional_headers=headers,
                compression=None,  # daphne does not negotiate permessage-deflate anyway
                ping_interval=None,
                open_timeout=CONNECT_TIMEOUT,
                max_size=2**20,
            )
            if run.kind == "game" and not self.html:
                # A browser socket is sent the whole page state on connecting, unasked.
                await self.ws.send('{"type":"hello","version":null}')
            else:
                self.version = 0
        self.reader = asyncio.create_task(self.read())

    async def read(self):
        run = self.table.run
        try:
            async for text in self.ws:
                t = time.perf_counter()
                run.count["frames"] += 1
                if self.html:
                    self.on_fragment(text, t)
                else:
                    self.on_frame(json.loads(text), text, t)
        except Exception as error:  # a closed or broken socket ends its reader; count it
            if not run.stop.is_set() or self.table.playing:
                run.errors[f"socket:{type(error).__name__}"] += 1

    async def close(self):
        if self.ws is not None:
            try:
                await asyncio.wait_for(self.ws.close(), 5)
            except (asyncio.TimeoutError, OSError):
                pass
        if self.reader is not None:
            self.reader.cancel()

    def on_frame(self, frame, text, t):
        run, table, kind = self.table.run, self.table, frame.get("type")
        if kind == "ack":
            self.acting = False
            self.acked_version = max(self.acked_version, frame["version"])
            table.acked(frame["id"], frame["version"], frame["duplicate"], t)
            self.maybe_act()
        elif kind == "version":
            self.count_sequence(frame["version"])
            if self.measured:
                table.received(frame["version"], self.seat, t)
            if run.kind == "game":
                self.scanner.version(frame, text)
            else:
                self.echo_turn(frame)
            table.changed.set()
        elif kind in ("state", "snapshot"):
            self.on_state(frame, text)
        elif kind == "error":
            run.errors[frame.get("code") or "error"] += 1
            if frame.get("id") and table.sent.pop(frame["id"], None):
                # Refused: decide again from the latest state (it may have moved on meanwhile).
                self.acting = False
                self.acted_at = None
                self.maybe_act()

    def on_fragment(self, text, t):
        """A browser socket's fragment: a version when it carries ``#match-status``."""
        run, table = self.table.run, self.table
        if "match-notice--error" in text:
            run.errors["html_error"] += 1
        status = html_status(text)
        if status is None:
            return
        state, version = status
        if self.version is not None:
            if version < self.version:
                run.count["duplicates"] += 1
            run.count["duplicates"] += sum(1 for v in appended_log_versions(text) if v <= self.version)
            for missed in range(self.version + 1, version + 1):
                table.received(missed, self.seat, t)
        self.version = version if self.version is None else max(self.version, version)
        self.scanner.fragment(version, state, text, table.known_through)
        table.judge(self)
        table.changed.set()

    def count_sequence(self, version):
        count = self.table.run.count
        if self.version is None:
            count["unexpected_version"] += 1
        elif version <= self.version:
            count["duplicates"] += 1
        elif version > self.version + 1:
            count["gaps"] += version - self.version - 1
        self.version = version if self.version is None else max(self.version, version)

    def on_state(self, frame, text):
        run, table = self.table.run, self.table
        if run.kind == "echo":
            return
        if frame["type"] == "snapshot":
            if self.version is not None:
                run.count["resyncs"] += 1
            self.scanner.batch = []
            self.version = frame["version"]
        elif self.version is not None and frame["version"] > self.version:
            run.count["gaps"] += frame["version"] - self.version
            self.version = frame["version"]
        self.scanner.state(frame, text)
        if self.scanner.findings:
            run.leaks.extend(self.scanner.findings)
            self.scanner.findings = []
        self.latest = frame
        if frame["status"] != "live" and table.final is None:
            table.final = frame["version"]
            run.count["finished"] += 1
        table.changed.set()
        self.maybe_act()

    def maybe_act(self):
        table = self.table
        if self.seat is None or not table.playing or self.acting or self.latest is None:
            return
        if table.run.kind == "echo":
            return
        frame = self.latest
        # Not before the state of our own last command has arrived: the ack outruns it, and a state
        # older than it still offers the move we just made.
        if frame["status"] != "live" or frame["version"] == self.acted_at or frame["version"] < self.acked_version:
            return
        command = choose(frame, table.rng)
        if command is None:
            return
        self.acted_at = frame["version"]
        self.acting = True
        asyncio.get_running_loop().create_task(self.send_command(frame["version"], command, frame["view"]))

    async def think(self):
        think = self.table.run.think
        if think > 0:
            # Uniform between half and one and a half times the mean: steady load, no lock-step.
            await asyncio.sleep(self.table.rng.uniform(0.5 * think, 1.5 * think))

    async def send_command(self, version, command, seen):
        await self.think()
        table = self.table
        if not table.playing:
            self.acting = False
            table.changed.set()
            return
        table.truth.sent(self.seat, command)
        self.commands += 1
        client_id = f"t{table.match_id}s{self.seat}n{self.commands}"
        table.commands[client_id] = command
        frame = {"type": "command", "id": client_id, "version": version, "command": command}
        table.sent[client_id] = (time.perf_counter(), self.seat)
        try:
            await self.ws.send(json.dumps(frame, separators=(",", ":")))
        except Exception as error:
            table.run.errors[f"send:{type(error).__name__}"] += 1
            table.sent.pop(client_id, None)
            self.acting = False

    def echo_turn(self, frame):
        """Echo tables ping-pong: a player answers the other player's version with the next one."""
        if self.seat is None or frame.get("seat") == self.seat or not self.table.playing:
            return
        self.acting = True
        asyncio.get_running_loop().create_task(self.send_echo(frame["version"] + 1))

    async def send_echo(self, version):
        await self.think()
        table = self.table
        if not table.playing:
            self.acting = False
            table.changed.set()
            return
        self.commands += 1
        client_id = f"e{table.match_id}s{self.seat}n{self.commands}"
        table.sent[client_id] = (time.perf_counter(), self.seat)
        try:
            await self.ws.send(json.dumps({"type": "command", "id": client_id, "version": version, "seat": self.seat}))
        except Exception as error:
            table.run.errors[f"send:{type(error).__name__}"] += 1
            table.sent.pop(client_id, None)
            self.acting = False


async def run_tables(run):
    """Open N tables, play them for ``run.duration`` seconds, settle, close. Returns wall seconds."""
    ready = 0
    tables = []

    async def slot(index):
        nonlocal ready
        first = True
        while True:
            taken = run.next_match()
            if taken is None:
                break
            match_id, cookies = taken
            table = Table(run, index, match_id, cookies)
            tables.append(table)
            try:
                await table.open()
                opened = True
            except Exception as error:
                run.errors[f"connect:{type(error).__name__}"] += 1
                opened = False
            if first:
                # Every slot's first table is open (or failed): the run may start.
                ready += 1
                if ready == run.matches:
                    run.start.set()
            try:
                if opened:
                    await table.play(first)
            finally:
                await table.close()
            first = False
            if run.stop.is_set() or run.kind == "echo":
                break

    slots = [asyncio.create_task(slot(i)) for i in range(run.matches)]
    try:
        await asyncio.wait_for(run.start.wait(), CONNECT_TIMEOUT * 4)
    except asyncio.TimeoutError:
        run.errors["start_timeout"] += 1
        run.start.set()
    # One second of warm-up: the first moves of every table start together, which is no steady state.
    await asyncio.sleep(1.0)
    cpu0 = time.process_time()
    run.on_window()
    start_probe = run.probe()
    run.t0 = time.perf_counter()
    await asyncio.sleep(run.duration)
    run.t1 = time.perf_counter()
    run.client_cpu = time.process_time() - cpu0
    run.probes = (start_probe, run.probe())
    run.stop.set()
    await asyncio.wait_for(asyncio.gather(*slots, return_exceptions=True), run.drain + 60)
    run.count["scanned"] = sum(s.scanner.scanned for t in tables for s in t.sockets)
    run.count["sockets"] = sum(len(t.sockets) for t in tables)
    return run.t1 - run.t0
