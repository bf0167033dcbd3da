"""The engine's entry points: new matches, applying commands, resigning, whose move it is.

Every command is checked completely (``checks``) before anything changes, so a refused command
leaves the state untouched even with ``in_place=True``.
"""
from ...engines.errors import IllegalCommand, accepts
from . import actions
from .checks import check
from .outcome import end_match
from .state import MatchState, new_pools
from .turns import end_turn, start_turn

RESIGN_REASONS = ("resign", "timeout", "illegal", "abandon")


def new_match(seed, first_mover=None):
    """A match in the deck phase. The first mover is one draw from the seeded generator kept in
    the state (ruling 5); ``first_mover`` (0 or 1) overrides it, the draw being made anyway so that
    the generator stays aligned."""
    if type(seed) is not int:
        raise IllegalCommand("bad_seed", "The seed must be an integer.")
    if first_mover is not None and (type(first_mover) is not int or first_mover not in (0, 1)):
        raise IllegalCommand("bad_first_mover", "The first mover must be player 0 or 1.")
    state = MatchState(seed)
    drawn = state.next_random() & 1
    state.first_mover = drawn if first_mover is None else first_mover
    state.max_mana[state.first_mover] = 1
    state.max_mana[1 - state.first_mover] = 2
    return state


def apply(state, player, command, *, in_place=False):
    """Apply ``command`` for ``player``; returns ``(state, events)`` or raises ``IllegalCommand``."""
    if not in_place:
        # Checked on the copy: the checks resolve units to the objects the command then changes.
        state = state.copy()
    kind, args = check(state, player, command)
    events = []
    _RUN[kind](state, events, player, args)
    return state, events


def is_legal(state, player, command):
    return accepts(check, state, player, command)


def resign(state, player, reason="resign", *, in_place=False):
    """``player`` loses at once (surrender, clock, illegal command of a program, abandonment)."""
    if type(player) is not int or player not in (0, 1):
        raise IllegalCommand("bad_player", "The player must be 0 or 1.")
    if reason not in RESIGN_REASONS:
        raise IllegalCommand("bad_reason", f"Unknown reason; expected one of {', '.join(RESIGN_REASONS)}.")
    if state.phase == "over":
        raise IllegalCommand("match_over", "The match is already over.")
    if not in_place:
        state = state.copy()
    events = []
    end_match(state, events, 1 - player, reason)
    return state, events


def to_move(state):
    """The seats that owe a decision now: each seat without a deck in the deck phase, the current
    player in play (whose clock counts the whole turn), nobody when the match is over."""
    if state.phase == "deck":
        return [p for p in (0, 1) if state.decks[p] is None]
    if state.phase == "play":
        return [state.current]
    return []


def _deck(state, events, player, deck):
    state.decks[player] = deck
    state.pools[player] = new_pools(deck["creatures"])
    events.append({"type": "deck", "player": player, "artifact": deck["artifact"], "creatures": list(deck["creatures"])})
    if state.decks[1 - player] is not None:
        state.phase = "play"
        events.append({"type": "decks", "first_mover": state.first_mover,
                       "decks": [dict(d, creatures=list(d["creatures"])) for d in state.decks]})
        start_turn(state, events)


def _surrender(state, events, player, _):
    end_match(state, events, 1 - player, "resign")


def _end_turn(state, events, player, _):
    end_turn(state, events)


_RUN = {
    "deck": _deck,
    "summon": actions.summon,
    "move": actions.move,
    "attack": actions.attack_command,
    "artifact": actions.use_artifact,
    "end_turn": _end_turn,
    "surrender": _surrender,
}
