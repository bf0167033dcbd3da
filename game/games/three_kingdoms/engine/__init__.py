"""三国 rules engine: pure Python, no Django, nothing outside the standard library.

Rules ``shared/rules/three-kingdoms-rules.zh.md`` with the binding rulings of
``shared/rules/three-kingdoms-rulings.md``; how each ruling maps to code, the ⏸ list and the
choices made where both are silent are in ``docs/three-kingdoms-engine.md``.

Public API (the shape of the other two engines)
===============================================
``new_match(seed, mode="standard", characters=27) -> state``: a JSON-ready dict in ``setup``.
``apply(state, seat, command, *, in_place=False) -> (state, events)``: seat is a human seat
    (0..n-1), ``"gm"`` or ``"server"``; a refused command raises ``IllegalCommand(code, message)``
    and changes nothing.
``legal_commands(state, seat)``: the seat's legal commands now (a huge identification as one
    family, see ``legal``); ``is_legal(state, seat, command)``: exact; ``awaiting(state)``: who owes
    something ({"gm": bool, "seats": [...]}).
``view(state, audience)`` / ``project(events, audience)``: audience a seat, "gm", "spectator", "all".
``to_json(state)`` / ``from_json(data)``: exact round trip (the state is plain JSON data).
``DEFAULT_DURATIONS``: each phase's length in seconds when the game data names none.
``make_record(seed, mode, characters, commands)`` / ``parse_record(source)``: the record format
    ``three-kingdoms-record/1`` (``records.record``); a bad record raises ``RecordError``.
"""
from ...engines.errors import IllegalCommand
from ...engines.records import RecordError
from .legal import is_legal, legal_commands
from .records.record import make_record, parse_record
from .rules import apply, awaiting, new_match
from .state import DEFAULT_DURATIONS, from_json, to_json
from .views.view import project, view

__all__ = ["DEFAULT_DURATIONS", "IllegalCommand", "RecordError", "apply", "awaiting", "from_json", "is_legal", "legal_commands",
           "make_record", "new_match", "parse_record", "project", "to_json", "view"]
