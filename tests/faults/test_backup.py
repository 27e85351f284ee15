"""The backups docs/operations.md prescribes, taken while many games are being played, are consistent:
every game in them replays from its seed, is a prefix of the live game, and leaderboard entries come
only with finished games."""

from __future__ import annotations

import sqlite3
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from tests.conftest import _admin, _postgres_bin

from couyon.games.couyon.game import replay
from couyon.games.malmedy.record import variant_named
from couyon.loadgen import LoadOptions, ServerProcess, run_load
from couyon.store import Store
from couyon.store.schema import games, moves

MOVES_BEFORE_THE_BACKUP = 150


def stored_moves(store: Store) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(moves)).scalar_one())


def back_up_during_play(server: ServerProcess, database_url: str, back_up: Callable[[], None]) -> None:
    """Run ``back_up`` while eight players play, once some moves are stored; the play must end without error."""
    reports: list[Any] = []
    players = threading.Thread(
        target=lambda: reports.append(run_load(LoadOptions(players=8, games=1, duration=120), url=server.url))
    )
    players.start()
    live = Store(database_url)
    try:
        deadline = time.monotonic() + 60
        while stored_moves(live) < MOVES_BEFORE_THE_BACKUP and time.monotonic() < deadline:
            time.sleep(0.05)
        back_up()
    finally:
        players.join()
        live.close()
    assert reports[0]["error_count"] == 0, reports[0]["errors"]


def assert_consistent(backup_url: str, live_url: str) -> None:
    backup, live = Store(backup_url), Store(live_url)
    try:
        with backup.engine.connect() as connection:
            game_ids = list(connection.execute(select(games.c.id)).scalars())
        assert game_ids and stored_moves(backup) >= MOVES_BEFORE_THE_BACKUP
        for game_id in game_ids:
            saved, live_game = backup.game(game_id), live.game(game_id)
            assert saved is not None and live_game is not None
            game, saved_moves = saved
            state = replay(game.seed, saved_moves, variant_named(game.variant))
            assert live_game[1][: len(saved_moves)] == saved_moves
            if backup.entry(game_id) is not None:
                assert state.winner is not None
    finally:
        backup.close()
        live.close()


def test_an_online_sqlite_backup_is_consistent(tmp_path: Path) -> None:
    live_path, backup_path = tmp_path / "data" / "couyon.sqlite3", tmp_path / "backup.sqlite3"

    def back_up() -> None:
        # What `sqlite3 couyon.sqlite3 ".backup backup.sqlite3"` does: SQLite's online backup API.
        source, target = sqlite3.connect(live_path), sqlite3.connect(backup_path)
        source.backup(target)
        source.close()
        target.close()

    with ServerProcess(tmp_path / "data") as server:
        back_up_during_play(server, f"sqlite:///{live_path}", back_up)
    check = sqlite3.connect(backup_path)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    check.close()
    assert_consistent(f"sqlite:///{backup_path}", f"sqlite:///{live_path}")


def test_a_pg_dump_taken_during_play_restores_consistently(
    postgres_server: str, postgres_url: str, tmp_path: Path
) -> None:
    bin_dir = _postgres_bin()
    dump = tmp_path / "couyon.dump"

    def libpq(url: str) -> str:
        return url.replace("postgresql+psycopg://", "postgresql://")

    def back_up() -> None:
        subprocess.run(
            [str(bin_dir / "pg_dump"), "--format=custom", f"--file={dump}", libpq(postgres_url)],
            check=True,
            capture_output=True,
        )

    with ServerProcess(tmp_path / "data", postgres_url) as server:
        back_up_during_play(server, postgres_url, back_up)
    restored = "r_" + uuid.uuid4().hex[:16]
    _admin(postgres_server, f"CREATE DATABASE {restored}")
    try:
        restored_url = f"{postgres_server}/{restored}"
        subprocess.run(
            [str(bin_dir / "pg_restore"), "--no-owner", f"--dbname={libpq(restored_url)}", str(dump)],
            check=True,
            capture_output=True,
        )
        assert_consistent(restored_url, postgres_url)
    finally:
        _admin(postgres_server, f"DROP DATABASE IF EXISTS {restored} WITH (FORCE)")
