"""Official replay files on the import page: converted, replayed by the rules, shown like any match."""
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from game.games.aquawar.source import OFFICIAL_REPLAY
from game.models import Match, MatchEvent
from tests.history.helpers import embedded

from .official_files import LATEST, SUPERSEDED, official_file

pytestmark = pytest.mark.django_db

A1_MATCH = "2021-01-23_replay_d1b9b498.json"


def upload(client, content):
    return client.post("/records/import/", {"record": SimpleUploadedFile("replay.json", content, "application/json")})


def file_hp(frame):
    """Each side's four HP in an official frame (dead fish keep negative HP there, 0 here)."""
    return [[max(f["hp"], 0) for f in sorted(p["fight_fish"], key=lambda f: f["pos"])] for p in frame["players"]]


def replay_hp(frames):
    """Each side's four HP after every step of the replay page's data, as its viewer draws them:
    from the view, or from the events when a round just ended (the view has moved on to the next)."""
    hp, shown = None, []
    for frame in frames[1:]:
        for event in frame["events"]:
            if event["type"] == "round_start":
                hp = [[400] * 4, [400] * 4]
            elif event["type"] in ("hp_loss", "damage", "heal"):
                hp[event["side"]][event["pos"]] = event["hp"]
        teams = frame["view"]["teams"]
        if teams[0]:
            assert [[f["hp"] for f in team] for team in teams] == hp
        shown.append(None if hp is None else [list(side) for side in hp])
    return shown


def test_the_latest_official_file_imports_and_its_replay_shows_the_files_hp_after_every_step(outsider_client):
    data = official_file(LATEST)
    response = upload(outsider_client, data)
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/summary/"
    assert (match.imported, match.status, match.winner, match.end_reason) == (True, "finished", 0, "rounds")
    assert match.player_names == ["Saiblo AI 0", "Saiblo AI 1"] and match.setup["turn_limit"] == 63
    assert match.source["kind"] == OFFICIAL_REPLAY
    assert [note["code"] for note in match.source["notes"]] == ["turn_limit", "third_round"]

    file_frames = [frame for frame in json.loads(data) if frame]
    operations = [i for i, frame in enumerate(file_frames) if frame.get("operation")]
    page = outsider_client.get(f"/match/{match.pk}/replay/?as=all")
    # The first page after the import says what was imported.
    assert "Imported as an unranked match: official replay." in page.content.decode()
    steps = embedded(page, "replay-data")["frames"]
    shown = replay_hp(steps)
    # One replay step per operation of rounds 1 and 2; round 3 (played at 2-0) is not in the match.
    assert len(shown) == match.version == 244
    compared = 0
    for step, index in zip(shown, operations):
        after = file_frames[index + 1]
        if step is not None and after["players"][0]["fight_fish"] and after["players"][1]["fight_fish"]:
            assert step == file_hp(after), after["state"]
            compared += 1
    assert compared == 242  # every step but the first pick of each round (one team is not on the board)

    summary = outsider_client.get(f"/match/{match.pk}/summary/").content.decode()
    assert "official replay, unranked" in summary and "Saiblo AI 0" in summary
    assert "Step 245, round 2: the official program ended the round after 63 turns" in summary
    assert "Step 247: the official program went on to play round 3" in summary
    assert "official replay" in page.content.decode()
    assert "Step 245, round 2: the official program ended the round after 63 turns" in page.content.decode()
    assert "official replay" in outsider_client.get("/history/").content.decode()


def test_the_import_page_says_it_reads_official_replays(outsider_client):
    page = outsider_client.get("/records/import/").content.decode()
    assert "An official replay file of the 2021 Saiblo contest" in page and "at most 2 MB" in page


def test_an_imported_official_replay_exports_and_imports_back_identically(outsider_client):
    upload(outsider_client, official_file(LATEST))
    first = Match.objects.get()
    record = json.loads(outsider_client.get(f"/match/{first.pk}/record.json").content)
    assert record["turn_limit"] == 63 and len(record["dodges"]) == 56
    response = upload(outsider_client, json.dumps(record).encode())
    second = Match.objects.exclude(pk=first.pk).get()
    assert response.status_code == 302
    assert (second.setup, second.state) == (first.setup, first.state)

    def events(match):
        return list(MatchEvent.objects.filter(match=match).order_by("version").values_list("events", flat=True))

    assert events(second) == events(first)
    # The export is an ordinary record: the official program's departures belong to the file it came from.
    assert second.source is None


def test_a_record_with_a_dodge_no_roll_uses_is_refused(outsider_client):
    upload(outsider_client, official_file(LATEST))
    first = Match.objects.get()
    record = json.loads(outsider_client.get(f"/match/{first.pk}/record.json").content)
    record["dodges"].append(False)
    response = upload(outsider_client, json.dumps(record).encode())
    assert response.status_code == 400
    assert "1 recorded dodge outcome(s) left over after the last command" in response.content.decode()
    assert Match.objects.count() == 1


def test_a_superseded_rules_file_is_refused_with_the_reason(outsider_client):
    response = upload(outsider_client, official_file(SUPERSEDED))
    text = response.content.decode()
    assert response.status_code == 400
    assert "written by a build of the official program from before 2021-01-23" in text
    assert "superseded rules" in text and "cannot be replayed under the rules" in text
    assert not Match.objects.exists()


def test_a_file_whose_build_broke_a_ruling_is_refused_at_that_step(outsider_client):
    response = upload(outsider_client, official_file(A1_MATCH))
    text = response.content.decode()
    assert response.status_code == 400 and "step 98: a Clownfish killed by a direct attack counters" in text
    assert not Match.objects.exists()
