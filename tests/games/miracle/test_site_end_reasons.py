"""Every way a 神迹之战 match can end is stored on the match row: PostgreSQL refuses a reason longer
than the column (SQLite would silently keep it, so only this test catches it on the embedded setup)."""
from game.games.miracle.engine.outcome import END_REASONS
from game.models import Match


def test_every_end_reason_fits_the_match_row():
    width = Match._meta.get_field("end_reason").max_length
    assert [reason for reason in END_REASONS if len(reason) > width] == []
