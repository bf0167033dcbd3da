"""The 天庭 console's rows (issue #25): an override's several actions, rolls and effects become
exactly the engine's command, in the page's order; a bad row is refused with its row named and
nothing changed; a skill decision's proposal is shown as rows and posting them back applies exactly
what the proposal does, or, when the proposal holds a nested judgement, stays whole in the JSON box
with a note; the console's script is loaded by the game master's page alone, and the page without
it posts every row it shows."""
import html as entities
import json
import re

import pytest
from django.http import QueryDict
from django.urls import reverse

from game.games.three_kingdoms import engine
from sanguo import console, records, services
from sanguo.models import Game
from tests.accounts import client_for

from .helpers import DURATIONS, clock, people, started_game  # noqa: F401

pytestmark = pytest.mark.django_db


def post(client, row, data):
    return client.post(reverse("sanguo:act", args=[row.pk]), data, follow=True)


def page(client, row):
    response = client.get(reverse("sanguo:game", args=[row.pk]))
    assert response.status_code == 200
    return response.content.decode()


def as_post(data):
    query = QueryDict(mutable=True)
    for key, value in data.items():
        query[key] = value
    return query


def unchanged(row):
    before = (row.version, json.dumps(row.state, sort_keys=True))
    row.refresh_from_db()
    return (row.version, json.dumps(row.state, sort_keys=True)) == before


def slots(row, seat):
    return [s for s in row.state["slots"] if s["controller"] == seat]


def test_several_actions_rolls_and_effects_are_exactly_the_engines_override_in_the_pages_order(clock):
    row, gm, players = started_game()
    killer = next(s for s in slots(row, 0) if s["identity"] == "杀手")
    other = slots(row, 1)[0]
    third = slots(row, 2)[0]
    # Rows as a script leaves them: numbers with gaps, blank rows between, read in the page's order.
    data = {
        "do": "override", "reason": "several at once",
        "action_id_0": str(killer["id"]), "action_kind_0": "assassinate", "action_target_0": str(other["id"]),
        "action_id_1": "", "action_kind_1": "assassinate",
        "action_id_5": str(third["id"]), "action_kind_5": "vote", "action_target_5": "", "action_follow_5": "",
        "action_id_7": str(killer["id"]), "action_kind_7": "assassinate", "action_withdraw_7": "yes",
        "roll_kind_0": "伤判", "roll_id_0": str(other["id"]), "roll_outcome_0": "stays",
        "roll_kind_2": "", "roll_id_2": "",
        "roll_kind_3": "拼点", "roll_outcome_3": str(third["id"]), "roll_label_3": " 结算前 ",
        "roll_kind_4": "pick", "roll_outcome_4": f"{other['id']}，{third['id']}",
        "effect_kind_0": "feedback", "effect_id_0": str(other["id"]), "effect_text_0": "ROW ONE",
        "effect_kind_1": "", "effect_id_1": "",
        "effect_kind_3": "luck", "effect_id_3": str(third["id"]), "effect_text_3": "劣",
        "effect_kind_9": "announce", "effect_text_9": "天降大雨",
        "effects": json.dumps([{"heal": other["id"]}]),
    }
    expected = {"override": {
        "reason": "several at once",
        "effects": [{"feedback": other["id"], "text": "ROW ONE"}, {"luck": [third["id"], "劣"]},
                    {"announce": "天降大雨"}, {"heal": other["id"]}],
        "rolls": [{"roll": "伤判", "id": other["id"], "outcome": "stays"},
                  {"roll": "拼点", "label": "结算前", "outcome": third["id"]},
                  {"roll": "pick", "outcome": [other["id"], third["id"]]}],
        "action": [{"id": killer["id"], "kind": "assassinate", "set": {"target": other["id"]}},
                   {"id": third["id"], "kind": "vote", "set": {"target": None, "follow": None}},
                   {"id": killer["id"], "kind": "assassinate", "set": None}]}}
    assert console.override_command(as_post(data)) == expected
    post(client_for(gm), row, data)
    row.refresh_from_db()
    assert records.make_record(row)["commands"][-1]["override"] == expected["override"]
    # Applied in order: the rewrite, then its withdrawal; the ballot cast outside a vote is the
    # engine's to hold; the rolls wait, fixed, for the server's next ones.
    assert "assassinate" not in row.state["subs"].get(str(killer["id"]), {})
    assert row.state["fixed_rolls"] == expected["override"]["rolls"]
    assert row.state["slots"][third["id"] - 1]["luck"] == "劣"


@pytest.mark.parametrize("rows, message", [
    ({"action_id_0": "1", "action_kind_0": "assassinate", "action_id_1": "x", "action_kind_1": "assassinate"},
     "Action 2: Choose an ID."),
    ({"action_id_0": "1", "action_kind_0": "assassinate", "action_id_1": "2", "action_kind_1": "dance"},
     "Action 2: Choose the kind of action."),
    ({"action_id_0": "", "action_id_4": "2", "action_kind_4": "skill", "action_targets_4": "1, y"},
     "Action 2: Give the IDs as numbers, separated by commas."),
    # The engine's refusal of one action: the other is not applied either.
    ({"action_id_0": "1", "action_kind_0": "assassinate", "action_withdraw_0": "yes",
      "action_id_1": "2", "action_kind_1": "skill", "action_skill_1": "无此技"}, "has no active skill"),
    ({"roll_kind_0": "伤判", "roll_id_0": "1", "roll_outcome_0": "healed", "roll_kind_1": "chance", "roll_id_1": "2",
      "roll_outcome_1": "perhaps"}, "Roll 2: A judgement is fixed as favourable or unfavourable."),
    ({"roll_kind_0": "", "roll_kind_1": "", "roll_kind_2": "拼点", "roll_outcome_2": "x"},
     "Roll 3: Give the winner's ID as a number."),
    ({"effect_kind_0": "wound", "effect_id_0": "1", "effect_kind_1": "", "effect_kind_2": "",
      "effect_kind_3": "kill", "effect_id_3": ""}, "Effect 4: choose its ID."),
    # Valid rows of every kind beside one refused part: nothing applies.
    ({"effect_kind_0": "wound", "effect_id_0": "1", "roll_kind_0": "pick", "roll_outcome_0": "2",
      "action_id_0": "1", "action_kind_0": "assassinate", "action_withdraw_0": "yes", "join_id": "1",
      "join_country": "秦"}, "Choose the country it joins, or none to cancel its joins."),
])
def test_a_bad_row_is_refused_naming_its_row_and_nothing_changes(clock, rows, message):
    row, gm, players = started_game()
    response = post(client_for(gm), row, {"do": "override", "reason": "x", **rows})
    assert message in entities.unescape(response.content.decode())
    assert unchanged(row)


def test_a_bad_row_is_refused_in_chinese_too(clock):
    row, gm, players = started_game()
    client = client_for(gm)
    client.cookies["django_language"] = "zh-hans"
    response = post(client, row, {"do": "override", "reason": "x", "roll_kind_0": "",
                                  "roll_kind_1": "拼点", "roll_outcome_1": "x"})
    assert "判定 2：" in response.content.decode()
    assert unchanged(row)


# A 立刻 skill every character has, so seat 0 has a character to use it; its effects name the
# target and the actor by the engine's placeholders.
ROWS_SKILL = {"name": "天眼", "timing": "立刻", "targets": 1, "text": "看穿一人",
              "effects": [{"wound": "target"}, {"feedback": "actor", "text": "你看穿了对方"},
                          {"recognise": ["actor", "target"]}, {"luck": ["target", None]},
                          {"identity": ["actor", "军师"]}, {"announce": "天象异变"}]}
NESTED_SKILL = {"name": "八卦", "timing": "立刻", "targets": 1, "text": "",
                "effects": [{"heal": "actor"}, {"chance": {"for": "actor", "against": "target", "odds": [1, 2],
                                                           "then": [{"wound": "target"}], "else": []}}]}


def game_with_skill(skill):
    """A started standard game in which every character has ``skill``, and seat 0's use of it on
    a character of seat 1 waiting for the game master: (row, gm, the decision)."""
    gm = people(1, "gmrows")[0]
    row = services.create_game(gm, mode="standard", durations=DURATIONS)
    characters = row.state["data"]["characters"]
    identities = {name: c.get("identity") for name, c in characters.items()}
    services.import_game_data(row.pk, gm, json.dumps(
        {"skills": [dict(skill, owner=name) for name in characters if identities[name] != "杀手"]}, ensure_ascii=False))
    players = people(row.seat_count, "rows")
    for seat, player in enumerate(players):
        services.sign_up(row.pk, player)
        services.assign_seat(row.pk, gm, player.pk, seat)
    services.start(row.pk, gm)
    row.refresh_from_db()
    target = slots(row, 1)[0]["id"]
    use = next(c for c in engine.legal_commands(row.state, 0)
               if "skill" in c and c["skill"]["skill"] == skill["name"] and c["skill"]["targets"] == [target])
    services.command(row.pk, players[0], "use", use)
    row.refresh_from_db()
    decision = next(d for d in row.state["pending"] if d["for"] == "gm" and d["kind"] == "skill")
    return row, gm, decision


def decision_form(html, key):
    block = html[html.index(f'data-decision="{key}"'):]
    return block[:block.index("</form>")]


def posted_by(form):
    """What the browser posts of a decision's form as the page shows it (no script)."""
    data = {}
    for name, options in re.findall(r'<select name="([^"]+)">(.*?)</select>', form, re.S):
        chosen = re.findall(r"<option(?: value=\"([^\"]*)\")? selected>([^<]*)</option>", options)
        data[name] = (chosen[0][0] or chosen[0][1]) if chosen else ""
    for tag in re.findall(r"<input [^>]*>", form):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name and ('type="checkbox"' not in tag or " checked" in tag):
            data[name[1]] = entities.unescape(value[1]) if value else ""
    for name, text in re.findall(r'<textarea name="([^"]+)"[^>]*>(.*?)</textarea>', form, re.S):
        data[name] = entities.unescape(text)
    return data


def test_a_skill_decisions_proposal_is_rows_that_post_back_exactly_what_it_applies(clock):
    row, gm, decision = game_with_skill(ROWS_SKILL)
    client = client_for(gm)
    form = decision_form(page(client, row), decision["key"])
    actor, target = decision["about"]["actor"], decision["about"]["targets"][0]
    data = posted_by(form)
    shown = [(data[f"effect_kind_{n}"], data[f"effect_id_{n}"]) for n in range(7)]
    assert shown == [("wound", str(target)), ("feedback", str(actor)), ("recognise", str(actor)),
                     ("luck", str(target)), ("identity", str(actor)), ("announce", ""), ("", "")]
    assert data["effect_other_2"] == str(target) and "effect_mutual_2" not in data
    assert data["effect_text_1"] == "你看穿了对方" and data["effect_text_4"] == "军师"
    assert data["effects"] == "" and "data-proposal-json" not in form
    # The rows hold the proposal as the engine applies it: the default answer's effects.
    default, events = engine.apply(row.state, "gm", {"resolve": {"decision": decision["key"]}, "at": row.state["clock"]})
    applied = next(e for e in events if e["type"] == "resolved")["effects"]
    assert console.resolve_command(as_post(data))["resolve"]["effects"] == applied
    post(client, row, data)
    row.refresh_from_db()
    assert records.make_record(row)["commands"][-1]["resolve"]["effects"] == applied
    assert row.state["slots"] == default["slots"] and row.state["recognition"] == default["recognition"]


def test_rows_edited_change_the_answer_and_a_bad_row_changes_nothing(clock):
    row, gm, decision = game_with_skill(ROWS_SKILL)
    client = client_for(gm)
    data = posted_by(decision_form(page(client, row), decision["key"]))
    refused = dict(data, effect_kind_6="kill", effect_id_6="")
    assert "Effect 7: choose its ID." in entities.unescape(post(client, row, refused).content.decode())
    assert unchanged(row)
    target = decision["about"]["targets"][0]
    edited = dict(data, effect_kind_0="kill", effect_kind_1="", effect_kind_2="", effect_kind_3="", effect_kind_4="",
                  effect_kind_5="")
    post(client, row, edited)
    row.refresh_from_db()
    assert records.make_record(row)["commands"][-1]["resolve"]["effects"] == [{"kill": target}]


def test_a_proposal_with_a_nested_judgement_stays_whole_in_the_json_box_and_the_page_says_so(clock):
    row, gm, decision = game_with_skill(NESTED_SKILL)
    client = client_for(gm)
    form = decision_form(page(client, row), decision["key"])
    assert "data-proposal-json" in form and "Rows cannot hold this proposal" in form
    data = posted_by(form)
    # No part of it in the rows, where it would apply before the judgement and change its order.
    assert [data[k] for k in data if k.startswith("effect_kind_")] == [""]
    assert json.loads(data["effects"]) == NESTED_SKILL["effects"] == decision["default"]
    assert console.resolve_command(as_post(data))["resolve"]["effects"] == decision["default"]
    post(client, row, data)
    row.refresh_from_db()
    assert records.make_record(row)["commands"][-1]["resolve"]["effects"] == decision["default"]
    assert not [d for d in row.state["pending"] if d["key"] == decision["key"]]


def test_a_row_is_one_number_however_its_fields_are_spelt():
    posted = as_post({"effect_kind_1": "wound", "effect_id_1": "2", "effect_kind_01": "kill", "effect_id_01": "3",
                      "effect_kind_١": "heal", "effect_id_١": "4"})
    assert console.effect_rows(posted) == [{"wound": 2}]


@pytest.mark.parametrize("effect", [
    {"feedback": 1, "text": "two\nlines"},   # a one-line box would post it changed
    {"wound": 99},                           # an ID the row's menu does not offer
    {"pick": {"among": [1, 2], "count": 1, "good": True, "label": "判定", "then": {"1": [], "2": []}}},
])
def test_an_effect_no_row_posts_back_exactly_is_not_a_row(effect):
    assert console._row_of(effect, 27) is None


@pytest.mark.parametrize("effect", [
    {"wound": 3}, {"recognise": [1, 2], "mutual": True}, {"recognise": [2, 1], "mutual": False},
    {"feedback": 4, "text": "看见了"}, {"announce": ""}, {"identity": [5, "军师"]}, {"luck": [6, None]},
    {"luck": [6, "优"]},
])
def test_every_kind_of_row_posts_back_its_effect(effect):
    row = console._row_of(effect, 27)
    posted = {"effect_kind_0": row["kind"], "effect_id_0": str(row["id"] or ""),
              "effect_other_0": str(row["other"] or ""), "effect_text_0": row["text"]}
    if row["mutual"]:
        posted["effect_mutual_0"] = "on"
    assert console.effect_rows(as_post(posted)) == [effect]


def test_the_script_is_the_game_masters_alone_and_the_rows_work_without_it(clock):
    row, gm, players = started_game()
    html = page(client_for(gm), row)
    assert html.count('src="/static/sanguo/console.js"') == 1 and "<script>" not in html
    console_html = html[html.index('id="sanguo-console"'):]
    # Without the script: blank rows of each kind, their fields numbered, nothing to add or remove.
    assert len(re.findall(r'name="effect_kind_\d+"', console_html)) == console.EFFECT_ROWS
    assert len(re.findall(r'name="roll_kind_\d+"', console_html)) == console.ROLL_ROWS
    assert len(re.findall(r'name="action_id_\d+"', console_html)) == console.ACTION_ROWS
    assert "data-add-row" not in console_html and "data-remove-row" not in console_html
    for player in players:
        assert "console.js" not in page(client_for(player), row)
    assert "console.js" not in client_for(people(1, "onlooker")[0]).get(reverse("sanguo:game", args=[row.pk])).content.decode()
    assert Game.objects.get(pk=row.pk).version == row.version
