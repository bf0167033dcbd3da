"""/history/: every visible finished match, filtered by player and result, twenty to a page."""
import re

import pytest
from django.test import Client

from game.games.aquawar import engine
from game import services
from game.models import Match

from .helpers import clone_finished, live_in_round_one

pytestmark = pytest.mark.django_db


def listed(response):
    assert response.status_code == 200
    return [int(pk) for pk in re.findall(r'<tr data-match="(\d+)">', response.content.decode())]


def test_it_lists_a_finished_match_with_winner_score_and_turns(finished, outsider_client):
    html = outsider_client.get("/history/").content.decode()
    seen = engine.view(engine.MatchState.from_json(finished.state), "all")
    row = html[html.index(f'<tr data-match="{finished.pk}">'):]
    row = row[: row.index("</tr>")]
    assert f"<td data-score>{seen['score'][0]}–{seen['score'][1]}</td>" in row
    assert f"<td data-turns>{sum(r['turns'] for r in seen['rounds'])}</td>" in row
    assert ("host" if finished.winner == 0 else "guest") in row
    assert f'href="/match/{finished.pk}/replay/"' in row and f'href="/match/{finished.pk}/summary/"' in row


def test_it_counts_the_turns_of_a_round_cut_short_by_the_clock(host, guest, outsider_client):
    live = live_in_round_one(host, guest)
    played_turns = engine.MatchState.from_json(live.state).turn
    assert played_turns >= 3
    services.forfeit(live.pk, host, "timeout")
    ended = Match.objects.get(pk=live.pk)
    assert ended.status == Match.Status.FINISHED and ended.end_reason == "timeout"
    html = outsider_client.get("/history/?empty=on").content.decode()
    row = html[html.index(f'<tr data-match="{live.pk}">'):]
    assert f"<td data-turns>{played_turns}</td>" in row[: row.index("</tr>")]


def test_it_writes_the_score_from_the_chosen_players_side(finished, host, guest, outsider_client):
    score = engine.MatchState.from_json(finished.state).score
    assert score[0] != score[1]

    def shown(url):
        html = outsider_client.get(url).content.decode()
        return re.search(r"<td data-score>(\d)–(\d)</td>", html).groups()

    assert shown("/history/") == (str(score[0]), str(score[1]))
    assert shown("/history/?player=host") == (str(score[0]), str(score[1]))
    assert shown("/history/?player=guest") == (str(score[1]), str(score[0]))
    assert shown("/users/guest/history/") == (str(score[1]), str(score[0]))


def test_it_leaves_out_live_open_and_cancelled_matches(finished, live, host, outsider_client):
    services.create_match(host)
    cancelled = services.cancel_match(services.create_match(host), host)
    assert cancelled.status == "cancelled"
    assert listed(outsider_client.get("/history/")) == [finished.pk]


def test_it_shows_a_private_match_only_to_its_players(finished, host, guest, outsider, host_client, outsider_client):
    Match.objects.filter(pk=finished.pk).update(private=True)
    assert listed(host_client.get("/history/")) == [finished.pk]
    assert listed(outsider_client.get("/history/")) == []
    assert listed(Client().get("/history/")) == []


def test_it_pages_twenty_at_a_time_newest_first(finished, host, guest, outsider_client):
    clones = [clone_finished(finished, host, guest) for _ in range(24)]
    everything = sorted([finished.pk] + [c.pk for c in clones], reverse=True)  # same finish time: by id
    first = outsider_client.get("/history/")
    assert listed(first) == everything[:20]
    assert 'href="?page=2"' in first.content.decode()
    assert listed(outsider_client.get("/history/?page=2")) == everything[20:]
    # Out-of-range and non-numeric pages fall back to the last and the first page, never a 500.
    assert listed(outsider_client.get("/history/?page=99")) == everything[20:]
    assert listed(outsider_client.get("/history/?page=abc")) == everything[:20]


def test_it_filters_by_player_and_result(finished, host, guest, outsider, outsider_client):
    swapped = clone_finished(finished, guest, host)  # same winning seat, the accounts the other way round
    third = clone_finished(finished, outsider, guest)
    matches = [finished, swapped, third]

    def expected(user, result):
        mine = [m for m in matches if m.seat_of(user) is not None]
        if result == "won":
            mine = [m for m in mine if m.seat_of(user) == m.winner]
        elif result == "lost":
            mine = [m for m in mine if m.seat_of(user) != m.winner]
        return sorted(m.pk for m in mine)

    for user in (host, guest, outsider):
        for result in ("any", "won", "lost"):
            got = listed(outsider_client.get(f"/history/?player={user.username}&result={result}"))
            assert sorted(got) == expected(user, result), (user, result)
    # The guest won one of these matches and lost another, so both filters are really exercised.
    assert expected(guest, "won") and expected(guest, "lost")
    assert sorted(listed(outsider_client.get("/history/?player=host"))) == sorted([finished.pk, swapped.pk])
    # "won" without a player means nothing: the whole list.
    assert sorted(listed(outsider_client.get("/history/?result=won"))) == sorted(m.pk for m in matches)


def test_it_keeps_the_filter_in_the_page_links(finished, host, guest, outsider_client):
    for _ in range(21):
        clone_finished(finished, host, guest)
    html = outsider_client.get("/history/?player=host&result=any").content.decode()
    assert 'href="?player=host&amp;result=any&amp;page=2"' in html


def test_it_shows_nothing_for_an_unknown_player_or_a_bad_filter(finished, outsider_client):
    assert listed(outsider_client.get("/history/?player=nobody")) == []
    assert listed(outsider_client.get("/history/?player=" + "x" * 500)) == [finished.pk]
    assert listed(outsider_client.get("/history/?result=drawn")) == [finished.pk]
    assert listed(outsider_client.get("/history/?player=%00host")) == [finished.pk]


def test_it_marks_an_imported_match(finished, host, outsider_client):
    Match.objects.filter(pk=finished.pk).update(imported=True, host=None, guest=None, player_names=["Ann", "Bo"])
    html = outsider_client.get("/history/").content.decode()
    assert "imported" in html and "Ann" in html and "Bo" in html


def test_it_never_names_a_fish_of_a_live_match(host, guest, outsider_client):
    live_in_round_one(host, guest)
    html = outsider_client.get("/history/").content.decode().lower()
    assert not [s for s in engine.SPECIES if s in html or s.replace("_", " ") in html]


def test_it_keeps_the_chosen_player_editable(finished, outsider_client):
    html = outsider_client.get("/history/?player=host").content.decode()
    assert 'name="player" value="host"' in html and "<h1>Match history</h1>" in html
