"""``couyon puzzles mine``: seeded bot games into the store, resumable, never a puzzle twice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from couyon.cli import main
from couyon.registry import GAMES
from couyon.store import Store, sqlite_url
from couyon.store.puzzles import PuzzleStore


def runs(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_second_run_continues_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command sets its options in the environment (for the server's workers): restored after the test.
    monkeypatch.setenv("COUYON_DATA_DIR", str(tmp_path))
    command = ["puzzles", "mine", "--game", "couyon", "--seed", "t", "--no-progress", "--data-dir", str(tmp_path)]
    assert main([*command, "--games", "8"]) == 0
    (first,) = runs(capsys)
    assert first["mined"] == 8 and first["skipped"] == 0
    assert main([*command, "--games", "12"]) == 0
    (second,) = runs(capsys)
    assert second["mined"] == 4 and second["skipped"] == 8
    store = Store(sqlite_url(tmp_path))
    try:
        totals = PuzzleStore(store).totals("couyon")
        assert totals.games == 12
        assert totals.puzzles == int(first["puzzles"]) + int(second["puzzles"])  # type: ignore[call-overload]
        # The same twelve games mined in one run give the same puzzles: mining is deterministic.
        miner = GAMES["couyon"].puzzles
        assert miner is not None
        expected = sum(len(miner.mine(f"t:{index}").puzzles) for index in range(12))
        assert totals.puzzles == expected
    finally:
        store.close()


def test_a_negative_count_is_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "mine", "--games", "-1", "--data-dir", str(tmp_path)]) == 2
    assert capsys.readouterr().err == "couyon puzzles: --games is a number of games, 0 or more.\n"
