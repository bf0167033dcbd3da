"""A replay page's size is bounded by its record's, not by its states (issue #30 item 4): a 75 KB
imported 神迹之战 record (1,388 commands) gave a 13.4 MB page, built afresh for every visitor,
anonymous ones included. The page now sends each frame's view as the change from the one before
(static/game/replay.js rebuilds them), and the built data is cached per audience and language."""
import json

import pytest
from django.test import Client

from game.history import imports, replays
from game.models import Match

from tests.replay_data import long_miracle_record, replay_data

from .helpers import embedded

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_match(host):
    data = long_miracle_record()
    assert len(data) > 60_000
    return imports.import_record(data, host)


def test_a_long_records_replay_page_is_a_small_multiple_of_the_record(long_match):
    record_size = len(json.dumps(replays.record(long_match)))
    commands = Match.objects.get(pk=long_match.pk).version
    assert commands > 1_000
    for audience in ("all", "0", "spectator"):
        page = Client().get(f"/match/{long_match.pk}/replay/?as={audience}")
        assert page.status_code == 200
        size = len(page.content)
        # Each frame's events and log line are sent once (and the log again for pages without
        # JavaScript), its view only as what changed: about 11 times the record (10 MB before).
        assert size < 15 * record_size, (audience, size, record_size)


def test_the_pages_views_are_the_engines_after_every_command(long_match):
    """What the page's script rebuilds (tests/replay_data.py does it independently) is every view."""
    for audience in ("all", 1, "spectator"):
        truth = replays.replay_frames(long_match, audience)
        page = Client().get(f"/match/{long_match.pk}/replay/?as={audience}")
        shown = embedded(page, "replay-data")["frames"]
        assert [frame["view"] for frame in shown] == [frame["view"] for frame in truth]
        assert [frame["events"] for frame in shown] == [frame["events"] for frame in truth]


def test_it_is_built_once_per_audience_and_language(long_match, monkeypatch):
    built = []
    original = replays.replay_frames
    monkeypatch.setattr(replays, "replay_frames", lambda match, audience: built.append(audience) or original(match, audience))
    for _ in range(2):
        for audience in ("all", "0"):
            for language in ("en", "zh-hans"):
                page = Client().get(f"/match/{long_match.pk}/replay/?as={audience}", HTTP_ACCEPT_LANGUAGE=language)
                assert page.status_code == 200
    assert built == ["all", "all", 0, 0]
    chinese = Client().get(f"/match/{long_match.pk}/replay/?as=all", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    english = Client().get(f"/match/{long_match.pk}/replay/?as=all", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert embedded_lines(chinese) != embedded_lines(english)


def embedded_lines(html):
    return [line for frame in replay_data(html)["frames"] for line in frame["lines"] if line][:20]
