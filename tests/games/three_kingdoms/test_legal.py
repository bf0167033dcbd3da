"""``legal_commands`` lists a multi-ID identification over every set of its targets (or, past
``LISTED_MAX``, as one documented family), and ``is_legal`` is exact."""
import random
from itertools import combinations

from game.games.three_kingdoms.engine import is_legal, legal_commands
from game.games.three_kingdoms.engine.legal import LISTED_MAX, concrete
from game.games.three_kingdoms.engine.night.actions import target_ok

from .helpers import game, id_of, seat_of


def _identifications(state, name, index):
    return [c["identify"] for c in legal_commands(state, seat_of(state, name))
            if "identify" in c and c["identify"]["actor"] == name and c["identify"]["index"] == index]


def _targets(state):
    return [s["id"] for s in state["slots"] if target_ok(state, s["id"])]


def test_a_two_id_identification_is_listed_over_every_set_of_one_or_two_targets():
    state = game()
    listed = _identifications(state, "徐庶", 0)
    targets = _targets(state)
    expected = [list(c) for r in (1, 2) for c in combinations(targets, r)]
    assert sorted(c["targets"] for c in listed) == sorted(expected)
    seat = seat_of(state, "徐庶")
    sample = random.Random(1).sample(listed, 30)
    assert all(is_legal(state, seat, {"identify": c}) for c in sample)
    assert not is_legal(state, seat, {"identify": {"actor": "徐庶", "index": 0, "targets": targets[:3]}})


def test_a_recruitment_is_listed_over_every_target_and_named_zaiye():
    state = game()
    listed = _identifications(state, "曹操", 0)
    assert len(listed) == len(_targets(state)) * len(state["free"])
    assert {c["names"][0] for c in listed} == set(state["free"])


def test_a_huge_identification_is_one_family_whose_every_draw_is_legal():
    state = game(characters=33, setup={"identifications": {"徐庶": [{"kind": "同国", "count": 5,
                                                                   "names": ["刘备"]}]}})
    (family,) = _identifications(state, "徐庶", 0)
    targets = _targets(state)
    assert sum(1 for r in range(1, 6) for _ in combinations(targets, r)) > LISTED_MAX
    assert family["choose"] == {"from": targets, "min": 1, "max": 5}
    seat, rng = seat_of(state, "徐庶"), random.Random(2)
    for _ in range(20):
        command = concrete({"identify": family}, rng)
        assert 1 <= len(command["identify"]["targets"]) <= 5 and is_legal(state, seat, command)
    assert not is_legal(state, seat, {"identify": {"actor": "徐庶", "index": 0, "targets": targets[:6]}})
    assert not is_legal(state, seat, {"identify": family}), "a family is not itself a command"


def test_is_legal_changes_nothing():
    state = game()
    before = repr(state)
    command = {"assassinate": {"actor": "夏侯惇", "target": id_of(state, "刘备")}}
    assert is_legal(state, seat_of(state, "夏侯惇"), command) and repr(state) == before
