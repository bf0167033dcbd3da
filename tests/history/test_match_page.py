"""The match page links to the summary, replay and record once finished; to the spectator replay while live."""
import pytest

from game.models import Match

from .helpers import live_in_round_one

pytestmark = pytest.mark.django_db


def test_it_links_a_finished_match_to_its_summary_replay_and_record(finished, outsider_client):
    html = outsider_client.get(f"/match/{finished.pk}/").content.decode()
    for page in ("summary/", "replay/", "record.json"):
        assert f'href="/match/{finished.pk}/{page}"' in html


def test_it_links_a_live_match_only_to_its_spectator_replay(host, guest, guest_client):
    match = live_in_round_one(host, guest)
    html = guest_client.get(f"/match/{match.pk}/").content.decode()
    assert f'href="/match/{match.pk}/replay/"' in html
    assert "/summary/" not in html and "record.json" not in html


def test_it_passes_the_invite_on_for_a_private_match(finished, outsider_client):
    Match.objects.filter(pk=finished.pk).update(private=True)
    token = Match.objects.get(pk=finished.pk).invite_token
    html = outsider_client.get(f"/match/{finished.pk}/?invite={token}").content.decode()
    assert f'href="/match/{finished.pk}/replay/?invite={token}"' in html
    assert outsider_client.get(f"/match/{finished.pk}/replay/?invite={token}").status_code == 200
