"""The game data by form on the recruiting page: a form per character (identity, rank, evaluations,
successors) pre-filled from the current data, saved as the engine's ``setup`` through the service;
each invalid field refused with its message (the engine's, where it judges) and nothing changed."""
import html as entities
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from sanguo import services
from sanguo.models import Game
from tests.accounts import client_for

from .helpers import DURATIONS, clock, people  # noqa: F401

pytestmark = pytest.mark.django_db


@pytest.fixture
def recruiting():
    gm = get_user_model().objects.create_user("gm", password="x")
    row = services.create_game(gm, mode="standard", durations=DURATIONS)
    return row, gm


def post(client, row, data):
    return client.post(reverse("sanguo:act", args=[row.pk]), dict(data, do="character"), follow=True)


def test_each_character_has_its_form_pre_filled_from_the_current_data(clock, recruiting):
    row, gm = recruiting
    services.import_game_data(row.pk, gm, '{"successors": {"徐庶": ["诸葛亮"]}}')
    page = client_for(gm).get(reverse("sanguo:game", args=[row.pk])).content.decode()
    row.refresh_from_db()
    assert set(re.findall(r'class="sanguo-character-data" data-character="([^"]+)"', page)) == set(
        row.state["data"]["characters"])
    form = page[page.index('data-character="徐庶"'):]
    assert 'name="successors" value="诸葛亮"' in form[:form.index("</form>")]
    # Nobody but the game master sees the forms.
    player, = people(1)
    services.sign_up(row.pk, player)
    assert "sanguo-character-data" not in client_for(player).get(reverse("sanguo:game", args=[row.pk])).content.decode()


def test_a_saved_form_changes_that_character_and_keeps_the_rest(clock, recruiting):
    row, gm = recruiting
    services.import_game_data(row.pk, gm, '{"successors": {"荀彧": ["荀攸"]}}')
    skills = [k for k in row.state["data"]["skills"] if k["owner"] == "张辽"]
    assert skills
    post(client_for(gm), row, {"name": "徐庶", "identity": "", "rank": "", "evaluations": "智者，义士",
                               "successors": "诸葛亮"})
    row.refresh_from_db()
    assert row.state["data"]["characters"]["徐庶"]["evaluations"] == ["智者", "义士"]
    assert row.state["data"]["successors"] == {"荀彧": ["荀攸"], "徐庶": ["诸葛亮"]}
    # A post naming no skill field leaves the character's skills as they were.
    post(client_for(gm), row, {"name": "张辽", "evaluations": "猛将"})
    row.refresh_from_db()
    assert row.state["data"]["characters"]["张辽"]["evaluations"] == ["猛将"]
    assert [k for k in row.state["data"]["skills"] if k["owner"] == "张辽"] == skills
    post(client_for(gm), row, {"name": "徐庶", "evaluations": "", "successors": ""})
    row.refresh_from_db()
    assert row.state["data"]["characters"]["徐庶"]["evaluations"] is None
    assert row.state["data"]["successors"] == {"荀彧": ["荀攸"]}


def test_a_characters_skills_are_edited_added_and_removed_keeping_their_effects(clock, recruiting):
    row, gm = recruiting
    before = [k for k in row.state["data"]["skills"] if k["owner"] != "张辽"]
    jixi = next(k for k in row.state["data"]["skills"] if k["owner"] == "张辽")
    page = client_for(gm).get(reverse("sanguo:game", args=[row.pk])).content.decode()
    form = page[page.index('data-character="张辽"'):]
    form = form[:form.index("</form>")]
    assert f'name="skill_name_0" value="{jixi["name"]}"' in form and 'name="skill_name_new" value=""' in form
    post(client_for(gm), row, {"name": "张辽", "skill_name_0": jixi["name"], "skill_timing_0": "被动",
                               "skill_targets_0": "0", "skill_text_0": "EDITED",
                               "skill_name_new": "威震逍遥津", "skill_timing_new": "结算时", "skill_targets_new": "1",
                               "skill_text_new": "NEW"})
    row.refresh_from_db()
    mine = [k for k in row.state["data"]["skills"] if k["owner"] == "张辽"]
    assert [k for k in row.state["data"]["skills"] if k["owner"] != "张辽"] == before
    assert mine[0] == dict(jixi, text="EDITED")
    assert {k: mine[1][k] for k in ("name", "timing", "targets", "text")} == {
        "name": "威震逍遥津", "timing": "结算时", "targets": 1, "text": "NEW"}
    post(client_for(gm), row, {"name": "张辽", "skill_name_0": jixi["name"], "skill_timing_0": "被动",
                               "skill_remove_0": "yes", "skill_name_1": "威震逍遥津", "skill_timing_1": "结算时",
                               "skill_targets_1": "1", "skill_text_1": "NEW"})
    row.refresh_from_db()
    assert [k["name"] for k in row.state["data"]["skills"] if k["owner"] == "张辽"] == ["威震逍遥津"]


@pytest.mark.parametrize("data, message", [
    ({"name": "无名氏"}, "Choose a character of this game."),
    ({"name": "徐庶", "evaluations": "神仙"}, "徐庶: evaluations must be a list of"),
    ({"name": "徐庶", "rank": "王"}, "徐庶: rank is 主 or 副"),
    ({"name": "徐庶", "identity": "皇帝"}, "徐庶: identity must be one of"),
    ({"name": "徐庶", "successors": "无名氏"}, "successors: &#x27;无名氏&#x27; is not free to succeed"),
    ({"name": "徐庶", "skill_name_new": "走马", "skill_timing_new": "午夜"}, "走马: timing must be one of"),
    ({"name": "徐庶", "skill_name_new": "走马", "skill_timing_new": "结算时", "skill_targets_new": "9"},
     "走马: targets must be 0 to 5"),
    ({"name": "徐庶", "skill_name_new": "走马", "skill_timing_new": "结算时", "skill_targets_new": "two"},
     "走马: give its targets as a number from 0 to 5."),
    ({"name": "张辽", "skill_name_0": " "}, "A skill needs a name (remove it instead)."),
])
def test_each_invalid_field_is_refused_with_its_message_and_nothing_changes(clock, recruiting, data, message):
    row, gm = recruiting
    before = (row.version, row.state)
    response = post(client_for(gm), row, data).content.decode()
    assert entities.unescape(message) in entities.unescape(response)
    row.refresh_from_db()
    assert (row.version, row.state) == before


def test_a_player_cannot_save_a_form(clock, recruiting):
    row, gm = recruiting
    player, = people(1)
    services.sign_up(row.pk, player)
    before = row.version
    post(client_for(player), row, {"name": "徐庶", "evaluations": "智者"})
    row.refresh_from_db()
    assert row.version == before and row.status == Game.Status.RECRUITING
