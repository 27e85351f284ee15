"""The store on both backends: migrations, game storage, daily attempts, leaderboard order, settings."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, event, insert, inspect, text
from sqlalchemy.exc import DBAPIError

import couyon.store
from couyon.store import LeaderboardEntry, RankedFinish, Store, StoredGame
from couyon.store.store import Pruned

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


def checkouts(store: Store) -> list[int]:
    """A counter of the connections taken from the store's pool from now on."""
    taken = [0]
    event.listen(store.engine, "checkout", lambda *_args: taken.__setitem__(0, taken[0] + 1))
    return taken


def test_the_reads_of_a_block_share_one_connection_and_a_write_hands_it_back(store: Store) -> None:
    store.create_game(stored_game("g_1", "p_1"), ["E:pass"])
    store.game("g_1")  # The games row is kept in memory from here on: one statement a load.
    taken = checkouts(store)
    for _ in range(2):
        store.recovery_generation("p_1")
        store.game("g_1")
        store.hints("g_1")
    assert taken[0] == 6
    with store.reading():
        assert store.recovery_generation("p_1") == 0
        assert store.game("g_1") == (stored_game("g_1", "p_1"), ["E:pass"])
        assert store.hints("g_1") == 0
        assert taken[0] == 7
        # A write takes a connection of its own after closing the block's: never two at once.
        store.append_moves("g_1", 1, ["S:take"])
        assert taken[0] == 8
        # The next read opens another one, so it sees the write (a SQLite transaction would not).
        assert store.game("g_1") == (stored_game("g_1", "p_1"), ["E:pass", "S:take"])
        assert store.hints("g_1") == 0
        assert taken[0] == 9
        with store.reading():  # A block inside a block uses the outer one's.
            store.recovery_generation("p_1")
        assert taken[0] == 9
    assert store.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


def test_a_failed_read_in_a_block_leaves_the_next_read_a_new_connection(store: Store) -> None:
    store.create_game(stored_game("g_1", "p_1"), ["E:pass"])
    store.game("g_1")  # The games row is kept in memory from here on.
    taken = checkouts(store)
    with store.reading():
        assert store.hints("g_1") == 0
        with pytest.raises(DBAPIError):
            store._hot_read("SELECT no_such_column FROM moves", ())
        # On PostgreSQL the failed statement aborted that transaction: this read would fail in it.
        assert store.game("g_1") == (stored_game("g_1", "p_1"), ["E:pass"])
        assert taken[0] == 2
    assert store.engine.pool.checkedout() == 0  # type: ignore[attr-defined]


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


# -- migration 0003: a game id on every row ----------------------------------------------------

DAY = dt.date(2026, 11, 28)
ROWS_AT_0002 = {
    "players": [
        {"id": "p_1", "name": "Marie", "created_at": NOW},
        {"id": "p_2", "name": None, "created_at": NOW},
    ],
    "games": [
        {
            "id": game_id,
            "player_id": player_id,
            "mode": mode,
            "day": day,
            "ranked": True,
            "seed": "seed-" + game_id,
            "variant": "standard",
            "bot_id": "expert/3",
            "created_at": NOW,
        }
        for game_id, player_id, mode, day in (
            ("g_free", "p_1", "free", None),
            ("g_daily_1", "p_1", "daily", DAY),
            ("g_daily_2", "p_2", "daily", DAY),
        )
    ],
    "moves": [
        {"game_id": game_id, "number": number, "move": move}
        for game_id in ("g_free", "g_daily_1", "g_daily_2")
        for number, move in enumerate(["E:pass", "S:take", "S:AH", "W:9H"])
    ],
    "daily_attempts": [
        {"player_id": "p_1", "day": DAY, "game_id": "g_daily_1"},
        {"player_id": "p_2", "day": DAY, "game_id": "g_daily_2"},
    ],
    "leaderboard_entries": [
        {
            "game_id": game_id,
            "board": board,
            "day": day,
            "player_id": player_id,
            "score": score,
            "deals": 9,
            "finished_at": NOW,
        }
        for game_id, board, day, player_id, score in (
            ("g_free", "free", None, "p_1", 1300),
            ("g_daily_1", "daily", DAY, "p_1", 1200),
            ("g_daily_2", "daily", DAY, "p_2", 1500),
        )
    ],
    "ranked_finishes": [
        {"game_id": "g_free", "finished_at": NOW, "refusal": None},
        {"game_id": "g_daily_1", "finished_at": NOW, "refusal": None},
        {"game_id": "g_daily_2", "finished_at": NOW, "refusal": "the daily game was finished after its day"},
    ],
    "settings": [{"name": "server_secret", "value": "ab" * 32}],
}
"""At least one row in every table of revision 0002, as its code wrote them."""


def rows_of(store: Store, table: str) -> list[dict[str, Any]]:
    with store.engine.connect() as connection:
        rows = connection.execute(text(f"SELECT * FROM {table}")).mappings().all()
    return sorted((dict(row) for row in rows), key=repr)


def store_at_0002(database_url: str) -> Store:
    store = Store(database_url)
    store.migrate("0002")
    # The tables as revision 0002 made them (reflected), so values are stored as that code stored them.
    tables = MetaData()
    tables.reflect(store.engine)
    with store.engine.begin() as connection:
        for table, rows in ROWS_AT_0002.items():
            connection.execute(insert(tables.tables[table]), rows)
    return store


def test_migrations_0003_and_0004_keep_every_row_as_a_game_of_couyon_without_options(database_url: str) -> None:
    store = store_at_0002(database_url)
    try:
        before = {table: rows_of(store, table) for table in ROWS_AT_0002}
        store.migrate()
        for table, rows in before.items():
            after = rows_of(store, table)
            assert len(after) == len(rows), table
            if table in ("games", "daily_attempts", "leaderboard_entries"):
                assert {row.pop("game") for row in after} == {"couyon"}, table
            if table == "leaderboard_entries":  # 0008: couyon was only ever played against its experts.
                assert {row.pop("level") for row in after} == {"expert"}, table
            if table == "games":
                assert {row.pop("options") for row in after} == {""}, table
            if table == "players":  # 0005: every stored name gets its skeleton; 0009: no new recovery code yet.
                assert {row["id"]: row.pop("name_skeleton") for row in after} == {"p_1": "marle", "p_2": None}
                assert {row.pop("recovery_generation") for row in after} == {0}
            assert sorted(after, key=repr) == rows, table
        # The store reads them as games of couyon, and every attempt and board is where it was.
        loaded = store.game("g_daily_1")
        assert loaded is not None and loaded[0].game == "couyon" and loaded[1] == ["E:pass", "S:take", "S:AH", "W:9H"]
        assert store.daily_attempt("p_1", DAY) == store.daily_attempt("p_1", DAY, "couyon") == "g_daily_1"
        assert store.daily_attempt("p_1", DAY, "malmedy") is None
        assert [line.game_id for line in store.leaderboard("daily", DAY, 10)] == ["g_daily_2", "g_daily_1"]
        assert store.entry("g_daily_1") is not None and store.entry("g_daily_1")[1] == 2  # type: ignore[index]
        assert store.leaderboard("daily", DAY, 10, "malmedy") == []
        # The same player may now hold an attempt of another game on the same day, with its longer moves.
        malmedy = StoredGame(
            "g_malmedy", "p_1", "daily", DAY, True, "seed-m", "malmedy", "baseline/1", NOW, game="malmedy"
        )
        assert store.create_daily_attempt(malmedy, ["E:trump-H", "S:mite", "W:contra", "S:recontra"]) == "g_malmedy"
        assert store.daily_attempt("p_1", DAY, "malmedy") == "g_malmedy"
        assert store.daily_attempt("p_1", DAY) == "g_daily_1"
        assert store.game("g_malmedy") == (malmedy, ["E:trump-H", "S:mite", "W:contra", "S:recontra"])
        # 0004: a game keeps its table options, and a move may be as long as a tarot poignée.
        poignee = "NW:poignee:" + ",".join(f"{number}T" for number in range(1, 16))
        options = StoredGame(
            "g_options",
            "p_1",
            "free",
            None,
            True,
            "seed-o",
            "",
            "expert/1",
            NOW,
            game="coucou",
            options='{"players":20}',
        )
        store.create_game(options, [poignee])
        assert store.game("g_options") == (options, [poignee])
        store.migrate()  # Idempotent.
        assert len(rows_of(store, "moves")) == len(ROWS_AT_0002["moves"]) + 5
    finally:
        store.close()


def test_migration_0003_can_be_undone_while_only_couyon_is_stored(database_url: str) -> None:
    store = store_at_0002(database_url)
    try:
        before = {table: rows_of(store, table) for table in ROWS_AT_0002}
        store.migrate()
        downgrade_to_0002(store)
        assert {table: rows_of(store, table) for table in ROWS_AT_0002} == before
        store.migrate()
        store.create_game(
            StoredGame("g_m", "p_1", "free", None, True, "s", "malmedy", "baseline/1", NOW, game="malmedy"), []
        )
        with pytest.raises(RuntimeError, match="other than couyon"):
            downgrade_to_0002(store)
    finally:
        store.close()


def downgrade_to_0002(store: Store) -> None:
    downgrade(store, "0002")


def downgrade(store: Store, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(couyon.store.__file__).with_name("migrations")))
    with store.engine.connect() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
        connection.commit()


# -- migration 0008: each entry's level, and the hints of a game -------------------------------------


def test_migration_0008_gives_every_entry_its_level_and_can_be_undone(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate("0007")
        tables = MetaData()
        tables.reflect(store.engine)
        played = {
            "g_couyon": ("couyon", ""),
            "g_malmedy": ("malmedy", ""),
            "g_easy": ("coucou", '{"level":"easy","players":8,"tokens":3}'),
            "g_normal": ("coucou", '{"level":"normal","players":12,"tokens":3}'),
            "g_expert": ("coucou", '{"level":"expert","players":8,"tokens":3}'),
            "g_tarot": ("tarot4", ""),
        }
        with store.engine.begin() as connection:
            connection.execute(insert(tables.tables["players"]), [{"id": "p_1", "name": None, "created_at": NOW}])
            for game_id, (game, options) in played.items():
                row = {"id": game_id, "player_id": "p_1", "mode": "free", "day": None, "ranked": True}
                row |= {"seed": "s", "variant": game, "bot_id": "x/1", "created_at": NOW}
                connection.execute(insert(tables.tables["games"]), [row | {"game": game, "options": options}])
                entry = {"game_id": game_id, "board": "free", "day": None, "player_id": "p_1"}
                entry |= {"score": 1000, "deals": 5, "finished_at": NOW, "game": game}
                connection.execute(insert(tables.tables["leaderboard_entries"]), [entry])
        store.migrate("0009")
        levels = {row["game_id"]: row["level"] for row in rows_of(store, "leaderboard_entries")}
        assert levels == {
            "g_couyon": "expert",
            "g_malmedy": "expert",
            "g_easy": "easy",
            "g_normal": "normal",
            "g_expert": "expert",
            "g_tarot": "",
        }
        # Each level is its own board; a hint is counted once per move and goes with its game.
        assert [line.game_id for line in store.leaderboard("free", None, 10, "coucou", "easy")] == ["g_easy"]
        assert store.add_hint("g_couyon", 3) == store.add_hint("g_couyon", 3) == 1
        assert store.add_hint("g_couyon", 5) == store.hints("g_couyon") == 2
        downgrade(store, "0007")
        assert "hints" not in inspect(store.engine).get_table_names()
        assert "level" not in {column["name"] for column in inspect(store.engine).get_columns("leaderboard_entries")}
        store.migrate()
        assert store.hints("g_couyon") == 0 and store.entry("g_easy") is not None
    finally:
        store.close()


# -- migration 0009: the generation of a player's recovery code -----------------------------------------


def test_migration_0009_starts_every_player_at_generation_0_and_can_be_undone(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate("0008")
        tables = MetaData()
        tables.reflect(store.engine)
        with store.engine.begin() as connection:
            connection.execute(insert(tables.tables["players"]), [{"id": "p_1", "name": "Marie", "created_at": NOW}])
        store.migrate()
        assert store.recovery_generation("p_1") == store.recovery_generation("p_unknown") == 0
        assert store.new_recovery_generation("p_1", NOW) == 1
        assert store.new_recovery_generation("p_2", NOW) == 1 and store.player_name("p_2") is None
        assert store.new_recovery_generation("p_1", NOW) == store.recovery_generation("p_1") == 2
        downgrade(store, "0008")
        assert "recovery_generation" not in {column["name"] for column in inspect(store.engine).get_columns("players")}
        store.migrate()
        assert store.recovery_generation("p_1") == 0 and store.player_name("p_1") == "Marie"
    finally:
        store.close()


# -- migration 0010: tarot's entries are the expert level's -----------------------------------------


def test_migration_0010_puts_tarot_entries_on_the_expert_level_and_can_be_undone(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate("0009")
        tables = MetaData()
        tables.reflect(store.engine)
        with store.engine.begin() as connection:
            connection.execute(insert(tables.tables["players"]), [{"id": "p_1", "name": None, "created_at": NOW}])
            for game_id, game in (("g_tarot", "tarot4"), ("g_couyon", "couyon")):
                row = {"id": game_id, "player_id": "p_1", "mode": "free", "day": None, "ranked": True}
                row |= {"seed": "s", "variant": game, "bot_id": "x/1", "created_at": NOW, "game": game, "options": ""}
                connection.execute(insert(tables.tables["games"]), [row])
                entry = {"game_id": game_id, "board": "free", "day": None, "player_id": "p_1", "score": 10}
                entry |= {"deals": 4, "finished_at": NOW, "game": game, "level": "" if game == "tarot4" else "expert"}
                connection.execute(insert(tables.tables["leaderboard_entries"]), [entry])
        store.migrate()
        levels = {row["game_id"]: row["level"] for row in rows_of(store, "leaderboard_entries")}
        assert levels == {"g_tarot": "expert", "g_couyon": "expert"}
        assert [line.game_id for line in store.leaderboard("free", None, 10, "tarot4", "expert")] == ["g_tarot"]
        downgrade(store, "0009")
        levels = {row["game_id"]: row["level"] for row in rows_of(store, "leaderboard_entries")}
        assert levels == {"g_tarot": "", "g_couyon": "expert"}
        store.migrate()
    finally:
        store.close()


# -- migration 0011: a finished game's review, kept -------------------------------------------------------


def test_migration_0011_keeps_every_row_and_stores_reviews_apart_by_revealed_and_version(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate("0010")
        tables = MetaData()
        tables.reflect(store.engine)
        day = dt.date(2026, 11, 28)
        with store.engine.begin() as connection:
            connection.execute(insert(tables.tables["players"]), [{"id": "p_1", "name": "Marie", "created_at": NOW}])
            for game_id, mode, game_day in (("g_free", "free", None), ("g_daily", "daily", day)):
                row = {"id": game_id, "player_id": "p_1", "mode": mode, "day": game_day, "ranked": True, "seed": "s"}
                row |= {"variant": "malmedy", "bot_id": "expert/1", "created_at": NOW, "game": "malmedy", "options": ""}
                connection.execute(insert(tables.tables["games"]), [row])
                connection.execute(
                    insert(tables.tables["moves"]), [{"game_id": game_id, "number": 0, "move": "E:pass"}]
                )
        before = {table: rows_of(store, table) for table in ("players", "games", "moves")}
        store.migrate()
        assert {table: rows_of(store, table) for table in before} == before
        assert store.review("g_free", "S", True, "1.0") is None
        body = bytes(range(256)) * 40  # Any bytes: zlib's output is binary.
        store.keep_review("g_daily", "S", False, "1.0", b"hidden")
        store.keep_review("g_daily", "S", True, "1.0", body)
        assert (
            store.review("g_daily", "S", False, "1.0") == b"hidden"
            and store.review("g_daily", "S", True, "1.0") == body
        )
        assert store.review("g_daily", "S", True, "1.1") is None  # Another version builds its own.
        store.keep_review("g_daily", "S", True, "1.1", b"rebuilt")
        assert (
            store.review("g_daily", "S", True, "1.1") == b"rebuilt"
            and store.review("g_daily", "S", True, "1.0") is None
        )
        assert store.review("g_daily", "S", False, "1.0") == b"hidden"
        # A review goes with its game.
        assert store.prune(NOW + dt.timedelta(days=1), lambda game, played: False) == Pruned(games=2, players=1)
        assert rows_of(store, "reviews") == []
        downgrade(store, "0010")
        assert "reviews" not in inspect(store.engine).get_table_names()
        store.migrate()
    finally:
        store.close()
