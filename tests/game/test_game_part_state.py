"""A change's parts for its audiences (``fanout.game_part``) come from one loaded state: ``Game.view`` and
``Game.choices`` only read the state they are given, so the host's, the guest's and the spectators'
parts of a version may share it."""
import random

import pytest

from game import games
from game.live import fanout, frames
from game.models import Match

AUDIENCES = (0, 1, "spectator", "all")


def states(name, matches=3, every=4):
    game = games.get(name)
    for seed in range(matches):
        rng = random.Random(seed)
        state = game.new_match(seed)
        for count in range(300):
            if game.outcome(state) is not None:
                break
            if count % every == 0:
                yield game, state
            mover = game.to_move(state)[0]
            command = rng.choice([c for c in game.legal_commands(state, mover) if "surrender" not in c and "resign" not in c])
            state, _events = game.apply(state, mover, command)


@pytest.mark.parametrize("name", ["aquawar", "miracle"])
def test_view_and_choices_leave_the_state_as_they_found_it(name):
    seen = 0
    for game, state in states(name):
        before = game.dump(state)
        for audience in AUDIENCES:
            game.view(state, audience)
        for seat in (0, 1, None):
            game.choices(state, seat)
        assert game.dump(state) == before
        seen += 1
    assert seen > 20


@pytest.mark.parametrize("name", ["aquawar", "miracle"])
def test_the_parts_of_one_change_for_every_audience_load_its_state_once(name, monkeypatch):
    fanout.clear()
    game, state = list(states(name, matches=1))[-1]
    match = Match(pk=91, seed=5, game=name, version=12, status=Match.Status.LIVE, state=game.dump(state))
    loads = []
    real = type(game).load
    monkeypatch.setattr(type(game), "load", lambda self, data: loads.append(1) or real(self, data))
    parts = [fanout.game_part(match, seat) for seat in (0, 1, None)]
    assert len(loads) == 1
    monkeypatch.setattr(type(game), "load", real)
    assert parts == [frames.game_part(match, seat) for seat in (0, 1, None)]
