"""A tournament's page tells a point won by forfeit from one played for: a loss on time (an absent
program's), a program's illegal move, a called-off match only one side had moved in; in both
languages. A resignation, a win on the board and a draw are plain results."""
import pytest
from django.urls import reverse
from django.utils import translation

from game import services as match_services
from game.models import Match, MatchEvent
from tournaments import runner
from tournaments.models import Pairing

from .test_views import started_with_three

pytestmark = pytest.mark.django_db


def round_one(host_client, cup):
    page = host_client.get(reverse("tournaments:live", args=[cup.pk])).content.decode()
    return page.split("tournament-round")[-1]


@pytest.mark.parametrize("reason, words", [("timeout", "by forfeit: time ran out"),
                                            ("illegal", "by forfeit: an illegal move")])
def test_a_loss_by_forfeit_is_marked(host_client, host, people, reason, words):
    cup, pairing = started_with_three(host, people)
    match_services.forfeit(pairing.match_id, pairing.second, reason)
    runner.advance(cup.pk)
    shown = round_one(host_client, cup)
    assert "1–0" in shown and words in shown


def test_a_called_off_match_only_one_side_moved_in_is_marked(host_client, host, people):
    cup, pairing = started_with_three(host, people)
    MatchEvent.objects.create(match=pairing.match, version=1, seat=0, command={"pick": []}, events=[])
    Match.objects.filter(pk=pairing.match_id).update(status=Match.Status.ABORTED, end_reason="no_first_move")
    runner.advance(cup.pk)
    shown = round_one(host_client, cup)
    assert "1–0" in shown and "by forfeit: did not play" in shown


def test_a_resignation_is_a_plain_result(host_client, host, people):
    cup, pairing = started_with_three(host, people)
    match_services.resign(pairing.match, pairing.second)
    runner.advance(cup.pk)
    shown = round_one(host_client, cup)
    assert "1–0" in shown and "forfeit" not in shown


def test_the_mark_is_translated(host_client, host, people):
    cup, pairing = started_with_three(host, people)
    match_services.forfeit(pairing.match_id, pairing.second, "timeout")
    runner.advance(cup.pk)
    with translation.override("zh-hans"):
        forfeit = str(Pairing.objects.select_related("match").get(pk=pairing.pk).forfeit)
        assert forfeit != "time ran out"
    host_client.cookies["django_language"] = "zh-hans"
    shown = round_one(host_client, cup)
    assert f"{forfeit}" in shown and "by forfeit" not in shown
