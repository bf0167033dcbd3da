"""The official replay files, read where the project keeps them (``../shared``, never copied in).

Without them the tests that read them cannot run: on a developer's machine they skip, saying so;
under CI (``CI`` set) they fail, because CI always has ``../shared`` beside the clone, and a
silent skip there would pass the official-replay tests without running them.
"""
import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("AQUAWAR_SHARED", Path(__file__).resolve().parents[4] / ".." / "shared"))
REPLAYS = SHARED / "data" / "saiblo-aquawar-replays"
LATEST = "2021-01-23_replay_0efd521c.json"
# A build of 2021-01-16 (era B), whose rules were superseded.
SUPERSEDED = "2021-01-16_replay_a94d36cd.json"


def official_file(name, folder=None):
    path = (folder or REPLAYS) / name
    if not path.is_file():
        missing = (
            f"the official replay {name} is not at {path.parent}: the shared folder (../shared beside the "
            "clone, or AQUAWAR_SHARED) holds them"
        )
        if os.environ.get("CI"):
            pytest.fail(f"{missing}, and CI must run the official-replay tests, not skip them", pytrace=False)
        pytest.skip(f"NOT RUN: {missing}")
    return path.read_bytes()
