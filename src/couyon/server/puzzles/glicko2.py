"""Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013) with lichess's parameters for puzzles.

A player and a puzzle are both rated: each answer is one rating period of one game between them, the player
winning when he finds the card. Pure functions on frozen values: the store keeps the numbers, the service calls
``rate_answer``. The volatility's equation is solved by the Illinois algorithm (step 5.1-5.4 of the paper) in a
bounded loop, so a bad input ends in ``MAX_ITERATIONS`` steps instead of running on.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""The Glicko-2 scale: ``mu = (rating - 1500) / SCALE`` (step 2)."""
START_RATING = 1500.0
START_DEVIATION = 500.0
START_VOLATILITY = 0.09
TAU = 0.75
"""Lichess's system constant: how much the volatility may change in one period."""
PROVISIONAL_DEVIATION = 110.0
"""A rating is provisional while its deviation is at least this (lichess: shown with a "?")."""
PUZZLE_MOVING_DEVIATION = 230.0
"""A player whose deviation is at least this does not move the puzzle's rating: his own is too unsure."""
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
"""Our bounds on a deviation after an update: never more sure than 45, never less than a new rating."""
MAX_VOLATILITY = 0.1
"""Our bound on the volatility after an update (lichess bounds it too), so that a streak cannot blow it up."""
EPSILON = 1e-6
"""The convergence tolerance of step 5 (the paper's)."""
MAX_ITERATIONS = 100
"""At most this many steps of the bracketing loop and of the Illinois loop (the paper's converge in about ten)."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A rating: its number, its deviation (RD) and its volatility, on the Glicko scale (1500, 350, ...)."""

    rating: float
    deviation: float
    volatility: float

    @property
    def provisional(self) -> bool:
        return self.deviation >= PROVISIONAL_DEVIATION


NEW = Glicko(START_RATING, START_DEVIATION, START_VOLATILITY)
"""The rating of a player or a puzzle never rated."""


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_other: float, phi_other: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_other) * (mu - mu_other)))


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, the root of ``f`` found by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0.0 and k < MAX_ITERATIONS:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    for _ in range(MAX_ITERATIONS):
        if abs(high - low) <= EPSILON:
            break
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0.0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    return math.exp(low / 2.0)


def updated(player: Glicko, results: Sequence[tuple[Glicko, float]], tau: float = TAU, bounded: bool = True) -> Glicko:
    """``player``'s rating after one rating period of these games (opponent, score 1 won, 0.5 drawn, 0 lost).

    ``bounded`` keeps the deviation within [``MIN_DEVIATION``, ``MAX_DEVIATION``] and the volatility under
    ``MAX_VOLATILITY``; the paper's example is computed without the bounds.
    """
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    if not results:  # Step 6 alone: a period without games only makes the rating less sure.
        phi_star = math.sqrt(phi * phi + player.volatility * player.volatility)
        return _bounded(Glicko(player.rating, phi_star * SCALE, player.volatility), bounded)
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        mu_j = (opponent.rating - START_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        expected = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    sigma = _volatility(phi, player.volatility, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return _bounded(Glicko(mu_new * SCALE + START_RATING, phi_new * SCALE, sigma), bounded)


def _bounded(rating: Glicko, bounded: bool) -> Glicko:
    if not bounded:
        return rating
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation))
    return Glicko(rating.rating, deviation, min(MAX_VOLATILITY, rating.volatility))


def rate_answer(player: Glicko, puzzle: Glicko, solved: bool) -> tuple[Glicko, Glicko]:
    """The player's and the puzzle's ratings after the player's first answer to it: one game each, the player
    winning if ``solved``. The puzzle keeps its rating when the player's deviation is ``PUZZLE_MOVING_DEVIATION`` or
    more (both use the ratings from before the answer)."""
    score = 1.0 if solved else 0.0
    player_after = updated(player, [(puzzle, score)])
    if player.deviation >= PUZZLE_MOVING_DEVIATION:
        return player_after, puzzle
    return player_after, updated(puzzle, [(player, 1.0 - score)])
