"""Reviews kept by seat (migration 0014, after 0013) on both backends: up with every stored review kept as its solo
table human's (South, seat 1 at coucou), each seat's review then kept apart, and undone keeping the human's."""

from __future__ import annotations

from sqlalchemy import MetaData, insert, inspect
from tests.store.test_store import NOW, downgrade, rows_of

from couyon.store import Store


def test_migration_0014_keeps_every_review_as_the_human_seats_and_keys_reviews_by_seat(database_url: str) -> None:
    store = Store(database_url)
    try:
        store.migrate("0013")
        tables = MetaData()
        tables.reflect(store.engine)
        with store.engine.begin() as connection:
            connection.execute(insert(tables.tables["players"]), [{"id": "p_1", "name": "Marie", "created_at": NOW}])
            for game_id, game, variant in (("g_couyon", "couyon", "standard"), ("g_coucou", "coucou", "coucou")):
                row = {"id": game_id, "player_id": "p_1", "mode": "free", "day": None, "ranked": True, "seed": "s"}
                row |= {"variant": variant, "bot_id": "expert/1", "created_at": NOW, "game": game, "options": ""}
                connection.execute(insert(tables.tables["games"]), [row])
            connection.execute(
                insert(tables.tables["reviews"]),
                [
                    {"game_id": "g_couyon", "revealed": False, "version": "1.0", "body": b"couyon hidden"},
                    {"game_id": "g_couyon", "revealed": True, "version": "1.0", "body": b"couyon"},
                    {"game_id": "g_coucou", "revealed": True, "version": "1.0", "body": bytes(range(256))},
                ],
            )
        before = {table: rows_of(store, table) for table in ("players", "games")}
        store.migrate()
        assert {table: rows_of(store, table) for table in before} == before
        key = inspect(store.engine).get_pk_constraint("reviews")["constrained_columns"]
        assert sorted(key) == ["game_id", "revealed", "seat"]
        # Every review kept, as written from the solo table's human's seat.
        assert store.review("g_couyon", "S", False, "1.0") == b"couyon hidden"
        assert store.review("g_couyon", "S", True, "1.0") == b"couyon"
        assert store.review("g_coucou", "1", True, "1.0") == bytes(range(256))
        assert store.review("g_coucou", "S", True, "1.0") is None and store.review("g_couyon", "1", True, "1.0") is None
        # Another seat's review is a row of its own; replacing one seat's leaves the others.
        store.keep_review("g_couyon", "W", True, "1.0", b"west")
        store.keep_review("g_coucou", "4", True, "1.0", b"four")
        assert store.review("g_couyon", "W", True, "1.0") == b"west"
        assert store.review("g_couyon", "S", True, "1.0") == b"couyon"
        store.keep_review("g_couyon", "W", True, "1.1", b"west again")
        assert store.review("g_couyon", "W", True, "1.1") == b"west again"
        assert store.review("g_couyon", "S", True, "1.0") == b"couyon"
        assert len(rows_of(store, "reviews")) == 5
        # Back to 0013: the human seats' reviews stay, the other seats' go (0013 would serve them as the human's).
        downgrade(store, "0013")
        assert "seat" not in {column["name"] for column in inspect(store.engine).get_columns("reviews")}
        kept = {(row["game_id"], row["revealed"], bytes(row["body"])) for row in rows_of(store, "reviews")}
        assert kept == {
            ("g_couyon", False, b"couyon hidden"),
            ("g_couyon", True, b"couyon"),
            ("g_coucou", True, bytes(range(256))),
        }
        store.migrate()
        assert store.review("g_coucou", "1", True, "1.0") == bytes(range(256))
    finally:
        store.close()
