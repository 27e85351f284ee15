"""The tarot arena: duplicate accounting, results independent of the worker count, and ``couyon arena --game tarot``."""

from __future__ import annotations

import json

import pytest

from couyon.cli import main
from couyon.games.tarot.arena import arena_bot, format_tarot_report, play_duplicate, play_table, run_tarot_arena
from couyon.games.tarot.bots.baseline import BaselineTarotBot
from couyon.games.tarot.bots.random_bot import RandomTarotBot
from couyon.games.tarot.bots.registry import Player

TIMING = "decision_ms"


def without_timing(report: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in report.items() if key != TIMING}


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_duplicate_deal_compares_a_and_b_in_the_same_seats(players: int) -> None:
    seed = f"tarot-arena-{players}"
    result = play_duplicate((seed, players, "baseline", "random"))
    tables = []
    for seat in range(players):
        bots: list[Player] = [RandomTarotBot() for _ in range(players)]
        bots[seat] = BaselineTarotBot()
        tables.append(play_table(seed, players, bots))
    a_scores = [tables[seat].scores[seat] for seat in range(players)]
    b_scores = [
        sum(tables[other].scores[seat] for other in range(players) if other != seat) / (players - 1)
        for seat in range(players)
    ]
    assert result.a_mean == pytest.approx(sum(a_scores) / players)
    assert result.b_mean == pytest.approx(sum(b_scores) / players)
    assert result.difference == pytest.approx(result.a_mean - result.b_mean)
    # Every table's scores sum to zero, so the difference is A's total shared among the n − 1 others.
    assert all(sum(table.scores) == 0 for table in tables)
    assert result.difference == pytest.approx(sum(a_scores) / (players - 1))
    assert len(result.a_times) > 0
    assert len(result.b_times) > 0


def test_the_report_does_not_depend_on_the_worker_count() -> None:
    single = run_tarot_arena("baseline", "random", 4, "tarot-arena-test", players=3, workers=1, progress=False)
    double = run_tarot_arena("baseline", "random", 4, "tarot-arena-test", players=3, workers=2, progress=False)
    assert without_timing(single) == without_timing(double)
    assert single["deals"] == 4
    assert single["deals_won"] + single["deals_lost"] + single["deals_tied"] == 4
    low, high = single["ci95"]
    assert low <= single["mean_score_difference"] <= high
    assert single["takes"]["a"]["tables"] == 12
    assert single[TIMING]["a"]["bot"] == "baseline"
    assert single[TIMING]["a"]["decisions"] > 0
    assert set(single[TIMING]["a"]) >= {"median_ms", "p99_ms", "cpu_median_ms", "cpu_p99_ms"}
    assert "mean score difference per deal" in format_tarot_report(single)


def test_the_command_plays_tarot_at_the_players_asked(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "expert", "baseline", "--game", "tarot", "--players", "5", "--deals", "1", "--seed", "cli"]
    assert main([*argv, "--workers", "1", "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "tarot"
    assert report["players"] == 5
    assert report["bot_a"] == "expert"
    assert report["deals"] == 1
    assert report[TIMING]["a"]["decisions"] > 0


def test_the_yardstick_and_released_ids_are_seated() -> None:
    assert arena_bot("omniscient").name == "omniscient"
    assert arena_bot("baseline/1").name == "baseline"
    result = play_duplicate(("tarot-arena-yardstick", 3, "omniscient", "baseline/1"))
    assert len(result.a_times) > 0


def test_bad_arguments_are_one_clear_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "nobody", "random", "--game", "tarot", "--deals", "1", "--no-progress"]) == 2
    error = capsys.readouterr().err
    assert "unknown bot 'nobody'" in error
    assert "Traceback" not in error
    # A version tarot does not have, and --players belongs to tarot.
    assert main(["arena", "expert/9", "random", "--game", "tarot", "--deals", "1", "--no-progress"]) == 2
    assert "unknown bot 'expert/9'" in capsys.readouterr().err
    assert main(["arena", "random", "random", "--players", "3", "--deals", "1", "--no-progress"]) == 2
    assert "--players is for --game tarot only" in capsys.readouterr().err
