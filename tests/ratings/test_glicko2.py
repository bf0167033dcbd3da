"""The rating arithmetic against Glickman's worked example (Example of the Glicko-2 system, 2013)."""
import pytest

from ratings.glicko2 import Glicko, update


def test_the_papers_worked_example():
    player = Glicko(1500, 200, 0.06)
    results = [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)]
    after = update(player, results)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation():
    after = update(Glicko(1500, 200, 0.06), [])
    assert after.rating == 1500
    # Step 6 alone: sqrt(phi² + sigma²) on the Glicko-2 scale, phi = 200 / 173.7178.
    assert after.deviation == pytest.approx(200.2714, abs=0.001)
    assert after.volatility == 0.06


def test_a_win_raises_a_loss_lowers_and_a_draw_between_equals_keeps():
    start = Glicko()
    assert update(start, [(Glicko(), 1)]).rating > 1500
    assert update(start, [(Glicko(), 0)]).rating < 1500
    assert update(start, [(Glicko(), 0.5)]).rating == pytest.approx(1500)


def test_the_deviation_never_exceeds_an_unknown_players():
    assert update(Glicko(1500, 350, 0.06), []).deviation == 350
