"""The game data entirely by form: a skill's rank, flags and default effects (as rows, judgements'
outcomes nested by the rows' places), the identifications and the natural deaths. Each form read
from the game master's page as a browser would post it, saved as the engine's ``setup``, and read
back pre-filled the same; bad rows refused with their message and nothing changed; the game
master's alone, and nobody else's page holds any of it."""
import html as entities
import json
from html.parser import HTMLParser

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from sanguo import console, data, services
from tests.accounts import client_for

from .helpers import DURATIONS, clock, people  # noqa: F401

pytestmark = pytest.mark.django_db

# Game data using every part the forms hold: each effect kind, a chance inside a pick inside a
# chance (the engine's deepest nesting), placeholders and IDs, every identification field.
SKILLS = [
    {"name": "急袭海昏", "owner": "张辽", "timing": "被动", "targets": 0, "text": "指认出太史慈后令太史慈脱离游戏",
     "effects": [{"leave": "trigger"}]},
    {"name": "八卦奇阵", "owner": "张辽", "timing": "结算前", "targets": 2, "text": "SKILLTEXT", "rank": 3,
     "outside": True, "extra": True,
     "effects": [
         {"chance": {"for": "actor", "odds": [1, 2], "label": "LABELCHANCE", "against": "target",
                     "then": [{"pick": {"among": ["actor", "target", 3], "count": 2, "good": True, "label": "LABELPICK",
                                        "then": [{"heal": "picked"},
                                                 {"chance": {"for": "picked", "odds": [2, 3], "then": [],
                                                             "else": [{"wound": "picked"}]}}]}},
                              {"recognise": ["actor", "target"], "mutual": True}],
                     "else": [{"feedback": "actor", "text": "FEEDBACKTEXT"}]}},
         {"identity": ["target", "护卫"]}, {"luck": ["actor", "劣"]}, {"luck": [2, None]},
         {"announce": "ANNOUNCETEXT"}, {"kill": 4}, {"recognise": [1, 2], "mutual": False}]},
    {"name": "驰援", "owner": "张辽", "timing": "白天行动投票", "targets": 1, "text": ""},
]
IDENTIFICATIONS = {
    "徐庶": [{"kind": "同国", "count": 2, "names": ["刘备", "糜夫人"], "mutual": ["刘备"]}],
    "张辽": [{"kind": "不反馈", "count": 1, "names": ["太史慈"], "passive": "急袭海昏", "before": True},
           {"kind": "评价", "count": 3, "evaluation": "猛将"}, {"kind": "评价", "count": 1, "identity": "杀手"},
           {"kind": "非同国", "count": 5, "names": ["袁方"]}],
    "曹操": [{"kind": "招揽", "count": 1}],
}
DEATHS = {"徐庶": 3, "张辽": 7}
# Marks of the data above that no page but the game master's may hold.
SECRETS = ("SKILLTEXT", "LABELCHANCE", "LABELPICK", "FEEDBACKTEXT", "ANNOUNCETEXT", "八卦奇阵", "驰援")


class Form(HTMLParser):
    """What a browser posts for the first form holding ``marker`` (an attribute): each field's
    value, checked boxes only, a select's selected option (else its first)."""

    def __init__(self, marker):
        super().__init__()
        self.marker, self.fields, self.inside, self.select, self.option = marker, [], False, None, None
        self.done = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and not self.done and any(f'{k}="{v}"' == self.marker or k == self.marker for k, v in attrs):
            self.inside = True
        if not self.inside:
            return
        if tag == "input" and a.get("name") and (a.get("type") != "checkbox" or "checked" in a):
            self.fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self.select = [a["name"], None, None]
        elif tag == "option" and self.select is not None:
            self.option = [a.get("value"), "selected" in a]

    def handle_data(self, text):
        if self.option is not None and self.option[0] is None:
            self.option[0] = text

    def handle_endtag(self, tag):
        if tag == "option" and self.option is not None and self.select is not None:
            value, selected = self.option
            if self.select[1] is None:
                self.select[1] = value
            if selected:
                self.select[2] = value
            self.option = None
        elif tag == "select" and self.select is not None:
            name, first, chosen = self.select
            self.fields.append((name, chosen if chosen is not None else first))
            self.select = None
        elif tag == "form" and self.inside:
            self.inside, self.done = False, True


def read_form(page, marker):
    parser = Form(marker)
    parser.feed(page)
    assert parser.done, marker
    return {k: v for k, v in parser.fields if k != "csrfmiddlewaretoken"}


@pytest.fixture
def game(clock):
    gm = get_user_model().objects.create_user("gm", password="x")
    row = services.create_game(gm, mode="standard", durations=DURATIONS)
    services.import_game_data(row.pk, gm, json.dumps({"skills": SKILLS, "identifications": IDENTIFICATIONS,
                                                      "natural_deaths": DEATHS}, ensure_ascii=False))
    row.refresh_from_db()
    return row, gm


def page_of(client, row):
    response = client.get(reverse("sanguo:game", args=[row.pk]))
    assert response.status_code == 200
    return response.content.decode()


def save(client, row, fields):
    return client.post(reverse("sanguo:act", args=[row.pk]), fields, follow=True).content.decode()


FORMS = {"character": 'data-character="张辽"', "identifications": "data-identification-form",
         "natural_deaths": "data-natural-death-form", "durations": "data-durations-form"}
WHICH = list(FORMS)


def read(page, which):
    if which == "character":
        return read_form(page, FORMS["character"])
    start = page.index(FORMS[which])
    return read_form(page[start:], "method")


def without_inferred(stored):
    return dict(stored, characters={name: {k: v for k, v in facts.items() if k != "inferred"}
                                    for name, facts in stored["characters"].items()})


@pytest.mark.parametrize("which", WHICH)
def test_each_form_saved_as_shown_keeps_the_data_and_shows_it_again(game, which):
    row, gm = game
    client = client_for(gm)
    before = row.state["data"]
    shown = read(page_of(client, row), which)
    assert "Refused" not in save(client, row, shown)
    row.refresh_from_db()
    # Saving a character's form confirms its facts (``inferred`` no more); nothing else changes.
    assert row.version > 1 and without_inferred(row.state["data"]) == without_inferred(before)
    assert read(page_of(client, row), which) == shown


def test_the_data_imported_is_the_data_the_forms_rebuild(game):
    row, _gm = game
    stored = row.state["data"]
    assert [k for k in stored["skills"] if k["owner"] == "张辽"] == SKILLS
    assert stored["identifications"] == IDENTIFICATIONS
    # Each form's post, made from its rows, is exactly the engine's data it shows.
    page = page_of(client_for(_gm), row)
    post = read(page, "character")
    command = data.character_command(row.state, post)["setup"]
    assert [k for k in command["skills"] if k["owner"] == "张辽"] == SKILLS
    assert data.identifications_command(row.state, read(page, "identifications")) == {
        "setup": {"identifications": stored["identifications"]}}
    assert data.natural_deaths_command(row.state, read(page, "natural_deaths")) == {"setup": {"natural_deaths": DEATHS}}


def skill_key(form, name):
    return next(k[len("skill_name_"):] for k, v in form.items() if k.startswith("skill_name_") and v == name)


def test_a_new_skill_with_nested_judgements_entered_in_blank_rows(game):
    """Without a script: the new skill's one row, saved; then the blank rows its form shows."""
    row, gm = game
    client = client_for(gm)
    form = read_form(page_of(client, row), 'data-character="徐庶"')
    assert form["skill_rows_new"] == "1"
    form.update({"skill_name_new": "走马荐诸葛", "skill_timing_new": "结算后", "skill_targets_new": "1",
                 "skill_text_new": "T", "skill_rank_new": "10", "skill_extra_new": "yes",
                 "skill_effect_kind_new_0": "chance", "skill_effect_id_new_0": "target",
                 "skill_effect_number_new_0": "1／4"})
    save(client, row, form)
    form = read_form(page_of(client, row), 'data-character="徐庶"')
    key = skill_key(form, "走马荐诸葛")
    assert form[f"skill_rows_{key}"] == str(1 + data.BLANK_ROWS)
    form.update({f"skill_effect_kind_{key}_1": "kill", f"skill_effect_parent_{key}_1": "1:else",
                 f"skill_effect_id_{key}_1": " target ",
                 f"skill_effect_kind_{key}_2": "recognise", f"skill_effect_parent_{key}_2": "1:then",
                 f"skill_effect_id_{key}_2": "target", f"skill_effect_other_{key}_2": "actor",
                 f"skill_effect_mutual_{key}_2": "on"})
    save(client, row, form)
    row.refresh_from_db()
    new = next(k for k in row.state["data"]["skills"] if k["name"] == "走马荐诸葛")
    assert new == {"name": "走马荐诸葛", "owner": "徐庶", "timing": "结算后", "targets": 1, "text": "T", "rank": 10,
                   "extra": True,
                   "effects": [{"chance": {"for": "target", "odds": [1, 4],
                                           "then": [{"recognise": ["target", "actor"], "mutual": True}],
                                           "else": [{"kill": "target"}]}}]}
    # Shown again: its rows in reading order (then before else), each in its place.
    shown = read_form(page_of(client, row), 'data-character="徐庶"')
    assert [(shown[f"skill_effect_kind_{key}_{n}"], shown.get(f"skill_effect_parent_{key}_{n}", ""))
            for n in range(3)] == [("chance", ""), ("recognise", "1:then"), ("kill", "1:else")]
    assert shown[f"skill_rank_{key}"] == "10" and shown[f"skill_extra_{key}"] == "yes"
    assert f"skill_outside_{key}" not in shown
    # Unticking the flags, emptying the rank and every row's kind leaves a plain skill.
    shown.update({f"skill_rank_{key}": ""})
    del shown[f"skill_extra_{key}"]
    for n in range(int(shown[f"skill_rows_{key}"])):
        shown[f"skill_effect_kind_{key}_{n}"] = ""
    save(client, row, shown)
    row.refresh_from_db()
    assert next(k for k in row.state["data"]["skills"] if k["name"] == "走马荐诸葛") == {
        "name": "走马荐诸葛", "owner": "徐庶", "timing": "结算后", "targets": 1, "text": "T"}


def test_a_short_form_the_engine_takes_is_shown_and_saved_in_full(game):
    row, gm = game
    client = client_for(gm)
    services.import_game_data(row.pk, gm, json.dumps({"skills": [
        {"name": "观星", "owner": "徐庶", "timing": "结算后", "targets": 1, "text": "",
         "effects": [{"luck": ["target"]}, {"chance": {"for": "actor", "odds": [1, 2], "against": None}}]}]}))
    form = read_form(page_of(client, row), 'data-character="徐庶"')
    save(client, row, form)
    row.refresh_from_db()
    assert row.state["data"]["skills"][0]["effects"] == [
        {"luck": ["target", None]}, {"chance": {"for": "actor", "odds": [1, 2], "then": [], "else": []}}]


def test_a_skills_effect_kinds_are_the_consoles_and_the_judgements():
    assert data.EFFECT_KINDS == (*console.ROW_EFFECTS, "chance", "pick")
    assert data.ID_EFFECTS == console.ID_EFFECTS


def test_a_characters_country_and_the_phase_lengths(game):
    row, gm = game
    client = client_for(gm)
    page = page_of(client, row)
    form = read_form(page, 'data-character="司马懿"')
    assert form["country"] == ""
    save(client, row, dict(form, country="魏", identity="军师"))
    lengths = read(page, "durations")
    assert lengths["minutes_day_vote"] == "120"
    save(client, row, dict(lengths, minutes_day_vote="90.5", minutes_night_action=""))
    row.refresh_from_db()
    assert row.state["data"]["characters"]["司马懿"] == {"country": "魏", "identity": "军师", "rank": None,
                                                         "inferred": False, "evaluations": None}
    assert row.state["data"]["durations"] == dict(DURATIONS, day_vote=5430)
    # A post of the form without the country field leaves the country as it is.
    save(client, row, {"do": "character", "name": "司马懿", "identity": "军师"})
    row.refresh_from_db()
    assert row.state["data"]["characters"]["司马懿"]["country"] == "魏"
    page = page_of(client, row)
    assert read_form(page, 'data-character="司马懿"')["country"] == "魏"
    assert read(page, "durations")["minutes_day_vote"] == "90.5"


def test_identification_and_natural_death_rows_added_removed_and_reordered(game):
    row, gm = game
    client = client_for(gm)
    page = page_of(client, row)
    rows = read(page, "identifications")
    count = int(rows["rows"])
    blank = count - data.BLANK_ROWS
    rows.update({f"ident_owner_{blank}": "刘备", f"ident_kind_{blank}": "评价", f"ident_count_{blank}": "2",
                 f"ident_checks_{blank}": "仁者", "ident_remove_0": "yes"})
    save(client, row, rows)
    deaths = read(page, "natural_deaths")
    first = deaths["death_name_0"]
    deaths.update({"death_night_0": "", "death_name_2": "刘备", "death_night_2": "5"})
    save(client, row, deaths)
    row.refresh_from_db()
    stored = row.state["data"]
    assert "徐庶" not in stored["identifications"]
    assert stored["identifications"]["刘备"] == [{"kind": "评价", "count": 2, "evaluation": "仁者"}]
    assert stored["identifications"]["张辽"] == IDENTIFICATIONS["张辽"]
    assert first not in stored["natural_deaths"] and stored["natural_deaths"]["刘备"] == 5
    assert len(stored["natural_deaths"]) == 2


@pytest.mark.parametrize("which, change, message", [
    ("character", {"skill_effect_kind_1_0": "smite"}, "八卦奇阵, effect 1: choose its kind."),
    ("character", {"skill_effect_id_1_2": "somebody"}, "八卦奇阵, effect 3: an ID is a number or actor"),
    ("character", {"skill_effect_id_1_2": ""}, "八卦奇阵, effect 3: an ID is a number or actor"),
    ("character", {"skill_effect_id_1_2": "99"}, "99 is not an ID"),
    ("character", {"skill_effect_number_1_0": "half"}, "八卦奇阵, effect 1: give its odds as k/n"),
    ("character", {"skill_effect_number_1_0": "3/2"}, "chance takes odds [k, n]"),
    ("character", {"skill_effect_number_1_1": "x"}, "八卦奇阵, effect 2: give how many it picks."),
    ("character", {"skill_effect_parent_1_2": "2:else"}, "八卦奇阵, effect 3: it goes into an earlier judgement"),
    ("character", {"skill_effect_parent_1_6": "6:then"}, "八卦奇阵, effect 7: it goes into an earlier judgement"),
    ("character", {"skill_effect_parent_1_4": "4:then", "skill_effect_kind_1_4": "chance",
                   "skill_effect_id_1_4": "actor", "skill_effect_number_1_4": "1/2"}, "nested 3 deep at most"),
    ("character", {"skill_effect_text_1_8": "吉"}, "luck takes [ID, one of"),
    ("character", {"skill_effect_kind_1_5": "identity", "skill_effect_text_1_5": "皇帝"}, "identity takes [ID"),
    ("character", {"skill_rank_1": "12"}, "八卦奇阵: rank (结算前 order) must be 1 to 11"),
    ("character", {"skill_rank_1": "first"}, "八卦奇阵: give its rank (结算前 order) as a number"),
    ("character", {"skill_rows_1": "many"}, "The form is out of date: reload the page."),
    ("identifications", {"rows": "-1"}, "The form is out of date: reload the page."),
    ("natural_deaths", {"rows": ""}, "The form is out of date: reload the page."),
    ("identifications", {"ident_owner_0": "无名氏"}, "Identification 1: choose a character of this game."),
    ("identifications", {"ident_kind_0": "偷看"}, "Identification 1: choose its kind."),
    ("identifications", {"ident_count_0": ""}, "Identification 1: give how many IDs it names, from 1 to 5."),
    ("identifications", {"ident_count_0": "6"}, "徐庶: an identification names 1 to 5 IDs"),
    ("identifications", {"ident_checks_2": ""}, "Identification 3: a 评价 checks one evaluation or identity"),
    ("identifications", {"ident_checks_0": "猛将"}, "Identification 1: a 评价 checks one evaluation or identity"),
    ("identifications", {"ident_checks_2": "神仙"}, "Identification 3: a 评价 checks one evaluation or identity"),
    ("identifications", {"ident_names_0": "无名氏"}, "徐庶: identification names must list the game's characters"),
    ("identifications", {"ident_passive_1": ""}, "张辽: before (结算前, ruling 58) marks an identification"),
    ("character", {"country": "楚"}, "张辽: country must be one of"),
    ("durations", {"minutes_day_vote": "soon"}, "Each phase lasts from one minute to 14 days."),
    ("durations", {"minutes_day_vote": "0.5"}, "Each phase lasts from one minute to 14 days."),
    ("durations", {f"minutes_{phase}": "" for phase in services.PHASES}, "Give at least one phase's length."),
    ("natural_deaths", {"death_name_0": "无名氏"}, "Natural death 1: choose a character of this game."),
    ("natural_deaths", {"death_night_0": "third"}, "Natural death 1: give the night as a number from 1."),
    ("natural_deaths", {"death_night_0": "0"}, "needs a night number &gt;= 1"),
    ("natural_deaths", {"death_name_1": "徐庶"}, "徐庶 dies a natural death once: give one night."),
])
def test_each_bad_row_is_refused_with_its_message_and_nothing_changes(game, which, change, message):
    row, gm = game
    client = client_for(gm)
    fields = dict(read(page_of(client, row), which), **change)
    before = (row.version, row.state)
    response = save(client, row, fields)
    assert entities.unescape(message) in entities.unescape(response)
    row.refresh_from_db()
    assert (row.version, row.state) == before


@pytest.mark.parametrize("which", WHICH)
def test_only_the_game_master_saves_and_nobody_else_sees_the_data(game, which):
    row, gm = game
    player, stranger = people(2)
    services.sign_up(row.pk, player)
    fields = read(page_of(client_for(gm), row), which)
    # What anyone else would post: everything emptied, which the game master's post would save.
    emptied = {k: ("" if k.startswith(("skill_effect_kind", "ident_owner", "death_name")) else
                   "1" if k.startswith("minutes_") else v)
               for k, v in fields.items()}
    before = (row.version, row.state)
    for person in (player, stranger):
        response = save(client_for(person), row, emptied)
        assert "Only the game master can do that." in response
        row.refresh_from_db()
        assert (row.version, row.state) == before
    assert Client().post(reverse("sanguo:act", args=[row.pk]), emptied).status_code == 302
    row.refresh_from_db()
    assert (row.version, row.state) == before
    for client in (client_for(player), client_for(stranger), Client()):
        page = page_of(client, row)
        assert not [secret for secret in SECRETS if secret in page]
        assert not [marker for marker in FORMS.values() if marker in page]
    assert "八卦奇阵" in page_of(client_for(gm), row)


def test_the_forms_read_in_chinese(game):
    row, gm = game
    page = client_for(gm, HTTP_ACCEPT_LANGUAGE="zh-hans").get(reverse("sanguo:game", args=[row.pk])).content.decode()
    for english in ("Default effects, in order", "Save the identifications", "Save the natural deaths",
                    "Identification 1", "Natural death 1", "the skill's effects", "Where", "Add a row",
                    "effect ROW: then", "Phase lengths"):
        assert english not in page, english
