"""The Aquawar page context a socket builds on every change (``presenter.context``) looks up a
match's addresses and translates its forms' labels once, not once per redraw or per move, and says
the same as when it looked them up each time."""
from django.urls import reverse, set_script_prefix
from django.utils import translation
from django.utils.translation import gettext

from game import games
from game.games import markup
from game.games.aquawar import presenter
from game.live import presenter as live_presenter
from tests.games.aquawar.positions import positions


def act_positions(languages=("en", "zh-hans")):
    """Live positions whose viewer is to act, with the Sea Turtle's grid among them."""
    found = [
        (language, payload, marks)
        for seed in (11, 13)
        for language, payload, marks, _seats in positions(seed, 3, languages)
        if payload["status"] == "live" and payload["seat"] is not None and payload["view"]["phase"] == "act" and payload["legal"]
    ]
    assert len(found) > 10
    return found


def old_fish_label(payload, side, pos):
    fish = payload["view"]["teams"][side][pos]
    if fish["fish"]:
        return gettext("%(species)s (#%(pos)s)") % {"species": presenter.species_name(fish["fish"]), "pos": pos + 1}
    return gettext("fish #%(pos)s") % {"pos": pos + 1}


def old_move_label(payload, act):
    """The labels as they were made before, with gettext for each move."""
    seat = payload["seat"]
    if act["kind"] == "attack":
        return gettext("Attack enemy %(target)s") % {"target": old_fish_label(payload, 1 - seat, act["enemy"])}
    words = {}
    if "ally" in act:
        words["ally"] = old_fish_label(payload, seat, act["ally"])
    if "enemy" in act:
        words["enemy"] = old_fish_label(payload, 1 - seat, act["enemy"])
    if "ally" in words and "enemy" in words:
        return gettext("Skill on teammate %(ally)s, at enemy %(enemy)s") % words
    if "ally" in words:
        return gettext("Skill on teammate %(ally)s") % words
    if "enemy" in words:
        return gettext("Skill at enemy %(enemy)s") % words
    return gettext("Skill")


def test_the_forms_labels_are_the_catalogue_s_in_each_language():
    checked = set()
    for language, payload, _marks in act_positions():
        with translation.override(language):
            controls = presenter.controls(payload, [{"clock": None}, {"clock": None}])
            for actor in controls["actors"]:
                assert actor["label"] == old_fish_label(payload, payload["seat"], actor["pos"])
                for move in actor["attacks"] + actor["skills"]:
                    assert move["label"] == old_move_label(payload, move["act"])
                    checked.add((language, move["act"]["kind"], "ally" in move["act"], "enemy" in move["act"]))
                grid = actor["skill_grid"]
                if grid:
                    seat = payload["seat"]
                    enemies = sorted({m["act"]["enemy"] for m in actor["skills"]})
                    allies = sorted({m["act"]["ally"] for m in actor["skills"]})
                    assert grid["enemies"] == [old_fish_label(payload, 1 - seat, e) for e in enemies]
                    assert [row["ally"] for row in grid["rows"]] == [old_fish_label(payload, seat, a) for a in allies]
                    checked.add((language, "grid"))
    assert {("en", "attack", False, True), ("zh-hans", "attack", False, True)} <= checked
    assert ("zh-hans", "skill", True, True) in checked and ("zh-hans", "grid") in checked


def test_the_forms_labels_are_translated_once_per_language_not_per_move(monkeypatch):
    calls = []
    translate = presenter._
    monkeypatch.setattr(presenter, "_", lambda text: calls.append(text) or translate(text))
    language, payload, _marks = act_positions(("zh-hans",))[0]
    with translation.override(language):
        first = presenter.controls(payload, [{"clock": None}, {"clock": None}])
        calls.clear()
        again = presenter.controls(payload, [{"clock": None}, {"clock": None}])
    assert calls == []
    assert [m["label"] for a in again["actors"] for m in a["attacks"] + a["skills"]] == [
        m["label"] for a in first["actors"] for m in a["attacks"] + a["skills"]
    ]


def test_a_match_s_addresses_are_looked_up_once(monkeypatch):
    looked_up = []
    monkeypatch.setattr(markup, "reverse", lambda *args: looked_up.append(args) or reverse(*args))
    markup._url.cache_clear()
    language, payload, marks = act_positions(("en",))[0]
    game = games.get("aquawar")
    with translation.override(language):
        first = live_presenter.context(game, payload, 1, marks, [True, True], {})
        count = len(looked_up)
        again = live_presenter.context(game, payload, 1, marks, [True, True], {})
    # The move forms', the aid's and the "How to play" page's, each once.
    assert count == 3 and len(looked_up) == 3
    assert again["controls"]["post_url"] == first["controls"]["post_url"] == reverse("game:move", args=[payload["match"]])
    assert again["how_to_play_url"] == reverse("game:how_to_play", args=["aquawar"])


def test_an_address_looked_up_under_another_script_prefix_has_that_prefix():
    assert markup.url("game:move", 77) == "/match/77/move/"
    set_script_prefix("/under/")
    try:
        assert markup.url("game:move", 77) == "/under/match/77/move/"
    finally:
        set_script_prefix("/")
    assert markup.url("game:move", 77) == "/match/77/move/"
