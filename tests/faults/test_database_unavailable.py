"""The database stopped (PostgreSQL) or locked by another connection (SQLite): clear 503 answers in the
API's error shape, nothing half-written, and service back by itself once the database is back."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.conftest import free_port
from tests.faults.conftest import StoppablePostgres
from tests.server.helpers import Answer, new_game, play_to_end, send_move

from couyon.games.malmedy.record import verify
from couyon.loadgen import ServerProcess
from couyon.server.app import DatabaseHealth, create_app
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
        client.app.state.replay.close()  # type: ignore[attr-defined]  # TestClient runs no lifespan shutdown.
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
    monkeypatch.setattr(DatabaseHealth, "PROBE_SECONDS", 0.0)  # A fresh write probe at every health check.
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
        # The health check's write probe waits for the lock as a move does, and says why writes fail.
        health = client.get("/api/health")
        assert health.status_code == 503 and health.json()["database"] == "locked", health.text
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


def test_postgresql_stopping_under_load_costs_only_503s(stoppable_postgres: StoppablePostgres, tmp_path: Path) -> None:
    """Eight players keep playing while the database stops and starts again, transactions cut mid-way:
    every answer is a 200 or a 503 (a 409 only for a move resent after a 503 whose commit had landed),
    and every game then finishes with a record that replays to what its player saw."""
    statuses: Counter[str] = Counter()
    progress = threading.Semaphore(0)
    finals: list[Answer] = []
    failures: list[BaseException] = []

    def player(index: int, base: str) -> None:
        rng = random.Random(index)
        with httpx.Client(base_url=base, timeout=30) as client:
            try:
                answer = client_answer(client.post("/api/games", json={"mode": "free"}), statuses)
                while answer is None:
                    answer = client_answer(client.post("/api/games", json={"mode": "free"}), statuses)
                after_503 = False
                while answer["view"]["winner"] is None:
                    body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
                    response = client.post(f"/api/games/{answer['id']}/moves", json=body)
                    if response.status_code == 409 and after_503:
                        statuses["409 after a 503"] += 1
                        shown = None
                        while shown is None:  # Reload, as the page does, until the database answers.
                            shown = client_answer(client.get(f"/api/games/{answer['id']}"), statuses)
                        answer = shown
                    elif client_answer(response, statuses) is not None:
                        answer = response.json()
                        progress.release()
                    after_503 = response.status_code == 503
                    if after_503:
                        time.sleep(int(response.headers["retry-after"]) / 10)
                finals.append(answer)
                record = client.get(f"/api/games/{answer['id']}/record")
                report = verify(record.content)
                assert report["valid"] and report["score"] == answer["view"]["score"]
            except BaseException as error:  # An assertion in a thread must fail the test.
                failures.append(error)
                progress.release()

    with ServerProcess(tmp_path / "data", stoppable_postgres.url) as server:
        threads = [threading.Thread(target=player, args=(index, server.url)) for index in range(8)]
        for thread in threads:
            thread.start()
        for _ in range(40):
            assert progress.acquire(timeout=60)
        stoppable_postgres.stop()
        time.sleep(1.5)
        stoppable_postgres.start()
        for thread in threads:
            thread.join(timeout=120)
            assert not thread.is_alive()
    assert not failures, failures
    assert len(finals) == 8
    assert set(statuses) <= {"200", "201", "503", "409 after a 503"}, statuses
    assert statuses["503"] > 0, statuses


def client_answer(response: httpx.Response, statuses: Counter[str]) -> Answer | None:
    """The answer of a 200 or 201, None after a 503 in the error shape; any other status fails."""
    statuses[str(response.status_code)] += 1
    if response.status_code == 503:
        assert_unavailable(response)
        return None
    assert response.status_code in (200, 201), response.text
    answer: Answer = response.json()
    return answer
