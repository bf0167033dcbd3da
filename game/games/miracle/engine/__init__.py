"""神迹之战 (Miracle) rules engine: pure Python, no Django, nothing outside the standard library.

The rules are ``shared/rules/miracle-rules.zh.md`` with the binding rulings of
``shared/rules/miracle-clarifications.md``; rulings the engine adds where both are silent are in
``docs/miracle-engine.md``. The same seed and commands give the same match, event for event.

Public API (the same shape as Aquawar's ``game.engine``)
========================================================
``new_match(seed, first_mover=None) -> MatchState``
    A match in the deck phase; the first mover is drawn from the seeded generator kept in the
    state (``first_mover`` overrides the draw, which is made anyway).
``apply(state, player, command, *, in_place=False) -> (MatchState, list[dict])``
    Apply one command for seat ``player``; raises ``IllegalCommand(code, message)`` and leaves the
    state untouched when it is not legal. Events are the full (unredacted) ones.
``resign(state, player, reason, *, in_place=False)``: ``player`` loses ("resign", "timeout",
    "illegal", "abandon").
``legal_commands(state, player)``: every legal command, surrender included; ``is_legal(...)``;
    ``options(state, player)``: the compact form (per own creature that may act: ``moves`` with
    paths and ``attacks``; ``summons`` by type and level with cells; ``artifact`` cells or units;
    ``end_turn``; ``surrender``; in the deck phase ``deck``: the choices).
``to_move(state) -> list[int]``: seats owing a decision (both without a deck; the current player,
    whose clock counts the whole turn; none when over).
``view(state, audience)`` / ``project(events, audience)`` for 0, 1, "spectator", "all", decided in
    ``view.py`` alone: a deck is its owner's secret until both are in.
``state.to_json()`` / ``MatchState.from_json(data)``: exact round trip.

Seats and sides: everything per side is indexed by seat (player 0/1, the record's ``player``); a
unit's ``camp`` is its owner's seat. The first mover holds map side 0 (miracle (-7, 7, 0)).

Commands (``miracle-record/1`` commands minus ``player``)
---------------------------------------------------------
``{"deck": {"artifact": a, "creatures": [t1, t2, t3]}}``, ``{"summon": {"type", "level", "at"}}``,
``{"move": {"unit", "to"}}``, ``{"attack": {"unit", "target": id | "miracle"}}``,
``{"artifact": {"at": [x, y, z]}}`` or ``{"artifact": {"unit": id}}`` (SalamanderShield),
``{"end_turn": {}}``, ``{"surrender": {}}``. Cells are cube coordinates ``[x, y, z]``.

Events (all public but ``deck``)
--------------------------------
- ``deck`` {player, artifact, creatures}: owner only; others get {player}
- ``decks`` {first_mover, decks: [d0, d1]}: both revealed, play begins
- ``turn_start`` {turn, player, max_mana, mana}; ``unit_counts`` {turn, capacity: [{type: n}] x2}
- ``capture`` {garrison, player, unit}; ``ready`` {player, creature, count} or {player, artifact}
- ``summon`` {player, unit, unit_type, level, at, hp, atk, cost} (the Inferno too, cost 0)
- ``move`` {player, unit, from, to, path}; ``attack`` {unit, target, atk}
- ``damage`` {unit | miracle: player, amount, hp, kind: attack|counter|splash|artifact, source,
  shielded}; ``shield`` {unit, on}; ``heal`` {unit, amount, hp, source: priest id | "holy_light"}
- ``atk`` {unit, atk}: a creature's current attack changed (aura or HolyLight)
- ``death`` {unit, camp, unit_type, level}; ``artifact`` {player, artifact, cost, at | unit}
- ``equip`` {unit, max_hp, hp}; ``action_restored`` {unit}; ``recycle`` {player, artifact, cooldown}
- ``turn_end`` {turn, player}; ``match_end`` {winner, reason, tiebreak, miracle_hp, lost_stars}
  (reason: miracle_destroyed | turn_limit | resign | timeout | illegal | abandon; tiebreak at
  the turn limit: miracle_hp | lost_stars | second_player)
"""
from ...engines.errors import IllegalCommand
from .legal import legal_commands, options
from .rules import apply, is_legal, new_match, resign, to_move
from .state import MatchState
from .view import project, view

__all__ = ["IllegalCommand", "MatchState", "apply", "is_legal", "legal_commands", "new_match", "options",
           "project", "resign", "to_move", "view"]
