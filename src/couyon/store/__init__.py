"""Persistence of games as seeds and moves (SQLite by default, PostgreSQL by URL)."""

from couyon.store.store import (
    LeaderboardEntry,
    RankedEntry,
    RankedFinish,
    StaleMoveError,
    Store,
    StoredGame,
    sqlite_url,
)

__all__ = ["LeaderboardEntry", "RankedEntry", "RankedFinish", "StaleMoveError", "Store", "StoredGame", "sqlite_url"]
