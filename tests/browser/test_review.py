"""The review after the game: opened from the end of a game, walked deal by deal and trick by trick by
keyboard, the costliest choices marked in words, axe clean in French and English at phone and desktop sizes.

The game is played to its end through the API from the page's own context (same player cookie): playing
it by hand is the table's tests' business, and the end-of-game screen comes back when the finished game
is opened at the table.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from playing import (
    DESKTOP,
    PHONE,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    finished_game_through_api,
    screenshot,
    show_the_end_of,
)


def focused_name(page: Any) -> str:
    text: str = page.evaluate("document.activeElement.textContent.trim()")
    return text


def press_until_focused(page: Any, name: str, limit: int = 40) -> None:
    """Tab forward until the focused control's text is ``name``."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused_name(page) == name:
            return
    raise AssertionError(f"{name!r} never got the focus; last: {focused_name(page)!r}")


@pytest.mark.parametrize(("size", "language"), [("desktop", "fr"), ("phone", "en")])
def test_the_review_opens_from_the_end_of_a_game_and_is_walked_by_keyboard(
    new_context: ContextFactory, size: str, language: str
) -> None:
    context = new_context(viewport=DESKTOP if size == "desktop" else PHONE, language=language)
    page = context.new_page()
    errors = collect_errors(page)
    page.goto("/")
    answer = finished_game_through_api(page, {"mode": "free"}, 11)
    fr = language == "fr"

    # The finished game at the table shows the end of game, which offers its review.
    show_the_end_of(page, answer)
    link = page.get_by_role("link", name="Revoir la partie" if fr else "Review the game")
    assert link.get_attribute("href") == f"#/review/{answer['id']}"
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#review-deal-panel")
    assert not page.locator("#end-dialog").evaluate("dialog => dialog.open")
    assert page.evaluate("document.activeElement.id") == "review-title"
    review = page.request.get(f"/api/games/{answer['id']}/review").json()
    deals = review["deals"]

    # The deal selector names every deal; the first deal's first trick shows the four hands.
    deal_select = page.get_by_role("combobox", name="Donne" if fr else "Deal")
    assert deal_select.locator("option").count() == len(deals)
    hands = page.locator(".review-hands li")
    assert hands.count() == 4
    first_trick = next((index for index, deal in enumerate(deals) if deal["tricks"]), None)
    assert first_trick is not None, "a game always has a deal that somebody took"

    # Next trick by keyboard, across deals, up to the first trick South chose a card in.
    next_name = "Pli suivant" if fr else "Next trick"
    press_until_focused(page, next_name)
    choice = next(
        (d, t)
        for d, deal in enumerate(deals)
        for t, trick in enumerate(deal["tricks"])
        if any(c.get("review", {}).get("forced") is False for c in trick["cards"])
    )
    # One step past that trick (never the game's last: South's last card of a deal is forced), then back.
    steps = sum(max(1, len(deal["tricks"])) for deal in deals[: choice[0]]) + choice[1] + 1
    for _ in range(steps):
        page.keyboard.press("Enter")
    assert focused_name(page) == next_name  # The focus stays on the button while the trick changes.
    page.keyboard.press("Shift+Tab")
    assert focused_name(page) == ("Pli précédent" if fr else "Previous trick")
    page.keyboard.press("Enter")
    assert deal_select.input_value() == str(choice[0])
    trick_title = f"Pli {choice[1] + 1} sur" if fr else f"Trick {choice[1] + 1} of"
    assert page.locator("#review-trick-title").inner_text().startswith(trick_title)
    status = page.locator("#review-status").inner_text()
    assert trick_title in status
    options = page.locator(".review-options tbody tr")
    judged = next(c["review"] for c in deals[choice[0]]["tricks"][choice[1]]["cards"] if "review" in c)
    assert options.count() == len(judged["options"])
    assert page.locator(".review-options th[scope=col]").count() == 3  # card, expert, open cards
    assert_no_violations(page, f"review ({language})")
    screenshot(page, f"{size}-review-{language}")

    # The deal selector jumps by keyboard too.
    deal_select.focus()
    page.keyboard.press("End")
    assert deal_select.input_value() == str(len(deals) - 1)
    assert (
        page.locator("#review-deal-title")
        .inner_text()
        .startswith(f"Donne {deals[-1]['number']} sur" if fr else f"Deal {deals[-1]['number']} of")
    )

    # The costliest choices are listed and marked in words, each with a button to show it.
    marked = [
        item["review"]
        for deal in deals
        for part in (deal["bids"], *(trick["cards"] for trick in deal["tricks"]))
        for item in part
        if item.get("review", {}).get("costly")
    ]
    buttons = page.locator(".review-costliest button")
    assert buttons.count() == len(marked)
    if marked:
        buttons.first.focus()
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "review-trick-title"
        assert (
            page.locator(".review-costly")
            .first.inner_text()
            .strip()
            .endswith("Choix coûteux" if fr else "Costly choice")
        )
    assert_no_violations(page, f"review costliest ({language})")
    assert errors == []


def test_a_daily_review_keeps_the_other_hands_hidden_before_the_day_is_over(new_context: ContextFactory) -> None:
    """Before the end, the review says the game is not over; after it, South's hand alone until the day is over."""
    page = new_context().new_page()
    page.goto("/")
    rng = random.Random(3)
    answer = page.request.post("/api/games", data={"mode": "daily"}).json()
    page.goto(f"/#/review/{answer['id']}")
    refusal = "Cette partie n'est pas finie : sa revue s'ouvre quand elle est terminée."
    assert page.locator(".review-error").inner_text() == refusal
    while answer["view"]["winner"] is None:
        move = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
        answer = page.request.post(f"/api/games/{answer['id']}/moves", data=move).json()
    page.goto("/#/")
    page.goto(f"/#/review/{answer['id']}")  # Asked again once the game is over: the review this time.
    page.wait_for_selector("#review-deal-panel")
    assert page.locator(".review-hidden").inner_text().startswith("C'est un défi du jour")
    assert page.locator(".review-hands li").count() == 1  # South's hand alone
    assert "Les autres mains restent cachées" in page.locator("#review-trick").inner_text()
    assert page.locator(".review-options th[scope=col]").count() in (0, 2)  # no open-cards column
    assert_no_violations(page, "review of a daily game")
