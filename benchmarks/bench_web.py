"""What the web table costs a first visitor: bytes transferred, and Lighthouse scores if it can run (not run by pytest).

Usage: ``.venv/bin/python benchmarks/bench_web.py [--game malmedy] [--lighthouse DIR]``. Starts
``couyon serve`` on a free local port with a temporary SQLite folder, opens the home page
(with ``--game``, that game's home, ``/#/malmedy``) in headless Chromium with the cache off,
starts a free game, and prints every response with the bytes Chromium counted on the wire
(``encodedDataLength``: headers and compressed body) and the total (issue 5's budget is
150 KB). With ``--lighthouse DIR``, where DIR holds
``node_modules/.bin/lighthouse`` (e.g. ``npm i -E lighthouse@12.2.3`` in DIR; version 13
wants Node 22), it also runs Lighthouse's mobile audit on ``/`` and on ``/#/table`` and
prints the category scores and the core metrics (Lighthouse starts from a clean profile, so
``/#/table`` is the table offering a new game; a game in progress was measured by hand with
``--disable-storage-reset`` and a profile that had started one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from couyon.loadgen import free_port

CHROMIUM = os.environ.get("COUYON_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
TURNS = ["bid", "play", "trump", "answer", "decide"]


def wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("couyon serve stopped before answering /api/health")
        try:
            with urllib.request.urlopen(f"{url}/api/health", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("couyon serve did not answer /api/health within 30 s")


def first_load(url: str, game: str | None) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 740})
        session = page.context.new_cdp_session(page)
        session.send("Network.enable")
        session.send("Network.setCacheDisabled", {"cacheDisabled": True})
        urls: dict[str, str] = {}
        sizes: dict[str, int] = {}
        session.on(
            "Network.responseReceived", lambda event: urls.__setitem__(event["requestId"], event["response"]["url"])
        )
        session.on(
            "Network.loadingFinished",
            lambda event: sizes.__setitem__(event["requestId"], int(event["encodedDataLength"])),
        )
        page.goto(f"{url}/#/{game}" if game else url)
        page.click("#game-new" if game else "#new-game")
        # South's first turn: bid or play in couyon; name trumps, answer a mite or play in Malmedy.
        page.wait_for_selector(", ".join(f"#view-table[data-turn='{turn}']" for turn in TURNS))
        page.wait_for_load_state("networkidle")
        browser.close()
    for request_id, size in sorted(sizes.items(), key=lambda item: item[1]):
        print(f"{size:8d}  {urls.get(request_id, '?').removeprefix(url)}")
    where = f"the {game} home page" if game else "the home page"
    print(f"{sum(sizes.values()):8d}  bytes in total, first load of {where} and a new game at the table")


def lighthouse(directory: Path, url: str) -> None:
    binary = directory / "node_modules" / ".bin" / "lighthouse"
    for page in ["/", "/#/table"]:
        with tempfile.TemporaryDirectory() as output:
            report_path = Path(output) / "report.json"
            subprocess.run(
                [
                    str(binary),
                    url + page,
                    "--quiet",
                    "--only-categories=performance,accessibility,best-practices,seo",
                    "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
                    "--output=json",
                    f"--output-path={report_path}",
                ],
                check=True,
                env={**os.environ, "CHROME_PATH": CHROMIUM},
            )
            report: dict[str, Any] = json.loads(report_path.read_text())
        scores = {name: round(category["score"] * 100) for name, category in report["categories"].items()}
        audits = report["audits"]
        metrics = {
            key: audits[key]["displayValue"]
            for key in [
                "first-contentful-paint",
                "largest-contentful-paint",
                "total-blocking-time",
                "cumulative-layout-shift",
            ]
        }
        print(f"lighthouse {report['configSettings']['formFactor']} {page}: {scores} {metrics}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", type=Path, help="folder where lighthouse is installed with npm")
    parser.add_argument("--game", help="start at this game's home (e.g. malmedy) instead of couyon's")
    args = parser.parse_args(argv)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as data_dir:
        command = [str(Path(sys.executable).with_name("couyon")), "serve", "--port", str(port), "--data-dir", data_dir]
        process = subprocess.Popen(
            command, stderr=subprocess.DEVNULL, env={**os.environ, "COUYON_LOG_LEVEL": "warning"}
        )
        try:
            wait_healthy(url, process)
            first_load(url, args.game)
            if args.lighthouse:
                lighthouse(args.lighthouse, url)
        finally:
            process.terminate()
            process.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
