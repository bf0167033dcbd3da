"""The only code that changes a 三国 game: recruiting, seats, the game data, every command of a seat,
the game master and the server (its phase closes), each through the engine.

As ``game.services`` does for matches: every change runs in one transaction that locks the game's
row, stores one ``Event`` per applied command (the engine's full events), and ends with an update
conditioned on the version it read; a repeated ``client_id`` is acknowledged, not applied again;
the doorbell rings only after the commit. The engine's clock is the server's (``at``: whole seconds
since the epoch), so deadlines are data in the state, mirrored on ``Game.deadline`` for the sweep.
"""
import json
import random
from datetime import datetime, timezone as tz
from functools import partial
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game.chat.service import check_rate, clean
from game.errors import ServiceError
from game.games.three_kingdoms import engine
from game.limits import require_member
from game.models import hold_account

from . import chat, live
from .models import MODES, SIZES, Event, Game, Message, Seat, seats_for

GM = "gm"
SERVER = "server"
PHASES = ("night_action", "night_resolution", "night_feedback", "day_wound", "day_vote", "day_feedback")
# Phase lengths a game master may set: a minute to two weeks (the rules' phases run minutes to days).
SHORTEST, LONGEST = 60, 14 * 24 * 3600
# A person's games being recruited or run by them at once.
MAX_HOSTED = 5


class Result(NamedTuple):
    version: int
    duplicate: bool


def clock():
    """The engine's clock: whole seconds since the epoch, now."""
    return int(timezone.now().timestamp())


def _moment(seconds):
    return datetime.fromtimestamp(seconds, tz=tz.utc)


def deadline_of(state):
    """When the server closes what runs now, or None: nothing runs (setup, over), or the game
    master owes a decision that holds the close (their answer makes it due again)."""
    if state["phase"] in ("setup", "over") or engine.awaiting(state)["gm"]:
        return None
    revision = state.get("revision")
    return _moment(revision["until"] if revision else state["deadline"])


def check_durations(durations):
    """``{phase: seconds}`` for some of the phases, each a whole number from a minute to two weeks."""
    if not isinstance(durations, dict) or set(durations) - set(PHASES):
        raise ServiceError("bad_durations", _("Give phase lengths only for the game's phases."))
    for phase, seconds in durations.items():
        if type(seconds) is not int or not SHORTEST <= seconds <= LONGEST:
            raise ServiceError("bad_durations", _("Each phase lasts from one minute to 14 days."))
    return dict(durations)


def create_game(gm, *, mode, characters=27, durations=None, private=False, title=""):
    """A new game in recruiting, hosted by ``gm``; its first event sets the phase lengths."""
    require_member(gm)
    if mode not in MODES:
        raise ServiceError("bad_mode", _("Choose a mode."))
    if characters not in SIZES or (mode != "crowd" and characters != 27):
        raise ServiceError("bad_size", _("Only 群英荟萃局 is played with 30 or 33 characters."))
    durations = check_durations(durations or {})
    with transaction.atomic():
        hold_account(gm.pk)
        hosted = Game.objects.filter(gm=gm, status__in=(Game.Status.RECRUITING, Game.Status.LIVE)).count()
        if hosted >= MAX_HOSTED:
            raise ServiceError("too_many", _("You already run %(count)s games.") % {"count": MAX_HOSTED})
        row = Game(gm=gm, mode=mode, characters=characters, private=bool(private), title=title.strip()[:80])
        row.state = engine.to_json(engine.new_match(row.seed, mode, characters))
        row.save()
    if durations:
        command(row.pk, gm, "", {"setup": {"durations": durations}})
        row.refresh_from_db()
    return row


def _locked(game_id):
    row = next(iter(Game.objects.select_for_update().filter(pk=game_id)[:1]), None)
    if row is None:
        raise ServiceError("no_game", _("There is no such game."))
    return row


def _recruiting(game_id):
    row = _locked(game_id)
    if row.status != Game.Status.RECRUITING:
        raise ServiceError("not_recruiting", _("This game is no longer taking sign-ups."))
    return row


def _gm_only(row, user):
    if getattr(user, "pk", None) != row.gm_id:
        raise ServiceError("not_gm", _("Only the game master can do that."))


def _touch(row):
    """A change outside the engine (sign-ups, seats) still moves nothing in the log, but the pages
    showing the game are told."""
    Game.objects.filter(pk=row.pk).update(updated=timezone.now())
    transaction.on_commit(partial(live.ring, row.pk, row.version), robust=True)


def sign_up(game_id, user, token=None):
    """``user`` takes a place among the game's sign-ups (an invite-only game needs its token)."""
    require_member(user)
    with transaction.atomic():
        row = _recruiting(game_id)
        if row.private and token != row.invite_token:
            raise ServiceError("invite_only", _("This game is by invitation only."))
        if row.gm_id == user.pk:
            raise ServiceError("own_game", _("The game master does not take a seat."))
        if Seat.objects.filter(game=row, user=user).exists():
            raise ServiceError("signed_up", _("You have signed up already."))
        if Seat.objects.filter(game=row).count() >= row.seat_count:
            raise ServiceError("full", _("Every seat is taken."))
        Seat.objects.create(game=row, user=user)
        _touch(row)


def leave(game_id, user):
    with transaction.atomic():
        row = _recruiting(game_id)
        if not Seat.objects.filter(game=row, user=user).delete()[0]:
            raise ServiceError("not_signed_up", _("You have not signed up for this game."))
        _touch(row)


def assign_seat(game_id, gm, user_id, seat):
    """The game master gives ``user_id`` seat ``seat`` (None: back to drawn at the start)."""
    with transaction.atomic():
        row = _recruiting(game_id)
        _gm_only(row, gm)
        place = Seat.objects.filter(game=row, user_id=user_id).first()
        if place is None:
            raise ServiceError("not_signed_up", _("That person has not signed up for this game."))
        if seat is not None:
            if type(seat) is not int or not 0 <= seat < row.seat_count:
                raise ServiceError("bad_seat", _("Choose one of the game's seats."))
            if Seat.objects.filter(game=row, seat=seat).exclude(pk=place.pk).exists():
                raise ServiceError("seat_taken", _("Someone has that seat already."))
        place.seat = seat
        place.save(update_fields=["seat"])
        _touch(row)


def _draw_seats(row, rng):
    """Every signed-up person without a seat gets one of the free seats, at random."""
    places = list(Seat.objects.filter(game=row).order_by("joined", "pk"))
    free = sorted(set(range(row.seat_count)) - {p.seat for p in places if p.seat is not None})
    rng.shuffle(free)
    for place in places:
        if place.seat is None:
            place.seat = free.pop()
            place.save(update_fields=["seat"])


def randomise_seats(game_id, gm):
    """The game master deals every sign-up a seat at random, the ones given before included."""
    with transaction.atomic():
        row = _recruiting(game_id)
        _gm_only(row, gm)
        Seat.objects.filter(game=row).update(seat=None)
        _draw_seats(row, random.SystemRandom())
        _touch(row)


def read_game_data(text):
    """The game data of an import (JSON text): the engine's ``setup`` parts; ``notes`` (the
    starter file's reminders) are left out. A clear error for anything else."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ServiceError("bad_json", _("The file is not JSON.")) from None
    if not isinstance(data, dict):
        raise ServiceError("bad_json", _("The game data is a JSON object."))
    data = {k: v for k, v in data.items() if k != "notes"}
    unknown = sorted(set(data) - {"characters", "skills", "identifications", "successors", "natural_deaths",
                                  "durations"})
    if unknown:
        raise ServiceError("bad_setup", _("Unknown parts: %(parts)s.") % {"parts": ", ".join(unknown)})
    if "durations" in data:
        data["durations"] = check_durations(data["durations"])
    return data


def import_game_data(game_id, gm, text, client_id=""):
    """The game master's game data, checked by the engine (its message says what is wrong)."""
    data = read_game_data(text)
    return command(game_id, gm, client_id, {"setup": data})


def start(game_id, gm):
    """Lock the game data and open night 1: every seat must be filled (a seat left empty is not
    played by anyone; the engine's bots are the unjoined 在野, never a seat)."""
    with transaction.atomic():
        row = _recruiting(game_id)
        _gm_only(row, gm)
        if Seat.objects.filter(game=row).count() != row.seat_count:
            raise ServiceError("not_full", _("The game starts when every seat is taken."))
        _draw_seats(row, random.SystemRandom())
        Game.objects.filter(pk=row.pk).update(status=Game.Status.LIVE)
        return _apply(row.pk, GM, "", {"lock": {}})


def cancel(game_id, gm):
    with transaction.atomic():
        row = _recruiting(game_id)
        _gm_only(row, gm)
        Game.objects.filter(pk=row.pk).update(status=Game.Status.CANCELLED, finished=timezone.now())
        _touch(row)


def actor_of(row, user):
    """``"gm"`` for the game master and their co-GM (the one place deciding who has the console),
    the seat's number for a seated player, else None."""
    user_id = getattr(user, "pk", None)
    if user_id is None:
        return None
    if user_id in (row.gm_id, row.co_gm_id):
        return GM
    return Seat.objects.filter(game=row, user_id=user_id).exclude(seat=None).values_list("seat", flat=True).first()


def share_console(game_id, gm, username):
    """The game master shares the 天庭 console with the account ``username`` (empty: with nobody
    any more). A co-GM acts as the game master; a person with a seat in the game cannot be one.
    The change is an override with nothing but its reason, so the record and the game master's
    replay keep who had the console from when."""
    username = username.strip()
    with transaction.atomic():
        row = _locked(game_id)
        _gm_only(row, gm)
        if row.status != Game.Status.LIVE:
            # Only a running game's record can hold the handover (the engine's log starts at the lock).
            raise ServiceError("not_live", _("The console is shared while the game runs."))
        person = None
        if username:
            person = get_user_model().objects.filter(username=username).first()
            if person is None:
                raise ServiceError("no_user", _("There is no account named %(name)s.") % {"name": username})
            if person.pk == row.gm_id or Seat.objects.filter(game=row, user=person).exists():
                raise ServiceError("not_co_gm", _("The co-GM is someone without a seat in this game."))
        if person is None and row.co_gm_id is None:
            raise ServiceError("no_co_gm", _("Nobody shares the console."))
        Game.objects.filter(pk=row.pk).update(co_gm=person)
        reason = (f"天庭 console shared with {person.username}" if person
                  else "天庭 console no longer shared")
        return _apply(row.pk, GM, "", {"override": {"reason": reason}})


def command(game_id, user, client_id, body):
    """One command of ``user`` (the game master's, or their seat's), with the server's clock.

    Seats' submissions are not made stale by others' (they are simultaneous); the game master's
    answers name the decision they answer, which the engine checks."""
    if not isinstance(body, dict) or "at" in body:
        raise ServiceError("bad_command", _("A command is a JSON object."))
    if "lock" in body:
        # Locking the data starts the game: only ``start`` does it, once every seat is taken.
        raise ServiceError("use_start", _("Start the game to lock its data."))
    with transaction.atomic():
        row = _locked(game_id)
        actor = actor_of(row, user)
        if actor is None:
            raise ServiceError("not_a_player", _("Only the game's players and its game master can act in it."))
        if row.status == Game.Status.RECRUITING and actor != GM:
            raise ServiceError("not_started", _("The game has not started."))
        return _apply(row.pk, actor, client_id, body)


def post_message(game_id, user, channel, text, token=None):
    """``user``'s line in ``channel`` of a recruiting or running game (sanguo/chat.py says who writes where, from
    the state as it is now); rings the game's sockets, each of which tells its page only if its
    viewer may read the line. Limited like the match chat: its length, its rate per person."""
    if not getattr(user, "is_authenticated", False):
        raise ServiceError("login_required", _("Log in to chat."))
    text = clean(text)
    with transaction.atomic():
        # The author's row first, as create_game does, then the game's: posts sent at once count
        # each other, and the membership read below cannot change before the line is stored.
        hold_account(user.pk)
        row = _locked(game_id)
        if row.status not in (Game.Status.LIVE, Game.Status.RECRUITING):
            raise ServiceError("game_over", _("This game is over."))
        audience = actor_of(row, user)
        if audience is None and row.private and token != row.invite_token:
            raise ServiceError("invite_only", _("This game is by invitation only."))
        audience = "spectator" if audience is None else audience
        if not isinstance(channel, str) or not chat.well_formed(channel, row.seat_count):
            raise ServiceError("no_channel", _("There is no such channel."))
        # One message whether or not the channel is open to others: which groups exist is not
        # the author's to learn by trying.
        if channel not in chat.writable(row, audience):
            raise ServiceError("not_in_channel", _("You cannot write in that channel."))
        check_rate(Message.objects.filter(game=row, user=user))
        message = Message.objects.create(game=row, user=user, channel=channel, text=text)
        transaction.on_commit(partial(live.ring, row.pk, row.version), robust=True)
    return message


def close_due(game_id):
    """The server closes the running phase (or revision window) if its deadline has passed; the
    engine runs the close's steps. Checked under the lock, so however many sweeps reach a game, a
    phase closes once. Returns the new version, or None if nothing was due."""
    with transaction.atomic():
        row = _locked(game_id)
        if row.status != Game.Status.LIVE or row.deadline is None or row.deadline > timezone.now():
            return None
        try:
            return _apply(row.pk, SERVER, "", {"close": {}}).version
        except ServiceError as refused:
            if refused.code in ("before_deadline", "awaiting_gm"):
                return None
            raise


def _apply(game_id, actor, client_id, body):
    """Apply ``body`` for ``actor`` to the game (its row locked by the caller or here)."""
    client_id = client_id or ""
    row = _locked(game_id)
    actor_key = str(actor)
    if client_id:
        earlier = Event.objects.filter(game=row, actor=actor_key, client_id=client_id).values_list("version", flat=True)
        earlier = next(iter(earlier[:1]), None)
        if earlier is not None:
            return Result(earlier, True)
    if row.status in (Game.Status.FINISHED, Game.Status.CANCELLED):
        raise ServiceError("game_over", _("This game is over."))
    stamped = dict(body, at=clock())
    try:
        state, events = engine.apply(row.state, actor, stamped)
    except engine.IllegalCommand as refused:
        raise ServiceError(refused.code, refused.message, illegal=True) from None
    version = row.version + 1
    Event.objects.create(game=row, version=version, actor=actor_key, client_id=client_id, command=stamped,
                         events=events)
    fields = {"version": version, "state": engine.to_json(state), "deadline": deadline_of(state),
              "updated": timezone.now()}
    if any(e.get("type") == "phase" for e in events):
        fields["phase_opened"] = version
    if state["phase"] == "over":
        fields.update(status=Game.Status.FINISHED, winner=str(state["winner"] or ""), finished=timezone.now())
    touched = Game.objects.filter(pk=row.pk, version=row.version).update(**fields)
    if touched != 1:
        raise ServiceError("stale_version", _("The game changed meanwhile; try again."))
    transaction.on_commit(partial(live.ring, row.pk, version), robust=True)
    return Result(version, False)
