"""Uploaded record files (``aquawar-record/1`` …), and other files a game reads (Aquawar's official
replays of the 2021 contest), become finished, unranked matches.

The game whose format the file names, or that claims it (``games.for_record``), reads it
(``Game.read_record``) and decides whether it is valid by playing it; the stored match then looks like a played one (one ``MatchEvent`` per command,
the game's full events in it), so history, summary, replay and export need no special case beyond
the player names.
"""
import json
import unicodedata
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import games
from ..games.base import RecordError
from ..models import Match, MatchEvent, hold_account
from ..services import forfeit_command

# A game's other files are bigger than its records (an Aquawar official replay of a whole match is
# about 1.1 MB); the limit is the same for every upload.
MAX_RECORD_BYTES = 2 * 1024 * 1024
# Imported files are kept for good, up to 2 MB each: plenty for studying matches, and a bound on
# what one account can pour into the database.
MAX_IMPORTS_PER_DAY = 50
DEFAULT_NAMES = ("Player A", "Player B")
NAME_LENGTH = 150  # like a username: names are shown in tables and headings


def _play(game, record):
    """``(final state, [(seat, command, events)])``; a refused command raises ``RecordError``."""
    state = game.new_match(record.seed, record.first_mover, record.setup)
    played = []
    for index, (seat, command) in enumerate(record.commands):
        try:
            state, events = game.apply(state, seat, command)
        except game.IllegalCommand as refused:
            # The same code and wording as Aquawar's ``record.replay``, so its command line and the
            # site agree.
            raise RecordError("illegal_command", f"command {index}: {refused}", index) from None
        played.append((seat, command, events))
    if record.forfeit is not None:
        seat, reason = record.forfeit
        try:
            state, events = game.resign(state, seat, reason)
        except game.IllegalCommand as refused:
            raise RecordError("illegal_forfeit", f"forfeit: {refused}") from None
        # Stored as the services store a forfeit, so the match is the one that was exported.
        played.append((seat, forfeit_command(reason), events))
    return state, played


class AlreadyImported(RecordError):
    """The very record (same game, seed, setup, source, players and commands) is stored already: ``match``."""

    def __init__(self, match):
        super().__init__("already_imported", _("This record has been imported already."))
        self.match = match


def _same(value):
    # Compared as stored: JSON, with the keys in order.
    return json.dumps(value, sort_keys=True)


def already_imported(game, record, played, names):
    """The imported match that holds this very record, or None."""
    candidates = Match.objects.filter(
        imported=True, game=game.name, seed=record.seed, first_mover=record.first_mover, version=len(played)
    )
    wanted = _same([[seat, command] for seat, command, _events in played])
    for match in candidates.order_by("pk"):
        if _same([match.setup, match.source, match.player_names]) != _same([record.setup, record.source, names]):
            continue
        stored = match.events.order_by("version").values_list("seat", "command")
        if _same([[seat, command] for seat, command in stored]) == wanted:
            return match
    return None


def printable(name):
    """No control characters (NUL cannot be stored in PostgreSQL's jsonb) and no lone surrogates
    (JSON escapes can smuggle them in; no page holding one could be encoded as UTF-8)."""
    return not any(unicodedata.category(char) in ("Cc", "Cs") for char in name)


def check_size(size):
    if size > MAX_RECORD_BYTES:
        raise RecordError("too_large", _("A file may be at most 2 MB."))


def import_record(data, user):
    """Validate ``data`` (the file's bytes) by replaying it and store it; returns the new Match."""
    check_size(len(data))
    game = games.for_record(data)
    record = game.read_record(data)
    state, played = _play(game, record)
    outcome = game.outcome(state)
    if outcome is None:
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
        # Worded like the games' own refusals (English, for the command line and the site alike).
        raise RecordError("bad_players", '"players" must not hold control characters or lone surrogates')
    names = [name.strip()[:NAME_LENGTH] or default for name, default in zip(given, DEFAULT_NAMES)]
    now = timezone.now()
    with transaction.atomic():
        hold_account(user.pk)
        existing = already_imported(game, record, played, names)
        if existing is not None:
            raise AlreadyImported(existing)
        if Match.objects.filter(uploaded_by=user, created__gte=now - timedelta(days=1)).count() >= MAX_IMPORTS_PER_DAY:
            message = _("your account imported %(count)d records in the last 24 hours; try again later")
            raise RecordError("too_many_imports", message % {"count": MAX_IMPORTS_PER_DAY})
        match = Match.objects.create(
            game=game.name,
            imported=True,
            uploaded_by=user,
            player_names=names,
            status=Match.Status.FINISHED,
            seed=record.seed,
            first_mover=record.first_mover,
            setup=record.setup,
            source=record.source,
            version=len(played),
            state=game.dump(state),
            winner=outcome[0],
            end_reason=outcome[1] or "",
            finished=now,
        )
        MatchEvent.objects.bulk_create(
            MatchEvent(match=match, version=version, seat=seat, command=command, events=events)
            for version, (seat, command, events) in enumerate(played, start=1)
        )
    return match
