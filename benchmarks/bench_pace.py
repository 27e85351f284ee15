"""How long a player waits at the couyon table between his decisions (not run by pytest).

Usage: ``.venv/bin/python benchmarks/bench_pace.py [--speed normal] [--decisions 40] [--seed 1]``.
Starts ``couyon serve`` on a free local port with a temporary SQLite folder, opens a free
game in headless Chromium at the chosen speed (the player's ``couyon.speed``), and plays
it by mouse (take or pass at random, a random playable card, "Continuer" on each deal
summary, a new game at the end) until DECISIONS of the player's bids and cards are made.
For each one it records the wall-clock time from the click to the moment the table asks
again (a bid, a card, or the deal's summary when the move ended the deal; the time the
summary stays open is the player's and not counted) and prints the median, the 90th
percentile, the maximum and the mean. The bots answer in a few ms, so what is measured is
the table's animation pace.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from couyon.loadgen import ServerProcess

CHROMIUM = "/usr/bin/chromium"
ASKED = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  if (document.getElementById('deal-dialog').open) return 'deal';
  const turn = document.getElementById('view-table').dataset.turn;
  return ['bid', 'play'].includes(turn) ? turn : null;
}"""


SENT_SINCE = "(before) => Number(document.getElementById('view-table').dataset.sent || 0) > before"


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, min(len(ordered) - 1, round(fraction * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--speed", default="normal", choices=["slow", "normal", "fast"])
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    waits: list[float] = []
    bids = 0
    with (
        tempfile.TemporaryDirectory() as folder,
        ServerProcess(Path(folder)) as server,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        context = browser.new_context(base_url=server.url, viewport={"width": 1366, "height": 900})
        context.add_init_script(f"localStorage.setItem('couyon.speed', {args.speed!r})")
        page = context.new_page()
        page.goto("/")
        page.click("#new-game")
        now = page.wait_for_function(ASKED, timeout=60_000).json_value()
        while len(waits) < args.decisions:
            if now == "end":
                page.click("#end-new-game")
                now = page.wait_for_function(ASKED, timeout=60_000).json_value()
                continue
            if now == "deal":
                page.click("#deal-dialog-close")
                now = page.wait_for_function(ASKED, timeout=60_000).json_value()
                continue
            if now == "bid":
                bids += 1
                target = "#take-button" if rng.random() < 0.4 else "#pass-button"
            else:
                cards = page.locator(".hand-card.is-playable").evaluate_all("(n) => n.map((e) => e.dataset.card)")
                target = f'.hand-card[data-card="{rng.choice(cards)}"]'
            before = page.evaluate("() => Number(document.getElementById('view-table').dataset.sent || 0)")
            page.click(target)
            clicked = time.monotonic()
            page.wait_for_function(SENT_SINCE, arg=before)
            now = page.wait_for_function(ASKED, timeout=60_000, polling=20).json_value()
            waits.append(time.monotonic() - clicked)
        browser.close()
    ordered = sorted(waits)
    print(
        f"speed {args.speed}: {len(waits)} decisions ({bids} bids), seconds from the player's move to the next question"
    )
    print(
        f"  median {statistics.median(ordered):.2f}  p90 {percentile(ordered, 0.9):.2f}  max {ordered[-1]:.2f}"
        f"  mean {statistics.fmean(ordered):.2f}"
    )


if __name__ == "__main__":
    main()
