"""The sample nginx of docs/deploy.md lets through every record the site accepts (issue #30 item
13: its client_max_body_size 1m was below the 2 MB import limit, so nginx answered 413 where the
site would have imported the file or said why not)."""
import re
from pathlib import Path

from game.history.imports import MAX_RECORD_BYTES

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"
UNITS = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3}


def test_the_sample_nginx_takes_the_largest_record_with_its_form():
    sizes = re.findall(r"client_max_body_size\s+(\d+)([kmg]?);", DEPLOY.read_text(), re.I)
    assert sizes, "no client_max_body_size in docs/deploy.md"
    for number, unit in sizes:
        # The multipart form around the file takes a few hundred bytes more.
        assert int(number) * UNITS[unit.lower()] >= MAX_RECORD_BYTES + 64 * 1024
