"""What the store tests of the migrations after 0011 share: a store of 0011 with rows in it, upgraded."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import MetaData, insert
from tests.store.test_store import rows_of

from couyon.store import Store

KEPT = ("players", "games", "moves")
"""The tables of 0011 whose rows an upgrade must keep."""


def upgraded_from_0011(store: Store, game_id: str, now: dt.datetime) -> dict[str, list[Any]]:
    """Migrate ``store`` to 0011, write a player (``p_1``), his free game ``game_id`` and its first move, upgrade it
    to the current schema, and check every row is still there: the rows of ``KEPT`` as they were, to compare again."""
    store.migrate("0011")
    reflected = MetaData()
    reflected.reflect(store.engine)
    with store.engine.begin() as connection:
        connection.execute(insert(reflected.tables["players"]), [{"id": "p_1", "name": "Marie", "created_at": now}])
        row = {"id": game_id, "player_id": "p_1", "mode": "free", "day": None, "ranked": True, "seed": "s"}
        row |= {"variant": "standard", "bot_id": "expert/3", "created_at": now, "game": "couyon", "options": ""}
        connection.execute(insert(reflected.tables["games"]), [row])
        connection.execute(insert(reflected.tables["moves"]), [{"game_id": game_id, "number": 0, "move": "E:pass"}])
    before = {table: rows_of(store, table) for table in KEPT}
    store.migrate()
    assert {table: rows_of(store, table) for table in KEPT} == before
    return before
