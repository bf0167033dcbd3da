"""What the board flashes on the fish after a move, the drawings beside log lines, and the language
of the socket's fragments."""
from django.test import override_settings

from game.live.consumers import page_language
from game.games.aquawar.log import LogBook, marks

PLAYERS = ["host", "guest"]


def test_it_marks_each_fish_with_what_the_viewer_may_know_of_its_hit():
    own = marks([{"type": "avoid", "side": 0, "pos": 2, "amount": 50, "how": "shield"}])
    public = marks([{"type": "reduce", "side": 0, "pos": 2, "amount": 50, "to": 0}])
    assert own == {(0, 2): [{"kind": "block", "text": "Shield"}]}
    assert public == {(0, 2): [{"kind": "block", "text": "Blocked"}]}


def test_it_marks_attacker_target_and_counter_target():
    found = marks(
        [
            {"type": "action", "player": 1, "actor": 0, "kind": "attack", "enemy": 3},
            {"type": "damage", "side": 0, "pos": 3, "amount": 50, "hp": 90, "direct": True, "source": [1, 0]},
            {"type": "counter", "side": 0, "pos": 3, "target": [1, 0]},
            {"type": "damage", "side": 1, "pos": 0, "amount": 30, "hp": 370, "direct": False, "source": [0, 1]},
            {"type": "heal", "side": 1, "pos": 0, "amount": 20, "hp": 390},
        ]
    )
    assert [m["text"] for m in found[(1, 0)]] == ["Attack", "Counter", "−30", "+20"]
    assert [m["kind"] for m in found[(0, 3)]] == ["damage"]


def test_it_keeps_the_marks_of_the_last_move_until_the_next_one_that_leaves_any():
    book = LogBook(0, PLAYERS)
    book.entries([(5, [{"type": "death", "side": 1, "pos": 2}]), (6, [{"type": "assert_skip", "player": 1}])])
    # A skipped assertion marks nothing, so the board still shows what the move before it did.
    assert book.marks == {(1, 2): [{"kind": "death", "text": "Defeated"}]}
    book.entries([(7, [{"type": "hp_loss", "side": 0, "pos": 1, "amount": 50, "hp": 350}])])
    assert book.marks == {(0, 1): [{"kind": "damage", "text": "−50"}]}
    book.entries([(8, [{"type": "pick", "player": 1}]), (9, [{"type": "round_start", "round": 2, "first_mover": 1}])])
    assert book.marks == {}


def test_it_draws_beside_a_log_line_only_the_species_it_names():
    book = LogBook(0, PLAYERS)
    lines = book.entries(
        [
            (1, [{"type": "pick", "player": 0, "fish": ["sea_wolf", "octopus", "clownfish", "sunfish"], "mimic": None}]),
            (2, [{"type": "pick", "player": 1}, {"type": "round_start", "round": 1, "first_mover": 1}]),
            (3, [{"type": "action", "player": 1, "actor": 2, "kind": "attack", "enemy": 1}]),
        ]
    )
    lines = [line for line in lines if line["kind"] != "turn"]
    assert [len(line["images"]) for line in lines] == [4, 0, 0, 1]
    assert lines[3]["images"][0].endswith("/octopus.svg")


def scope(cookie=None, accept=None):
    headers = [(b"accept-language", accept.encode())] if accept else []
    return {"cookies": {"django_language": cookie} if cookie else {}, "headers": headers}


@override_settings(LANGUAGE_COOKIE_NAME="django_language")
def test_it_speaks_the_language_the_page_was_rendered_in():
    assert page_language(scope()) == "en"
    assert page_language(scope(accept="zh-CN,zh;q=0.9,en;q=0.8")) == "zh-hans"
    assert page_language(scope(cookie="en", accept="zh-CN")) == "en"
    assert page_language(scope(cookie="xx", accept="fr, zh-Hans;q=0.5")) == "zh-hans"
