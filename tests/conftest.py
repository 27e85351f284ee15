"""Shared fixtures: a real SQLite file, a real throwaway PostgreSQL cluster, a movable clock, app clients.

The PostgreSQL cluster is started once per test session with ``initdb``/``pg_ctl`` from
/usr/lib/postgresql/*/bin on a free port in a temporary folder (as the ``postgres`` user
when running as root, since ``initdb`` refuses root); each test gets its own database.
"""

from __future__ import annotations

import datetime as dt
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

BACKENDS = ("sqlite", "postgres")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--full",
        action="store_true",
        help="play the long simulations at their full size (as COUYON_FULL_TESTS=1; tests/games/full.py)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--full"):
        # Read by tests/games/full.py when the test modules are imported, after this hook.
        os.environ["COUYON_FULL_TESTS"] = "1"
    # Starlette's TestClient still works on httpx; its notice about a future replacement is not our concern.
    config.addinivalue_line("filterwarnings", "ignore:Using `httpx` with `starlette.testclient`")
    # Servers started by tests answer as soon as they are ready: the answer floor (couyon.server.pacing) would
    # add 250 ms per bot move to every game the suite plays. tests/server/test_pacing.py checks it with the default.
    os.environ.setdefault("COUYON_ANSWER_FLOOR_MS", "0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Playwright's sync API keeps an event loop running in the main thread until the
    # session ends, and asyncio.run() (couyon load, its tests) refuses to start under
    # it: the browser tests go last. Stable sort, so every other order is kept.
    items.sort(key=lambda item: "browser" in item.path.parts)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """scripts/test runs two processes (``-n 2``): the faults and then the browser tests, which wait on pages,
    servers and clusters more than they compute, in one; everything else in the other. Each process has its own
    session fixtures (PostgreSQL cluster, couyon serve, Chromium), and the one that starts Playwright runs no
    asyncio.run() after it."""
    from xdist.scheduler import LoadScopeScheduling

    class TwoStreams(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return "pages" if nodeid.startswith(("tests/browser/", "tests/faults/")) else "engine"

    return TwoStreams(config, log)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _postgres_bin() -> Path:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.fail("PostgreSQL is not installed (scripts/install --test installs it)")
    return Path(found[-1]).parent


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL cluster for this session; yields the URL without a database name."""
    bin_dir = _postgres_bin()
    base = Path(tempfile.mkdtemp(prefix="couyon-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    data = base / "data"
    subprocess.run(
        [*run_as, str(bin_dir / "initdb"), "-D", str(data), "-U", "couyon", "--auth=trust", "-E", "UTF8", "--no-sync"],
        check=True,
        capture_output=True,
    )
    port = free_port()
    options = (
        f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=300 "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    )
    pg_ctl = str(bin_dir / "pg_ctl")
    subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-l", str(base / "server.log"), "-w", "-o", options, "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://couyon@127.0.0.1:{port}"
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _admin(server: str, statement: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(f"{server}/postgres", isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.execute(text(statement))
    finally:
        engine.dispose()


@pytest.fixture
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A fresh, empty database on the session's PostgreSQL cluster."""
    name = "t_" + uuid.uuid4().hex[:16]
    _admin(postgres_server, f"CREATE DATABASE {name}")
    try:
        yield f"{postgres_server}/{name}"
    finally:
        _admin(postgres_server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    """A fresh SQLite file (the server's default backend)."""
    return f"sqlite:///{tmp_path / 'data' / 'couyon.sqlite3'}"


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each test using it runs once on SQLite and once on PostgreSQL."""
    (tmp_path / "data").mkdir(exist_ok=True)
    return str(request.getfixturevalue(f"{request.param}_url"))


class MovableClock:
    """The app's clock, moved by tests (the server reads time from nothing else)."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, delta: dt.timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock() -> MovableClock:
    # 10:00 in Brussels on 2026-11-29 (UTC+1 in winter).
    return MovableClock(dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.UTC))


@pytest.fixture
def make_client(database_url: str, clock: MovableClock, tmp_path: Path) -> Iterator[Callable[..., Any]]:
    """Build TestClients over one app on ``database_url``; each client is its own browser (cookie jar)."""
    from fastapi.testclient import TestClient

    from couyon.server.app import create_app
    from couyon.server.config import Settings

    apps: dict[tuple[tuple[str, Any], ...], Any] = {}
    clients: list[Any] = []

    def make(**overrides: Any) -> Any:
        key = tuple(sorted(overrides.items()))
        if key not in apps:
            settings: dict[str, Any] = {
                "data_dir": tmp_path / "data",
                "database_url": database_url,
                "secret": "test-secret",
                "rate_games_per_minute": 0,
                "rate_moves_per_minute": 0,
                "answer_floor_ms": 0,
            }
            settings.update(overrides)
            apps[key] = create_app(Settings(**settings), clock=clock)
        client = TestClient(apps[key], base_url="http://127.0.0.1")
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.close()
    for app in apps.values():
        shut_down(app)


def shut_down(app: Any) -> None:
    """What the server's shutdown closes, for a test's app: TestClient runs no lifespan, so nothing else would end
    its replay process, its tables' listener and tick, and its store."""
    app.state.replay.close()
    app.state.table_hub.stop()
    app.state.store.close()
