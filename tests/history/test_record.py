"""/match/<id>/record.json: a finished match as an aquawar-record/1 file; nothing for a live one."""
import json

import pytest
from django.test import Client

from game.games.aquawar import engine
from game import services
from game.games.aquawar.engine.record import parse_record, replay
from game.models import Match, MatchEvent

from .helpers import live_in_round_one, stored_commands

pytestmark = pytest.mark.django_db


def test_it_downloads_a_record_that_replays_the_match_event_for_event(finished, outsider_client):
    response = outsider_client.get(f"/match/{finished.pk}/record.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="aquawar-match-{finished.pk}.json"'
    record = json.loads(response.content)
    seen = engine.view(engine.MatchState.from_json(finished.state), "all")
    assert record["format"] == "aquawar-record/1" and record["seed"] == finished.seed
    assert record["players"] == ["host", "guest"]
    assert record["first_mover"] == seen["rounds"][0]["first_mover"]
    assert [(c.pop("player"), c) for c in record["commands"]] == stored_commands(finished)
    state, events = replay(response.content)
    stored = [e for row in MatchEvent.objects.filter(match=finished).order_by("version") for e in row.events]
    assert events == stored and state.to_json() == finished.state


def test_it_ends_a_resigned_match_with_its_forfeit(host, guest, outsider_client):
    match = live_in_round_one(host, guest)
    services.resign(match, host)
    content = outsider_client.get(f"/match/{match.pk}/record.json").content
    record = parse_record(content)
    assert len(record.commands) == Match.objects.get(pk=match.pk).version - 1
    assert record.forfeit == (0, "resign")
    state, events = replay(content)
    stored = [e for row in MatchEvent.objects.filter(match=match).order_by("version") for e in row.events]
    assert events == stored and state.to_json() == Match.objects.get(pk=match.pk).state


@pytest.mark.parametrize("who", ["host", "guest", "outsider", "anonymous"])
def test_it_refuses_the_record_of_a_live_match_to_everyone(host, guest, outsider, who):
    match = live_in_round_one(host, guest)
    client = Client()
    if who != "anonymous":
        client.force_login({"host": host, "guest": guest, "outsider": outsider}[who])
    assert client.get(f"/match/{match.pk}/record.json").status_code == 404
    assert client.get(f"/match/{match.pk}/record.json?as=all&invite={match.invite_token}").status_code == 404


def test_it_404s_for_unknown_and_private_matches(finished, outsider_client):
    assert outsider_client.get("/match/9999/record.json").status_code == 404
    Match.objects.filter(pk=finished.pk).update(private=True)
    assert outsider_client.get(f"/match/{finished.pk}/record.json").status_code == 404
    token = Match.objects.get(pk=finished.pk).invite_token
    assert outsider_client.get(f"/match/{finished.pk}/record.json?invite={token}").status_code == 200
