"""How a match ends: the winner, the reason and, at the turn limit, the tiebreak (rulings 35-36)."""

END_REASONS = ("miracle_destroyed", "turn_limit", "resign", "timeout", "illegal", "abandon")
TIEBREAKS = ("miracle_hp", "lost_stars", "second_player")


def end_match(state, events, winner, reason, tiebreak=None):
    state.phase = "over"
    state.current = None
    state.winner = winner
    state.end_reason = reason
    state.tiebreak = tiebreak
    events.append({"type": "match_end", "winner": winner, "reason": reason, "tiebreak": tiebreak,
                   "miracle_hp": list(state.miracle_hp), "lost_stars": list(state.lost_stars)})


def end_at_turn_limit(state, events):
    """Ruling 36: more miracle HP wins; then fewer stars lost; then the second player."""
    hp, lost = state.miracle_hp, state.lost_stars
    if hp[0] != hp[1]:
        winner, step = (0 if hp[0] > hp[1] else 1), "miracle_hp"
    elif lost[0] != lost[1]:
        winner, step = (0 if lost[0] < lost[1] else 1), "lost_stars"
    else:
        winner, step = 1 - state.first_mover, "second_player"
    end_match(state, events, winner, "turn_limit", step)
