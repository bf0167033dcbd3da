"""A stored match played again from its seed: records, per-step replay frames, summary data.

Everything here re-simulates the match's commands (``MatchEvent.command``) with its game rather
than reading ``Match.state``: the states in between were never stored, and a game is
deterministic, so the seed and the commands give every one of them back exactly.

Callers decide *who* may see what (``views`` / ``replay_views``); this module only builds what one
named audience may see, through ``Game.view`` and ``Game.project``.
"""
from .. import games
from ..live.frames import players as match_players
from ..models import Match, MatchEvent

AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}


def audience_allowed(match, requested):
    """The audience a replay may use: anything once the match is over, else only the spectator's.

    During a live match even its players get the spectator projection here: a replay link is
    shareable, and a player's own view belongs on the match page behind their login.
    """
    if match.status != Match.Status.FINISHED:
        return "spectator"
    return AUDIENCES.get(requested, "all")


def is_forfeit(command):
    # services stores a resignation, or a loss on time, as {"resign": true[, "reason": …]}.
    return "resign" in command


def start(game, match):
    """The match before its first command (with what an imported file set up: ``Match.setup``)."""
    return game.new_match(match.seed, match.first_mover, match.setup)


def steps(match):
    """Yield ``(version, seat, command, state after it, events)`` for every stored command, in order.

    A live match is replayed only up to the version the caller loaded, so a command landing
    meanwhile cannot make the replay disagree with the page around it.
    """
    game = games.get(match.game)
    state = start(game, match)
    rows = (
        MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version)
        .order_by("version")
        .values_list("version", "seat", "command")
    )
    for version, seat, command in rows:
        if is_forfeit(command):
            state, events = game.resign(state, seat, command.get("reason", "resign"))
        else:
            state, events = game.apply(state, seat, command)
        yield version, seat, command, state, events


def replay_frames(match, audience):
    """One frame per stored command, plus the start: what ``audience`` knew after each command.

    ``{"version", "view", "events", "lines"}``: ``view`` is ``Game.view`` of the state after the
    command, ``events`` the command's events projected for ``audience`` and ``lines`` their log
    text (``""`` where the log has nothing to say). The viewer steps through them event by event.
    """
    game = games.get(match.game)
    book = game.web.log_book(audience, match_players(match))
    result = [{"version": 0, "view": game.view(start(game, match), audience), "events": [], "lines": []}]
    for version, _seat, _command, state, events in steps(match):
        seen = game.project(events, audience)
        lines = [book.describe(event) or "" for event in seen]
        result.append({"version": version, "view": game.view(state, audience), "events": seen, "lines": lines})
    return result


def record(match):
    """The record of a match in its game's format (``aquawar-record/1`` …): seed, first mover,
    names, commands, the forfeit that ended it, if one did (resignation, clock or an illegal move of
    a program), and the setup an imported file gave it. Not its ``source``: a record exported from
    a match imported from another file is a record of the game's own."""
    game = games.get(match.game)
    rows = MatchEvent.objects.filter(match_id=match.pk, version__lte=match.version).order_by("version")
    commands, forfeit = [], None
    for seat, command in rows.values_list("seat", "command"):
        if is_forfeit(command):
            forfeit = (seat, command.get("reason", "resign"))
        else:
            commands.append((seat, command))
    # Spelled out although the seed implies it: a reader of the file sees who opened the match.
    first_mover = match.first_mover
    if first_mover is None:
        first_mover = game.first_mover(start(game, match))
    return game.make_record(
        match.seed, commands, first_mover=first_mover, players=match_players(match), forfeit=forfeit, setup=match.setup
    )
