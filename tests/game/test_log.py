from django.utils import translation

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
    text = [line["text"] for line in lines if line["kind"] != "turn"]
    assert text[0] == "You picked Sea Wolf, Octopus, Clownfish, Mimic Fish (the Mimic Fish copies Sunfish)."
    assert text[1] == "guest picked a team."
    assert text[2] == "Round 1 begins. First to move: guest."
    assert text[3] == "guest guessed your Sea Wolf (#1) is Sea Wolf: correct!"
    assert text[4] == "guest's fish #3 uses a critical strike on your Octopus (#2)."
    assert text[5] == "You guessed guest's fish #4 is Archerfish: correct!"
    assert text[6] == "guest's Archerfish (#4) takes 50 damage (HP 350)."
    assert [line["version"] for line in lines if line["kind"] != "turn"] == [1, 2, 2, 3, 4, 5, 6]


def test_its_chinese_lines_set_no_space_between_chinese_words_only_around_latin_names():
    picks = [(1, [{"type": "pick", "player": 0, "fish": ["sea_wolf", "octopus", "clownfish", "sunfish"], "mimic": None}]),
             (2, [{"type": "pick", "player": 1}])]
    with translation.override("zh-hans"):
        text = [line["text"] for line in LogBook(0, PLAYERS).entries(picks)]
    assert text[0] == "你选择了海狼鱼、章鱼、小丑鱼、翻车鱼。"
    assert text[1] == "guest 选好了队伍。"


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


HOST_PICK = {"type": "pick", "player": 0, "fish": ["sea_wolf", "octopus", "sea_turtle", "clownfish"], "mimic": None}


def own_turtle_log(audience):
    """Host's Sea Turtle (#3) gives its gift to the Octopus (#2) and strikes guest's fish #1."""
    book = LogBook(audience, PLAYERS)
    return book.entries(
        [
            (1, [HOST_PICK if audience == 0 else {"type": "pick", "player": 0}]),
            (2, [{"type": "pick", "player": 1}, {"type": "round_start", "round": 1, "first_mover": 0}]),
            (3, [{"type": "assert_skip", "player": 0}]),
            (
                4,
                [
                    {"type": "action", "player": 0, "actor": 2, "kind": "skill", "category": "crit", "ally": 1, "enemy": 0}
                    if audience == 0
                    else {"type": "action", "player": 0, "actor": 2, "kind": "skill", "category": "crit", "enemy": 0},
                    {"type": "damage", "side": 1, "pos": 0, "amount": 120, "hp": 280, "direct": True, "source": [0, 2]},
                ],
            ),
            (5, [{"type": "assert_skip", "player": 1}]),
            (6, [{"type": "action", "player": 1, "actor": 0, "kind": "attack", "enemy": 1}]),
        ]
    )


def test_it_says_which_fish_got_the_skill_and_which_the_strike():
    lines = {line["version"]: line["text"] for line in own_turtle_log(0) if line["kind"] == "action"}
    assert lines[4] == (
        "Your Sea Turtle (#3) uses its skill on teammate your Octopus (#2) and a critical strike on guest's fish #1."
    )
    # The other side never learns of the gift: it reads only the strike.
    lines = {line["version"]: line["text"] for line in own_turtle_log(1) if line["kind"] == "action"}
    assert lines[4] == "host's fish #3 uses a critical strike on your fish #1."


def test_it_numbers_the_turns_and_marks_the_viewers_own_decisions():
    lines = own_turtle_log(0)
    headings = [line["text"] for line in lines if line["kind"] == "turn"]
    assert headings == ["Turn 1 · you", "Turn 2 · guest"]
    assert [line["turn"] for line in lines if line["version"] >= 3] == [1, 1, 1, 1, 2, 2, 2]
    own = [(line["version"], line["kind"]) for line in lines if line["own"]]
    assert own == [(1, "pick"), (3, "assert_skip"), (4, "action")]
    assert not any(line["own"] for line in own_turtle_log("spectator"))


def test_it_reads_the_score_of_a_round_from_the_players_side():
    round_end = {"type": "round_end", "round": 1, "winner": 1, "reason": "wipeout", "turns": 9, "score": [0, 1]}
    assert LogBook(1, PLAYERS).describe(round_end) == (
        "Round 1 goes to you (a whole team was defeated) after 9 turns. You lead 1–0."
    )
    assert LogBook(0, PLAYERS).describe(round_end).endswith(" after 9 turns. You trail 0–1.")
    assert LogBook("spectator", PLAYERS).describe(round_end).endswith(" after 9 turns. Score 0–1.")
    level = {**round_end, "round": 2, "winner": 0, "score": [1, 1]}
    assert LogBook(1, PLAYERS).describe(level).endswith(" Level at 1–1.")
