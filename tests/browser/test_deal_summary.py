"""The end-of-deal summary and the review of the deal's tricks (issue 12, defect 5), on a 320 px phone.

When a deal ends, its last trick stays on the table behind the summary and the prompt no
longer says that a bot is thinking; the summary says who took and whether the deal was won
(not "a pris et passe": passer is also a bid), and lists every trick of the deal, each with
its cards in the order they were played (exactly the cards the live region announced), who
led and who won. During the next deal, every trick played so far can be reviewed, not only
the last one. axe finds nothing in either dialog, in French and in English.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playing import (
    ANNOUNCEMENT_RECORDER,
    DESKTOP,
    ContextFactory,
    assert_no_violations,
    current_game,
    mouse_turn,
    screenshot,
    situation,
    spoken_card_fr,
)

PHONE_320 = {"width": 320, "height": 568}
SEATS = {
    "fr": {"S": "Sud", "W": "Ouest", "N": "Nord", "E": "Est"},
    "en": {"S": "South", "W": "West", "N": "North", "E": "East"},
}
THINKING = {"fr": "réfléchit", "en": "thinking"}
CARD_PLAYED = re.compile(r"^(?:Tu joues|You play|\w+ joue|\w+ plays) ")
MAX_STEPS = 400


def trick_list(page: Any) -> list[dict[str, Any]]:
    """The summary's tricks: each line's text and its cards' codes and seats in the order shown."""
    result: list[dict[str, Any]] = page.locator("#deal-dialog .trick-list > li").evaluate_all(
        """(items) => items.map((item) => ({
          line: item.querySelector('.trick-line').textContent,
          cards: [...item.querySelectorAll('.review-cards .card')].map((card) => card.dataset.card),
          seats: [...item.querySelectorAll('.review-seat')].map((seat) => seat.textContent),
          winner: item.querySelector('li.is-winner .review-seat')?.textContent ?? null,
        }))"""
    )
    return result


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_deal_summary_keeps_the_table_and_lists_the_tricks(new_context: ContextFactory, language: str) -> None:
    page = new_context(viewport=PHONE_320, has_touch=True, language=language).new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    page.goto("/")
    page.click("#new-game")
    rng = random.Random(5)
    seats = SEATS[language]

    # Play until a deal with a taker ends (a deal nobody took has no tricks).
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "deal" and current_game(page)["view"]["deal_log"][-1]["outcome"] != "redeal":
            break
        mouse_turn(page, rng)
    else:
        pytest.fail("no deal was played to its end")

    # Behind the summary: the last trick is still on the table, and nobody is said to be thinking.
    assert page.locator("#trick .slot .card").count() == 4
    assert THINKING[language] not in page.locator("#prompt").inner_text()
    outcome = page.locator("#deal-dialog .outcome").inner_text()
    assert "passe." not in outcome and "made it" not in outcome, outcome
    assert re.search(r"(gagne|perd) la donne|(wins|loses) the deal", outcome), outcome

    tricks = trick_list(page)
    assert len(tricks) == 4
    last_on_table = page.locator("#trick .slot").evaluate_all("(slots) => slots.map((s) => s.dataset.card)")
    assert sorted(tricks[-1]["cards"]) == sorted(last_on_table)
    # Only played cards: the sixteen cards the live region announced in this first deal, in order.
    played = [line for line in page.evaluate("window.__announced") if CARD_PLAYED.match(line)]
    assert len(played) == 16
    shown = [card for trick in tricks for card in trick["cards"]]
    assert len(set(shown)) == 16
    if language == "fr":
        codes = {name: code for code, name in seats.items()}
        said = [
            spoken_card_fr(codes[seat], card)
            for trick in tricks
            for seat, card in zip(trick["seats"], trick["cards"], strict=True)
        ]
        assert said == played
    for trick in tricks:
        assert sorted(trick["seats"]) == sorted(seats.values())
        leader = trick["seats"][0]
        assert trick["winner"] in seats.values()
        assert leader in trick["line"] and trick["winner"] in trick["line"], trick
    assert_no_violations(page, f"deal summary with its tricks ({language})")
    screenshot(page, f"phone-320-deal-summary-{language}")
    dialog = page.locator("#deal-dialog").bounding_box()
    assert dialog and dialog["x"] >= 0 and dialog["x"] + dialog["width"] <= PHONE_320["width"]
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"desktop-deal-summary-{language}")
    page.set_viewport_size(PHONE_320)
    page.locator("#deal-dialog-close").tap()

    # The next deal: once two tricks are played, both can be reviewed, stepping back from the last.
    for _ in range(MAX_STEPS):
        now = situation(page)
        view = current_game(page)["view"]
        if now == "play" and len(view["deal"]["tricks"]) >= 2:
            break
        if now == "deal":
            pytest.fail("the next deal ended before two tricks could be reviewed")
        mouse_turn(page, rng)
    tricks_now = view["deal"]["tricks"]
    page.locator("#last-trick-button").tap()
    dialog_box = page.locator("#trick-dialog")
    title = page.locator("#trick-dialog-title")
    count = len(tricks_now)
    of = "sur" if language == "fr" else "of"
    assert title.inner_text().endswith(f"{count} {of} {count}")
    assert page.locator("#trick-next").get_attribute("aria-disabled") == "true"
    assert_no_violations(page, f"trick review ({language})")
    for index in range(count - 1, -1, -1):
        assert title.inner_text().endswith(f"{index + 1} {of} {count}")
        codes = dialog_box.locator(".review-cards .card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
        assert codes == [entry["card"] for entry in tricks_now[index]["cards"]]
        winner = dialog_box.locator(".review-cards li.is-winner .review-seat").inner_text()
        assert winner == seats[tricks_now[index]["winner"]]
        if index:
            page.locator("#trick-previous").tap()
    assert page.locator("#trick-previous").get_attribute("aria-disabled") == "true"
    page.locator("#trick-dialog-close").tap()
    assert dialog_box.is_hidden()
