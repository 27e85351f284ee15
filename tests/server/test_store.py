"""The store on both backends: migrations, game storage, daily attempts, leaderboard order, settings."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from sqlalchemy import inspect

from couyon.store import LeaderboardEntry, RankedFinish, Store, StoredGame

NOW = dt.datetime(2026, 11, 29, 9, 0)


def stored_game(game_id: str, player_id: str, mode: str = "free", day: dt.date | None = None) -> StoredGame:
    return StoredGame(game_id, player_id, mode, day, True, "seed-" + game_id, "standard", "random/1", NOW)


@pytest.fixture
def store(database_url: str) -> Store:
    store = Store(database_url)
    store.migrate()
    yield store  # type: ignore[misc]
    store.close()


def test_migrations_create_the_schema_and_are_idempotent(store: Store) -> None:
    store.migrate()
    tables = set(inspect(store.engine).get_table_names())
    assert {
        "players",
        "games",
        "moves",
        "daily_attempts",
        "leaderboard_entries",
        "ranked_finishes",
        "settings",
        "alembic_version",
    } <= tables


def test_a_game_is_its_seed_and_moves(store: Store) -> None:
    game = stored_game("g_1", "p_1")
    store.create_game(game, ["E:pass", "S:take"])
    assert store.game("g_1") == (game, ["E:pass", "S:take"])
    assert store.game("g_missing") is None


def test_the_first_daily_attempt_wins(store: Store) -> None:
    day = dt.date(2026, 11, 29)
    first = store.create_daily_attempt(stored_game("g_a", "p_1", "daily", day), [])
    second = store.create_daily_attempt(stored_game("g_b", "p_1", "daily", day), [])
    assert first == second == "g_a"
    assert store.game("g_b") is None
    assert store.daily_attempt("p_1", day) == "g_a"
    assert store.daily_attempt("p_1", day + dt.timedelta(days=1)) is None


def test_leaderboard_order_score_then_deals_then_finish(store: Store) -> None:
    rows = [("g_1", 1300, 9, 3), ("g_2", 1300, 7, 5), ("g_3", 1500, 12, 9), ("g_4", 1300, 7, 4), ("g_5", 200, 3, 1)]
    for game_id, score, deals, minute in rows:
        store.create_game(stored_game(game_id, "p_" + game_id), [])
        entry = LeaderboardEntry(
            game_id, "free", None, "p_" + game_id, score, deals, NOW + dt.timedelta(minutes=minute)
        )
        store.append_moves(game_id, 0, ["S:pass"])
        store.enter(entry)
    store.set_player_name("p_g_3", "Marie", NOW)
    board = store.leaderboard("free", None, 10)
    assert [entry.game_id for entry in board] == ["g_3", "g_4", "g_2", "g_1", "g_5"]
    assert [entry.rank for entry in board] == [1, 2, 3, 4, 5]
    assert board[0].name == "Marie" and board[1].name is None
    assert store.entry("g_2") is not None and store.entry("g_2")[1] == 3  # type: ignore[index]
    assert store.leaderboard("daily", dt.date(2026, 11, 29), 10) == []
    assert len(store.leaderboard("free", None, 2)) == 2


def test_a_ranked_finish_is_stored_with_the_final_move_and_its_refusal_once_refused(store: Store) -> None:
    store.create_game(stored_game("g_1", "p_1"), [])
    assert store.ranked_finish("g_1") is None
    store.append_moves("g_1", 0, ["S:pass"], RankedFinish(NOW, None))
    assert store.ranked_finish("g_1") == RankedFinish(NOW, None)
    store.refuse("g_1", "move 3 is W:AS but bot random/1 plays W:7S")
    assert store.ranked_finish("g_1") == RankedFinish(NOW, "move 3 is W:AS but bot random/1 plays W:7S")


def test_an_entry_entered_twice_at_once_is_one_entry(store: Store, database_url: str) -> None:
    store.create_game(stored_game("g_1", "p_1"), [])
    entry = LeaderboardEntry("g_1", "free", None, "p_1", 1300, 9, NOW)
    # Two processes (each its own store) insert the verified entry at the same moment: neither fails.
    processes = [Store(database_url) for _ in range(2)]
    start = threading.Barrier(len(processes), timeout=30)
    failures: list[BaseException] = []

    def enter(process: Store) -> None:
        start.wait()
        try:
            process.enter(entry)
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=enter, args=(process,)) for process in processes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    store.enter(entry)  # And a late third one.
    for process in processes:
        process.close()
    assert failures == []
    assert [line.game_id for line in store.leaderboard("free", None, 10)] == ["g_1"]


def test_a_setting_is_generated_once(store: Store, database_url: str) -> None:
    first = store.setting("server_secret", lambda: "one")
    other_process = Store(database_url)
    assert other_process.setting("server_secret", lambda: "two") == first == "one"
    other_process.close()
