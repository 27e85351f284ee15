"""The first load of the table page transfers at most 150 KB compressed (issue 5), and the home page's
first load at most 60 KB (issue 18: a game's words and the table load when they are needed), counted
by Chromium itself."""

from __future__ import annotations

from typing import Any

from playing import PHONE, ContextFactory, situation

BUDGET_BYTES = 150 * 1024
HOME_BUDGET_BYTES = 60 * 1024
GAMES = ("couyon", "malmedy", "tarot", "coucou")


def counting(page: Any) -> tuple[dict[str, int], dict[str, str], dict[str, str]]:
    """Bytes on the wire (headers and compressed body), address and content encoding of each response, by request."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setCacheDisabled", {"cacheDisabled": True})
    transferred: dict[str, int] = {}
    urls: dict[str, str] = {}
    encodings: dict[str, str] = {}

    def on_response(event: dict[str, Any]) -> None:
        urls[event["requestId"]] = event["response"]["url"]
        headers = {name.lower(): value for name, value in event["response"]["headers"].items()}
        encodings[event["requestId"]] = headers.get("content-encoding", "")

    def on_finished(event: dict[str, Any]) -> None:
        transferred[event["requestId"]] = int(event["encodedDataLength"])

    session.on("Network.responseReceived", on_response)
    session.on("Network.loadingFinished", on_finished)
    return transferred, urls, encodings


def test_the_home_page_first_load_stays_under_60_kb(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE).new_page()
    transferred, urls, encodings = counting(page)
    page.goto("/")
    page.wait_for_load_state("networkidle")
    # The home page is drawn: the day's challenge has its button's words and its countdown.
    assert page.locator("#daily-time").inner_text().strip()
    assert page.locator("#play-daily").inner_text().strip()

    total = sum(transferred.values())
    report = sorted((transferred[key], urls.get(key, "?"), encodings.get(key, "")) for key in transferred)
    print(f"\nfirst load of the home page: {total} bytes over {len(report)} responses")
    for size, url, encoding in report:
        print(f"  {size:7d}  {encoding or 'identity':8s} {url}")
    assert total <= HOME_BUDGET_BYTES, report
    # The table and the games' modules and words wait until a table, or a game's page, is opened.
    paths = {url.split("/", 3)[-1] for url in urls.values()}
    later = {"js/table.js", "js/table/shared.js"} | {
        f"js/games/{game}{end}" for game in GAMES for end in (".js", "-words.js")
    }
    assert not paths & later, sorted(paths & later)


def test_the_first_load_of_the_table_stays_under_150_kb(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE).new_page()
    transferred, urls, encodings = counting(page)
    page.goto("/")
    page.click("#new-game")
    situation(page)
    page.wait_for_load_state("networkidle")

    total = sum(transferred.values())
    report = sorted((transferred[key], urls.get(key, "?"), encodings.get(key, "")) for key in transferred)
    print(f"\nfirst load of the table: {total} bytes over {len(report)} responses")
    for size, url, encoding in report:
        print(f"  {size:7d}  {encoding or 'identity':8s} {url}")
    assert total <= BUDGET_BYTES, report
    # The larger text files must arrive compressed.
    for size, url, encoding in report:
        if url.endswith((".js", ".css", "/")) and size > 1500:
            assert encoding == "gzip", url
