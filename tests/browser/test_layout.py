"""The table fits from a 320 px phone to a large screen, portrait and landscape: nothing sticks out sideways."""

from __future__ import annotations

import pytest
from playing import ContextFactory, screenshot, start_free_game

SIZES = {
    "phone-320-portrait": (320, 568),
    "phone-landscape": (740, 360),
    "tablet-portrait": (820, 1180),
    "large-screen": (1920, 1080),
}


@pytest.mark.parametrize("name", list(SIZES))
def test_the_table_fits_the_screen(new_context: ContextFactory, name: str) -> None:
    width, height = SIZES[name]
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    start_free_game(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for selector in [".hand-card", ".seat-name", "#chalk-teams", "#prompt"]:
        for box in [page.locator(selector).nth(i).bounding_box() for i in range(page.locator(selector).count())]:
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)
    # Cards stay big enough to read: at least 44 px wide in the hand.
    assert min(page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.offsetWidth)")) >= 44
    screenshot(page, f"layout-{name}")
