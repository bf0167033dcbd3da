from game.games.aquawar.engine.view import EVENT_RULES
from game.games.aquawar.log import LogBook

PLAYERS = ["host", "guest"]


def test_it_has_words_for_every_event_the_engine_makes():
    assert all(hasattr(LogBook, f"on_{kind}") for kind in EVENT_RULES)


def test_it_names_only_the_fish_the_events_named():
    book = LogBook(0, PLAYERS)
    lines = book.entries(
        [
            (1, [{"type": "pick", "player": 0, "fish": ["sea_wolf", "octopus", "clownfish", "mimic_fish"], "mimic": "sunfish"}]),
            (2, [{"type": "pick", "player": 1}, {"type": "round_start", "round": 1, "first_mover": 1}]),
            (3, [{"type": "assert", "player": 1, "target": 0, "fish": "sea_wolf", "success": True}]),
            (4, [{"type": "action", "player": 1, "actor": 2, "kind": "skill", "category": "crit", "enemy": 1}]),
            (5, [{"type": "assert", "player": 0, "target": 3, "fish": "archerfish", "success": True}]),
            (6, [{"type": "damage", "side": 1, "pos": 3, "amount": 50, "hp": 350, "direct": True, "source": [0, 0]}]),
        ]
    )
    text = [line["text"] for line in lines]
    assert text[0] == "You picked Sea Wolf, Octopus, Clownfish, Mimic Fish (the Mimic Fish copies Sunfish)."
    assert text[1] == "guest picked a team."
    assert text[2] == "Round 1 begins. First to move: guest."
    assert text[3] == "guest guessed your Sea Wolf (#1) is Sea Wolf: correct!"
    assert text[4] == "guest's fish #3 uses a critical strike on your Octopus (#2)."
    assert text[5] == "You guessed guest's fish #4 is Archerfish: correct!"
    assert text[6] == "guest's Archerfish (#4) takes 50 damage (HP 350)."
    assert [line["version"] for line in lines] == [1, 2, 2, 3, 4, 5, 6]


def test_it_forgets_the_names_when_a_new_round_starts():
    book = LogBook("all", PLAYERS)
    book.entries(
        [
            (1, [{"type": "pick", "player": 0, "fish": ["sea_wolf", "octopus", "clownfish", "sunfish"], "mimic": None}]),
            (2, [{"type": "pick", "player": 1, "fish": ["archerfish", "pufferfish", "electric_eel", "manta_ray"], "mimic": None}]),
            (2, [{"type": "round_start", "round": 1, "first_mover": 0}]),
        ]
    )
    assert book.fish(1, 0) == "guest's Archerfish (#1)"
    book.entries([(9, [{"type": "pick", "player": 1}, {"type": "round_start", "round": 2, "first_mover": 1}])])
    assert book.fish(1, 0) == "guest's fish #1"
