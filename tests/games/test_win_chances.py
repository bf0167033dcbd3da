"""The win-chance estimators (game/games/*/winchance.py): public information only, and sane.

The swap tests change what a spectator may not know — an Aquawar side's unrevealed species, its
Mimic's copy, its ATK; a 神迹之战 deck before both are in — and check that the spectator's view is
the same, the full view is not, and the estimate, asked through the platform's interface
(``Game.win_chance(state)``), is the very same number.
"""
import random

import pytest

from game import games
from game.games.aquawar import engine as aquawar
from game.games.aquawar import winchance as aquawar_chances
from game.games.aquawar.engine.randomplay import players_to_move
from game.games.engines.winchance import recalibrated
from game.games.miracle import engine as miracle
from game.games.miracle import winchance as miracle_chances

TEAM_A = {"pick": ["archerfish", "octopus", "great_white_shark", "sunfish"]}
TEAM_B = {"pick": ["sea_wolf", "pufferfish", "mimic_fish", "manta_ray"], "mimic": "clownfish"}


def aquawar_after_picks(guest_team, seed=5):
    state = aquawar.new_match(seed, first_mover=0)
    state, _ = aquawar.apply(state, 0, TEAM_A)
    state, _ = aquawar.apply(state, 1, guest_team)
    return state


def aquawar_played(seed, commands):
    """A match from ``seed`` after ``commands`` random legal commands (a fixed random game)."""
    rng = random.Random(seed)
    state = aquawar.new_match(seed)
    for _ in range(commands):
        player = players_to_move(state)[0]
        state, _ = aquawar.apply(state, player, rng.choice(aquawar.legal_commands(state, player)), in_place=True)
    return state


def hide_otherwise(state, side):
    """``state`` with ``side``'s hidden parts changed: two unrevealed fish trade species (and their
    places in the pick), a hidden Mimic copies another species, and every fish's ATK differs."""
    data = state.to_json()
    team = data["teams"][side]
    hidden = [i for i, fish in enumerate(team) if not fish["revealed"]]
    assert len(hidden) >= 2, "the scenario needs two unrevealed fish"
    a, b = hidden[:2]
    team[a]["species"], team[b]["species"] = team[b]["species"], team[a]["species"]
    team[a]["mimic_of"], team[b]["mimic_of"] = team[b]["mimic_of"], team[a]["mimic_of"]
    pick = data["picks"][side]
    pick["fish"][a], pick["fish"][b] = pick["fish"][b], pick["fish"][a]
    for fish in team:
        fish["atk"] += 17
        if fish["species"] == "mimic_fish" and not fish["revealed"]:
            other = next(s for s in aquawar.SPECIES if s not in pick["fish"] and s != fish["mimic_of"])
            fish["mimic_of"] = pick["mimic"] = other
    return aquawar.MatchState.from_json(data)


def test_it_gives_the_same_aquawar_chance_whatever_the_hidden_team_is():
    game = games.get("aquawar")
    first, second = aquawar_after_picks(TEAM_A), aquawar_after_picks(TEAM_B)
    assert aquawar.view(first, "all") != aquawar.view(second, "all")
    assert aquawar.view(first, "spectator") == aquawar.view(second, "spectator")
    assert game.win_chance(first) == game.win_chance(second)


@pytest.mark.parametrize("seed", [2, 8, 13])
def test_it_gives_the_same_aquawar_chance_mid_match_whatever_is_hidden(seed):
    game = games.get("aquawar")
    state = aquawar_played(seed, 40)
    assert state.phase in ("assert", "act")
    for side in (0, 1):
        swapped = hide_otherwise(state, side)
        assert aquawar.view(swapped, "all") != aquawar.view(state, "all")
        assert aquawar.view(swapped, "spectator") == aquawar.view(state, "spectator")
        assert game.win_chance(swapped) == game.win_chance(state)


def miracle_with_host_deck(deck):
    state = miracle.new_match(4)
    state, _ = miracle.apply(state, 0, {"deck": deck})
    return state


def miracle_in_play():
    deck = {"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]}
    state, _ = miracle.apply(miracle_with_host_deck(deck), 1, {"deck": deck})
    return state


def test_it_gives_the_same_miracle_chance_whatever_the_deck_before_both_are_in():
    game = games.get("miracle")
    first = miracle_with_host_deck({"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]})
    second = miracle_with_host_deck({"artifact": "inferno_flame", "creatures": ["black_bat", "frost_dragon", "volcano_dragon"]})
    assert miracle.view(first, "all") != miracle.view(second, "all")
    assert miracle.view(first, "spectator") == miracle.view(second, "spectator")
    assert game.win_chance(first) == game.win_chance(second)


def test_the_aquawar_chance_follows_the_public_hp():
    state = aquawar_after_picks(TEAM_B)
    even = aquawar_chances.estimate(aquawar.view(state, "spectator"))
    state.teams[1][0].hp = 100
    ahead = aquawar_chances.estimate(aquawar.view(state, "spectator"))
    state.teams[0][0].hp, state.teams[1][0].hp = 100, 400
    behind = aquawar_chances.estimate(aquawar.view(state, "spectator"))
    assert behind < even < ahead


def test_the_miracle_chance_follows_the_miracles_hp():
    state = miracle_in_play()
    # Mid-match: the first turns' model has never seen a miracle hurt, as no creature reaches one so soon.
    state.turn = 30
    even = miracle_chances.estimate(miracle.view(state, "spectator"))
    state.miracle_hp[1] = 8
    assert miracle_chances.estimate(miracle.view(state, "spectator")) > even + 0.2
    state.miracle_hp[0], state.miracle_hp[1] = 8, 30
    assert miracle_chances.estimate(miracle.view(state, "spectator")) < even - 0.2


@pytest.mark.parametrize("engine, chances", [(aquawar, aquawar_chances), (miracle, miracle_chances)])
def test_a_finished_match_has_its_winner_for_certain(engine, chances):
    state = engine.new_match(6)
    for seat in (0, 1):
        over, _ = engine.resign(state, seat, "resign")
        assert chances.estimate(engine.view(over, "spectator")) == (1.0 if seat == 1 else 0.0)


def test_a_recalibration_maps_the_chance_through_its_points_and_keeps_the_order():
    points = [[0.1, 0.05], [0.3, 0.35], [0.7, 0.65], [0.9, 0.95]]
    assert recalibrated(None, 0.42) == 0.42
    assert recalibrated(points, 0.3) == pytest.approx(0.35)
    assert recalibrated(points, 0.5) == pytest.approx(0.5)  # halfway between (0.3, 0.35) and (0.7, 0.65)
    assert recalibrated(points, 0.05) == pytest.approx(0.025)  # from (0, 0) to the first point
    assert recalibrated(points, 0.0) == 0.0 and recalibrated(points, 1.0) == pytest.approx(1.0)
    grid = [recalibrated(points, i / 100) for i in range(101)]
    assert grid == sorted(grid)


@pytest.mark.parametrize("chances", [aquawar_chances, miracle_chances])
def test_the_estimate_is_the_models_chance_recalibrated(chances, monkeypatch):
    if chances is aquawar_chances:
        view = aquawar.view(aquawar_after_picks(TEAM_B), "spectator")
    else:
        view = miracle.view(miracle_in_play(), "spectator")
    monkeypatch.setitem(chances._MODELS, "calibration", [[0.5, 0.9]])
    raw = chances.uncalibrated(view)
    assert chances.estimate(view) == pytest.approx(recalibrated([[0.5, 0.9]], raw))
    assert chances.estimate(view) != pytest.approx(raw)


def test_the_miracle_deck_phase_chance_is_not_recalibrated(monkeypatch):
    # Only who opens is known then: the deck model's own chance, whatever the map fitted on play says.
    view = miracle.view(miracle_with_host_deck({"artifact": "holy_light", "creatures": ["swordsman", "archer", "priest"]}), "spectator")
    before = miracle_chances.estimate(view)
    monkeypatch.setitem(miracle_chances._MODELS, "calibration", [[0.5, 0.9]])
    assert miracle_chances.uncalibrated(view) is None
    assert miracle_chances.estimate(view) == before == miracle_chances.raw_chance(view)


def test_each_range_of_miracle_turns_has_its_own_model():
    state = miracle_in_play()
    names = []
    for turn in (1, 8, 9, 14, 15, 20, 21, 26, 27, 34, 35, 100):
        state.turn = turn
        names.append(miracle_chances.model_name(miracle.view(state, "spectator")))
    assert names == [f"until_{last}" for last in miracle_chances.TURN_RANGES for _ in (0, 1)]
    assert all(name in miracle_chances._MODELS for name in ("deck", *names))
