"""axe-core finds no violation on any screen of the page, at phone and desktop sizes; screenshots for review.

Screens: home, rules (French and English), leaderboard, settings, the table while South
bids and while South plays, the deal summary, and the end of game of a daily challenge
(which shows the share text).
"""

from __future__ import annotations

import random

import pytest
from playing import (
    DESKTOP,
    PHONE,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    current_game,
    finish_through_api,
    mouse_turn,
    screenshot,
    situation,
)

MAX_STEPS = 2000


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_screen_passes_axe(new_context: ContextFactory, size: str) -> None:
    """The day's challenge is played by mouse until a deal has shown the bidding, the play, the last trick and
    the deal's summary; it is then finished through the API (its other deals show the same screens again), and
    its end, share text and leaderboard are checked."""
    viewport = PHONE if size == "phone" else DESKTOP
    page = new_context(viewport=viewport, has_touch=size == "phone").new_page()
    errors = collect_errors(page)

    page.goto("/")
    page.wait_for_selector("#daily-time:not(:empty)")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert_no_violations(page, "home")
    screenshot(page, f"{size}-home")

    # A daily challenge, so the end of game shows the share text too.
    page.click("#play-daily")
    seen: set[str] = set()
    rng = random.Random(17)
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now != "deal" and seen >= {"bid", "play", "deal", "last-trick"}:
            # Every screen of a deal has been checked: the rest of the game would show them again.
            finish_through_api(page, 17)
            now = situation(page)
        if now not in seen:
            seen.add(now)
            name = {"bid": "table-bidding", "play": "table-playing", "deal": "deal-summary", "end": "end-of-game"}[now]
            assert_no_violations(page, name)
            screenshot(page, f"{size}-{name}")
        if now == "play" and "last-trick" not in seen and page.locator("#trick .slot").count() == 0:
            seen.add("last-trick")
            page.click("#last-trick-button")
            assert_no_violations(page, "last trick")
            page.click("#trick-dialog-close")
        if now == "end":
            break
        mouse_turn(page, rng)
    assert seen >= {"bid", "play", "deal", "end"}
    share = page.locator("#share-text").inner_text()
    assert share.startswith("Couyon, défi du ") and "points en" in share

    # The ranked game's entry can be named from the end screen; the leaderboard then shows the name.
    page.fill("#end-name", f"Marie {size}")
    page.click(".name-form button[type=submit]")
    page.wait_for_selector(".name-form .form-status:has-text('Nom enregistré.')")
    page.click("#end-leaderboard")
    page.wait_for_selector("#board table, #board p")
    assert page.locator("#board tbody tr").count() >= 1
    assert f"Marie {size}" in page.locator("#board tbody").inner_text()
    assert_no_violations(page, "leaderboard")
    screenshot(page, f"{size}-leaderboard")

    # Home now says the day's challenge is played and offers an unranked replay of its deals.
    page.goto("/")
    page.wait_for_selector("#daily-time:has-text('Défi du jour joué')")
    assert page.locator("#play-daily").inner_text() == "Rejouer hors classement"
    page.click("#play-daily")
    situation(page)
    replay = current_game(page)
    assert replay["mode"] == "daily" and replay["ranked"] is False

    page.goto("/#/rules")
    page.wait_for_selector("#view-rules:not([hidden])")
    assert_no_violations(page, "rules")
    screenshot(page, f"{size}-rules")

    page.goto("/#/settings")
    page.check('input[name="language"][value="en"]')
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("#settings-title").inner_text() == "Settings"
    assert_no_violations(page, "settings")
    page.reload()
    assert page.evaluate("document.documentElement.lang") == "en", "the language choice is remembered"
    page.goto("/#/rules")
    page.wait_for_selector('[data-lang-block="en"]:not([hidden])')
    assert page.locator('[data-lang-block="fr"]').is_hidden()
    assert_no_violations(page, "rules in English")
    screenshot(page, f"{size}-rules-en")
    assert errors == []
