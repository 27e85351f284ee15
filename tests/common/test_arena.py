"""The shared duplicate-match harness: its interval, its percentile, and ``couyon arena`` built from the registry."""

from __future__ import annotations

import argparse
import math
import statistics

import pytest

from couyon.cli import build_parser
from couyon.common.arena import clustered_standard_error, percentile
from couyon.registry import ARENAS, DEFAULT_GAME


def test_with_one_deal_per_match_the_clustered_error_is_the_plain_standard_error() -> None:
    results = [3.5, -1.25, 0.0, 7.0, -2.5, 4.75]
    mean = statistics.fmean(results)
    plain = statistics.stdev(results) / math.sqrt(len(results))
    assert clustered_standard_error(results, [1] * len(results), mean) == pytest.approx(plain, rel=1e-12)
    assert clustered_standard_error([2.0], [3], 2.0 / 3) == math.inf


def test_a_match_of_several_deals_counts_once() -> None:
    # Two matches of two deals each: the margins 4 and 0 over 4 deals, mean 1 per deal.
    margins, sizes = [4.0, 0.0], [2, 2]
    residuals = (4 - 2) ** 2 + (0 - 2) ** 2
    assert clustered_standard_error(margins, sizes, 1.0) == pytest.approx(math.sqrt(residuals / 2) / 2)


def test_the_percentile_is_the_nearest_rank() -> None:
    values = [float(value) for value in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_the_command_offers_the_registry_arenas() -> None:
    parser = build_parser()
    arena = next(
        action.choices["arena"]
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction) and "arena" in action.choices
    )
    game = next(action for action in arena._actions if action.dest == "game")
    assert tuple(game.choices or ()) == tuple(ARENAS)
    assert game.default == DEFAULT_GAME == next(iter(ARENAS))
    options = {action.dest for action in arena._actions}
    assert {option.name for kind in ARENAS.values() for option in kind.options} <= options
