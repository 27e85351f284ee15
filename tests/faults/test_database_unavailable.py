"""The database stopped (PostgreSQL) or locked by another connection (SQLite): clear 503 answers in the
API's error shape, nothing half-written, and service back by itself once the database is back."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.conftest import free_port
from tests.faults.conftest import StoppablePostgres
from tests.server.helpers import Answer, new_game, play_to_end, send_move

from couyon.record import verify
from couyon.server.app import create_app
from couyon.server.config import Settings


@pytest.fixture
def client_on(tmp_path: Path) -> Iterator[Any]:
    """A client of an app on the given database URL (500s answered, not raised, so they would be seen)."""
    made: list[TestClient] = []

    def make(database_url: str) -> TestClient:
        settings = Settings(
            data_dir=tmp_path / "data",
            database_url=database_url,
            secret="test-secret",
            rate_games_per_minute=0,
            rate_moves_per_minute=0,
        )
        client = TestClient(create_app(settings), base_url="http://127.0.0.1", raise_server_exceptions=False)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
        client.app.state.store.close()  # type: ignore[attr-defined]


def assert_unavailable(response: Any) -> None:
    assert response.status_code == 503, response.text
    assert response.json() == {
        "error": {"code": "database_unavailable", "message": "The database is unavailable; try again shortly."}
    }
    assert response.headers["retry-after"] == "1"


def played_a_little(client: TestClient) -> Answer:
    answer = new_game(client)
    for _ in range(3):
        answer = send_move(client, answer, answer["view"]["legal"][0]).json()
    return answer


def assert_back_and_intact(client: TestClient, answer: Answer) -> None:
    """The game is where its last acknowledged move left it, and plays on to a record that replays."""
    assert client.get("/api/health").json()["status"] == "ok"
    assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
    final = play_to_end(client, answer, random.Random(6))
    report = verify(client.get(f"/api/games/{answer['id']}/record").content)
    assert report["valid"] and (report["winner"], report["score"]) == (final["view"]["winner"], final["view"]["score"])


def test_a_stopped_postgresql_gives_503_then_service_resumes(
    stoppable_postgres: StoppablePostgres, client_on: Any
) -> None:
    client = client_on(stoppable_postgres.url)
    answer = played_a_little(client)
    stoppable_postgres.stop()

    health = client.get("/api/health")
    assert health.status_code == 503
    assert health.json()["status"] == "degraded" and health.json()["database"] == "unavailable"
    assert_unavailable(send_move(client, answer, answer["view"]["legal"][0]))
    assert_unavailable(client.get(f"/api/games/{answer['id']}"))
    assert_unavailable(client.post("/api/games", json={"mode": "free"}))
    assert_unavailable(client.put("/api/player", json={"name": "Marie"}))
    assert_unavailable(client.get("/api/leaderboard"))
    assert_unavailable(client.get("/api/daily"))

    stoppable_postgres.start()  # The same app, not restarted: its pool replaces the dead connections.
    assert_back_and_intact(client, answer)


def test_a_locked_sqlite_file_refuses_writes_with_503_then_service_resumes(
    tmp_path: Path, client_on: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Writers wait this long for the lock before giving up (5 s in production; short here to keep the test quick).
    monkeypatch.setattr("couyon.store.store._SQLITE_BUSY_MILLISECONDS", 200)
    path = tmp_path / "data" / "couyon.sqlite3"
    client = client_on(f"sqlite:///{path}")
    answer = played_a_little(client)

    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # Another program (a backup, a shell) holds the write lock.
    try:
        assert_unavailable(send_move(client, answer, answer["view"]["legal"][0]))
        assert_unavailable(client.post("/api/games", json={"mode": "free"}))
        assert_unavailable(client.put("/api/player", json={"name": "Marie"}))
        # Reads go on in WAL mode: the game can still be shown, unchanged by the refused move.
        assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
        assert client.get("/api/health").status_code == 200
    finally:
        holder.execute("ROLLBACK")

    assert holder.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    holder.close()
    assert_back_and_intact(client, answer)


@pytest.mark.parametrize(
    ("database_url", "expected"),
    [
        ("postgresql+psycopg://couyon:hunter2@127.0.0.1:{port}/couyon", "cannot use the database"),
        ("postgresql+psycopg://couyon:hunter2@127.0.0.1:notaport/couyon", "the database URL is not one such as"),
    ],
    ids=["nothing listening", "misspelt"],
)
def test_serve_refuses_an_unusable_database_in_one_sentence(database_url: str, expected: str, tmp_path: Path) -> None:
    """At start-up a database that cannot be reached is one line for the operator, without its password."""
    environment = {**os.environ, "COUYON_DATABASE_URL": database_url.format(port=free_port())}
    done = subprocess.run(
        [sys.executable, "-m", "couyon.cli", "serve", "--data-dir", str(tmp_path)],
        env=environment,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    message = done.stderr.decode()
    assert message.startswith(f"couyon serve: {expected}") and message.count("\n") == 1, message
    assert "hunter2" not in message and "Traceback" not in message
