"""A 三国 game's record (the engine's ``three-kingdoms-record/1``: every command of every seat, the
game master's and the server's, with the server's clock), its import, and its replay: the game as
an audience saw it at each step.

A record holds everything, so it is given only to whoever may see everything: the game master and
their co-GM (at any time), and anyone once the game is over (``access.may_download`` decides).
"""
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from game.errors import ServiceError
from game.games.three_kingdoms import engine
from game.limits import require_member

from .models import Event, Game


def actor_value(actor):
    return actor if actor in ("gm", "server") else int(actor)


def make_record(row):
    commands = [{"seat": actor_value(actor), **command}
                for actor, command in Event.objects.filter(game=row).order_by("version").values_list("actor", "command")]
    return engine.make_record(row.seed, row.mode, row.characters, commands)


# An upload larger than this is refused before it is read (a 33-seat game of weeks is far smaller).
MAX_BYTES = 4 * 1024 * 1024


def import_record(user, data):
    """A finished game from an uploaded record (bytes), played again command by command through the
    engine; its uploader is its game master (they hold all of it already). Only a finished game's
    record: an unfinished one has nobody to play it on."""
    require_member(user)
    if len(data) > MAX_BYTES:
        raise ServiceError("too_large", _("The file is too large."))
    try:
        record = engine.parse_record(data)
        state = engine.new_match(record["seed"], record["mode"], record.get("characters", 27))
        rows = []
        for index, command in enumerate(record["commands"]):
            body = {k: v for k, v in command.items() if k != "seat"}
            state, events = engine.apply(state, command["seat"], body)
            rows.append((index + 1, str(command["seat"]), body, events))
    except engine.RecordError as bad:
        raise ServiceError(bad.code, _("The record can't be read: %(reason)s") % {"reason": bad.message}) from None
    except engine.IllegalCommand as bad:
        raise ServiceError("illegal_command", _("Command %(index)s of the record is refused by the rules: %(reason)s")
                           % {"index": index, "reason": bad.message}) from None
    if state["phase"] != "over":
        raise ServiceError("not_over", _("Only a finished game's record can be imported."))
    now = timezone.now()
    with transaction.atomic():
        row = Game.objects.create(
            gm=user, mode=record["mode"], characters=record.get("characters", 27), seed=record["seed"],
            state=engine.to_json(state), version=len(rows), status=Game.Status.FINISHED, imported=True,
            winner=str(state["winner"] or ""), finished=now,
        )
        Event.objects.bulk_create(Event(game=row, version=v, actor=a, command=c, events=e) for v, a, c, e in rows)
    return row


def audiences_for(row, own):
    """The audiences whose replay ``own`` (the viewer's audience) may watch: every one once the game
    is over, every one for its game master, else only their own."""
    seats = list(range(len(row.state["seat_names"])))
    if row.status == Game.Status.FINISHED:
        return ["all", "gm", "spectator", *seats]
    if own == "gm":
        return ["gm", "spectator", *seats]
    return [own]


def replay_steps(row, audience):
    """[(state after, events seen)] of every step the audience saw something in, in order; a step
    it saw nothing of is not a step (its count would tell what others did)."""
    state = engine.new_match(row.seed, row.mode, row.characters)
    steps = []
    for actor, command in Event.objects.filter(game=row).order_by("version").values_list("actor", "command"):
        state, events = engine.apply(state, actor_value(actor), command)
        seen = engine.project(events, "gm" if audience == "all" else audience)
        if seen:
            steps.append((state, seen))
    return steps
