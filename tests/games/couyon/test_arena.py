"""The arena: duplicate accounting, deterministic results whatever the worker count, and its command line."""

from __future__ import annotations

import json

import pytest

from couyon.cli import main
from couyon.games.couyon.arena import play_game, play_match, run_arena
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.game import new_game

TIMING = "decision_ms"


def without_timing(report: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in report.items() if key != TIMING}


def test_a_game_line_gains_add_up_to_the_final_margin() -> None:
    gains, winner, ns_times, we_times = play_game("arena-game", BaselineBot(), RandomBot())
    assert ns_times
    assert we_times
    assert sum(gains) != 0
    assert (sum(gains) > 0) == (winner == 0)


def test_a_match_pairs_deal_k_of_both_tables_and_its_margin_is_their_sum() -> None:
    first, _, _, _ = play_game("arena-match:0", BaselineBot(), RandomBot())
    second, _, _, _ = play_game("arena-match:0", RandomBot(), BaselineBot())
    result = play_match(("arena-match:0", "baseline", "random"))
    assert len(result.deal_results) == max(len(first), len(second))
    assert sum(result.deal_results) == sum(first) - sum(second)
    # Both tables deal the same cards with the same dealer: the contract's deal k depends on the seed and k only.
    assert new_game("arena-match:0").deal.deck == new_game("arena-match:0").deal.deck


def test_the_report_counts_deals_and_matches_and_does_not_depend_on_the_worker_count() -> None:
    single = run_arena("baseline", "random", 60, "arena-test", workers=1, progress=False)
    double = run_arena("baseline", "random", 60, "arena-test", workers=2, progress=False)
    assert without_timing(single) == without_timing(double)
    assert single["duplicate_deals"] >= 60
    assert single["deals_won"] + single["deals_lost"] + single["deals_tied"] == single["duplicate_deals"]
    assert single["matches_won"] + single["matches_lost"] + single["matches_tied"] == single["matches"]
    low, high = single["ci95"]
    assert low <= single["mean_line_difference"] <= high
    assert single[TIMING]["a"]["bot"] == "baseline"
    assert single[TIMING]["a"]["decisions"] > 0


def test_the_command_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "random", "random", "--deals", "5", "--seed", "cli", "--workers", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bot_a"] == "random"
    assert set(report) >= {"duplicate_deals", "mean_line_difference", "ci95", "deals_won", "matches_won", TIMING}


def test_an_unknown_bot_is_one_clear_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "nobody", "random", "--deals", "5", "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert "unknown bot 'nobody'" in error
    assert "Traceback" not in error


def test_a_released_version_is_seated_by_its_registry_id() -> None:
    # "expert" is the current version; "expert/1" is the released one, so versions can be compared.
    current = play_match(("arena-version:0", "expert", "baseline/1"))
    released = play_match(("arena-version:0", "expert/1", "baseline"))
    same = play_match(("arena-version:0", "expert/1", "baseline"))
    assert released.deal_results == same.deal_results
    assert current.deal_results != released.deal_results
