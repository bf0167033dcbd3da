"""Helpers for the Aquawar rules-engine scenario tests.

Scenarios are reached by playing the picks through ``apply`` and then editing the documented JSON
round trip (``state.to_json()`` / ``MatchState.from_json``) to set HP, ATK, shields, delayed
effects, skill uses, damage counters, whose turn it is and the random generator.
"""
import json

import pytest

from game.games.aquawar import engine
from game.games.aquawar.engine import IllegalCommand, MatchState, apply, new_match, view

# The species ids as the record format names them, written out rather than imported so that a
# renamed or reordered id in the engine fails these tests instead of following along.
SPECIES = (
    "archerfish",
    "pufferfish",
    "electric_eel",
    "sunfish",
    "sea_wolf",
    "manta_ray",
    "sea_turtle",
    "octopus",
    "great_white_shark",
    "hammerhead_shark",
    "clownfish",
    "mimic_fish",
)

# Event types that describe how damage resolved (the order of these is what the rules fix).
RESOLUTION = ("damage", "avoid", "reduce", "share", "heal", "counter", "explode", "atk", "death")


def pick_cmd(team, mimic=None):
    cmd = {"pick": list(team)}
    if mimic is not None:
        cmd["mimic"] = mimic
    return cmd


def start(team0, team1, mimic0=None, mimic1=None, seed=1, first_mover=0):
    """A match in round 1 right after both picks: first_mover's assertion phase."""
    s = new_match(seed, first_mover=first_mover)
    s, _ = apply(s, 0, pick_cmd(team0, mimic0))
    s, _ = apply(s, 1, pick_cmd(team1, mimic1))
    assert s.phase == "assert" and s.to_move == first_mover
    return s


FISH_FIELDS = {
    "hp": "hp",
    "atk": "atk",
    "alive": "alive",
    "revealed": "revealed",
    "shields": "shields",
    "counter": "damage_taken",
    "uses": "skill_uses",
    "reduce": "pending_reduce",
    "share": "pending_share",
    "heal": "pending_heal",
}


def edit(state, fish=None, **top):
    """A copy of ``state`` with fish fields and top-level fields changed.

    ``fish`` maps (side, pos) -> {field: value} with the keys of FISH_FIELDS; ``dead=True`` is a
    shorthand for hp 0 and not alive. ``top`` sets top-level JSON keys (to_move, phase, turn, rng...).
    """
    data = state.to_json()
    for (side, pos), fields in (fish or {}).items():
        f = data["teams"][side][pos]
        for key, value in fields.items():
            if key == "dead":
                if value:
                    f["hp"] = 0
                    f["alive"] = False
                continue
            f[FISH_FIELDS[key]] = value
    for key, value in top.items():
        assert key in data, key
        data[key] = value
    return MatchState.from_json(data)


def raw(state, side, pos):
    return state.to_json()["teams"][side][pos]


def fish(state, side, pos):
    """The full view ("all") of one fish."""
    return view(state, "all")["teams"][side][pos]


def hp(state, side, pos):
    return fish(state, side, pos)["hp"]


def hps(state, side):
    return [f["hp"] for f in view(state, "all")["teams"][side]]


def atk(state, side, pos):
    return fish(state, side, pos)["atk"]


def skip_assert(state, player):
    if state.phase == "assert":
        state, _ = apply(state, player, {"assert": None})
    return state


def act(state, player, actor, kind="attack", enemy=None, ally=None):
    """Skip the assertion if it is pending, then act. Returns (state, events of the action)."""
    state = skip_assert(state, player)
    body = {"actor": actor, "kind": kind}
    if enemy is not None:
        body["enemy"] = enemy
    if ally is not None:
        body["ally"] = ally
    return apply(state, player, {"act": body})


def attack(state, player, actor, enemy):
    return act(state, player, actor, "attack", enemy=enemy)


def skill(state, player, actor, enemy=None, ally=None):
    return act(state, player, actor, "skill", enemy=enemy, ally=ally)


def do_assert(state, player, target, species):
    assert state.phase == "assert" and state.to_move == player
    return apply(state, player, {"assert": {"target": target, "fish": species}})


def reseeded(state, k):
    """The same position with a different random generator state."""
    return edit(state, rng=(0x5DEECE66D * (k + 1) + 12345 * k) & ((1 << 64) - 1))


def find_roll(state, run, want, tries=400):
    """Try generator states until ``run(state) -> (state, events)`` gives events with ``want``."""
    for k in range(tries):
        out = run(reseeded(state, k))
        if want(out[1]):
            return out
    raise AssertionError("no generator state gave the wanted rolls")


def dodged(events, side, pos):
    return [e for e in events if e["type"] == "avoid" and e["side"] == side and e["pos"] == pos
            and e["how"] == "dodge"]


def no_dodge(events):
    return not any(e["type"] == "avoid" and e["how"] == "dodge" for e in events)


def simple(e):
    """A compact tuple for an event, for comparing exact sequences."""
    t = e["type"]
    if t == "damage":
        return ("damage", e["side"], e["pos"], e["amount"])
    if t == "avoid":
        return ("avoid", e["side"], e["pos"], e["how"])
    if t == "reduce":
        return ("reduce", e["side"], e["pos"], e["amount"], e["to"])
    if t == "share":
        return ("share", e["side"], e["pos"], e["how"])
    if t == "heal":
        return ("heal", e["side"], e["pos"], e["how"])
    if t == "counter":
        return ("counter", e["side"], e["pos"], e["by"], tuple(e["target"]))
    if t == "explode":
        return ("explode", e["side"], e["pos"], tuple(e["target"]))
    if t == "atk":
        return ("atk", e["side"], e["pos"], e["atk"])
    if t == "death":
        return ("death", e["side"], e["pos"])
    return (t,)


def seq(events, types=RESOLUTION):
    return [simple(e) for e in events if e["type"] in types]


def of_type(events, t):
    return [e for e in events if e["type"] == t]


def damages(events):
    return [(e["side"], e["pos"], e["amount"]) for e in events if e["type"] == "damage"]


def illegal(state, player, command):
    """Assert the command is refused, with state untouched. Returns the exception."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(IllegalCommand) as info:
        apply(state, player, command)
    after = json.dumps(state.to_json(), sort_keys=True)
    assert before == after
    err = info.value
    assert isinstance(err.code, str) and err.code
    assert isinstance(err.message, str) and err.message.strip()
    assert engine.is_legal(state, player, command) is False
    return err


def next_turn(state, player):
    """Hand the move to ``player`` (assertion phase), as if the other side had just moved."""
    return edit(state, to_move=player, phase="assert")


def finish_round(state, winner):
    """End the current round (in its assertion phase) with ``winner`` winning, by an assertion."""
    loser = 1 - winner
    data = state.to_json()
    alive = [p for p, f in enumerate(data["teams"][loser]) if f["alive"]]
    fields = {(loser, p): {"hp": 30} for p in alive}
    state = edit(state, fields)
    mover = state.to_move
    target_pos = alive[0]
    target = data["teams"][loser][target_pos]
    if mover == winner:
        guess = target["species"]
        return do_assert(state, winner, target_pos, guess)
    # the loser asserts wrongly and wipes itself out
    mine = [p for p, f in enumerate(data["teams"][winner]) if f["alive"] and not f["revealed"]]
    their = data["teams"][winner][mine[0]]["species"]
    wrong = "archerfish" if their != "archerfish" else "pufferfish"
    return do_assert(state, loser, mine[0], wrong)


def at_last_turn(state):
    """The position just before the 64th (last) turn of the round: the second mover to play."""
    second = 1 - state.to_json()["first_mover"]
    return edit(state, turn=63, to_move=second, phase="assert")
