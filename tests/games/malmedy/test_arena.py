"""Malmedy's arena (``couyon arena --game malmedy``): couyon's duplicate matches with its own bots and variant."""

from __future__ import annotations

import json

import pytest

from couyon.cli import main
from couyon.games.couyon.arena import play_game
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.game import new_game
from couyon.games.malmedy.arena import play_match, run_arena
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.game import MALMEDY

TIMING = "decision_ms"


def without_timing(report: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in report.items() if key != TIMING}


def test_the_malmedy_arena_plays_its_own_bots_from_thirteen_lines(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "baseline", "random", "--game", "malmedy", "--deals", "3", "--seed", "mm", "--workers", "1"]
    assert main([*argv, "--json", "--no-progress"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["game"] == "malmedy"
    assert report["bot_a"] == "baseline"
    assert report["duplicate_deals"] >= 3
    assert report[TIMING]["a"]["decisions"] > 0
    # The same seed and bots give the same report whatever the worker count; a Malmedy bot's id is its registry's.
    again = run_arena("baseline/1", "random", 3, "mm", workers=2, progress=False)
    assert without_timing(again) == {**without_timing(report), "bot_a": "baseline/1"}
    gains, winner, _, _ = play_game("mm:0", MalmedyBaselineBot(), RandomBot(), MALMEDY)
    assert (sum(gains) > 0) == (winner == 0)
    # Both teams start at 13 lines: the line gains of a whole game add up to the final margin.
    first = new_game("mm:0", MALMEDY)
    assert first.lines == (13, 13)


def test_the_malmedy_arena_refuses_a_bot_of_the_other_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "expert/3", "random", "--game", "malmedy", "--deals", "2", "--no-progress"]) == 2
    assert "unknown bot 'expert/3'" in capsys.readouterr().err
    result = play_match(("mm-expert:0", "expert", "baseline"))
    assert result.deal_results
    assert len(result.a_times) > 0
