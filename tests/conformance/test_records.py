"""Every game's records: a finished match downloads as a record that imports back as the very same
match (the same record, events, final state and result), and its history pages all answer."""
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from game import services
from game.models import Match, MatchEvent
from tests.accounts import client_for

from .table import new_match

pytestmark = pytest.mark.django_db


def finished(kit, host, guest, seed, forfeit=None):
    """A random match played through the services, to the end or (``forfeit``) to a resignation."""
    rng = random.Random(seed)
    match = new_match(kit, host, guest)
    users = (host, guest)
    while match.status == Match.Status.LIVE:
        state = kit.game.load(match.state)
        seat = kit.game.to_move(state)[0]
        if forfeit is not None and match.version >= forfeit:
            services.resign(match, users[seat], "resign-1")
        else:
            command = kit.adapter.random_command(state, seat, rng)
            services.apply_command(match.pk, users[seat], f"r{match.version}", match.version, command)
        match.refresh_from_db()
    return match


def events_of(match):
    return list(MatchEvent.objects.filter(match=match).order_by("version").values_list("seat", "command", "events"))


@pytest.mark.parametrize("forfeit", [None, 5], ids=["played out", "resigned"])
def test_a_record_imports_back_as_the_same_match(kit, host, guest, outsider, forfeit):
    match = finished(kit, host, guest, seed=21, forfeit=forfeit)
    client = client_for(outsider)
    exported = client.get(f"/match/{match.pk}/record.json")
    assert exported.status_code == 200
    assert exported["Content-Disposition"] == f'attachment; filename="{kit.game.name}-match-{match.pk}.json"'
    record = json.loads(exported.content)
    assert record["format"] == kit.game.record_format
    response = client.post("/records/import/", {"record": SimpleUploadedFile("m.json", exported.content)})
    assert response.status_code == 302, response.content.decode()[:2000]
    imported = Match.objects.exclude(pk=match.pk).get()
    assert imported.imported and imported.game == match.game == kit.game.name
    assert (imported.winner, imported.end_reason, imported.version) == (match.winner, match.end_reason, match.version)
    assert imported.state == match.state
    assert events_of(imported) == events_of(match)
    assert json.loads(client.get(f"/match/{imported.pk}/record.json").content) == record
    for page in ("summary/", "replay/", "replay/?as=0", "replay/?as=spectator"):
        assert client.get(f"/match/{imported.pk}/{page}").status_code == 200, page


def test_a_record_with_a_command_changed_is_refused_and_stores_nothing(kit, host, guest, outsider):
    match = finished(kit, host, guest, seed=22)
    record = json.loads(client_for(outsider).get(f"/match/{match.pk}/record.json").content)
    # The same command twice in a row: the second is played against a position it no longer fits.
    record["commands"].insert(1, record["commands"][1])
    upload = SimpleUploadedFile("m.json", json.dumps(record).encode())
    response = client_for(outsider).post("/records/import/", {"record": upload})
    assert response.status_code == 400
    assert Match.objects.count() == 1
