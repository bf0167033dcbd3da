"""Turn start and turn end, step by step in the order of rulings 7-11, 26, 30 and 34."""
from . import board
from .cards import PRIEST, UNIT_COUNTS
from .combat import heal_unit, refresh_attack
from .outcome import end_at_turn_limit
from .state import LAST_TURN, MAX_MANA

# Global turns at whose start both players' unit counts rise (ruling 10), and to which column.
UNIT_COUNT_TURNS = {51: 1, 76: 2}


def max_mana_gain(state, player, turn):
    """Ruling 8: the first mover gains at turns 4k+1, the second at turns 4k."""
    due = turn % 4 == (1 if player == state.first_mover else 0)
    return 1 if due and state.max_mana[player] < MAX_MANA else 0


def start_turn(state, events):
    state.turn += 1
    turn = state.turn
    player = state.first_mover if turn % 2 == 1 else 1 - state.first_mover
    state.current = player
    state.max_mana[player] += max_mana_gain(state, player, turn)
    state.mana[player] = state.max_mana[player]
    events.append({"type": "turn_start", "turn": turn, "player": player, "max_mana": state.max_mana[player],
                   "mana": state.mana[player]})
    if turn in UNIT_COUNT_TURNS:
        _raise_unit_counts(state, events, UNIT_COUNT_TURNS[turn])
    _capture_garrisons(state, events)
    own = [u for u in state.units.values() if u.camp == player]
    for unit in own:
        if unit.equipped and not unit.shield:
            unit.shield = True
            events.append({"type": "shield", "unit": unit.id, "on": True})
    _cooldown_phase(state, events, player)
    for unit in own:
        unit.can_act = True


def _raise_unit_counts(state, events, column):
    for player in (0, 1):
        for type_id, pool in state.pools[player].items():
            pool.capacity = UNIT_COUNTS[type_id][column]
    events.append({"type": "unit_counts", "turn": state.turn,
                   "capacity": [{t: p.capacity for t, p in side.items()} for side in state.pools]})


def _capture_garrisons(state, events):
    """Ruling 34: a ground creature on a garrison cell takes it for its side, at every turn start."""
    for index, cell in enumerate(board.GARRISON_CELL):
        unit_id = state.ground[cell]
        if unit_id:
            camp = state.units[unit_id].camp
            if state.garrisons[index] != camp:
                state.garrisons[index] = camp
                events.append({"type": "capture", "garrison": index, "player": camp, "unit": unit_id})


def _cooldown_phase(state, events, player):
    """Ruling 11: the current player's cooling units and artifact tick down; at 0 they are ready."""
    for type_id, pool in state.pools[player].items():
        if pool.cooling:
            ticked = [c - 1 for c in pool.cooling]
            pool.cooling = [c for c in ticked if c > 0]
            ready = len(ticked) - len(pool.cooling)
            if ready:
                events.append({"type": "ready", "player": player, "creature": type_id, "count": ready})
    slot = state.artifacts[player]
    if slot["state"] == "cooling":
        slot["cooldown"] -= 1
        if slot["cooldown"] == 0:
            slot["state"] = "ready"
            events.append({"type": "ready", "player": player, "artifact": state.decks[player]["artifact"]})


def end_turn(state, events):
    """Turn end: priests heal (ruling 26), HolyLight bonuses of this turn run out (ruling 30); after
    turn 100 the match ends (ruling 35b), else the other player's turn starts."""
    player, turn = state.current, state.turn
    units = state.units
    for priest in [u for u in units.values() if u.type == PRIEST and u.camp == player]:
        row = board.DIST[priest.cell]
        reach = priest.stats.heal_range
        for unit in units.values():
            if unit.camp == player and row[unit.cell] <= reach:
                heal_unit(events, unit, 1, priest.id)
    expired = False
    for unit in units.values():
        if unit.holy_until == turn:
            unit.holy_until = 0
            expired = True
        if unit.camp == player:
            unit.can_act = False
    if expired:
        refresh_attack(state, events)
    events.append({"type": "turn_end", "turn": turn, "player": player})
    if turn >= LAST_TURN:
        end_at_turn_limit(state, events)
    else:
        start_turn(state, events)
