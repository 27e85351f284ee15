"""Couyon's tips and frequent questions (issue 12, defect 3), in French and English.

They are reached by named links from the home page, the couyon rules and the table (which
links another game's table to that game's page of rules, tips and questions); the fragment is
fetched only when asked for, never on the first load; the page passes axe; Back returns to
the game in progress.
"""

from __future__ import annotations

from typing import Any

import pytest
from playing import DESKTOP, PHONE, ContextFactory, assert_no_violations, screenshot, situation

WORDS = {
    "fr": {"link": "Conseils et questions fréquentes", "tips": "Conseils", "faq": "Questions fréquentes"},
    "en": {"link": "Tips and frequent questions", "tips": "Tips", "faq": "Questions"},
}
GAME_RULES_LINK = {"fr": "Règles, conseils et questions", "en": "Rules, tips and questions"}


def headings(page: Any) -> list[str]:
    found: list[str] = page.locator("#game-rules-body [data-lang-block]:visible").locator("h1, h2").all_inner_texts()
    return found


@pytest.mark.parametrize("language", ["fr", "en"])
def test_tips_from_the_home_rules_and_table(new_context: ContextFactory, language: str) -> None:
    words = WORDS[language]
    page = new_context(viewport=PHONE, has_touch=True, language=language).new_page()
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url))
    page.goto("/")
    page.wait_for_selector("#daily-time:not(:empty)")
    assert not any("couyon-tips" in url for url in fetched), "the tips are not part of the first load"

    # From the home page.
    page.get_by_role("link", name=words["link"], exact=True).tap()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert headings(page) == [words["link"], words["tips"], words["faq"]]
    assert page.locator("#game-rules-body [data-lang-block]:visible .faq dt").count() >= 8
    assert page.evaluate("document.activeElement.tagName") == "H1"
    assert_no_violations(page, f"tips ({language})")
    screenshot(page, f"phone-tips-{language}")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"desktop-tips-{language}")
    page.set_viewport_size(PHONE)

    # From the rules.
    page.goto("/#/rules")
    page.locator("#view-rules [data-lang-block]:visible").get_by_role("link", name=words["link"]).tap()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert headings(page)[0] == words["link"]

    # From the table, during a game; Back returns to the game.
    page.goto("/")
    page.click("#new-game")
    situation(page)
    game = page.locator("#view-table").get_attribute("data-game")
    page.get_by_role("link", name=words["link"], exact=True).tap()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert headings(page)[1] == words["tips"]
    page.go_back()
    situation(page)
    assert page.locator("#view-table").get_attribute("data-game") == game


def test_another_games_table_links_to_its_rules_tips_and_questions(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    page.goto("/#/table/malmedy")
    page.wait_for_selector("#view-table:not([hidden])")
    link = page.get_by_role("link", name=GAME_RULES_LINK["fr"], exact=True)
    assert link.get_attribute("href") == "#/rules/malmedy"
    link.click()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert {"Conseils", "Questions fréquentes"} <= set(headings(page))
