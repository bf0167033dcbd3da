"""Lines of play in one sampled world: a command, then both sides answering greedily for a few plies.

This is the master's rollout. Each side, on its turn, skips the assertion and plays the action
with the best immediate evaluation for itself (``evaluate`` is antisymmetric, so the opponent
minimises ours). In a sampled world both sides see everything, so the opponent's answers are
pessimistic, as in the expert's one-reply search; playing further than one reply lets the search
see what an action sets up (a kill next turn, a shield that will soak the next hit, a teammate
left alone to be finished off) instead of only what it does now.
"""
from game.games.aquawar.engine import apply, legal_commands

from .world import clone, evaluate, round_over

SKIP = {"assert": None}


def greedy_action(state, side, round_number):
    """``side``'s action with the best immediate evaluation for it, and the state after it."""
    best, best_value = None, None
    for command in legal_commands(state, side):
        after = clone(state)
        apply(after, side, command, in_place=True)
        value = evaluate(after, side, round_number)
        if best_value is None or value > best_value:
            best, best_value = after, value
    return best


def play_on(state, player, round_number, plies):
    """``player``'s evaluation after up to ``plies`` greedy turns from ``state`` (consumed)."""
    for _ in range(plies):
        if round_over(state, round_number):
            break
        side = state.to_move
        if state.phase == "assert":
            apply(state, side, SKIP, in_place=True)
        state = greedy_action(state, side, round_number)
    return evaluate(state, player, round_number)


def line_value(world, player, command, round_number, plies):
    """``player``'s evaluation after ``command`` in ``world`` and ``plies`` greedy turns after it."""
    state = clone(world)
    apply(state, player, command, in_place=True)
    if state.phase == "act" and state.to_move == player:
        # An assertion: the same player now acts, greedily, before the line goes on.
        state = greedy_action(state, player, round_number)
    return play_on(state, player, round_number, plies)


def immediate_value(world, player, command, round_number):
    state = clone(world)
    apply(state, player, command, in_place=True)
    return evaluate(state, player, round_number)
