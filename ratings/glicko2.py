"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), step by step as published.

Pure arithmetic, no Django: ``update`` takes a player's rating and the results of one rating period
and returns the new rating. The site treats every rated match as its own rating period for both
players (as lichess does), so a rating moves the moment a match ends. The paper's worked example is
tests/ratings/test_glicko2.py. No library was used: the PyPI ones (``glicko2``, ``glicko2py``) have
had no release for years, and the algorithm is these few lines.
"""
import math
from typing import NamedTuple

# The Glicko-1 scale the site shows; Glicko-2 works on (r - 1500) / 173.7178.
SCALE = 173.7178
DEFAULT_RATING = 1500.0
DEFAULT_DEVIATION = 350.0
DEFAULT_VOLATILITY = 0.06
# The system constant: how much volatility may move per period. The paper suggests 0.3 to 1.2; the
# worked example uses 0.5.
TAU = 0.5
# Convergence tolerance of the volatility iteration (step 5), as in the paper.
EPSILON = 0.000001
# A deviation never grows past that of an unknown player, however long an account stays away.
MAX_DEVIATION = DEFAULT_DEVIATION


class Glicko(NamedTuple):
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


def _g(phi):
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu, mu_j, phi_j):
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi, sigma, delta, v, tau):
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def update(player, results, tau=TAU):
    """``player`` (a ``Glicko``) after one rating period of ``results``: (opponent's ``Glicko``,
    score) pairs, score 1 for a win, 0.5 a draw, 0 a loss. No results: only the deviation grows."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        grown = math.sqrt(phi * phi + sigma * sigma) * SCALE
        return Glicko(player.rating, min(grown, MAX_DEVIATION), sigma)
    opponents = [
        ((o.rating - DEFAULT_RATING) / SCALE, o.deviation / SCALE, score) for o, score in results
    ]
    v = 1 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j))
        for mu_j, phi_j, _ in opponents
    )
    improvement = sum(_g(phi_j) * (score - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, score in opponents)
    delta = v * improvement
    sigma_new = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko(SCALE * mu_new + DEFAULT_RATING, min(SCALE * phi_new, MAX_DEVIATION), sigma_new)
