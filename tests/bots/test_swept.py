"""Every sweep of the bot runner sends ``swept`` (the hook of the other unattended work: tournaments,
the ladder), and a receiver that fails is logged without stopping the sweep or the others."""
import pytest

from game.programs import runner

pytestmark = pytest.mark.django_db


def test_every_sweep_sends_swept_and_a_failing_receiver_stops_nothing(caplog):
    calls = []

    def broken(sender, **kwargs):
        raise RuntimeError("broken periodic work")

    def counting(sender, **kwargs):
        calls.append(sender)

    runner.swept.connect(broken, dispatch_uid="test-broken")
    runner.swept.connect(counting, dispatch_uid="test-counting")
    try:
        assert runner.sweep() == []
        assert runner.sweep() == []
    finally:
        runner.swept.disconnect(dispatch_uid="test-broken")
        runner.swept.disconnect(dispatch_uid="test-counting")
    assert len(calls) == 2
    assert "broken periodic work" in caplog.text
