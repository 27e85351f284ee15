"""A PostgreSQL cluster of its own that a test may stop and start again (the shared one must stay up)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.conftest import _postgres_bin, free_port


class StoppablePostgres:
    """A throwaway cluster on a fixed port with one database, ``couyon``; ``stop`` and ``start`` keep its data."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.bin_dir = _postgres_bin()
        self.data = base / "data"
        self.port = free_port()
        self.url = f"postgresql+psycopg://couyon@127.0.0.1:{self.port}/couyon"
        self.run_as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(base, "postgres", "postgres")
            self.run_as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *arguments: str) -> None:
        subprocess.run([*self.run_as, *arguments], check=True, capture_output=True)

    def create(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "couyon",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self.start()
        self._run(str(self.bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "couyon", "couyon")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.base / "server.log")
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", log, "-w", "-o", options, "start")

    def stop(self) -> None:
        """A fast shutdown: open connections are cut, as when the database server goes away."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")


@pytest.fixture
def stoppable_postgres() -> Iterator[StoppablePostgres]:
    cluster = StoppablePostgres(Path(tempfile.mkdtemp(prefix="couyon-pg-stoppable-")))
    try:
        cluster.create()
        yield cluster
    finally:
        subprocess.run(
            [*cluster.run_as, str(cluster.bin_dir / "pg_ctl"), "-D", str(cluster.data), "-m", "immediate", "stop"],
            capture_output=True,
        )
        shutil.rmtree(cluster.base, ignore_errors=True)
