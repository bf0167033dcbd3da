"""A stored match played again from its seed: records, per-step replay frames, HP series.

Everything here re-simulates the match's commands (``MatchEvent.command``) with the engine rather
than reading ``Match.state``: the states in between were never stored, and the engine is
deterministic, so the seed and the commands give every one of them back exactly.

Callers decide *who* may see what (``history_views`` / ``replay_views``); this module only builds
what one named audience may see, through ``engine.view`` and ``engine.project``.
"""
from . import engine
from .engine.record import Record, make_record
from .frames import players as match_players
from .log import LogBook
from .models import Match, MatchEvent

AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}
START_HP = 400


def audience_allowed(match, requested):
    """The audience a replay may use: anything once the match is over, else only the spectator's.

    During a live match even its players get the spectator projection here: a replay link is
    shareable, and a player's own view belongs on the match page behind their login.
    """
    if match.status != Match.Status.FINISHED:
        return "spectator"
    return AUDIENCES.get(requested, "all")


def start(match):
    """The match before its first command, with an imported record's recorded dodges and turn limit."""
    dodges = None if match.dodges is None else tuple(match.dodges)
    return Record(match.seed, (), match.first_mover, dodges=dodges, turn_limit=match.turn_limit).start()


def steps(match):
    """Yield ``(version, seat, command, state after it, events)`` for every stored command, in order.

    A live match is replayed only up to the version the caller loaded, so a command landing
    meanwhile cannot make the replay disagree with the page around it.
    """
    state = start(match)
    rows = (
        MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version)
        .order_by("version")
        .values_list("version", "seat", "command")
    )
    for version, seat, command in rows:
        if "resign" in command:
            # services stores a resignation, or a loss on time, as {"resign": true[, "reason": …]}.
            state, events = engine.resign(state, seat, command.get("reason", "resign"), in_place=True)
        else:
            state, events = engine.apply(state, seat, command, in_place=True)
        yield version, seat, command, state, events


def replay_frames(match, audience):
    """One frame per stored command, plus the start: what ``audience`` knew after each command.

    ``{"version", "view", "events", "lines"}``: ``view`` is ``engine.view`` of the state after the
    command, ``events`` the command's events projected for ``audience`` and ``lines`` their log
    text (``""`` where the log has nothing to say). The viewer steps through them event by event.
    """
    book = LogBook(audience, match_players(match))
    result = [{"version": 0, "view": engine.view(start(match), audience), "events": [], "lines": []}]
    for version, _seat, _command, state, events in steps(match):
        seen = engine.project(events, audience)
        lines = [book.describe(event) or "" for event in seen]
        result.append({"version": version, "view": engine.view(state, audience), "events": seen, "lines": lines})
    return result


def record(match):
    """The ``aquawar-record/1`` dict of a match: seed, round-1 first mover, names, commands, and
    the forfeit that ended it, if one did (resignation, clock or an illegal move of a program)."""
    rows = MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version).order_by("version")
    commands, forfeit = [], None
    for seat, command in rows.values_list("seat", "command"):
        if "resign" in command:
            forfeit = (seat, command.get("reason", "resign"))
        else:
            commands.append({"player": seat, **command})
    # Spelled out although the seed implies it: a reader of the file sees who opened the match.
    first_mover = match.first_mover
    if first_mover is None:
        first_mover = engine.new_match(match.seed).first_mover
    return make_record(
        match.seed,
        commands,
        first_mover=first_mover,
        players=match_players(match),
        forfeit=forfeit,
        dodges=match.dodges,
        turn_limit=match.turn_limit,
    )


def hp_series(match):
    """Per round, ``[(turn, hp of side 0, hp of side 1)]``: each side's living fish after each turn.

    Read from the public events (``hp_loss``, ``damage`` and ``heal`` carry the fish's new HP,
    never below 0), not from states: the engine clears the board as soon as a round ends, so the
    state after the deciding turn no longer shows it. A fish dies at 0 HP and is never healed
    again, so the sum over a whole side is the sum over its living fish.
    """
    rounds = []
    hp = None
    turn = 0
    for _version, _seat, command, _state, events in steps(match):
        if "act" in command and hp is not None:
            turn += 1
        for event in events:
            kind = event["type"]
            if kind == "round_start":
                hp = [[START_HP] * 4, [START_HP] * 4]
                turn = 0
                rounds.append([(0, 4 * START_HP, 4 * START_HP)])
            elif kind in ("hp_loss", "damage", "heal"):
                hp[event["side"]][event["pos"]] = event["hp"]
            elif kind == "round_end":
                turn = event["turns"]
        if hp is None:
            continue
        ends_round = any(e["type"] in ("round_end", "match_end") for e in events)
        if "act" in command or ends_round:
            point = (turn, sum(hp[0]), sum(hp[1]))
            series = rounds[-1]
            if series[-1][0] == point[0]:
                series[-1] = point
            else:
                series.append(point)
        if ends_round:
            hp = None
    return rounds
