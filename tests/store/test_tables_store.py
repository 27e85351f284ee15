"""The store of friends' tables on both backends: migration 0012 from the current schema, seats, games, races."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from sqlalchemy import inspect
from tests.store.helpers import upgraded_from_0011
from tests.store.test_store import downgrade, rows_of

from couyon.store import StaleMoveError, Store, StoredGame
from couyon.store.tables import SeatRefused, SeatsChanged, StoredTable, TableStore

NOW = dt.datetime(2026, 11, 29, 9, 0)
SEATS = ("S", "W", "N", "E")
HOST_ONLY = {"S": "p_host", "W": None, "N": None, "E": None}


@pytest.fixture
def tables(database_url: str) -> Iterator[TableStore]:
    store = Store(database_url)
    store.migrate()
    yield TableStore(store)
    store.close()


def a_table(code: str = "ABCDEF") -> StoredTable:
    return StoredTable(
        code, "s" * 22, "couyon", '{"level":"expert"}', 30, "p_host", "waiting", None, 0, "{}", None, NOW
    )


def a_game(game_id: str) -> StoredGame:
    return StoredGame(game_id, "p_host", "table", None, False, "seed", "standard", "expert/1", NOW, "couyon", "")


def test_migration_0012_keeps_every_row_and_can_be_undone(database_url: str) -> None:
    store = Store(database_url)
    try:
        before = upgraded_from_0011(store, "g_1", NOW)
        assert {"tables", "table_seats", "game_seats", "seat_bot_moves"} <= set(inspect(store.engine).get_table_names())
        assert TableStore(store).holders("g_1") == {}  # A game of before is a solo game.
        downgrade(store, "0011")
        assert "tables" not in inspect(store.engine).get_table_names()
        assert {table: rows_of(store, table) for table in before} == before
        store.migrate()
    finally:
        store.close()


def test_a_table_seats_people_one_per_seat(tables: TableStore) -> None:
    tables.create(a_table(), SEATS, "S")
    table, seats = tables.table("ABCDEF") or pytest.fail("no table")
    assert table.host_id == "p_host" and table.state == "waiting" and table.clock == 30
    assert {seat.seat: seat.player_id for seat in seats} == {"S": "p_host", "W": None, "N": None, "E": None}
    tables.take_seat("ABCDEF", "N", "p_anne")
    with pytest.raises(SeatRefused, match="seat_taken"):
        tables.take_seat("ABCDEF", "N", "p_bob")
    tables.take_seat("ABCDEF", "E", "p_anne")  # Moving to another seat frees the first.
    seats_now = {seat.seat: seat.player_id for seat in (tables.table("ABCDEF") or pytest.fail())[1]}
    assert seats_now == {"S": "p_host", "W": None, "N": None, "E": "p_anne"}
    tables.leave_seat("ABCDEF", "p_anne")
    assert all(seat.player_id is None for seat in tables.table("ABCDEF")[1] if seat.seat != "S")  # type: ignore[index]
    assert tables.table("ZZZZZZ") is None


def test_a_started_table_refuses_seats_and_a_second_start_and_keeps_its_holders(tables: TableStore) -> None:
    tables.create(a_table(), SEATS, "S")
    holders = {"S": "p_host", "W": None, "N": None, "E": None}
    with pytest.raises(SeatsChanged):  # Read before Anne sat at N: nothing is started.
        tables.start_game("ABCDEF", None, a_game("g_t0"), [], holders | {"N": "p_anne"}, [], NOW)
    tables.start_game("ABCDEF", None, a_game("g_t1"), ["W:pass"], holders, [], NOW)
    with pytest.raises(StaleMoveError):
        tables.start_game("ABCDEF", None, a_game("g_t2"), [], holders, [], NOW)
    with pytest.raises(SeatRefused, match="table_started"):
        tables.take_seat("ABCDEF", "N", "p_anne")
    with pytest.raises(SeatRefused, match="table_playing"):
        tables.leave_seat("ABCDEF", "p_host")
    assert tables.holders("g_t1") == holders
    table = (tables.table("ABCDEF") or pytest.fail())[0]
    assert table.state == "playing" and table.game_id == "g_t1" and table.moved_at == NOW


def test_moves_race_on_their_number_and_the_last_one_ends_the_game_with_its_results(tables: TableStore) -> None:
    tables.create(a_table(), SEATS, "S")
    tables.start_game("ABCDEF", None, a_game("g_t1"), [], HOST_ONLY, [], NOW)
    later = NOW + dt.timedelta(seconds=5)
    tables.append_moves("ABCDEF", "g_t1", 0, ["W:pass", "N:pass"], [0], later)
    with pytest.raises(StaleMoveError):
        tables.append_moves("ABCDEF", "g_t1", 1, ["N:take"], [], later)  # Another process wrote move 1 first.
    assert tables.bot_numbers("g_t1") == {0}
    assert (tables.table("ABCDEF") or pytest.fail())[0].moved_at == later
    tables.append_moves("ABCDEF", "g_t1", 2, ["E:pass"], [], later, results='{"games":1}')
    table = (tables.table("ABCDEF") or pytest.fail())[0]
    assert (table.state, table.games_played, table.results) == ("over", 1, '{"games":1}')
    # A rematch is asked of the game just over, and names it: the first of two racing rematches starts, the
    # second is refused; an ask that comes after it stores nothing.
    assert tables.ask_rematch("ABCDEF", "S", "g_t1")
    tables.start_game("ABCDEF", "g_t1", a_game("g_t2"), [], HOST_ONLY, [], later)
    assert not tables.ask_rematch("ABCDEF", "S", "g_t1")
    assert not any(seat.rematch for seat in (tables.table("ABCDEF") or pytest.fail())[1])
    with pytest.raises(StaleMoveError):
        tables.start_game("ABCDEF", "g_t1", a_game("g_t3"), [], HOST_ONLY, [], later)


def test_seen_and_bot_now_are_kept_per_seat(tables: TableStore) -> None:
    tables.create(a_table(), SEATS, "S")
    tables.give_to_bot("ABCDEF", "S")
    tables.seen([("ABCDEF", "S")], NOW)
    seat = (tables.table("ABCDEF") or pytest.fail())[1]
    south = next(one for one in seat if one.seat == "S")
    assert south.bot_now and south.seen_at == NOW
    tables.seen([("ABCDEF", "S")], NOW, back=True)
    south = next(one for one in (tables.table("ABCDEF") or pytest.fail())[1] if one.seat == "S")
    assert not south.bot_now
