"""The replay viewer's data (``game.games.miracle.replay``): the map as the audience sees it, and
the drawings of exactly the cards its frames name."""
from game.games.miracle.engine import apply, new_match, project, view
from game.games.miracle.replay import replay_data

from .helpers import DECK_A, DECK_B


def frames_for(audience, commands, first_mover=1):
    state = new_match(4, first_mover=first_mover)
    frames = [{"version": 0, "view": view(state, audience), "events": [], "lines": []}]
    for version, (seat, command) in enumerate(commands, start=1):
        state, events = apply(state, seat, command)
        frames.append({"version": version, "view": view(state, audience), "events": project(events, audience),
                       "lines": [""] * len(events)})
    return frames


def test_a_hidden_deck_names_no_card_in_the_replay_data():
    frames = frames_for("spectator", [(0, {"deck": DECK_A})])
    data = replay_data(frames, "spectator")["data"]
    assert data["creatures"] == {} and data["artifacts"] == {}
    own = replay_data(frames_for(0, [(0, {"deck": DECK_A})]), 0)["data"]
    assert sorted(own["creatures"]) == sorted(DECK_A["creatures"]) and list(own["artifacts"]) == [DECK_A["artifact"]]


def test_the_map_turns_for_the_player_holding_side_one_only():
    commands = [(0, {"deck": DECK_A}), (1, {"deck": DECK_B})]
    # Seat 1 moves first, so it holds side 0: drawn as is; seat 0 holds side 1: turned.
    assert replay_data(frames_for(1, commands), 1)["data"]["map"]["flipped"] is False
    assert replay_data(frames_for(0, commands), 0)["data"]["map"]["flipped"] is True
    assert replay_data(frames_for("spectator", commands), "spectator")["data"]["map"]["flipped"] is False
