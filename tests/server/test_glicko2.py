"""Glicko-2 against Glickman's worked example, and the puzzle rule of lichess's parameters."""

from __future__ import annotations

import time

import pytest

from couyon.server.puzzles.glicko2 import (
    MAX_DEVIATION,
    NEW,
    PUZZLE_MOVING_DEVIATION,
    Glicko,
    rate_answer,
    updated,
)


def test_glickmans_worked_example() -> None:
    # "Example of the Glicko-2 system" (Glickman, 2013): tau 0.5, three games in one period.
    player = Glicko(1500, 200, 0.06)
    games = [(Glicko(1400, 30, 0.06), 1.0), (Glicko(1550, 100, 0.06), 0.0), (Glicko(1700, 300, 0.06), 0.0)]
    started = time.process_time()
    after = updated(player, games, tau=0.5, bounded=False)
    assert time.process_time() - started < 0.5  # converges in a few steps, not minutes
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_extreme_inputs_still_converge() -> None:
    # A sure player beating a far stronger one: delta² far above phi² + v, the bracket's first branch.
    after = updated(Glicko(800, 45, 0.09), [(Glicko(2800, 45, 0.09), 1.0)] * 20)
    assert after.rating > 800
    assert 0 < after.volatility <= 0.1


def test_new_ratings_are_lichess_ones() -> None:
    assert (NEW.rating, NEW.deviation, NEW.volatility) == (1500, 500, 0.09)
    assert NEW.provisional
    assert not Glicko(1500, 109.9, 0.09).provisional
    assert Glicko(1500, 110, 0.09).provisional


def test_a_solved_puzzle_raises_the_player_and_lowers_the_puzzle() -> None:
    player = Glicko(1500, 100, 0.09)
    puzzle = Glicko(1600, 80, 0.09)
    player_after, puzzle_after = rate_answer(player, puzzle, solved=True)
    assert player_after.rating > 1500
    assert puzzle_after.rating < 1600
    player_after, puzzle_after = rate_answer(player, puzzle, solved=False)
    assert player_after.rating < 1500
    assert puzzle_after.rating > 1600


def test_an_unsure_player_does_not_move_the_puzzle() -> None:
    puzzle = Glicko(1600, 80, 0.09)
    _, kept = rate_answer(Glicko(1500, PUZZLE_MOVING_DEVIATION, 0.09), puzzle, solved=True)
    assert kept == puzzle
    _, moved = rate_answer(Glicko(1500, PUZZLE_MOVING_DEVIATION - 1, 0.09), puzzle, solved=True)
    assert moved != puzzle


def test_the_deviation_stays_within_its_bounds() -> None:
    assert updated(NEW, []).deviation == MAX_DEVIATION
    rating = NEW
    for _ in range(300):
        rating = updated(rating, [(Glicko(1500, 45, 0.06), 0.5)])
    assert rating.deviation >= 45
