"""``game.games.aquawar.engine.deduction``: sound (the truth is always a candidate) and as sharp as promised."""
import random

import pytest

from game.games.aquawar.engine import SPECIES, apply, legal_commands, new_match, pick_options, project, view
from game.games.aquawar.engine.deduction import analyse, candidates

MIMIC = "mimic_fish"
AOE_KINDS = {"archerfish", "electric_eel", "clownfish", MIMIC}


def start(team0, team1, mimic0=None, mimic1=None, first_mover=0, seed=1):
    state = new_match(seed, first_mover=first_mover)
    events = []
    for player, team, mimic in ((0, team0, mimic0), (1, team1, mimic1)):
        command = {"pick": list(team)}
        if mimic:
            command["mimic"] = mimic
        state, produced = apply(state, player, command)
        events += produced
    return state, events


def run(state, events, player, *commands):
    for command in commands:
        state, produced = apply(state, player, command)
        events = events + produced
    return state, events


def seen_by(state, events, player):
    return candidates(view(state, player), project(events, player), player)


def random_command(state, player, rng, events, p_assert):
    if state.phase == "pick":
        team = rng.sample(pick_options(state, player)["species"], 4)
        command = {"pick": team}
        if MIMIC in team:
            command["mimic"] = rng.choice([s for s in SPECIES if s != MIMIC])
        return command
    legal = legal_commands(state, player)
    if state.phase == "assert":
        if rng.random() >= p_assert or len(legal) == 1:
            return {"assert": None}
        command = rng.choice(legal[1:])
        target = command["assert"]["target"]
        sets = seen_by(state, events, player)
        if rng.random() < 0.5 and sets[target]:  # a plausible guess: sometimes right, often close
            command = {"assert": {"target": target, "fish": rng.choice(sets[target])}}
        return command
    return rng.choice(legal)


def check_all_rounds(state, events, player):
    """Every enemy fish of every finished or running round still has its true species."""
    deduction = analyse(view(state, player), project(events, player), player)
    picks = [pair[1 - player] for pair in state.past_picks]
    if state.phase in ("assert", "act"):
        picks.append(state.picks[1 - player])
    assert len(deduction.rounds) == len(picks)
    for rnd, pick in zip(deduction.rounds, picks):
        for pos, fish in enumerate(rnd.teams[1 - player]):
            truth = pick["fish"][pos]
            assert truth in fish.species, (rnd.number, pos, truth, pick["mimic"], sorted(fish.species))
            kind = pick["mimic"] if truth == MIMIC else truth
            assert kind in fish.kinds, (rnd.number, pos, kind, sorted(fish.kinds))


@pytest.mark.parametrize("block", range(6))
def test_true_species_always_a_candidate(block):
    """Random matches with random assertions (many plausible): at sampled moments and at every
    round end, for both players, each hidden enemy fish's true species (and a Mimic's copy among
    its kinds) survives."""
    sizes = []
    for seed in range(block * 50, block * 50 + 50):
        rng = random.Random(seed)
        state, events = new_match(seed), []
        rounds_seen = 0
        while state.phase != "over":
            player = (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move
            state, produced = apply(state, player, random_command(state, player, rng, events, 0.15))
            events += produced
            ended = len(state.rounds) != rounds_seen
            rounds_seen = len(state.rounds)
            if ended or (state.phase == "assert" and rng.random() < 0.05):
                for me in (0, 1):
                    check_all_rounds(state, events, me)
                    if not ended:
                        sets = seen_by(state, events, me)
                        for i, fish in enumerate(state.teams[1 - me]):
                            assert (sets[i] is None) == fish.revealed
                            if sets[i] is not None:
                                assert fish.species in sets[i]
                                sizes.append(len(sets[i]))
    assert sum(sizes) / len(sizes) < 8  # and it does narrow things down


def test_aoe_narrows_to_the_four_aoe_kinds():
    state, events = start(
        ["sea_wolf", "octopus", "manta_ray", "sea_turtle"],
        ["archerfish", "octopus", "sea_wolf", "pufferfish"],
        first_mover=1,
    )
    state, events = run(state, events, 1, {"assert": None}, {"act": {"actor": 0, "kind": "skill"}})
    assert set(seen_by(state, events, 0)[0]) <= AOE_KINDS
    assert "archerfish" in seen_by(state, events, 0)[0]


def test_revealed_species_leaves_the_other_fish_of_the_round():
    state, events = start(
        ["sea_wolf", "octopus", "manta_ray", "sea_turtle"],
        ["archerfish", "octopus", "sea_wolf", "pufferfish"],
    )
    state, events = run(state, events, 0, {"assert": {"target": 2, "fish": "sea_wolf"}})
    sets = seen_by(state, events, 0)
    assert sets[2] is None
    assert all("sea_wolf" not in s for s in sets if s is not None)


def test_failed_assertion_on_a_mimic_rules_out_the_copy_not_the_mimic():
    state, events = start(
        ["sea_wolf", "octopus", "manta_ray", "sea_turtle"],
        ["archerfish", MIMIC, "sea_wolf", "pufferfish"],
        mimic1="octopus",
    )
    state, events = run(state, events, 0, {"assert": {"target": 1, "fish": "octopus"}})
    sets = seen_by(state, events, 0)
    assert "octopus" not in sets[1] and MIMIC in sets[1]


def test_earlier_rounds_reveals_are_excluded_later():
    state, events = start(
        ["great_white_shark", "sea_wolf", "hammerhead_shark", "electric_eel"],
        ["pufferfish", "sunfish", "manta_ray", "clownfish"],
    )
    state, events = run(state, events, 0, {"assert": {"target": 0, "fish": "pufferfish"}})
    rng = random.Random(0)
    while state.round == 1:  # play the round out with plain attacks, no more assertions
        player = state.to_move
        if state.phase == "assert":
            command = {"assert": None}
        else:
            command = rng.choice([c for c in legal_commands(state, player) if c["act"]["kind"] == "attack"])
        state, events = run(state, events, player, command)
    for player, team in ((0, ["archerfish", "octopus", "sea_turtle", MIMIC]), (1, ["archerfish", "octopus", "sea_turtle", "sea_wolf"])):
        command = {"pick": team, "mimic": "octopus"} if MIMIC in team else {"pick": team}
        state, events = run(state, events, player, command)
    sets = seen_by(state, events, 0)
    assert len(sets) == 4 and all("pufferfish" not in s for s in sets)


def test_explosion_marks_a_hammerhead():
    state, events = start(
        ["sea_wolf", "octopus", "manta_ray", "sea_turtle"],
        ["hammerhead_shark", "octopus", "sea_wolf", "pufferfish"],
    )
    data = state.to_json()
    data["teams"][1][0]["hp"] = 40
    state = type(state).from_json(data)
    state, events = run(state, events, 0, {"assert": None}, {"act": {"actor": 1, "kind": "attack", "enemy": 0}})
    assert any(e["type"] == "explode" for e in events)
    assert seen_by(state, events, 0)[0] == ["hammerhead_shark", MIMIC]


def test_first_hits_on_a_turtle_are_shields_so_damage_rules_it_out():
    state, events = start(
        ["sea_wolf", "octopus", "manta_ray", "archerfish"],
        ["sea_turtle", "octopus", "archerfish", "pufferfish"],
    )
    state, events = run(state, events, 0, {"assert": None}, {"act": {"actor": 3, "kind": "skill"}})
    sets = seen_by(state, events, 0)
    assert set(sets[0]) <= {"sea_wolf", "manta_ray", "sea_turtle", MIMIC}  # it blocked the hit
    assert all("sea_turtle" not in s for s in sets[1:])  # the others took damage at full shields


def test_hidden_numbers_follow_from_the_record_for_the_true_kind():
    """What the bots rebuild for a sampled world is exact when the sample is right: ATK, a
    Turtle's shields, the Eel/Sunfish damage counter and skill uses of every enemy fish."""
    for seed in range(1000, 1030):
        rng = random.Random(seed)
        state, events = new_match(seed), []
        while state.phase != "over":
            player = (0 if state.picks[0] is None else 1) if state.phase == "pick" else state.to_move
            state, produced = apply(state, player, random_command(state, player, rng, events, 0.05))
            events += produced
            if state.phase != "act" or rng.random() > 0.2:
                continue
            for me in (0, 1):
                current = analyse(view(state, me), project(events, me), me).current
                for fish, facts in zip(state.teams[1 - me], current.teams[1 - me]):
                    if not fish.alive:
                        continue
                    assert facts.stored_atk(fish.kind) == fish.atk
                    assert facts.atk(fish.kind) == fish.current_atk()
                    assert len(facts.cats) == fish.skill_uses
                    if fish.kind == "sea_turtle" and facts.instances_known:
                        assert max(0, 3 - facts.instances) == fish.shields
                    if fish.kind in ("electric_eel", "sunfish"):
                        assert facts.damage_total % 200 == fish.damage_taken
