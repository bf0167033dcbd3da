"""Aquawar rules engine: pure Python, no Django.

The rules are ``shared/rules/aquawar-rules.zh.md`` with the binding rulings of
``shared/rules/clarifications.md``. Everything here is deterministic: the same seed and the same
commands give the same match, event for event.

Public API
==========
``new_match(seed, first_mover=None, *, dodges=None, turn_limit=64) -> MatchState``
    A match in round 1, pick phase. ``seed``: an integer from -2**63 to 2**63-1 (``bad_seed``
    otherwise). ``first_mover`` (0 or 1) overrides the seeded draw for round 1.
    ``dodges`` (a list of booleans) replaces the seeded dodge rolls with recorded outcomes, used in
    roll order (running out raises ``IllegalCommand`` ``dodges_used_up``); ``turn_limit`` 63 is the
    2021 official program's round length. Both are for replaying official replays.

``apply(state, player, command, *, in_place=False) -> (MatchState, list[dict])``
    Apply one command for ``player`` (0 or 1). Raises ``IllegalCommand`` and leaves ``state``
    untouched when the command is not legal. Returns the new state (a copy unless ``in_place``) and
    the full (unredacted) events the command produced.

``resign(state, player, reason, *, in_place=False) -> (MatchState, list[dict])``
    ``player`` loses the whole match (``reason``: "resign", "timeout", "illegal", "abandon").

``legal_commands(state, player) -> list[dict]``  and  ``is_legal(state, player, command) -> bool``
    In the pick phase one command per unordered team (canonical species order; any order of the
    same four is legal too, order sets positions 0-3), times each Mimic copy target.
    ``pick_options(state, player)`` gives the same compactly: ``{"count": 4, "species": [...]}``.

``view(state, audience) -> dict`` and ``project(events, audience) -> list[dict]``
    What ``audience`` (0, 1, "spectator" or "all") may know: the state as a JSON-ready dict, and the
    events in the form that audience may see (events it may not see at all are dropped). All
    visibility decisions live in ``game.games.aquawar.engine.view``; ``view.visibility(event)`` tells whether an
    event is public or owned by one side (then others get its redacted form, or nothing).

``state.to_json() -> dict`` / ``MatchState.from_json(dict)``: exact round trip.

The view of the state
---------------------
``{"round": 1-3, "phase": "pick"|"assert"|"act"|"over", "to_move": 0|1|None, "turn": turns completed
in this round, "max_turns": 64 (63 in an official replay's), "first_mover": this round's first mover or None before the first
draw is known, "score": [w0, w1], "winner": 0|1|None, "end_reason": None|str,
"rounds": [{"winner", "first_mover", "turns", "reason"}], "picked": [bool, bool],
"picks": [pick0, pick1] (this round's locked picks ``{"fish": [...], "mimic": id|None}``; None
where not locked or not visible), "past_picks": [[pick0, pick1] per finished round] (same rule),
"available": [[ids], [ids]] (a side's list is None where the audience may not see it),
"teams": [[fish x4], [fish x4]]`` (an empty list for a side until both sides have picked), where a
fish is ``{"fish", "hp", "atk", "alive", "revealed", "mimic_of", "shields", "effects", "skill_uses"}``
and every field the audience may not know is ``None`` (``effects`` is a list such as
``["reduce", "share", "heal"]``).

Commands (the JSON of ``aquawar-record/1`` minus the ``player`` key)
--------------------------------------------------------------------
``{"pick": [s0, s1, s2, s3], "mimic": s}``       (``mimic`` only when ``mimic_fish`` is picked)
``{"assert": {"target": i, "fish": s}}`` or ``{"assert": None}``  (skip)
``{"act": {"actor": i, "kind": "attack", "enemy": j}}``
``{"act": {"actor": i, "kind": "skill", "ally": k, "enemy": j}}`` (``ally``/``enemy`` only where
the actor's skill needs them; see ``game.games.aquawar.engine.species.SKILL_TARGETS``)

Events
------
Every event is a dict with ``"type"``; the full form is what ``"all"`` sees. ``game.games.aquawar.engine.view``
decides for each type who sees it whole, and what the others see (a redacted copy, or nothing).
Positions are ``[side, pos]`` pairs where a fish of either side may be meant.

- ``pick``        {player, fish: [4 ids], mimic}            owner only; others get {player}
- ``round_start`` {round, first_mover}                        public
- ``assert``      {player, target, fish, success}             public (success reveals the species)
- ``assert_skip`` {player}                                    public
- ``hp_loss``     {side, pos, amount, hp}                     public (assertion HP loss, not damage)
- ``action``      {player, actor, kind: attack|skill, enemy?, ally?, category?, skill?}
                  attack: public. skill: owner sees all; others get {player, actor, kind, category}
                  plus ``enemy`` for "crit" and ``ally`` for "harm_ally"; ``skill`` (the species whose
                  skill it is) is never shown to others.
- ``damage``      {side, pos, amount, hp, direct, source: [side, pos] | null}   public
- ``avoid``       {side, pos, amount, how: shield|dodge}     others get a ``reduce`` {side, pos, amount, to: 0}
- ``reduce``      {side, pos, amount, to}                    public (70 % reduction: amount → to)
- ``share``       {side, pos, how: passive|delayed}          others get {side, pos}
- ``heal``        {side, pos, amount, hp, how: passive|delayed}   others get {side, pos, amount, hp}
- ``counter``     {side, pos, by, target: [side, pos]}       others get {side, pos, target}
                  (``pos`` is the attacked fish whose hit set it off, ``by`` the fish that answers)
- ``explode``     {side, pos, target: [side, pos]}           public
- ``atk``         {side, pos, atk}                            owner only
- ``death``       {side, pos}                                 public
- ``round_end``   {round, winner, reason: wipeout|mutual|turn_limit, turns, score}   public
- ``match_end``   {winner, reason: rounds|resign|timeout|illegal|abandon, score}    public
"""
from ...engines.errors import IllegalCommand
from .legal import legal_commands, pick_options
from .rules import apply, is_legal, new_match, resign
from .species import SPECIES
from .state import MatchState
from .view import project, view

__all__ = [
    "IllegalCommand",
    "MatchState",
    "SPECIES",
    "apply",
    "is_legal",
    "legal_commands",
    "new_match",
    "pick_options",
    "project",
    "resign",
    "view",
]
