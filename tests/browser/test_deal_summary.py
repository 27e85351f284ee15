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
    finished_game_through_api,
    malmedy_turn,
    mouse_turn,
    screenshot,
    show_the_end_of,
    situation,
    spoken_card_fr,
    start_malmedy_game,
    start_tarot_game,
    tarot_situation,
    tarot_turn,
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
    # A tie (the chalk in the hole) is an outcome too: the seed is a free game's, random.
    assert re.search(r"(gagne|perd) la donne|(wins|loses) the deal|Égalité parfaite|A perfect tie", outcome), outcome

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


# Where a dialog stands when it opens: its scroll, its title, the focused control, the sideways overflow.
DIALOG_STATE = """(id) => {
  const dialog = document.getElementById(id);
  const frame = dialog.getBoundingClientRect();
  const title = dialog.querySelector('h2').getBoundingClientRect();
  const focused = document.activeElement;
  const box = focused.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return {
    scrollTop: dialog.scrollTop,
    titleShown: title.top >= frame.top && title.bottom <= frame.bottom,
    focused: focused.id,
    focusedShown: box.top >= 0 && box.bottom <= innerHeight && Boolean(hit) && (hit === focused || focused.contains(hit)),
    sideways: dialog.scrollWidth - dialog.clientWidth,
    tooWide: [...dialog.querySelectorAll('table')].filter((table) => table.scrollWidth > dialog.clientWidth).map(
      (table) => `${table.caption?.textContent}: ${table.scrollWidth} px in ${dialog.clientWidth}`),
  };
}"""


def assert_dialog_opens_at_its_top(page: Any, dialog: str, button: str, what: str) -> None:
    page.wait_for_selector(f"#{dialog}[open]")
    page.wait_for_timeout(200)
    state = page.evaluate(DIALOG_STATE, dialog)
    if state["scrollTop"] or not state["titleShown"] or not state["focusedShown"] or state["tooWide"]:
        screenshot(page, f"dialog-{what.replace(' ', '-')}", failing=True)
    assert state["scrollTop"] == 0 and state["titleShown"], f"{what}: opens scrolled, title cut: {state}"
    assert state["focused"] == button and state["focusedShown"], f"{what}: focus not on a visible {button}: {state}"
    assert not state["tooWide"] and state["sideways"] <= 0, f"{what}: wider than the screen: {state}"


@pytest.mark.parametrize(
    ("game", "size"),
    [("malmedy", "375x667"), ("tarot", "1280x800"), ("tarot", "320x568"), ("couyon", "320x568")],
)
def test_a_deal_summary_opens_at_its_top(new_context: ContextFactory, game: str, size: str) -> None:
    """Issue 20, items 4 and 5: the summaries opened scrolled to their button (the result off screen,
    the title cut), and tarot's score table was wider than a 320 px phone."""
    width, height = map(int, size.split("x"))
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    rng = random.Random(7)
    if game == "malmedy":
        start_malmedy_game(page)
        step, now = (lambda: malmedy_turn(page, rng, "mouse")), (lambda: situation(page))
    elif game == "tarot":
        start_tarot_game(page, 4)
        step, now = (lambda: tarot_turn(page, rng, "mouse")), (lambda: tarot_situation(page))
    else:
        page.goto("/")
        page.click("#new-game")
        step, now = (lambda: mouse_turn(page, rng)), (lambda: situation(page))
    for _ in range(MAX_STEPS):
        if now() == "deal":
            break
        step()
    assert now() == "deal"
    assert_dialog_opens_at_its_top(page, "deal-dialog", "deal-dialog-close", f"{game} deal {size}")


@pytest.mark.parametrize("size", ["320x568", "1280x800"])
def test_the_end_of_a_coucou_game_opens_at_its_top(new_context: ContextFactory, size: str) -> None:
    width, height = map(int, size.split("x"))
    page = new_context(viewport={"width": width, "height": height}).new_page()
    page.goto("/")
    answer = finished_game_through_api(
        page, {"mode": "free", "game": "coucou", "options": {"players": 5, "tokens": 2}}, 2
    )
    show_the_end_of(page, answer)
    assert_dialog_opens_at_its_top(page, "end-dialog", "end-new-game", f"coucou end {size}")
