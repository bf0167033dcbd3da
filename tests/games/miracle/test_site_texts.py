"""What people read of 神迹之战: a refusal for every code the engine can raise, every way a match ends,
and the log in plain words, in both languages, naming only what its events name."""
import random
import re
from pathlib import Path

from django.utils import translation

from game.games.miracle import engine
from game.games.miracle.bots import make_bot
from game.games.miracle.engine.outcome import END_REASONS as ENGINE_END_REASONS
from game.games.miracle.log import LogBook
from game.games.miracle.texts import END_REASONS, REFUSALS, TIEBREAKS

from .helpers import DECK_A, DECK_B, put, start

ENGINE = Path(engine.__file__).parent


def raised_codes():
    """Every code the engine's modules raise an ``IllegalCommand`` with, read from their source."""
    codes = set()
    for path in ENGINE.glob("*.py"):
        codes.update(re.findall(r'IllegalCommand\(\s*"([a-z_]+)"', path.read_text()))
    return codes


def test_every_refusal_code_of_the_engine_reads_in_both_languages():
    # new_match's and resign's own codes never reach a person: the platform makes those calls.
    codes = raised_codes() - {"bad_seed", "bad_first_mover", "bad_reason"}
    assert len(codes) > 30
    assert codes <= set(REFUSALS), codes - set(REFUSALS)
    with translation.override("zh-hans"):
        untranslated = [code for code in codes if str(REFUSALS[code]).isascii()]
    assert not untranslated


def test_every_end_reason_and_tiebreak_reads_in_both_languages():
    assert set(ENGINE_END_REASONS) == set(END_REASONS)
    assert set(TIEBREAKS) == {"miracle_hp", "lost_stars", "second_player"}
    with translation.override("zh-hans"):
        assert not [r for r in (*END_REASONS.values(), *TIEBREAKS.values()) if str(r).isascii()]


def lines(events, audience, players=("alice", "bob")):
    book = LogBook(audience, list(players))
    return [line["text"] for line in book.entries([(1, engine.project(events, audience))])]


def test_an_attack_and_its_damage_are_one_line_from_each_point_of_view():
    state = start(DECK_A, DECK_B)
    archer = put(state, 0, "archer", 2, (-4, 4, 0))
    put(state, 1, "swordsman", 1, (-1, 4, -3), hp=5)
    summoned = [{"type": "summon", "player": 0, "unit": archer, "unit_type": "archer", "level": 2,
                 "at": [-4, 4, 0], "hp": 3, "atk": 2, "cost": 4},
                {"type": "summon", "player": 1, "unit": archer + 1, "unit_type": "swordsman", "level": 1,
                 "at": [-1, 4, -3], "hp": 5, "atk": 2, "cost": 2}]
    _, events = engine.apply(state, 0, {"attack": {"unit": archer, "target": archer + 1}})
    assert lines(summoned + events, 0)[-1].startswith("Your Archer (L2) attacks the enemy Swordsman (L1): ")
    assert lines(summoned + events, 1)[-1].startswith("The enemy Archer (L2) attacks your Swordsman (L1): ")
    assert lines(summoned + events, "spectator")[-1].startswith("alice's Archer (L2) attacks bob's Swordsman (L1): ")
    with translation.override("zh-hans"):
        assert lines(summoned + events, 0)[-1].startswith("你的弓箭手（2 级）攻击敌方剑士（1 级）：")


def test_a_deck_is_named_only_to_its_owner_until_both_are_in():
    state = engine.new_match(2, first_mover=0)
    state, first = engine.apply(state, 0, {"deck": DECK_A})
    assert lines(first, 0) == ["You chose Swordsman, Archer, Priest with Holy Light."]
    assert lines(first, 1) == lines(first, "spectator") == ["alice chose a deck."]
    state, second = engine.apply(state, 1, {"deck": DECK_B})
    revealed = lines(first + second, "spectator")
    assert revealed[1] == "bob chose a deck."
    assert "Black Bat" in revealed[2] and "Holy Light" in revealed[2]


def test_a_whole_match_reads_line_by_line_in_both_languages():
    state, events, rng = engine.new_match(6), [], random.Random(6)
    bots = [make_bot("greedy"), make_bot("greedy")]
    while state.phase != "over":
        seat = engine.to_move(state)[0]
        command = bots[seat].choose(engine.view(state, seat), engine.project(events, seat),
                                    engine.legal_commands(state, seat), seat, rng)
        state, produced = engine.apply(state, seat, command, in_place=True)
        events += produced
    kinds = {e["type"] for e in events}
    assert {"attack", "damage", "death", "summon", "move", "match_end"} <= kinds
    for language in ("en", "zh-hans"):
        with translation.override(language):
            for audience in (0, 1, "spectator", "all"):
                written = lines(events, audience)
                assert len(written) > 100
                assert not [t for t in written if "%(" in t or "unit #" in t or "单位 #" in t]
                assert "miracle" in written[-1].lower() or "神迹" in written[-1]


def test_the_chinese_lines_set_no_space_between_chinese_words_only_around_latin_names():
    state = engine.new_match(2, first_mover=0)
    state, first = engine.apply(state, 0, {"deck": DECK_A})
    with translation.override("zh-hans"):
        assert lines(first, 0)[0].startswith("你选择了")
        assert lines(first, 1) == ["alice 选好了卡组。"]


def test_a_line_that_starts_with_a_name_keeps_the_name_as_its_owner_wrote_it():
    state = engine.new_match(2, first_mover=0)
    state, first = engine.apply(state, 0, {"deck": DECK_A})
    assert lines(first, 1, players=("hostbb1b04", "bob")) == ["hostbb1b04 chose a deck."]
    with translation.override("zh-hans"):
        assert lines(first, "spectator", players=("hostbb1b04", "bob"))[0].startswith("hostbb1b04 ")
    # Lines of the viewer's own start with a capital ("You chose …").
    assert lines(first, 0, players=("hostbb1b04", "bob"))[0].startswith("You chose ")
