"""Uploaded ``aquawar-record/1`` files, and official replay files of the 2021 contest (converted to
records first, game/games/aquawar/contest/official.py), become finished, unranked matches.

The engine decides whether a record is valid by playing it; the stored match then looks like a
played one (one ``MatchEvent`` per command, the engine's full events in it), so history, summary,
replay and export need no special case beyond the player names.
"""
import unicodedata
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from . import engine
from .engine.record import RecordError, apply_recorded, check_dodges_used, parse_record
from .games.aquawar.contest import official
from .models import Match, MatchEvent, hold_account

# An official replay of a whole match is about 1.1 MB; the limit is the same for every upload.
MAX_RECORD_BYTES = 2 * 1024 * 1024
# Imported records are kept for good, up to 2 MB each: plenty for studying matches, and a bound on
# what one account can pour into the database.
MAX_IMPORTS_PER_DAY = 50
DEFAULT_NAMES = ("Player A", "Player B")
NAME_LENGTH = 150  # like a username: names are shown in tables and headings


def _play(record):
    """``(final state, [(seat, command, events)])``; a refused command raises ``RecordError``."""
    state = record.start()
    played = []
    for index, (seat, command) in enumerate(record.commands):
        # The same codes and wording as ``record.replay``, so the command line and the site agree.
        state, events = apply_recorded(state, index, seat, command)
        played.append((seat, command, events))
    if record.forfeit is not None:
        seat, reason = record.forfeit
        try:
            state, events = engine.resign(state, seat, reason, in_place=True)
        except engine.IllegalCommand as refused:
            raise RecordError("illegal_forfeit", f"forfeit: {refused}") from None
        # Stored as the services store a forfeit, so replays and exports read it back the same way.
        played.append((seat, {"resign": True, "reason": reason}, events))
    check_dodges_used(state)
    return state, played


def printable(name):
    """No control characters (NUL cannot be stored in PostgreSQL's jsonb) and no lone surrogates
    (JSON escapes can smuggle them in; no page holding one could be encoded as UTF-8)."""
    return not any(unicodedata.category(char) in ("Cc", "Cs") for char in name)


def check_size(size):
    if size > MAX_RECORD_BYTES:
        raise RecordError("too_large", _("A file may be at most 2 MB."))


def import_record(data, user):
    """Validate ``data`` (the file's bytes: a record or an official replay) by replaying it and store
    it; returns the new Match."""
    check_size(len(data))
    converted = official.convert(data)
    record = parse_record(converted[0] if converted else data)
    state, played = _play(record)
    outcome = engine.view(state, "all")
    if outcome["phase"] != "over":
        # A finished match needs a winner everywhere it is shown.
        raise RecordError(
            "unfinished",
            _(
                "The record stops before the match ends (after %(count)d commands); "
                "only complete matches can be imported."
            )
            % {"count": len(played)},
        )
    given = record.players or DEFAULT_NAMES
    if any(not printable(name) for name in given):
        # Worded like parse_record's own refusals (English, for the command line and the site alike).
        raise RecordError("bad_players", '"players" must not hold control characters or lone surrogates')
    names = [name.strip()[:NAME_LENGTH] or default for name, default in zip(given, DEFAULT_NAMES)]
    now = timezone.now()
    with transaction.atomic():
        hold_account(user.pk)
        if Match.objects.filter(uploaded_by=user, created__gte=now - timedelta(days=1)).count() >= MAX_IMPORTS_PER_DAY:
            message = _("your account imported %(count)d records in the last 24 hours; try again later")
            raise RecordError("too_many_imports", message % {"count": MAX_IMPORTS_PER_DAY})
        match = Match.objects.create(
            imported=True,
            uploaded_by=user,
            player_names=names,
            status=Match.Status.FINISHED,
            seed=record.seed,
            first_mover=record.first_mover,
            dodges=None if record.dodges is None else list(record.dodges),
            turn_limit=record.turn_limit,
            official_notes=converted[1] if converted else None,
            version=len(played),
            state=state.to_json(),
            winner=outcome["winner"],
            end_reason=outcome["end_reason"] or "",
            finished=now,
        )
        MatchEvent.objects.bulk_create(
            MatchEvent(match=match, version=version, seat=seat, command=command, events=events)
            for version, (seat, command, events) in enumerate(played, start=1)
        )
    return match
