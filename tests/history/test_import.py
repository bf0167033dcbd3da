"""/records/import/: an uploaded record is replayed by the engine, then stored as an unranked match."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from game import services
from game.models import Match, MatchEvent

from .helpers import live_in_round_one

pytestmark = pytest.mark.django_db


def upload(client, content, name="match.json"):
    if isinstance(content, dict):
        content = json.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    return client.post("/records/import/", {"record": SimpleUploadedFile(name, content, "application/json")})


def exported(client, match):
    return json.loads(client.get(f"/match/{match.pk}/record.json").content)


def events_of(match):
    return list(MatchEvent.objects.filter(match=match).order_by("version").values_list("events", flat=True))


def test_it_imports_an_exported_match_with_identical_events(finished, outsider, outsider_client):
    response = upload(outsider_client, exported(outsider_client, finished))
    imported = Match.objects.get(imported=True)
    assert response.status_code == 302 and response["Location"] == f"/match/{imported.pk}/summary/"
    assert events_of(imported) == events_of(finished)
    assert imported.status == "finished" and imported.winner == finished.winner
    assert imported.state == finished.state and imported.version == finished.version
    assert imported.player_names == ["host", "guest"] and imported.uploaded_by == outsider
    assert imported.host is None and imported.guest is None
    # The pages of a played match work on it, and its own record is the one uploaded.
    for page in ("", "summary/", "replay/?as=0", "replay/?as=all"):
        assert outsider_client.get(f"/match/{imported.pk}/{page}").status_code == 200
    assert exported(outsider_client, imported) == exported(outsider_client, finished)


def test_it_imports_a_match_lost_on_time_with_identical_events(host, guest, outsider_client):
    match = live_in_round_one(host, guest)
    services.forfeit(match.pk, guest, "timeout")
    response = upload(outsider_client, exported(outsider_client, match))
    imported = Match.objects.get(imported=True)
    assert response.status_code == 302
    assert events_of(imported) == events_of(match)
    assert (imported.winner, imported.end_reason) == (0, "timeout")


def test_it_names_default_players_when_the_record_has_none(finished, outsider_client):
    record = exported(outsider_client, finished)
    del record["players"], record["first_mover"]
    upload(outsider_client, record)
    assert Match.objects.get(imported=True).player_names == ["Player A", "Player B"]


def test_it_names_the_illegal_command_and_stores_nothing(finished, outsider_client):
    record = exported(outsider_client, finished)
    record["commands"][3]["player"] = 1 - record["commands"][3]["player"]
    response = upload(outsider_client, record)
    assert response.status_code == 400
    text = response.content.decode()
    assert "refused at command 3 (counting from 0)" in text and "turn" in text
    assert not Match.objects.filter(imported=True).exists()


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ("[" * 100_000, "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        ({"format": "aquawar-record/2", "seed": 1, "commands": []}, "format"),
        ({"format": "aquawar-record/1", "seed": "7", "commands": []}, "seed"),
        # The outside review: seeds beyond a signed 64-bit number were a 500 (OverflowError, DataError).
        ({"format": "aquawar-record/1", "seed": 2**64, "commands": []}, "from -2**63 to 2**63-1"),
        ({"format": "aquawar-record/1", "seed": -(2**70), "commands": []}, "from -2**63 to 2**63-1"),
        ({"format": "aquawar-record/1", "seed": 2**63, "commands": []}, "from -2**63 to 2**63-1"),
        ({"format": "aquawar-record/1", "seed": 1, "commands": [{"player": 0, "pick": ["x"], "note": 1}]}, "command 0"),
        ({"format": "aquawar-record/1", "seed": 1, "commands": []}, "stops before the match ends"),
    ],
)
def test_it_refuses_a_bad_file_with_a_clear_message(outsider_client, content, message):
    response = upload(outsider_client, content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_it_refuses_a_file_over_two_megabytes(outsider_client):
    response = upload(outsider_client, b" " * (2 * 1024 * 1024 + 1))
    assert response.status_code == 400 and "at most 2 MB" in response.content.decode()


def test_it_asks_for_a_file(outsider_client):
    response = outsider_client.post("/records/import/", {})
    assert response.status_code == 200 and "This field is required" in response.content.decode()
    assert not Match.objects.exists()


def test_it_requires_a_login(finished, outsider_client):
    record = exported(outsider_client, finished)
    response = upload(Client(), record)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert Client().get("/records/import/").status_code == 302
    assert not Match.objects.filter(imported=True).exists()


def test_it_checks_the_csrf_token(finished, outsider, outsider_client):
    record = exported(outsider_client, finished)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(outsider)
    assert upload(browser, record).status_code == 403
    form = browser.get("/records/import/")
    assert 'enctype="multipart/form-data"' in form.content.decode()
    token = browser.cookies["csrftoken"].value
    response = browser.post(
        "/records/import/",
        {"csrfmiddlewaretoken": token, "record": SimpleUploadedFile("m.json", json.dumps(record).encode())},
    )
    assert response.status_code == 302 and Match.objects.filter(imported=True).count() == 1


def test_it_limits_the_imports_of_one_account_per_day(finished, outsider_client, host_client, monkeypatch):
    monkeypatch.setattr("game.history.imports.MAX_IMPORTS_PER_DAY", 2)
    record = exported(outsider_client, finished)
    # Distinct records (the same one twice is not imported again, whatever the limit).
    records = ({**record, "players": ["host", f"guest {n}"]} for n in range(10))
    assert [upload(outsider_client, next(records)).status_code for _ in range(2)] == [302, 302]
    refused = upload(outsider_client, next(records))
    assert refused.status_code == 400
    assert "your account imported 2 records in the last 24 hours" in refused.content.decode()
    assert Match.objects.filter(imported=True).count() == 2
    # Other accounts are not affected, and the day is counted from each import.
    assert upload(host_client, next(records)).status_code == 302
    Match.objects.filter(imported=True).update(created=finished.created.replace(year=2000))
    assert upload(outsider_client, next(records)).status_code == 302


def test_the_same_record_twice_says_it_is_already_here_and_links_to_it(finished, outsider_client, host_client):
    record = exported(outsider_client, finished)
    upload(outsider_client, record)
    first = Match.objects.get(imported=True)
    # Again, by anyone: nothing new is stored, and they are taken to the match that holds it, told so.
    for client in (outsider_client, host_client):
        response = upload(client, record)
        assert response.status_code == 302 and response["Location"] == f"/match/{first.pk}/summary/"
        page = client.get(response["Location"]).content.decode()
        assert f"This record is already here, as match {first.pk}: nothing was imported again." in page
    assert Match.objects.filter(imported=True).count() == 1
    # Another record (other names) is another match.
    upload(outsider_client, {**record, "players": ["someone", "else"]})
    assert Match.objects.filter(imported=True).count() == 2
