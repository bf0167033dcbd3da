"""The official replay files, read where the project keeps them (``../shared``, never copied in)."""
import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("AQUAWAR_SHARED", Path(__file__).resolve().parents[4] / ".." / "shared"))
REPLAYS = SHARED / "data" / "saiblo-aquawar-replays"
LATEST = "2021-01-23_replay_0efd521c.json"
# A build of 2021-01-16 (era B), whose rules were superseded.
SUPERSEDED = "2021-01-16_replay_a94d36cd.json"


def official_file(name):
    path = REPLAYS / name
    if not path.is_file():
        pytest.skip(f"the official replays are not at {REPLAYS} (set AQUAWAR_SHARED to the shared folder)")
    return path.read_bytes()
