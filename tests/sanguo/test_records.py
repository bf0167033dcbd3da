"""Records, imports and replays of 三国 games, and whole games played through the services to
their end: the standard game and a 27-seat 群英荟萃局 (random legal submissions from every seat,
the game master answering every decision with the engine's default, the server closing phases)."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from game.errors import ServiceError
from game.games.three_kingdoms import engine
from sanguo import records
from sanguo.models import Event, Game
from tests.accounts import client_for

from .helpers import clock, deal_from, people, started_game  # noqa: F401
from .play import play_phases
from .test_pages import shown_ids

pytestmark = pytest.mark.django_db

# A 27-seat game that runs into night 3, 24 of its seats acting (with seed 7 it ends on night 1, 15
# seats having acted; with seed 8, 14: the assertion below failed now and then on random seeds).
SEED = 2


def played_to_the_end(mode, clock):
    row, gm, players = started_game(mode)
    play_phases(row, gm, players, clock, phases=400)
    row.refresh_from_db()
    return row, gm, players


def test_a_standard_game_runs_to_its_end_and_its_record_imports_as_the_same_game(clock):
    row, gm, players = played_to_the_end("standard", clock)
    assert row.status == Game.Status.FINISHED and row.state["phase"] == "over" and row.finished
    assert row.deadline is None
    response = Client().get(reverse("sanguo:record", args=[row.pk]))
    assert response.status_code == 200
    record = json.loads(response.content)
    assert record["format"] == "three-kingdoms-record/1" and len(record["commands"]) == row.version
    uploader, = people(1, "uploader")
    copy = records.import_record(uploader, response.content)
    assert copy.imported and copy.status == Game.Status.FINISHED and copy.state == row.state
    assert list(Event.objects.filter(game=copy).values_list("events", flat=True)) == \
        list(Event.objects.filter(game=row).values_list("events", flat=True))
    changed = dict(record, commands=record["commands"][:-1] + [{"seat": 0, "peace": {}}])
    with pytest.raises(ServiceError):
        records.import_record(uploader, json.dumps(changed).encode())
    cut = dict(record, commands=record["commands"][:5])
    with pytest.raises(ServiceError) as refused:
        records.import_record(uploader, json.dumps(cut).encode())
    assert refused.value.code == "not_over"
    with pytest.raises(ServiceError) as refused:
        records.import_record(uploader, b"{nope")
    assert refused.value.code == "invalid_json"


@pytest.fixture
def seeded(monkeypatch):
    """Games made with a known seed: the seats' random submissions (and so how many seats ever act
    before the game ends) follow the game's seed, a new random one by default."""
    deal_from(monkeypatch, SEED)


def test_a_27_seat_game_runs_to_its_end(clock, seeded):
    row, gm, players = played_to_the_end("crowd", clock)
    assert row.seed == SEED
    assert len(players) == 27
    assert row.status == Game.Status.FINISHED
    assert Event.objects.filter(game=row, actor="server").exists()
    assert Event.objects.exclude(actor__in=("gm", "server")).filter(game=row).values("actor").distinct().count() > 10


def test_the_record_is_the_gms_while_it_runs_and_a_seat_replays_only_its_own_view(clock):
    row, gm, players = started_game()
    play_phases(row, gm, players, clock, phases=1)
    row.refresh_from_db()
    assert row.status == Game.Status.LIVE and row.state["night"] == 1
    assert client_for(players[0]).get(reverse("sanguo:record", args=[row.pk])).status_code == 404
    assert client_for(gm).get(reverse("sanguo:record", args=[row.pk])).status_code == 200
    seat = client_for(players[0])
    url = reverse("sanguo:replay", args=[row.pk])
    assert seat.get(url + "?as=1").status_code == 404
    assert seat.get(url + "?as=gm").status_code == 404
    assert Client().get(url + "?as=0").status_code == 404
    steps = records.replay_steps(row, 0)
    for number, (state, _seen) in enumerate(steps, start=1):
        html = seat.get(url + f"?as=0&step={number}").content.decode()
        known = {(name, int(i)) for i, names in state["known"]["0"].items() for name in names}
        assert shown_ids(html) <= known
    assert client_for(gm).get(url + "?as=2").status_code == 200


def test_after_the_end_everyone_replays_every_audience(clock):
    row, gm, players = played_to_the_end("standard", clock)
    url = reverse("sanguo:replay", args=[row.pk])
    for audience in ("all", "gm", "spectator", "0", "1", "2"):
        response = Client().get(url + f"?as={audience}&step=1")
        assert response.status_code == 200, audience
    last = Client().get(url + "?as=all").content.decode()
    assert {i for _n, i in shown_ids(last)} == {s["id"] for s in row.state["slots"]}


def test_importing_through_the_page(clock):
    row, gm, players = played_to_the_end("standard", clock)
    body = json.dumps(records.make_record(row)).encode()
    client = client_for(people(1, "uploader")[0])
    response = client.post(reverse("sanguo:import"), {"record": SimpleUploadedFile("r.json", body)})
    copy = Game.objects.filter(imported=True).get()
    assert response["Location"] == reverse("sanguo:game", args=[copy.pk])
    assert engine.view(copy.state, "all")["winner"] == row.state["winner"]
