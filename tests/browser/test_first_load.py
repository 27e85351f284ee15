"""The first load of the table page transfers at most 150 KB compressed (issue 5), counted by Chromium itself."""

from __future__ import annotations

from typing import Any

from playing import PHONE, ContextFactory, situation

BUDGET_BYTES = 150 * 1024


def test_the_first_load_of_the_table_stays_under_150_kb(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE).new_page()
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
