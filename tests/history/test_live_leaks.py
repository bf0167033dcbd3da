"""A live match's hidden fish stay hidden on every page of this feature, whoever asks and however."""
import pytest
from django.test import Client

from game.models import MatchEvent
from tests.game.leaks import hidden_from, leaked, named_by, view_all

from .helpers import PERSPECTIVES, embedded, live_in_round_one

pytestmark = pytest.mark.django_db


def secrets_of(match):
    """Every species (and Mimic copy target) a spectator does not know yet, both sides together:
    during a live match even a player's replay is the spectator's, so it names neither team."""
    events = [e for row in MatchEvent.objects.filter(match=match) for e in row.events]
    return hidden_from(view_all(match), None) - named_by(events)


def urls(match):
    yield "/history/"
    yield "/history/?player=host&result=won"
    yield "/users/host/history/"
    yield "/users/guest/"
    for perspective in PERSPECTIVES:
        for page in ("summary/", "replay/", "record.json"):
            yield f"/match/{match.pk}/{page}?as={perspective}"
    yield f"/match/{match.pk}/replay/?as=all&invite={match.invite_token}"


def check_frames(data):
    for frame in data["frames"]:
        for team in frame["view"]["teams"]:
            for fish in team:
                assert fish["atk"] is None and fish["mimic_of"] is None and fish["shields"] is None
                assert fish["revealed"] or fish["fish"] is None
        assert frame["view"]["picks"] == [None, None]
        for event in frame["events"]:
            assert event["type"] not in ("atk", "avoid") and "skill" not in event, event
            if event["type"] == "pick":
                assert set(event) == {"type", "player"}


@pytest.mark.parametrize("who", ["host", "guest", "outsider", "anonymous"])
def test_it_never_shows_a_hidden_fish_of_a_live_match(host, guest, outsider, who):
    match = live_in_round_one(host, guest)
    secret = secrets_of(match)
    # The test means something only if there is something to hide, the Mimic Fish's target included.
    assert len(secret) >= 6 and "octopus" in secret
    client = Client()
    if who != "anonymous":
        client.force_login({"host": host, "guest": guest, "outsider": outsider}[who])
    for url in urls(match):
        response = client.get(url)
        assert response.status_code in (200, 404), url
        if "summary" in url or "record.json" in url:
            assert response.status_code == 404, url
        text = response.content.decode()
        assert not leaked(text, secret), (url, leaked(text, secret))
        if "/replay/" in url:
            check_frames(embedded(response, "replay-data"))

