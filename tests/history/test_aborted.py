"""An aborted match (a clock ran out before its player's first pick, docs/fairness.md) in the
history lists (asked for: ``?empty=on`` or ``?result=aborted``): marked "Aborted", in no won/lost filter, and showing nothing of its game — the other
side's locked-in team was never revealed."""
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from game import services
from game.models import Match
from tests.game.leaks import leaked
from tests.game.test_clocks import wakes  # noqa: F401 (a fixture)

from .helpers import GUEST_PICK

pytestmark = pytest.mark.django_db


@pytest.fixture
def aborted(host, guest, wakes):
    """The guest locked in a team; the host's clock ran out before the host's first pick."""
    match = services.join_match(services.create_match(host, move_seconds=30), guest)
    services.apply_command(match.pk, guest, "g", 0, GUEST_PICK)
    Match.objects.filter(pk=match.pk).update(deadline_0=timezone.now() - timedelta(seconds=1))
    services.forfeit_overdue(match.pk)
    match = Match.objects.get(pk=match.pk)
    assert (match.status, match.winner, match.end_reason) == ("aborted", None, "no_first_move")
    return match


def listed(response):
    assert response.status_code == 200
    return sorted(int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', response.content.decode()))


def row_of(response, match):
    html = response.content.decode()
    row = html[html.index(f'<tr data-match="{match.pk}">'):]
    return row[: row.index("</tr>")]


def test_it_lists_an_aborted_match_as_aborted_without_a_result_or_links(aborted, outsider_client):
    row = row_of(outsider_client.get("/history/?empty=on"), aborted)
    assert "data-aborted" in row and "Aborted" in row and "no first move in time" in row
    assert "<td data-score>—</td>" in row and "<td data-turns>—</td>" in row
    assert f"/match/{aborted.pk}/summary/" not in row and f"/match/{aborted.pk}/replay/" not in row
    assert "data-result" not in row  # no player chosen: nobody's result to show


def test_a_players_history_marks_it_aborted_never_won_or_lost(aborted, finished, outsider_client):
    for name in ("host", "guest"):
        page = outsider_client.get(f"/users/{name}/history/?empty=on")
        assert listed(page) == sorted([aborted.pk, finished.pk])
        assert 'data-result="aborted"' in row_of(page, aborted)
        for result in ("won", "lost"):
            assert aborted.pk not in listed(outsider_client.get(f"/users/{name}/history/?result={result}"))
        assert listed(outsider_client.get(f"/users/{name}/history/?result=aborted")) == [aborted.pk]
        assert listed(outsider_client.get(f"/history/?player={name}&result=any&empty=on")) == sorted([aborted.pk, finished.pk])
    assert listed(outsider_client.get("/history/?result=aborted")) == [aborted.pk]


def test_it_is_listed_in_chinese_too(aborted, outsider_client):
    row = row_of(outsider_client.get("/history/?empty=on", HTTP_ACCEPT_LANGUAGE="zh-hans"), aborted)
    assert "已中止" in row and "no first move in time" not in row


def test_no_page_gives_away_the_pick_the_host_never_saw(aborted, host, guest, host_client, outsider_client):
    secret = set(GUEST_PICK["pick"])
    assert aborted.state["picks"][1]["fish"] == GUEST_PICK["pick"]  # the secret is really stored
    for client in (host_client, outsider_client, Client()):
        for language in ("en", "zh-hans"):
            for url in ("/history/?empty=on", "/users/host/history/?empty=on", "/history/?result=aborted&player=host"):
                response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
                assert aborted.pk in listed(response)
                assert not leaked(response.content.decode(), secret), (url, language)
        # The pages that would show the match's game refuse it altogether.
        for page in ("summary/", "replay/", "replay/?as=all", "record.json"):
            assert client.get(f"/match/{aborted.pk}/{page}").status_code == 404, page
