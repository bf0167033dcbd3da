"""Properties of whole random matches, checked after every command: HP within bounds, the match
always ends, the JSON round trip is exact, a record replays to the same events, and
``legal_commands`` / ``options`` agree with ``apply``.

The policy ends its turn with a hypothesis-chosen probability at each command, so matches run the
full 100 turns at a few commands per turn and the suite stays within its time budget.
"""
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from game.games.miracle.engine import (IllegalCommand, MatchState, apply, is_legal, legal_commands, new_match,
                                       options, to_move, view)
from game.games.miracle.engine.board import COORDS
from game.games.miracle.engine.cards import DECK_CREATURES
from game.games.miracle.engine.combat import refresh_attack
from game.games.miracle.engine.record import make_record, replay
from game.games.miracle.engine.state import MAX_MANA, MIRACLE_HP
from game.games.miracle.engine.view import EVENT_RULES, PUBLIC_EVENTS

MAX_COMMANDS = 100 * 40
match_settings = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _key(command):
    return json.dumps(command, sort_keys=True)


def _options_as_commands(state, player):
    """The compact form expanded, to compare with ``legal_commands``."""
    found = options(state, player)
    commands = []
    if "deck" in found:
        return None
    for unit in found.get("units", []):
        commands += [{"move": {"unit": unit["unit"], "to": m["to"]}} for m in unit["moves"]]
        commands += [{"attack": {"unit": unit["unit"], "target": t}} for t in unit["attacks"]]
    for summon in found.get("summons", []):
        commands += [{"summon": {"type": summon["type"], "level": summon["level"], "at": c}} for c in summon["cells"]]
    artifact = found.get("artifact")
    if artifact:
        commands += [{"artifact": {"unit": u}} for u in artifact.get("units", [])]
        commands += [{"artifact": {"at": c}} for c in artifact.get("cells", [])]
    if found.get("end_turn"):
        commands.append({"end_turn": {}})
    commands.append({"surrender": {}})
    return commands


def _random_command(state, rng):
    unit_ids = list(state.units) + [0, state.next_id]
    cell = list(rng.choice(COORDS))
    kind = rng.choice(["summon", "move", "attack", "artifact", "artifact_unit"])
    if kind == "summon":
        return {"summon": {"type": rng.choice(DECK_CREATURES), "level": rng.randint(0, 4), "at": cell}}
    if kind == "move":
        return {"move": {"unit": rng.choice(unit_ids), "to": cell}}
    if kind == "attack":
        return {"attack": {"unit": rng.choice(unit_ids), "target": rng.choice(unit_ids + ["miracle"])}}
    if kind == "artifact":
        return {"artifact": {"at": cell}}
    return {"artifact": {"unit": rng.choice(unit_ids)}}


def _check_invariants(state, before):
    stale = []
    refresh_attack(state.copy(), stale)
    assert stale == []  # every creature's attack is already what ruling 25 makes it
    for unit in state.units.values():
        assert 0 < unit.hp <= unit.max_hp
        assert unit.atk >= 0
    for p in (0, 1):
        assert state.miracle_hp[p] <= before.miracle_hp[p] <= MIRACLE_HP
        assert 0 <= state.mana[p] <= state.max_mana[p] <= MAX_MANA
        for pool in state.pools[p].values():
            assert pool.available >= 0 and all(c > 0 for c in pool.cooling)
    ground = [u.cell for u in state.units.values() if not u.stats.flying]
    air = [u.cell for u in state.units.values() if u.stats.flying]
    assert len(set(ground)) == len(ground) and len(set(air)) == len(air)


def _check_agreement(state, player, rng):
    legal = legal_commands(state, player)
    keys = {_key(c) for c in legal}
    expanded = _options_as_commands(state, player)
    if expanded is not None:
        assert sorted(_key(c) for c in expanded) == sorted(keys)
    for command in rng.sample(legal, min(4, len(legal))):
        apply(state, player, command)  # every listed command applies
    for _ in range(6):
        command = _random_command(state, rng)
        if _key(command) not in keys:
            assert not is_legal(state, player, command)
            try:
                apply(state, player, command)
            except IllegalCommand:
                pass
            else:
                raise AssertionError(f"unlisted {command} applied")
    return legal


@given(seed=st.integers(min_value=0, max_value=2**63), end_rate=st.sampled_from([0.25, 0.5]))
@match_settings
def test_random_matches_keep_every_property(seed, end_rate):
    rng = random.Random(seed)
    state = new_match(seed)
    events, commands = [], []
    while state.phase != "over":
        assert len(commands) < MAX_COMMANDS
        player = to_move(state)[0]
        legal = _check_agreement(state, player, rng)
        playable = [c for c in legal if "surrender" not in c]
        if "end_turn" in playable[-1] and rng.random() < end_rate:
            command = playable[-1]
        else:
            command = rng.choice(playable)
        after, produced = apply(state, player, command)
        _check_invariants(after, state)
        assert MatchState.from_json(json.loads(json.dumps(after.to_json()))) == after
        state = after
        events.extend(produced)
        commands.append({"player": player, **command})
    assert state.turn == 100 or state.end_reason == "miracle_destroyed"
    assert {e["type"] for e in events} <= set(PUBLIC_EVENTS) | set(EVENT_RULES)  # view.py rules every type
    assert to_move(state) == [] and legal_commands(state, 0) == [] and view(state, "all")["winner"] in (0, 1)
    replayed, replayed_events = replay(make_record(seed, commands, first_mover=state.first_mover))
    assert replayed_events == events and replayed == state
