"""/match/<id>/replay/: per-step frames for one audience, equal to the engine's own views."""
import json
import re

import pytest
from django.test import Client

from game.games.aquawar import engine
from game.games.aquawar.log import marks
from game import services
from game.models import Match

from .helpers import PERSPECTIVES, embedded, engine_replay, live_in_round_one

pytestmark = pytest.mark.django_db
AUDIENCES = {"0": 0, "1": 1, "spectator": "spectator", "all": "all"}


def plain(value):
    return json.loads(json.dumps(value))


def frames_of(client, match, perspective):
    response = client.get(f"/match/{match.pk}/replay/?as={perspective}")
    assert response.status_code == 200
    return embedded(response, "replay-data")


@pytest.mark.parametrize("perspective", list(AUDIENCES))
def test_it_embeds_the_engines_view_after_every_command(finished, outsider_client, perspective):
    audience = AUDIENCES[perspective]
    states, events = engine_replay(finished)
    data = frames_of(outsider_client, finished, perspective)
    assert data["audience"] == audience
    assert [f["version"] for f in data["frames"]] == list(range(len(states)))
    for index, frame in enumerate(data["frames"]):
        assert frame["view"] == plain(engine.view(states[index], audience)), index
        expected = engine.project(events[index - 1], audience) if index else []
        assert frame["events"] == plain(expected), index
        assert len(frame["lines"]) == len(frame["events"])


def test_it_names_only_the_species_its_frames_name(finished, outsider_client):
    data = frames_of(outsider_client, finished, "0")
    named = set()
    for frame in data["frames"]:
        for team in frame["view"]["teams"]:
            named.update(s for fish in team for s in (fish["fish"], fish["mimic_of"]) if s)
    named.update(s for f in data["frames"] for pair in f["view"]["past_picks"] for p in pair if p for s in p["fish"])
    assert set(data["species"]) == named
    # At least player A's own round-1 team, its Mimic Fish's copy target included.
    assert {"mimic_fish", "octopus", "archerfish", "sea_wolf", "sunfish"} <= named


def test_it_defaults_to_everything_once_finished(finished, outsider_client):
    for perspective in ("", "nonsense", "2"):
        assert frames_of(outsider_client, finished, perspective)["audience"] == "all"


@pytest.mark.parametrize("perspective", PERSPECTIVES)
@pytest.mark.parametrize("who", ["host", "guest", "outsider", "anonymous"])
def test_it_shows_only_the_spectator_view_during_a_live_match(host, guest, outsider, who, perspective):
    match = live_in_round_one(host, guest)
    client = Client()
    if who != "anonymous":
        client.force_login({"host": host, "guest": guest, "outsider": outsider}[who])
    states, _events = engine_replay(match)
    data = frames_of(client, match, perspective)
    assert data["audience"] == "spectator"
    assert [f["view"] for f in data["frames"]] == [plain(engine.view(s, "spectator")) for s in states]


def test_it_offers_the_player_perspectives_only_once_finished(finished, host, guest, outsider_client):
    finished_html = outsider_client.get(f"/match/{finished.pk}/replay/").content.decode()
    assert re.findall(r'<option value="(\w+)"', finished_html)[:4] == ["0", "1", "spectator", "all"]
    live = live_in_round_one(host, guest)
    live_html = outsider_client.get(f"/match/{live.pk}/replay/?as=all").content.decode()
    options = re.findall(r'<select name="as" id="replay-as">(.*?)</select>', live_html, re.S)[0]
    assert re.findall(r'<option value="(\w+)"', options) == ["spectator"]
    assert "only what spectators see" in live_html


def test_it_replays_a_resignation(host, guest, outsider_client):
    match = live_in_round_one(host, guest)
    services.resign(match, guest)
    last = frames_of(outsider_client, match, "all")["frames"][-1]
    assert last["view"]["phase"] == "over" and last["view"]["winner"] == 0
    assert last["events"] == [{"type": "match_end", "winner": 0, "reason": "resign", "score": [0, 0]}]


def test_it_404s_for_unknown_unstarted_and_private_matches(finished, host, guest, outsider_client):
    opened = services.create_match(host)
    cancelled = services.cancel_match(services.create_match(host), host)
    for match_id in (9999, opened.pk, cancelled.pk):
        assert outsider_client.get(f"/match/{match_id}/replay/").status_code == 404
    Match.objects.filter(pk=finished.pk).update(private=True)
    assert outsider_client.get(f"/match/{finished.pk}/replay/").status_code == 404
    token = Match.objects.get(pk=finished.pk).invite_token
    assert outsider_client.get(f"/match/{finished.pk}/replay/?invite={token}").status_code == 200


def test_its_play_button_says_play_in_chinese_not_the_lobbys_enter_the_match(finished, outsider_client):
    page = outsider_client.get(f"/match/{finished.pk}/replay/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    button = re.search(r'<button[^>]*data-go="play"[^>]*>([^<]*)</button>', page)
    assert button and button.group(1) == "播放" and 'data-pause="暂停"' in button.group(0)


@pytest.mark.parametrize("perspective", list(AUDIENCES))
def test_its_marks_are_the_live_boards_for_each_event(finished, outsider_client, perspective):
    """Issue #29: the replay's board marks what each move did as the live board does (the same
    marks, in the same words, from the same projected events: nothing a viewer was not shown)."""
    data = frames_of(outsider_client, finished, perspective)
    assert len(data["marks"]) == len(data["frames"])
    kinds = set()
    for frame, frame_marks in zip(data["frames"], data["marks"]):
        assert len(frame_marks) == len(frame["events"])
        for event, rows in zip(frame["events"], frame_marks):
            expected = [[side, pos, m["kind"], m["text"]] for (side, pos), found in marks([event]).items() for m in found]
            assert rows == expected
            kinds.update(row[2] for row in rows)
    assert {"act", "damage", "death"} <= kinds
    # The words are the page's language's.
    chinese = Client(headers={"accept-language": "zh-hans"}).get(f"/match/{finished.pk}/replay/?as={perspective}")
    texts = {row[3] for frame in embedded(chinese, "replay-data")["marks"] for rows in frame for row in rows}
    assert "攻击" in texts or "技能" in texts
