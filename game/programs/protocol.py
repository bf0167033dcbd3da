"""Frames of the bot socket (docs/bot-api.md): the match protocol's, plus those to take a seat.

``hello``, ``command``, ``resign`` (and ``form``) are checked by ``game.live.protocol`` exactly as on
the match socket; ``create``, ``join``, ``play`` and ``seek`` (a new match is of the game its
``"game"`` names, by default the site's first), ``cancel_seek`` and ``cancel`` are checked here. Pure: text in,
request or ``ProtocolError`` out.
"""
import json
import re
from urllib.parse import parse_qs

from .. import games
from ..live.protocol import ProtocolError, _client_id, _version, parse as parse_match_frame

SEAT_TYPES = ("create", "join", "play", "seek", "cancel_seek")
# The host calling its match off before it starts (a contest bridge stopped while it waits).
OWN_TYPES = SEAT_TYPES + ("cancel",)
MAX_INVITE = 64
# Invite tokens are secrets.token_urlsafe() strings; anything else (a NUL, say, which PostgreSQL
# refuses in a query) is no token and never reaches the database.
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,%d}" % MAX_INVITE)
# Ids are 64-bit in every database; a larger number must not even reach a query.
MAX_MATCH_ID = 2**63 - 1
# Why a program gives its match up: a bridge running another program (one written for a game's
# contest, say) reports that program's own breach of the rules as the forfeit it is.
RESIGN_REASONS = ("resign", "timeout", "illegal")


def token_from(scope):
    """The API token of a socket: ``Authorization: Bearer <token>``, else ``?token=<token>``."""
    for name, value in scope.get("headers", []):
        if name.lower() == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return (parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token") or [None])[0]


def parse(text, match_id, game=None):
    """A checked frame for the socket bound to ``match_id`` (None before it takes a seat), whose
    match is of ``game`` (None: the default game's forms are read, until the socket has a match)."""
    form = (game or games.get(games.DEFAULT)).web.form_command
    try:
        request = parse_match_frame(text, match_id, form)
    except ProtocolError as error:
        if error.code != "unknown_type":
            raise
        # The match parser got as far as the type, so this is a JSON object of the right size.
        frame = json.loads(text)
        if frame.get("type") not in OWN_TYPES:
            error.message = f"Unknown frame type; expected one of: hello, command, resign, {', '.join(OWN_TYPES)}."
            raise
        if frame["type"] == "cancel":
            return {"type": "cancel", "id": _client_id(frame)}
        return _seat_request(frame)
    if request["type"] == "resign":
        reason = json.loads(text).get("reason", "resign")
        if reason not in RESIGN_REASONS:
            raise ProtocolError("bad_field", f"\"reason\" must be one of: {', '.join(RESIGN_REASONS)}.", request["id"])
        request["reason"] = reason
    return request


def _seat_request(frame):
    kind = frame["type"]
    if kind == "create":
        private = frame.get("private", False)
        if not isinstance(private, bool):
            raise ProtocolError("bad_field", "\"private\" must be true or false.")
        return {"type": "create", "private": private, "game": _game(frame).name}
    if kind == "seek":
        game = _game(frame)
        rated, seconds = frame.get("rated", False), frame.get("move_seconds", game.time_controls[0])
        if not isinstance(rated, bool):
            raise ProtocolError("bad_field", "\"rated\" must be true or false.")
        if isinstance(seconds, bool) or seconds not in game.time_controls:
            choices = ", ".join(str(c) for c in game.time_controls)
            raise ProtocolError("bad_field", f"\"move_seconds\" must be one of: {choices}.")
        return {"type": "seek", "game": game.name, "rated": rated, "move_seconds": seconds}
    if kind == "cancel_seek":
        return {"type": "cancel_seek"}
    if kind == "play":
        game = _game(frame)
        level = frame.get("level")
        if not isinstance(level, str) or level not in game.levels:
            raise ProtocolError("bad_field", f"\"level\" must be one of: {', '.join(game.levels)}.")
        return {"type": "play", "level": level, "game": game.name}
    match_id, invite = frame.get("match"), frame.get("invite")
    # Optional: the last version the program has (a reconnect), so the seat resumes right after it
    # with the versions it missed and a ``state``, as ``hello`` does; without it, a ``snapshot``.
    version = _version(frame, optional=True)
    is_id = isinstance(match_id, int) and not isinstance(match_id, bool) and 0 < match_id <= MAX_MATCH_ID
    if is_id and invite is None:
        return {"type": "join", "match": match_id, "invite": None, "version": version}
    if isinstance(invite, str) and INVITE_TOKEN.fullmatch(invite) and match_id is None:
        return {"type": "join", "match": None, "invite": invite, "version": version}
    raise ProtocolError("bad_field", "Join with either \"match\" (a match id) or \"invite\" (an invite token).")


def _game(frame):
    """The game a new match is to be of: ``"game"``, by default the site's first."""
    name = frame.get("game", games.DEFAULT)
    if not isinstance(name, str) or name not in games.NAMES:
        raise ProtocolError("bad_field", f"\"game\" must be one of: {', '.join(games.NAMES)}.")
    return games.get(name)
