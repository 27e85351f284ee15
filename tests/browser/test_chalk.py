"""The slate draws each team's standing lines as chalk strokes and shows "la craie dans le trou" on a doubled deal.

The server's own answer is taken and only its lines and stake are changed on the way
(a tie cannot be asked of random bots), so the page renders exactly what a real view
with those values would hold.
"""

from __future__ import annotations

import json
import random
from typing import Any

from playing import ContextFactory, mouse_turn, situation, start_free_game


def with_lines_and_stake(lines: dict[str, int], stake: int) -> Any:
    def handler(route: Any) -> None:
        response = route.fetch()
        answer = response.json()
        answer["view"]["lines"] = lines
        answer["view"]["deal"]["stake"] = stake
        route.fulfill(response=response, body=json.dumps(answer))

    return handler


def strokes(page: Any, team_index: int) -> dict[str, int]:
    column = page.locator(".chalk-team").nth(team_index)
    return {
        "standing": column.locator(".stroke:not(.stroke-erased):not(.stroke-erasing)").count(),
        "erased": column.locator(".stroke-erased").count(),
    }


def test_the_slate_shows_lines_and_the_doubled_stake(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    assert page.locator("#chalk-hole").is_hidden()
    assert strokes(page, 0) == {"standing": 5, "erased": 0}
    assert page.locator(".chalk-count").all_inner_texts() == ["5 lignes", "5 lignes"]

    page.route("**/api/games/g_*", with_lines_and_stake({"NS": 2, "WE": 6}, 2))
    page.reload()
    situation(page)
    assert strokes(page, 0) == {"standing": 2, "erased": 3}
    assert strokes(page, 1) == {"standing": 6, "erased": 0}
    assert page.locator(".chalk-count").all_inner_texts() == ["2 lignes", "6 lignes"]
    hole = page.locator("#chalk-hole")
    assert hole.is_visible()
    assert "craie est dans le trou" in hole.inner_text()
    assert "2 lignes" in page.locator("#deal-facts").inner_text()


def test_an_erased_line_is_rubbed_out_after_a_deal(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    rng = random.Random(8)
    # Play until a deal summary says a line moved, then look at the slate behind it once closed.
    for _ in range(400):
        now = situation(page)
        if now == "deal" and "effacée" in page.locator("#deal-dialog-body").inner_text():
            break
        assert now != "end"
        mouse_turn(page, rng)
    page.click("#deal-dialog-close")
    situation(page)
    erased = page.locator(".stroke-erasing, .stroke-erased").count()
    assert erased >= 1
    standing = [int(text.split()[0]) for text in page.locator(".chalk-count").all_inner_texts()]
    assert min(standing) <= 4
