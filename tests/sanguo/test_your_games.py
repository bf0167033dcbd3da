""""Your games" lists the 三国 games that need the person now — a seat in a phase it has not acted
in, a seat asked a choice, the game master (or co-GM) owing decisions — with the phase's deadline
and a link to the game, and the header counts them; what another seat did never shows. The 三国
notices (phase opened, an hour left, a choice asked) are listed among its new notices, each once."""
import re

import pytest
from django.urls import reverse

from game import services as match_services
from game.games.three_kingdoms import engine
from game.time_controls import DAY
from notify.models import Notice, Preferences
from sanguo import notices, services, waiting
from sanguo.models import Game
from tests.accounts import client_for

from .helpers import DURATIONS, clock, people, started_game  # noqa: F401

pytestmark = pytest.mark.django_db

PAGE = reverse("your_games")
COUNT = re.compile(r"data-your-move-count[^>]*>(\d+)<")
ROW = re.compile(r"<li[^>]*data-elsewhere[^>]*>(.*?)</li>", re.S)


def listed(user):
    """The 三国 rows of the person's "Your games", as text without tags, and the header's count."""
    html = client_for(user).get(PAGE).content.decode()
    found = COUNT.search(html)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in ROW.findall(html)], int(found.group(1)) if found else 0


def test_a_seat_is_listed_until_it_acts_and_others_acting_changes_nothing_for_it(clock):
    row, gm, players = started_game()
    link = reverse("sanguo:game", args=[row.pk])
    html = client_for(players[0]).get(PAGE).content.decode()
    assert f'href="{link}"' in html
    rows, count = listed(players[0])
    assert count == 1 and len(rows) == 1
    assert "You have not acted in this phase" in rows[0] and f"三国 game #{row.pk}" in rows[0]
    assert "Night 1: night actions (夜晚行动)" in rows[0]
    # The phase's two hours, counted down.
    assert "2:00:00" in rows[0]
    chinese = client_for(players[0], HTTP_ACCEPT_LANGUAGE="zh-hans").get(PAGE).content.decode()
    assert "你在本阶段还没有行动" in chinese and "此刻需要你的三国游戏" in chinese
    before = client_for(players[1]).get(PAGE).content.decode()
    option = next(c for c in engine.legal_commands(row.state, 0) if "assassinate" in c)
    services.command(row.pk, players[0], "", option)
    assert listed(players[0]) == ([], 0)
    after = client_for(players[1]).get(PAGE).content.decode()
    assert ROW.findall(after) == ROW.findall(before) and COUNT.search(after).group(1) == "1"
    # Withdrawing is acting too: the seat has been to its page this phase (as the reminder counts it).
    services.command(row.pk, players[0], "", {"cancel": {"actor": option["assassinate"]["actor"], "what": "assassinate"}})
    assert listed(players[0]) == ([], 0)


def pending(row, decision):
    """``row``'s game with ``decision`` queued, as the engine queues one (the notices' tests do the same)."""
    row.refresh_from_db()
    entry = dict({"options": ["yes", "no"], "default": "no", "phase": row.state["phase"], "night": 1, "internal": {},
                  "about": {}}, **decision)
    Game.objects.filter(pk=row.pk).update(state=dict(row.state, pending=row.state["pending"] + [entry]))


def test_the_game_master_and_co_gm_are_listed_while_decisions_wait_for_them(clock):
    row, gm, players = started_game()
    helper, = people(1, "helper")
    services.share_console(row.pk, gm, helper.username)
    assert listed(gm) == ([], 0) and listed(helper) == ([], 0)
    before = Game.objects.get(pk=row.pk).state
    pending(row, {"key": 998, "kind": "skill", "for": "gm"})
    for person in (gm, helper):
        rows, count = listed(person)
        assert len(rows) == 1 and count == 1 and "Decisions wait for you (天庭)" in rows[0]
        # The close is held, but the phase's own deadline is still shown.
        assert "2:00:00" in rows[0]
    # The seats are not told of the game master's queue.
    assert all("天庭" not in r for r in listed(players[0])[0])
    Game.objects.filter(pk=row.pk).update(state=before)
    assert listed(gm) == ([], 0) and listed(helper) == ([], 0)


def test_a_seat_asked_a_choice_is_listed_whatever_it_did_before(clock):
    row, gm, players = started_game()
    option = next(c for c in engine.legal_commands(row.state, 2) if "assassinate" in c)
    services.command(row.pk, players[2], "", option)
    assert listed(players[2]) == ([], 0)
    pending(row, {"key": 999, "kind": "offer", "for": 2})
    rows, count = listed(players[2])
    assert len(rows) == 1 and "A choice is asked of you" in rows[0] and count == 1
    assert all("A choice is asked of you" not in r for r in listed(players[1])[0])


def test_only_live_games_of_the_person_and_in_one_query(clock, django_assert_num_queries):
    row, gm, players = started_game()
    outsider, = people(1, "outsider")
    recruiting = services.create_game(outsider, mode="standard")
    services.sign_up(recruiting.pk, players[0])
    assert listed(outsider) == ([], 0)
    with django_assert_num_queries(1):
        assert len(waiting.rows(players[0])) == 1
    services.cancel(recruiting.pk, outsider)
    Game.objects.filter(pk=row.pk).update(status=Game.Status.FINISHED)
    assert listed(players[0]) == ([], 0)


def test_its_rows_take_their_place_among_the_matches_soonest_deadline_first(clock):
    row, gm, players = started_game()
    outsider, = people(1, "outsider")
    minute = match_services.join_match(match_services.create_match(players[0], move_seconds=60), outsider)
    day = match_services.join_match(match_services.create_match(players[0], move_seconds=DAY), outsider)
    html = client_for(players[0]).get(PAGE).content.decode()
    order = re.findall(r'data-match="(\d+)"|(data-elsewhere)', html)
    assert [m or e for m, e in order] == [str(minute.pk), "data-elsewhere", str(day.pk)]
    assert COUNT.search(html).group(1) == "3"


# Within the hour before night 1's deadline: the reminders are due.
REMIND_AT = DURATIONS["night_action"] - 3600 + 1
NOTICE = re.compile(r'<ul class="messages" data-notices>(.*?)</ul>', re.S)


def notices_shown(user):
    """The links and texts of the new notices on the person's "Your games" (each shown once)."""
    html = client_for(user).get(PAGE).content.decode()
    found = NOTICE.search(html)
    return re.findall(r'<a href="([^"]+)"[^>]*>\s*(.*?)\s*</a>', found.group(1), re.S) if found else []


def test_a_seats_notices_are_listed_among_its_new_notices_with_its_games_link_once(clock):
    row, gm, players = started_game()
    link = reverse("sanguo:game", args=[row.pk])
    pending(row, {"key": 997, "kind": "offer", "for": 1})
    notices.find()
    assert notices_shown(players[0]) == [(link, "三国: a phase opened in which you may act")]
    assert sorted(notices_shown(players[1])) == [(link, "三国: a phase opened in which you may act"),
                                                 (link, "三国: you are asked for a choice")]
    # Seen once shown, as a match's notices are; the game master is told nothing of the seats.
    assert notices_shown(players[0]) == [] and notices_shown(gm) == []
    assert not Notice.objects.filter(user__in=players[:2], seen=False).exists()
    # Shown on the game's page first, it is not listed again.
    clock.forward(REMIND_AT)
    notices.find()
    # In the reader's language, as in the mail, not the notice kind's name.
    page = client_for(players[2], HTTP_ACCEPT_LANGUAGE="zh-hans").get(link).content.decode()
    assert re.search(r"<p [^>]*data-sanguo-notice>三国:本阶段一小时后结束", page), page
    assert notices_shown(players[2]) == []
    # An hour before the deadline, the reminder, in the person's language.
    chinese = client_for(players[0], HTTP_ACCEPT_LANGUAGE="zh-hans").get(PAGE).content.decode()
    assert f'<a href="{link}" data-notice-kind="sanguo_deadline">三国:本阶段一小时后结束' in chinese


def test_a_person_who_turned_the_sites_notices_off_is_shown_none(clock):
    row, gm, players = started_game()
    notices.find()
    Preferences.objects.create(user=players[0], in_site=False)
    assert notices_shown(players[0]) == []
    assert Notice.objects.filter(user=players[0], seen=False).exists()
