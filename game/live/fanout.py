"""What the match sockets of one process share when a match changes (docs/performance.md, "Load").

Every socket on a match hears each doorbell and brings its viewer up to date. One socket at a time,
that used to be four database calls per socket per change, all on the process's one database
thread. Here the sockets of a process share their reads and projections instead:

- ``match_after``: the match row read after a doorbell. Each ring names itself (``ring`` in the
  message, game/services.py), and a read made after one socket of this process heard a ring was
  made after the change it announces had committed, so every socket that hears the same ring may
  use that read. A socket never uses a read made before it heard its ring. A command applied in
  this process keeps the row its update returned under its own ring (``written``), so the
  process's sockets read nothing after it. Such a row, or a read another socket made for the
  ring, may be older than what a socket has been sent or acknowledged since; ``match_for`` then
  reads anew for that socket (the ordering argument is at ``match_for``).
- ``versions``: each version's events as stored, and their projection per audience. A version never
  changes once committed; the keys hold the match's seed too, so an id the database hands out again
  (SQLite after a rollback, a test database) never meets an old entry.
- ``game_part``: the game's part of the payload (its view, the viewer's choices), which depends
  on nothing but the match's state, its status and the viewer's audience; the state only ever
  changes with the version or the status.
- ``read_match`` and ``read_events``: the two reads a change costs, as plain SQL; compiling them
  with the ORM cost three to five times as much CPU as running them.
- ``estimates``: the win chances this process's spectators were sent after their rings, for their
  ``state`` frames (``estimate``).
- ``presence``: the presence counts, read again after every presence doorbell, and at least every
  ``PRESENCE_TTL`` when a ``state`` frame wants them (rows of a process that died stop counting
  without a doorbell).
- ``together``: the sockets that heard the same ring make one database call between them, not one
  each: every call on the process's one database thread waits behind all the others, and each
  costs a thread hop and a health check (``SELECT 1``) of the connection. The call's ``shared``
  dict lets them build what equal inputs give once (``once``), e.g. a spectators' fragment. Where
  nothing needs the database (the process that applied the command keeps its row, the version's
  events and often the projections and parts), the batch is made on the event loop, with no
  database call at all (``on_loop``, game/offloop.py); where only the match's row is missing (a
  change another process made), on PostgreSQL the batch reads it on the loop's own connection
  (game/asyncdb.py) and is made there all the same (``Batch.finish``).

Every projection is keyed by the audience it was made for, so an entry never serves another
audience. The database stays the source of truth: a socket that missed a doorbell reads what it
missed at the next one. Each table is bounded (the least recently used entries go first), and every
function may be called from any thread.
"""
import asyncio
import contextvars
import logging
import marshal
import threading
import time
from collections import OrderedDict

from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.core.exceptions import SynchronousOnlyOperation
from django.db import DEFAULT_DB_ALIAS, connections

from .. import asyncdb, games, offloop, plainsql, services
from ..models import Match, MatchEvent
from . import frames, presence as presence_rows

logger = logging.getLogger(__name__)

# An entry is needed only until this process's sockets on the match have used it, i.e. for
# milliseconds (seconds under overload): sized for 500 busy matches, a few MB at most. Measured
# entries: a row about 12 KB, a game part 3 KB (spectator) to 11 KB (player), a version's
# events 1-2 KB. A miss costs a read, never a wrong answer.
ROWS = 256
EVENTS = 1024
PROJECTIONS = 2048
PARTS = 1024
PRESENCE = 2048
PRESENCE_TTL = 30.0
ESTIMATES = 1024
# A loaded state serves the other audiences of the same change, whose parts are made one after
# another in the same batch; a few entries, as each is a tree the garbage collector scans.
LOADED = 4


class LRU:
    """A bounded mapping that forgets its least recently used entries; guarded by its own lock."""

    def __init__(self, size):
        self.size = size
        self.items = OrderedDict()
        self.lock = threading.Lock()
        self.hits = self.misses = 0

    def get(self, key, default=None):
        with self.lock:
            try:
                value = self.items[key]
            except KeyError:
                self.misses += 1
                return default
            self.items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key, value):
        with self.lock:
            self.items[key] = value
            self.items.move_to_end(key)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def clear(self):
        with self.lock:
            self.items.clear()
            self.hits = self.misses = 0

    def __len__(self):
        return len(self.items)


rows = LRU(ROWS)
# Match id -> the newest row this process has of it (a ``Match``, or a ``Kept`` not made yet), for a
# command of its sockets to be written from (``latest``).
newest = LRU(ROWS)
events = LRU(EVENTS)
projections = LRU(PROJECTIONS)
parts = LRU(PARTS)
counts = LRU(PRESENCE)
estimates = LRU(ESTIMATES)
# (match id, seed, version, status) -> its state as ``Game.load`` made it, only ever read
# (``game_part``): never the state a command is applied to.
loaded = LRU(LOADED)


def clear():
    for table in (rows, newest, events, projections, parts, counts, estimates, loaded):
        table.clear()


def heard_estimate(match_id, seed, version, chance):
    """A spectator's socket of this process was given ``chance``, the estimate of ``version`` of the
    live match, after its ring (``MatchConsumer.win_chance_ready``)."""
    if chance is not None:
        estimates.put((match_id, seed, version), chance)


def estimate(match):
    """The estimate of the match's current version if this process has heard it rung, else None.
    For a spectator's ``state`` frame after a doorbell, instead of a cache read on the database
    thread: an estimate not heard of yet has a ring still to come, which sends it in a frame of its
    own (a ``win_chance`` frame), so a spectator misses it only if that ring is lost."""
    return estimates.get((match.pk, match.seed, match.version))


def match_after(match_id, ring=None):
    """The match as read after the doorbell ``ring`` was heard (None: an unnamed ring, read anew).

    Call only after this socket has heard ``ring``: the entry may have been read for another socket
    of this process that heard it first, never earlier, or kept by the command of this process that
    rang it (``written``). Either may be older than what the calling socket has been sent or
    acknowledged since: the match socket takes it through ``match_for``, which checks (the chat's
    news takes chat rings only, under which nothing is kept)."""
    if ring is not None:
        match = rows.get((match_id, ring))
        if isinstance(match, Kept):
            match = match.made()
            rows.put((match_id, ring), match)
        if match is not None:
            return match
    match = read_match(match_id)
    if match is not None and ring is not None:
        rows.put((match_id, ring), match)
    return match


# The events' read, as plain SQL: compiling it with the ORM took three to five times as long as
# running it (docs/performance.md, "Load"); the SQL is written once per process. The match's own
# read is ``plainsql.seen_match``.
_sql = {}


def _events_sql(connection):
    key = connection.vendor
    if key not in _sql:
        quote = connection.ops.quote_name
        _sql[key] = (
            f"SELECT {quote('version')}, {quote('events')} FROM {quote(MatchEvent._meta.db_table)}"
            f" WHERE {quote('match_id')} = %s AND {quote('version')} >= %s AND {quote('version')} <= %s"
        )
    return _sql[key]


def read_match(match_id):
    """``frames.load_match(match_id)``: the match, its host and guest with their usernames (the
    rest of a user loads if asked for), which of them are programs (``frames.programs``) and which
    seats machines play (``frames.machines``), or None. The events of its current version come
    with it into ``events``: after a change, the sockets one version behind (nearly all of them)
    need no other read.

    In a batch attempted on the event loop (``Batch.finish``) the row is the one the batch read on
    the loop's own connection, or ``RowNeeded`` asks the batch to read it there."""
    read = _read_on_loop.get()
    if read is not None:
        connection = _lender()
        match_id = plainsql.valid_match_id(connection, match_id)
        if match_id is None:
            return None
        if match_id not in read:
            raise RowNeeded(match_id)
        return None if read[match_id] is None else made(read[match_id], connection)
    offloop.need_database()
    connection = connections[DEFAULT_DB_ALIAS]
    match_id = plainsql.valid_match_id(connection, match_id)
    if match_id is None:
        return None
    row = plainsql.seen_match(match_id)
    if row is None:
        return None
    return made(row, connection)


class RowNeeded(offloop.NeedsDatabase):
    """A call of a batch attempted on the loop needs the match's row: the batch may read it on the
    loop's own connection and attempt the calls again."""

    def __init__(self, match_id):
        super().__init__(match_id)
        self.match_id = match_id


# Match id -> its row (None: no such match) as the batch being attempted read it on the event loop's
# own connection; None outside such an attempt, and where that connection is not to be used.
_read_on_loop = contextvars.ContextVar("fanout_read_on_loop", default=None)
_lenders = []


def _lender():
    """A connection object of Django's for the rows made on the event loop (read there, or kept from
    a command): only its SQL and converters are used, never a connection to the database. One per
    process: asgiref gives each task of the loop a connection object of its own, built anew for every
    batch, and the converters are worked out once per connection object (``plainsql.from_row``)."""
    if not _lenders:
        _lenders.append(connections.create_connection(DEFAULT_DB_ALIAS))
    return _lenders[0]


def made(row, connection):
    """The match of a row of ``plainsql.seen_match`` (or of a command's write), its current
    version's events kept in ``events``. ``connection`` only lends its vendor's converters: nothing
    is asked of the database, so a kept row is made on the event loop too (``Batch.attempt``)."""
    fields = len(Match._meta.concrete_fields)
    match = plainsql.from_row(Match, row, connection)
    User = get_user_model()
    names, programs, levels = row[fields : fields + 2], row[fields + 2 : fields + 4], row[fields + 4 : fields + 6]
    latest = row[fields + 6]
    if latest is not None:
        field = MatchEvent._meta.get_field("events")
        events.put((match.pk, match.seed, match.version), field.from_db_value(latest, None, connection))
    for seat, name in zip(("host", "guest"), names):
        user_id = getattr(match, f"{seat}_id")
        if user_id is not None:
            setattr(match, seat, User.from_db(DEFAULT_DB_ALIAS, [User._meta.pk.attname, "username"], (user_id, name)))
    frames.remember_programs(match, programs)
    frames.remember_machines(match, levels)
    _note_newest(match.pk, match.version, match)
    return match


def _note_newest(match_id, version, match):
    """Keep ``match`` (or a ``Kept``) as the newest row of the match unless one of a later version is."""
    known = newest.get(match_id)
    if known is None or known.version <= version:
        newest.put(match_id, match)


def latest(match_id):
    """The newest row of the match this process has read or written, or None: for a command of one
    of its sockets, which ``services._change`` writes in one statement if it is still the match's row
    (the write checks; a row that is not makes it take the locked path). The match is shared: read it,
    never change it. None too for a match with a machine in a seat, which the write would refuse:
    its clocks change with every command, under the lock. Reads nothing: safe on the event loop
    (``MatchConsumer.apply_command`` calls it there)."""
    known = newest.get(match_id)
    if isinstance(known, Kept):
        known = known.made()
    return None if known is None or frames.machines(known) else known


_VERSION_AT = Match._meta.concrete_fields.index(Match._meta.get_field("version"))


class Kept:
    """A row a command of this process returned (``written``), with the fields set after it in the
    same transaction (``changed``: the clocks of a timed match), made into a match by the first
    socket that uses it (``match_after``): a process with no socket on the match pays for nothing
    but the row's transfer."""

    __slots__ = ("row", "changed", "version")

    def __init__(self, row, changed):
        self.row, self.changed = row, changed
        self.version = row[_VERSION_AT]

    def made(self):
        match = made(self.row, _lender())
        for field, value in self.changed.items():
            setattr(match, field, value)
        return match


def written(sender, match_id, ring, row, changed, **kwargs):
    """``services.applied``: a command of this process committed ``row`` (``plainsql.write_command``'s
    ``row``) and then ``changed`` and rings ``ring`` next. That is what a read after that ring would
    find, so this process's sockets that hear the ring use it and read nothing; it serves that ring
    only, and never a socket that has been sent or acknowledged anything newer (``match_for``)."""
    kept = Kept(row, changed)
    rows.put((match_id, ring), kept)
    _note_newest(match_id, kept.version, kept)


services.applied.connect(written, dispatch_uid="fanout.written")


def read_events(match_id, first, last):
    """{version: the events as stored} for the versions first..last of the match."""
    offloop.need_database()
    connection = connections[DEFAULT_DB_ALIAS]
    events_sql = _events_sql(connection)
    field = MatchEvent._meta.get_field("events")
    with connection.cursor() as cursor:
        cursor.execute(events_sql, [match_id, first, last])
        return {version: field.from_db_value(raw, None, connection) for version, raw in cursor.fetchall()}


def versions(match, seat, after):
    """``frames.versions(match, seat, after)``, from what this process has read and projected
    already; the versions none of its sockets has read yet are read in one query."""
    audience = frames.audience_for(match, seat)
    project = games.get(match.game).project
    wanted = range(after + 1, match.version + 1)
    out = []
    missing = []
    for version in wanted:
        projected = projections.get((match.pk, match.seed, version, audience))
        if projected is None:
            raw = events.get((match.pk, match.seed, version))
            if raw is None:
                missing.append(version)
            else:
                projected = project(raw, audience)
                projections.put((match.pk, match.seed, version, audience), projected)
        out.append((version, projected))
    if missing:
        stored = read_events(match.pk, missing[0], missing[-1])
        for version, raw in stored.items():
            events.put((match.pk, match.seed, version), raw)
        filled = []
        for version, projected in out:
            if projected is None:
                if version not in stored:
                    continue  # not in the database either: frames.versions would not list it
                projected = project(stored[version], audience)
                projections.put((match.pk, match.seed, version, audience), projected)
            filled.append((version, projected))
        out = filled
    return out


def game_part(match, seat):
    """``frames.game_part(match, seat)``, computed once per match state and audience, from a state
    loaded once per match state: the sockets of a change want up to three audiences' parts of it.

    Kept marshalled, one bytes object the garbage collector does not track, not as the tree of a
    few hundred dicts and lists it is loaded into: the full collections that stop a server scan
    every tracked object it holds, and these trees were most of them (docs/performance.md, "Garbage
    collection in the servers"). ``marshal`` gives back the very tree it was given (tuples, keys
    and all), in a fifth of the time ``json`` takes to encode it."""
    audience = frames.audience_for(match, seat)
    state_key = (match.pk, match.seed, match.version, match.status)
    kept = parts.get((*state_key, audience))
    if kept is not None:
        return marshal.loads(kept)
    state = None
    if match.state is not None:
        state = loaded.get(state_key)
        if state is None:
            state = games.get(match.game).load(match.state)
            loaded.put(state_key, state)
    part = frames.game_part(match, seat, state)
    parts.put((*state_key, audience), marshal.dumps(part))
    return part


def presence(match_id, seed, ring=None, fresh=False):
    """(spectators, [host connected, guest connected]) of the match.

    ``ring``: the presence doorbell just heard; counts read after it was heard, by whichever socket
    of this process heard it first. ``fresh``: read now (a socket that just arrived). Otherwise
    the latest counts this process read, if they are at most ``PRESENCE_TTL`` seconds old."""
    key = (match_id, seed)
    entry = None if fresh else counts.get(key)
    if entry is not None:
        heard, read_at, value = entry
        if (heard == ring) if ring is not None else (time.monotonic() - read_at <= PRESENCE_TTL):
            return value
    offloop.need_database()
    value = presence_rows.counts(match_id)
    counts.put(key, (ring, time.monotonic(), value))
    return value


def cached_presence(match_id, seed, ring):
    """The counts read after presence doorbell ``ring``, if a socket of this process has read them
    already (no database: safe in the event loop); else None."""
    entry = counts.get((match_id, seed))
    if entry is not None and ring is not None and entry[0] == ring:
        return entry[2]
    return None


class Batch:
    """The calls that this process's sockets made under one key before the batch ran; ``attempt``
    makes them on the event loop, ``run`` the ones still to make in one database call."""

    def __init__(self, loop):
        self.loop = loop
        self.calls = []
        self.lock = threading.Lock()
        self.taken = False
        self.task = None
        # What the calls share (``match_for``, ``once``): the same dict on the loop and then on the
        # thread, so that every call of the batch is made from one row.
        self.shared = {}
        self.done = []

    def add(self, call):
        """The call's place in the batch, or None once the database thread has taken the batch up."""
        with self.lock:
            if self.taken:
                return None
            self.calls.append(call)
            return len(self.calls) - 1

    def attempt(self, read=None):
        """Make the calls on the event loop, in order, until one needs the database; None once all
        of them were made, else the ``offloop.NeedsDatabase`` that stopped it. A call stopped so
        changed nothing of its socket (game/offloop.py), so it is made again from the start, on the
        loop after the read a ``RowNeeded`` asks for, or by ``run`` on the database thread, with
        every call after it. ``read``: the rows read on the loop so far (``read_match``)."""
        token = _read_on_loop.set(read)
        try:
            with offloop.attempt():
                while len(self.done) < len(self.calls):
                    try:
                        outcome = self.make(self.calls[len(self.done)])
                    except offloop.NeedsDatabase as need:
                        return need
                    except SynchronousOnlyOperation:
                        logger.warning("A read on the event loop did not ask offloop.need_database() first")
                        return offloop.NeedsDatabase()
                    self.done.append(outcome)
        finally:
            _read_on_loop.reset(token)
        return None

    def run(self):
        with self.lock:
            self.taken = True
            calls = self.calls[len(self.done):]
        for call in calls:
            self.done.append(self.make(call))
        return self.done

    def make(self, call):
        try:
            return True, call(self.shared)
        except (offloop.NeedsDatabase, SynchronousOnlyOperation):
            raise
        except Exception as error:
            # One socket's failure is its own: the others still get what they asked for.
            return False, error

    async def finish(self):
        """The outcomes of the calls, made on the loop if none needs the database but the match's
        row, else partly or wholly on the database thread. Runs once the sockets that were ready to
        join have.

        The row is read on the loop's own connection (``asyncdb``, PostgreSQL only) once per batch,
        as the database thread would read it: a read after every socket of the batch heard the ring
        and handled all it had been sent or acknowledged before it joined (``match_for``), since a
        socket waits in its batch and the batch takes no call once the read has begun. Any other
        read, or a read the loop's connection could not answer, makes the rest on the thread."""
        read = {} if _lender().vendor == "postgresql" else None
        while (need := self.attempt(read)) is not None:
            if not isinstance(need, RowNeeded) or need.match_id in read:
                return await database_sync_to_async(self.run)()
            with self.lock:
                self.taken = True
            try:
                read[need.match_id] = await plainsql.seen_match_from_loop(_lender(), need.match_id)
            except asyncdb.Unavailable:
                return await database_sync_to_async(self.run)()
        self.taken = True
        return self.done


# Key -> the batch still open for it; touched only from the event loop.
_open = {}


async def together(key, call, on_loop=False):
    """``call(shared)``'s result (or exception), made in one database call with every other call that
    this process's sockets ask for under ``key`` before that call starts.

    ``on_loop``: the call asks ``offloop.need_database()`` before every read it may make and
    changes nothing of its socket before the last of them (game/offloop.py). The batch is then
    made on the event loop, with no database call at all, unless a call needs one; from that call
    on it is made on the database thread, as every batch is without ``on_loop``.

    ``key`` must name what makes the calls alike, e.g. the match and the ring they heard: each call
    still decides everything for its own socket, and ``shared`` (one dict per batch) holds
    only what ``once`` keyed by everything it depends on. A socket handles its messages one at a
    time, so it is in one batch at a time, and its calls keep their order."""
    loop = asyncio.get_running_loop()
    batch = _open.get(key)
    place = batch.add(call) if batch is not None and batch.loop is loop else None
    if place is None:
        batch = _open[key] = Batch(loop)
        place = batch.add(call)
        batch.task = asyncio.ensure_future(batch.finish() if on_loop else database_sync_to_async(batch.run)())
        batch.task.add_done_callback(lambda _task: _open.get(key) is batch and _open.pop(key))
    # Shielded: a socket closing while it waits must not cancel the others' call.
    ok, value = (await asyncio.shield(batch.task))[place]
    if not ok:
        raise value
    return value


def match_for(shared, match_id, ring, stale=None):
    """``match_after(match_id, ring)``, read once per ``together`` call: its sockets use one row.

    ``stale(row)``: whether the row is older than what the calling socket has been sent or has
    acknowledged (``MatchConsumer.stale``). Such a row is read anew, and the call's sockets after
    this one use the new row (nothing made from the old one in ``once``).

    Why the check belongs to the socket. The row for a ring is one of two things: the row a
    command of this process kept at its commit (``written``), or a read made after some socket of
    this process heard the ring. Either is at least as new as the change the ring announces, and
    no newer than the moment it was kept or read. A socket handles its messages one at a time, but
    between the keeping or reading of that row and the moment this socket handles the ring, it may
    have handled other messages:

    - a later ring, whose row it was sent (the rings of two commands of one match reach a socket
      in any order: they are sent from different threads, or processes): the row for the earlier
      ring has a lower version than the one sent;
    - its own command, acknowledged: the command committed in this process after the row for an
      earlier ring was kept (the bot's move kept at its commit, its ring still on its way) or read
      (by another socket, in a batch the database thread ran before the command). The row's
      version is lower than the acknowledged one, or the same version for a change that keeps it
      (an abort, a rematch answer).

    A row at a higher version than everything the socket was sent or acknowledged is newer than
    all of it (a version never changes once committed, and nothing changes a match at a version
    after the next one exists). A row at the same version is newer only if the socket was brought
    to that very row's state (its key equal to the one sent: nothing to send), or acknowledged the
    command that made the version. Anything else is read anew: that read is made after this socket
    handled everything it was sent or acknowledged, whose changes had committed by then, so it is
    at least as new as all of it. A read after the ring was heard serves every socket that hears
    it later too, so it replaces the ring's row.

    A process-wide rule (use a kept row only if the process has seen nothing newer of the match)
    is not enough on its own: an abort or a rematch answer changes a match without a new version,
    an acknowledged repeat of a command may have committed in another process, and a bounded table
    that forgets a match must then refuse every row kept for it. The socket knows exactly what it
    was sent and acknowledged."""
    if "match" not in shared:
        shared["match"] = match_after(match_id, ring)
    match = shared["match"]
    if match is not None and stale is not None and stale(match):
        match = read_match(match_id)
        if match is not None and ring is not None:
            rows.put((match_id, ring), match)
        shared.clear()
        shared["match"] = match
    return match


def once(shared, key, make):
    """``make()``, or what it gave for an equal ``key`` earlier in the same ``together`` call. Compared
    with ``==`` (the key may hold dicts and lists), so it must hold everything the result depends on."""
    made = shared.setdefault("once", [])
    for known, value in made:
        if known == key:
            return value
    value = make()
    made.append((key, value))
    return value
