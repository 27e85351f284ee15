"""Browser-test fixtures: a real ``couyon serve`` on a free local port, and headless Chromium.

The server runs as a subprocess with a temporary SQLite folder and rate limits off (the
tests play whole games in seconds); the browser is Debian's /usr/bin/chromium driven by
Playwright. Each test gets a fresh context (its own cookie, so its own player) with the
bots' pace set to "instant" unless the test asks otherwise.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playing import DESKTOP, ContextFactory
from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("COUYON_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _couyon_command() -> list[str]:
    script = Path(sys.executable).with_name("couyon")
    return [str(script)] if script.exists() else [sys.executable, "-m", "couyon.cli"]


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start ``couyon serve`` on 127.0.0.1 and a free port; wait for /api/health; stop it after the session."""
    data_dir = tmp_path_factory.mktemp("couyon-data")
    port = _free_port()
    environment = {
        **os.environ,
        "COUYON_RATE_GAMES_PER_MINUTE": "0",
        "COUYON_RATE_MOVES_PER_MINUTE": "0",
        "COUYON_LOG_LEVEL": "warning",
    }
    environment.pop("COUYON_DATABASE_URL", None)
    log_path = data_dir / "server.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [*_couyon_command(), "serve", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data_dir)],
            stdout=log,
            stderr=subprocess.STDOUT,
            env=environment,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"couyon serve did not start:\n{log_path.read_text(errors='replace')}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium, shared by the session."""
    # No skip: scripts/install --test installs Chromium, and a missing browser must fail the run.
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}; run scripts/install --test"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def new_context(browser: Any, server_url: str) -> Iterator[ContextFactory]:
    """Make browser contexts on the test server: instant pace, French unless told, closed after the test."""
    contexts: list[Any] = []

    def make(*, speed: str = "instant", language: str | None = None, **options: Any) -> Any:
        options.setdefault("viewport", DESKTOP)
        context = browser.new_context(base_url=server_url, **options)
        context.set_default_timeout(15_000)
        settings = f"localStorage.setItem('couyon.speed', {speed!r});"
        if language:
            settings += f"localStorage.setItem('couyon.language', {language!r});"
        # Only on the first load of a tab, so a reload keeps what the page itself stored.
        context.add_init_script(f"if (!sessionStorage.getItem('couyon.test')) {{ {settings} }}")
        context.add_init_script("sessionStorage.setItem('couyon.test', '1');")
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()
