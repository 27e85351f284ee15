"""A database that answers reads but refuses writes — a read-only SQLite file, a full disk, a PostgreSQL database in
read-only mode — makes the health check answer 503 with the cause, and the log names the cause of every refused
write (read_only, disk_full, locked) instead of only "OperationalError"."""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, text
from tests.server.helpers import new_game, send_move

from couyon.loadgen import ServerProcess, free_port
from couyon.server.app import DatabaseHealth, create_app
from couyon.server.config import Settings


class Records(logging.Handler):
    """The couyon.server log records of a test (attached to the logger itself, whatever its propagation)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def causes(self, message: str) -> list[str]:
        return [getattr(record, "cause", "") for record in self.records if record.getMessage() == message]


@pytest.fixture
def server_log() -> Iterator[Records]:
    handler = Records()
    logger = logging.getLogger("couyon.server")
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)


@pytest.fixture
def client_on(tmp_path: Path) -> Iterator[Any]:
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
        client.app.state.replay.close()  # type: ignore[attr-defined]
        client.app.state.store.close()  # type: ignore[attr-defined]


def assert_degraded(response: Any, cause: str, reason: str) -> None:
    assert response.status_code == 503, response.text
    body = response.json()
    assert body["status"] == "degraded" and body["database"] == cause, body
    assert body["reason"] == reason


@contextmanager
def read_only(path: Path) -> Iterator[None]:
    """The file cannot be opened for writing: immutable for root (who ignores modes), mode 0444 otherwise."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(path)], check=True)
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
    else:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)


@contextmanager
def serve(data_dir: Path) -> Iterator[str]:
    """``couyon serve`` on a free port until its health check answers anything (ServerProcess waits for a 200)."""
    port = free_port()
    environment = {**os.environ, "COUYON_DATA_DIR": str(data_dir), "COUYON_LOG_LEVEL": "warning"}
    environment.pop("COUYON_DATABASE_URL", None)
    environment.pop("COUYON_SECRET", None)
    with (data_dir / "server.log").open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "couyon.cli", "serve", "--port", str(port)],
            env=environment,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (data_dir / "server.log").read_text()
            try:
                httpx.get(f"{url}/api/health", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server did not answer"
                time.sleep(0.1)
        yield url
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)


def logged(data_dir: Path, message: str) -> list[dict[str, Any]]:
    lines = (data_dir / "server.log").read_text().splitlines()
    documents = [json.loads(line) for line in lines if line.startswith("{")]
    return [document for document in documents if document.get("message") == message]


@pytest.mark.skipif(os.geteuid() == 0 and not Path("/usr/bin/chattr").exists(), reason="needs chattr as root")
def test_the_real_server_on_a_read_only_sqlite_file(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with ServerProcess(data_dir) as server, httpx.Client(base_url=server.url) as player:
        game = player.post("/api/games", json={"mode": "free"}).json()
    database = data_dir / "couyon.sqlite3"
    with read_only(database), serve(data_dir) as url, httpx.Client(base_url=url) as player:
        player.cookies.update(dict(httpx.Cookies()))
        reason = "The database refuses writes: it is read-only."
        assert_degraded(httpx.get(f"{url}/api/health"), "read_only", reason)
        assert httpx.head(f"{url}/api/health").status_code == 503
        refused = httpx.post(f"{url}/api/games", json={"mode": "free"})
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "database_unavailable"
        assert httpx.get(f"{url}/api/leaderboard").status_code == 200  # Reads go on.
        assert game["id"].startswith("g_")
    unavailable = logged(data_dir, "database unavailable")
    assert [line["cause"] for line in unavailable] == ["read_only"], unavailable
    assert unavailable[0]["path"] == "/api/games" and "readonly" in unavailable[0]["detail"]
    assert [line["cause"] for line in logged(data_dir, "database unhealthy")] == ["read_only"]
    # Writable again: healthy, and the game plays on.
    with ServerProcess(data_dir) as server:
        assert httpx.get(f"{server.url}/api/health").json()["database"] == "ok"


def test_a_full_disk_is_reported_by_health_and_named_in_the_log(
    tmp_path: Path, client_on: Any, server_log: Records
) -> None:
    """SQLite's max_page_count makes the file full as a full disk would (SQLITE_FULL), for every new connection."""
    url = f"sqlite:///{tmp_path / 'data' / 'couyon.sqlite3'}"
    client = client_on(url)
    answer = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    limit = {"pages": 0}

    def cap_pages(dbapi_connection: Any, _record: Any) -> None:
        if limit["pages"]:
            dbapi_connection.execute(f"PRAGMA max_page_count = {limit['pages']}")

    event.listen(store.engine, "connect", cap_pages)
    with store.engine.connect() as connection:
        limit["pages"] = int(connection.execute(text("PRAGMA page_count")).scalar_one())
    store.engine.dispose()  # Every connection from now on has the cap.

    statuses = []
    for _ in range(300):
        response = client.post("/api/games", json={"mode": "free"})
        statuses.append(response.status_code)
        if response.status_code == 503:
            break
    assert statuses[-1] == 503 and set(statuses) <= {201, 503}, statuses
    assert_degraded(client.get("/api/health"), "disk_full", "The database refuses writes: its disk is full.")
    assert server_log.causes("database unavailable")[-1] == "disk_full"
    assert "disk_full" in server_log.causes("database unhealthy")

    limit["pages"] = 0  # Room again.
    store.engine.dispose()
    assert send_move(client, answer, answer["view"]["legal"][0]).status_code == 200
    assert client.get("/api/health").json()["database"] == "ok"


def test_a_read_only_postgresql_database(postgres_url: str, client_on: Any, server_log: Records) -> None:
    client = client_on(postgres_url)
    answer = new_game(client)
    store = client.app.state.store  # type: ignore[attr-defined]
    name = postgres_url.rsplit("/", 1)[1]
    admin = create_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f"ALTER DATABASE {name} SET default_transaction_read_only = on"))
        store.engine.dispose()  # New connections are read-only, as on a standby.
        assert_degraded(client.get("/api/health"), "read_only", "The database refuses writes: it is read-only.")
        refused = send_move(client, answer, answer["view"]["legal"][0])
        assert refused.status_code == 503
        assert server_log.causes("database unavailable") == ["read_only"]
        assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]  # Reads go on.
        with admin.connect() as connection:
            connection.execute(text(f"ALTER DATABASE {name} SET default_transaction_read_only = off"))
        store.engine.dispose()
    finally:
        admin.dispose()
    time.sleep(DatabaseHealth.PROBE_SECONDS)  # The last verdict is kept that long.
    assert client.get("/api/health").json()["database"] == "ok"
    assert send_move(client, answer, answer["view"]["legal"][0]).status_code == 200
