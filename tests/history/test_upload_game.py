"""An uploaded file goes to the game that reads it: the one whose record format it names, else the
one that claims it as another file of its own, else the default game (whose reader refuses it)."""
import json

from game import games
from game.games.aquawar.game import GAME as AQUAWAR


class Other:
    """A second game with a record format and a file of its own (any file starting with ``OTHER``)."""

    record_format = "other-record/1"

    def claims_upload(self, data):
        return data.startswith(b"OTHER")


def test_the_format_named_decides(monkeypatch):
    other = Other()
    monkeypatch.setattr(games, "every", lambda: [AQUAWAR, other])
    assert games.for_record(json.dumps({"format": "other-record/1"}).encode()) is other
    assert games.for_record(json.dumps({"format": AQUAWAR.record_format}).encode()) is AQUAWAR


def test_a_file_naming_no_format_goes_to_the_game_that_claims_it(monkeypatch):
    other = Other()
    monkeypatch.setattr(games, "every", lambda: [AQUAWAR, other])
    assert games.for_record(b"OTHER file") is other
    # Aquawar's official replays of the 2021 contest are JSON arrays.
    assert games.for_record(b'[{"players": []}, null]') is AQUAWAR


def test_a_file_nobody_reads_goes_to_the_default_game(monkeypatch):
    monkeypatch.setattr(games, "every", lambda: [AQUAWAR, Other()])
    for data in (b"not json", b'{"format": "chess-record/9"}', b"{}", b""):
        assert games.for_record(data) is games.get(games.DEFAULT)
