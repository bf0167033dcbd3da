"""The end (rulings 39–41, 54): the thresholds table for 27/30/33 with and without 君主, two
countries destroyed → the third wins, together → draw, 议和, the GM's draw."""
import pytest

from game.games.three_kingdoms.engine import IllegalCommand, apply
from game.games.three_kingdoms.engine.roster import INITIAL

from .helpers import close, game, id_of

# characters: (alive at which a country with its 君主 is destroyed, without one)
TABLE = {27: (3, 4), 30: (4, 5), 33: (5, 6)}


def remove(state, names):
    """The characters' IDs leave (no successors), by the GM's override."""
    effects = [{"kill": id_of(state, n)} for n in names]
    state, events = apply(state, "gm", {"override": {"reason": "test", "effects": effects}})
    return state, events


@pytest.mark.parametrize("characters", [27, 30, 33])
def test_a_country_with_its_monarch_falls_at_the_tables_number(characters):
    with_monarch, _ = TABLE[characters]
    others = list(INITIAL["吴"][1:])  # 孙坚 stays
    state = game(characters=characters)
    state, _ = remove(state, others[: 7 - with_monarch - 1])
    state, _ = close(state)
    assert not state["countries"]["吴"]["destroyed"], "one above the threshold stands"
    state = game(characters=characters)
    state, events = remove(state, others[: 7 - with_monarch])
    assert state["countries"]["吴"]["destroyed"]
    assert any(e["type"] == "destroyed" and e["country"] == "吴" for e in events)


@pytest.mark.parametrize("characters", [27, 30, 33])
def test_without_its_monarch_a_country_falls_one_earlier(characters):
    _, without = TABLE[characters]
    names = list(INITIAL["吴"])  # 孙坚 first
    state = game(characters=characters)
    state, _ = remove(state, names[: 7 - without - 1])
    state, _ = close(state)
    assert not state["countries"]["吴"]["destroyed"]
    state = game(characters=characters)
    state, _ = remove(state, names[: 7 - without])
    state, _ = close(state)
    assert state["countries"]["吴"]["destroyed"]


def test_a_destroyed_countrys_ids_all_leave_and_two_destroyed_make_the_third_the_winner():
    state = game()
    state, _ = remove(state, INITIAL["吴"][1:5] + INITIAL["蜀"][1:5])
    assert all(s["status"] == "left" for s in state["slots"] if s["country"] in ("吴", "蜀"))
    assert state["winner"] == "魏" and state["phase"] == "over"


def test_the_last_two_destroyed_together_is_a_draw():
    state = game()
    state, _ = remove(state, INITIAL["吴"][1:5])
    state, _ = close(state)
    state, _ = remove(state, INITIAL["蜀"][1:5] + INITIAL["魏"][1:5])
    assert state["winner"] == "draw" and state["end_reason"] == "destroyed_together"


def test_peace_needs_every_standing_country_in_the_same_night_or_day():
    state = game()
    state, _ = apply(state, 0, {"peace": {}})
    state, _ = apply(state, 1, {"peace": {}})
    state, _ = close(state)
    state, _ = close(state)
    state, _ = close(state)  # now day 1: the night's requests no longer count
    state, _ = apply(state, 2, {"peace": {}})
    assert state["winner"] is None
    state, _ = apply(state, 0, {"peace": {}})
    state, _ = apply(state, 1, {"peace": {}})
    assert state["winner"] == "draw" and state["end_reason"] == "peace"


def test_peace_is_asked_by_the_monarchs_human():
    state = game(mode="nine")
    with pytest.raises(IllegalCommand) as error:
        apply(state, 4, {"peace": {}})  # 魏's killers' seat
    assert error.value.code == "not_speaker"
    apply(state, 3, {"peace": {}})


def test_the_gm_declares_a_draw_with_a_reason():
    state = game()
    with pytest.raises(IllegalCommand):
        apply(state, "gm", {"draw": {}})
    state, _ = apply(state, "gm", {"draw": {"reason": "stalemate"}})
    assert state["winner"] == "draw" and state["log"][-1]["reason"] == "stalemate"
