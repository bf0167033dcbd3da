"""Checking what a client sends. Everything here is pure: a frame in, a request or a refusal out.

See docs/protocol.md for the frames. A refusal is a ``ProtocolError`` with a stable code; the
consumer turns it into an ``error`` frame and leaves the match and the socket as they were.
"""
import json
import re

import orjson

from ..games.base import BadForm

MAX_FRAME_BYTES = 8 * 1024
MAX_CLIENT_ID = 64
# Ids are stored and compared in the database; a narrow alphabet keeps odd Unicode (such as lone
# surrogates, which JSON escapes can smuggle in) away from it.
CLIENT_ID = re.compile(r"[A-Za-z0-9._:-]{1,%d}" % MAX_CLIENT_ID)
TYPES = ("hello", "command", "resign", "form")
# Frames only people's match sockets take (not the bot socket): see docs/protocol.md.
PEOPLE_TYPES = ("rematch", "abort", "claim", "chat", "mute")
REMATCH_ANSWERS = ("offer", "accept", "decline")


def encode(frame):
    """A frame as sent: compact JSON, text. With orjson rather than the standard library's encoder,
    which took about a twentieth of a server's CPU under load (docs/performance.md, issue #26): a
    socket sends a state frame on every change. The text is the standard encoder's, except that
    characters outside ASCII are sent as themselves, not as ``\\u`` escapes (the same JSON). What
    orjson refuses and the standard encoder takes (an integer beyond 64 bits) goes to the latter."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:
        return json.dumps(frame, separators=(",", ":"), ensure_ascii=False)


class ProtocolError(Exception):
    def __init__(self, code, message, client_id=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.client_id = client_id


def parse(text, match_id, form, *, rematch=False):
    """A checked frame: ``{"type", "id", ...}`` with fields of the right types, or ProtocolError.

    ``form``: the game's ``Presentation.form_command``, which turns a ``form`` frame (a browser
    form's fields) into a command. ``rematch``: the socket also takes ``PEOPLE_TYPES`` (people's
    match sockets do; the bot socket does not).
    """
    if text is None:
        raise ProtocolError("binary_frame", "Send text frames with JSON in them.")
    if len(text) > MAX_FRAME_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"Frames are limited to {MAX_FRAME_BYTES} bytes.")
    try:
        frame = json.loads(text)
    except (ValueError, RecursionError):
        # RecursionError: 8 KB of "[[[[…" nests deeper than the decoder's recursion limit.
        raise ProtocolError("bad_json", "That frame is not valid JSON.") from None
    if not isinstance(frame, dict):
        raise ProtocolError("bad_frame", "A frame is a JSON object with a \"type\".")
    client_id = frame["id"] if isinstance(frame.get("id"), str) and CLIENT_ID.fullmatch(frame["id"]) else None
    kind = frame.get("type")
    types = TYPES + PEOPLE_TYPES if rematch else TYPES
    if kind not in types:
        raise ProtocolError("unknown_type", f"Unknown frame type; expected one of: {', '.join(types)}.", client_id)
    if "match" in frame and frame["match"] != match_id:
        raise ProtocolError("wrong_match", f"This socket is for match {match_id}.", client_id)
    if kind == "hello":
        return {"type": "hello", "version": _version(frame, "version", optional=True)}
    client_id = _client_id(frame)
    if kind in ("resign", "abort", "claim"):
        return {"type": kind, "id": client_id}
    if kind == "chat":
        if not isinstance(frame.get("text"), str):
            raise ProtocolError("bad_field", "\"text\" must be a string (the message).", client_id)
        return {"type": "chat", "id": client_id, "text": frame["text"]}
    if kind == "mute":
        if not isinstance(frame.get("user"), str):
            raise ProtocolError("bad_field", "\"user\" must be a string (a username).", client_id)
        # From a page's form the switch is a string ("off"); from a program, a boolean.
        return {"type": "mute", "id": client_id, "user": frame["user"], "on": frame.get("mute", True) not in (False, "off")}
    if kind == "rematch":
        answer = frame.get("answer", "offer")
        if answer not in REMATCH_ANSWERS:
            raise ProtocolError("bad_field", f"\"answer\" must be one of: {', '.join(REMATCH_ANSWERS)}.", client_id)
        return {"type": "rematch", "id": client_id, "answer": answer}
    try:
        if kind == "command":
            if not isinstance(frame.get("command"), dict):
                raise ProtocolError("bad_field", "\"command\" must be a JSON object.")
            return {"type": "command", "id": client_id, "version": _version(frame), "command": frame["command"]}
        return {"type": "command", "id": client_id, "version": _form_version(frame), "command": form(frame)}
    except BadForm as error:
        raise ProtocolError("bad_field", error.message, client_id) from None
    except ProtocolError as error:
        error.client_id = client_id
        raise


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _version(frame, key="version", optional=False):
    value = frame.get(key)
    if value is None and optional:
        return None
    if not _is_int(value) or value < 0:
        raise ProtocolError("bad_field", f"\"{key}\" must be a whole number (the version you last saw).")
    return value


def _form_version(frame):
    # Form fields arrive as strings.
    value = frame.get("version")
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 10:
        return int(value)
    return _version(frame)


def _client_id(frame):
    value = frame.get("id")
    if not isinstance(value, str) or not CLIENT_ID.fullmatch(value):
        raise ProtocolError(
            "bad_field", f"\"id\" must be 1 to {MAX_CLIENT_ID} letters, digits or any of . _ : -"
        )
    return value
