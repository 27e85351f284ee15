"""Browser-test fixtures: a real ``couyon serve`` on a free local port, and headless Chromium.

The server runs as a subprocess with a temporary SQLite folder and rate limits off (the
tests play whole games in seconds); the browser is Debian's /usr/bin/chromium driven by
Playwright. Each test gets a fresh context (its own cookie, so its own player) with the
bots' pace set to "instant" unless the test asks otherwise.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playing import DESKTOP, ContextFactory, browser_server
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


@pytest.fixture(scope="session")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real ``couyon serve`` on 127.0.0.1 and a free port (SQLite in a temporary folder), for the session."""
    with browser_server(tmp_path_factory.mktemp("couyon-data")) as server:
        yield server.url


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
