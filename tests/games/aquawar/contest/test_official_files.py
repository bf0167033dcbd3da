"""The official-replay tests never pass in CI without the files: a missing file fails there."""
import pytest

from .official_files import LATEST, REPLAYS, official_file

OUTCOMES = (pytest.fail.Exception, pytest.skip.Exception)


def outcome_without_the_file(folder):
    """What a test reading a missing official file ends with (caught, so a skip cannot hide here)."""
    with pytest.raises(OUTCOMES) as info:
        official_file(LATEST, folder=folder)
    return info.value


def test_a_missing_file_fails_under_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    outcome = outcome_without_the_file(tmp_path)
    assert isinstance(outcome, pytest.fail.Exception)
    assert "CI must run the official-replay tests" in outcome.msg and str(tmp_path) in outcome.msg


def test_a_missing_file_skips_loudly_elsewhere(tmp_path, monkeypatch):
    monkeypatch.delenv("CI", raising=False)
    outcome = outcome_without_the_file(tmp_path)
    assert isinstance(outcome, pytest.skip.Exception)
    assert outcome.msg.startswith(f"NOT RUN: the official replay {LATEST} is not at {tmp_path}")


def test_the_files_are_read_from_the_shared_folder(tmp_path):
    (tmp_path / LATEST).write_bytes(b"[null]")
    assert official_file(LATEST, folder=tmp_path) == b"[null]"
    assert REPLAYS.parts[-2:] == ("data", "saiblo-aquawar-replays")
