"""The fault test's judgement: what every seat of ``bench/chaos.py`` received and was told, against
the database, which is the source of truth (``MatchEvent`` rows, one per applied command).

For every match: it is finished, and its log is versions 1..N with no hole.

For every seat (one program, or one spectator on the match socket; all its connections in order):

- *gaps*: the versions it received are 1, 2, …, N, each once, across every reconnect. A version
  skipped, a ``state`` claiming a version not received, a ``snapshot`` that replaces history it
  had not received (the resume failed), or a last version short of N is a gap; a version received
  a second time is *duplicated*.
- *mismatched*: each version's events equal ``engine.project(the logged events, audience)``,
  ``audience`` being the seat while the match was live and ``"all"`` once finished (taken from the
  ``state`` that ended the batch; versions whose connection dropped before that state may be
  either).
- *lost*: every acknowledged command is in the log with the same seat, client id, version and
  command; a command in the log under this seat's client ids that it never sent is *phantom*.
  The log holds each client id once per seat (a unique constraint), so nothing is applied twice.
- *leaked*: every frame seen while the match was live goes through ``bench/_loadscan.Scanner``
  with the truth (both teams, Mimic targets) read from the log: no unrevealed enemy species, Mimic
  target, ATK, shields, effects or owner-only event detail.
"""
import json
from collections import Counter

from _chaosclient import DROPPED
from _loadscan import Scanner, Truth


def normal(value):
    return json.loads(json.dumps(value))


class Verdict:
    def __init__(self):
        self.counts = Counter()
        self.problems = []

    def add(self, kind, where, detail, n=1):
        self.counts[kind] += n
        if len(self.problems) < 200:
            self.problems.append(f"{kind}: {where}: {detail}")


def verify(tables):
    """``tables``: [(host Seat, guest Seat, *Spectators)]. Reads the database; returns a ``Verdict``."""
    from game.games.aquawar import engine
    from game.models import Match, MatchEvent

    verdict = Verdict()
    for host, guest, *spectators in tables:
        where = f"match#{host.match_no}"
        if host.match_id is None:
            verdict.add("unfinished", where, "never created")
            continue
        match = Match.objects.get(pk=host.match_id)
        where = f"match {match.pk}"
        rows = list(MatchEvent.objects.filter(match=match).order_by("version"))
        log = {row.version: row for row in rows}
        if [row.version for row in rows] != list(range(1, match.version + 1)):
            verdict.add("gaps", where, f"the log's versions are not 1..{match.version}")
        if match.status != Match.Status.FINISHED:
            verdict.add("unfinished", where, f"status {match.status} at version {match.version}")
        else:
            verdict.counts[f"ended_{match.end_reason}"] += 1
        truth = Truth()
        for row in rows:
            for event in row.events:
                if event["type"] == "pick":
                    truth.add(event["player"], event["fish"], event.get("mimic"))
        for seat in (host, guest, *spectators):
            check_seat(verdict, seat, match, log, truth, engine)
    return verdict


def check_seat(verdict, seat, match, log, truth, engine):
    where = f"match {match.pk} {seat.label()}"
    for stall in seat.stall_log:
        verdict.problems.append(f"stalled: {where}: {stall}")
    if seat.gave_up:
        verdict.add("unfinished", where, "gave up reconnecting")
    if seat.crashed:
        verdict.add("unfinished", where, f"the program crashed: {seat.crashed}")
    elif seat.final is None:
        verdict.add("unfinished", where, "never received the finished state")
    check_versions(verdict, seat, match, log, truth, engine, where)
    check_commands(verdict, seat, match, log, where)


def check_versions(verdict, seat, match, log, truth, engine, where):
    scanner = Scanner(truth, seat.seat)
    own = "spectator" if seat.seat is None else seat.seat  # what this socket sees while the match is live
    last = None  # the newest version this seat has (after its first snapshot or state)
    batch = []  # version frames waiting for the state or snapshot that ends their catch-up
    seen = Counter()

    def expected(version, audience):
        row = log.get(version)
        return None if row is None else normal(engine.project(row.events, audience))

    def settle(audience, orphans):
        """Judge the batch: its audience is the state's, or unknown for a dropped connection."""
        for frame, text in batch:
            version = frame["version"]
            options = [audience] if not orphans else [own, "all"]
            matched = [a for a in options if expected(version, a) == frame["events"]]
            if not matched:
                verdict.add("mismatched", where, f"version {version}: {frame['events']} != log projected for {options[0]}")
                continue
            if matched[0] != "all":
                scanner._scan(frame, text, frame["events"])
                for event in frame["events"]:
                    if event.get("type") == "assert" and event.get("success"):
                        scanner.revealed.add(event["fish"])
        batch.clear()

    for _connection, text in seat.received:
        if text is DROPPED:
            settle(None, orphans=True)
            continue
        frame = json.loads(text)
        kind = frame["type"]
        if kind == "version":
            version = frame["version"]
            seen[version] += 1
            if seen[version] > 1:
                verdict.add("duplicated", where, f"version {version} received {seen[version]} times")
            elif version != (last or 0) + 1:
                verdict.add("gaps", where, f"version {version} after {last}", max(1, version - (last or 0) - 1))
            last = version if last is None else max(last, version)
            batch.append((frame, text))
        elif kind in ("state", "snapshot"):
            version = frame["version"]
            if kind == "snapshot" and version > (last or 0):
                verdict.add("gaps", where, f"snapshot at version {version} replaced history after {last}", version - (last or 0))
                last = version
            elif kind == "state" and version != (last or 0):
                verdict.add("gaps", where, f"state at version {version}, last version received {last}", 1)
                last = max(last or 0, version)
            elif last is None:
                last = version
            audience = frame["audience"]
            settle(audience, orphans=False)
            if audience != "all":
                scanner._scan(frame, text, ())
    settle(None, orphans=True)
    if seat.final is not None and (last or 0) != match.version:
        verdict.add("gaps", where, f"last version {last}, the log ends at {match.version}", match.version - (last or 0))
    for finding in scanner.findings:
        verdict.add("leaked", where, finding)


def check_commands(verdict, seat, match, log, where):
    mine = {row.client_id: row for row in log.values() if row.seat == seat.seat and row.client_id}
    for client_id, acks in seat.acks.items():
        row = mine.get(client_id)
        versions = {version for version, _duplicate in acks}
        if row is None:
            verdict.add("lost", where, f"{client_id} acknowledged as version(s) {sorted(versions)}, not in the log")
        elif versions != {row.version}:
            verdict.add("lost", where, f"{client_id} acknowledged as {sorted(versions)}, logged as {row.version}")
        if row is not None and client_id in seat.sent and normal(row.command) != normal(seat.sent[client_id][1]):
            verdict.add("mismatched", where, f"{client_id} logged as {row.command}, sent {seat.sent[client_id][1]}")
        fresh = [version for version, duplicate in acks if not duplicate]
        if len(fresh) > 1:
            verdict.add("duplicated", where, f"{client_id} acknowledged as newly applied {len(fresh)} times")
    for client_id in mine:
        if client_id not in seat.sent:
            verdict.add("phantom", where, f"{client_id} in the log, never sent by this seat")
