"""The puzzles' store (migration 0016) on both backends: mining kept once, one answer per player and puzzle, the
ratings and their curve, the day's puzzle."""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator

import pytest
from sqlalchemy import inspect
from tests.store.test_store import downgrade

from couyon.common.puzzles import MinedGame, Puzzle, judge
from couyon.server.puzzles.glicko2 import NEW, rate_answer
from couyon.store import Store
from couyon.store.puzzles import PuzzleStore

NOW = dt.datetime(2026, 12, 7, 9, 0)
TABLES = {"puzzle_sources", "puzzles", "puzzle_ratings", "puzzle_attempts", "puzzle_rating_points", "puzzle_dailies"}


def made(seed: str, decision: int) -> Puzzle:
    verdict = judge(["AS", "9C"], {(1.0, -2.0): 256}, 0.5, exhaustive=False)
    return Puzzle(
        "couyon", {}, seed, ("S:pass",) * decision, "S", {"hand": ["AS", "9C"]}, "9C", verdict.best, verdict.values,
        "lines", 256, False, False, verdict.share, verdict.margin, ("attack",), {"9C": {"W": ["KS"]}},
    )  # fmt: skip


@pytest.fixture
def puzzles(database_url: str) -> Iterator[PuzzleStore]:
    store = Store(database_url)
    store.migrate()
    yield PuzzleStore(store)
    store.close()


def mined(seed: str, count: int) -> MinedGame:
    return MinedGame(tuple(made(seed, decision) for decision in range(count)), 40, count + 1)


def test_the_migration_adds_the_tables_and_can_be_undone(puzzles: PuzzleStore) -> None:
    store = puzzles.store
    assert set(inspect(store.engine).get_table_names()) >= TABLES
    downgrade(store, "0015_ratings")
    assert not TABLES & set(inspect(store.engine).get_table_names())
    store.migrate()
    assert set(inspect(store.engine).get_table_names()) >= TABLES


def test_a_source_game_is_kept_once(puzzles: PuzzleStore) -> None:
    assert puzzles.add_mined("couyon", "m:0", mined("m:0", 2))
    assert not puzzles.add_mined("couyon", "m:0", mined("m:0", 2))
    assert puzzles.add_mined("couyon", "m:1", mined("m:1", 0))
    assert puzzles.mined_seeds("couyon", ["m:0", "m:1", "m:2"]) == {"m:0", "m:1"}
    totals = puzzles.totals("couyon")
    assert (totals.games, totals.decisions, totals.candidates, totals.puzzles) == (2, 80, 4, 2)
    stored = puzzles.puzzle(made("m:0", 1).id)
    assert stored is not None and stored.puzzle == made("m:0", 1) and stored.rating == NEW


def test_one_answer_per_player_and_puzzle_and_the_rating_follows(puzzles: PuzzleStore) -> None:
    puzzles.add_mined("couyon", "m:0", mined("m:0", 3))
    first, second = made("m:0", 0).id, made("m:0", 1).id
    rate = lambda player, puzzle: rate_answer(player, puzzle, True)  # noqa: E731
    attempt = puzzles.answer("p_1", first, "AS", True, NOW, None, rate)
    assert attempt is not None and attempt.number == 1 and attempt.rating.rating > 1500
    assert puzzles.answer("p_1", first, "9C", False, NOW, None, rate) is None
    assert puzzles.rating("p_1", "couyon") == attempt.rating
    stored = puzzles.puzzle(first)
    assert stored is not None and stored.answers == 1 and stored.rating == NEW  # a new player's RD 500 moves nothing
    later = puzzles.answer("p_1", second, "AS", True, NOW + dt.timedelta(minutes=1), None, rate)
    assert later is not None and later.number == 2 and later.rating.rating > attempt.rating.rating
    assert [(item.puzzle_id, item.rating) for item in puzzles.history("p_1", "couyon")] == [
        (first, attempt.rating),
        (second, later.rating),
    ]
    near = puzzles.next_for("p_1", "couyon", 1500)
    assert near is not None and near.puzzle.id not in (first, second)
    puzzles.answer("p_1", near.puzzle.id, "AS", True, NOW, None, rate)
    assert puzzles.next_for("p_1", "couyon", 1500) is None


def test_racing_answers_count_once(puzzles: PuzzleStore) -> None:
    puzzles.add_mined("couyon", "m:0", mined("m:0", 4))
    rate = lambda player, puzzle: rate_answer(player, puzzle, False)  # noqa: E731
    results: list[object] = []
    ids = [made("m:0", 0).id] * 4 + [made("m:0", 1).id, made("m:0", 2).id, made("m:0", 3).id]

    def answer(puzzle_id: str) -> None:
        results.append(puzzles.answer("p_1", puzzle_id, "9C", False, NOW, None, rate))

    threads = [threading.Thread(target=answer, args=(puzzle_id,)) for puzzle_id in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(result is not None for result in results) == 4
    history = puzzles.history("p_1", "couyon")
    assert [item.number for item in history] == [1, 2, 3, 4]
    assert puzzles.rating("p_1", "couyon") == history[-1].rating
    # Each answer was rated from the one before: four losses in a row, each lower.
    assert [item.rating.rating for item in history] == sorted((item.rating.rating for item in history), reverse=True)


def test_the_days_puzzle_is_the_same_for_everyone(puzzles: PuzzleStore) -> None:
    assert puzzles.daily("couyon", NOW.date(), lambda count: 0) is None
    puzzles.add_mined("couyon", "m:0", mined("m:0", 3))
    chosen = puzzles.daily("couyon", NOW.date(), lambda count: 2)
    again = puzzles.daily("couyon", NOW.date(), lambda count: 0)
    assert chosen is not None and again is not None and chosen.puzzle.id == again.puzzle.id
    assert puzzles.daily_day("couyon", chosen.puzzle.id) == NOW.date()
    # A puzzle of the day is never offered as the next one: after its day it can no longer be answered.
    offered = set()
    for _ in range(3):
        near = puzzles.next_for("p_1", "couyon", 1500)
        if near is None:
            break
        offered.add(near.puzzle.id)
        puzzles.answer("p_1", near.puzzle.id, "AS", True, NOW, None, lambda player, puzzle: (player, puzzle))
    assert offered == {made("m:0", decision).id for decision in range(3)} - {chosen.puzzle.id}
