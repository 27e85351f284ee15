"""Whole games in real Chromium against a real server: keyboard alone, mouse with a drag, touch on a phone.

Also: illegal cards cannot be played by any input, the live region announces every card,
and a reload in the middle of a deal resumes it.
"""

from __future__ import annotations

import random
from typing import Any

from playing import (
    ANNOUNCEMENT_RECORDER,
    PHONE,
    ContextFactory,
    collect_errors,
    current_game,
    drag_to_centre,
    focused,
    keyboard_turn,
    mouse_turn,
    playable_cards,
    screenshot,
    sent_count,
    situation,
    spoken_card_fr,
    start_free_game,
    touch_turn,
    unplayable_cards,
)

SEAT_NAMES = {"S": "Sud", "W": "Ouest", "N": "Nord", "E": "Est"}
MAX_STEPS = 2000  # a game is a few hundred steps at most; this only stops a runaway loop


def finished_record(page: Any) -> dict[str, Any]:
    game_id = page.locator("#view-table").get_attribute("data-game")
    response = page.request.get(f"/api/games/{game_id}/record")
    assert response.ok, response.text()
    record: dict[str, Any] = response.json()
    return record


def check_focus_ring_and_tab_order(page: Any) -> None:
    """The focused card shows a ring; Tab leaves the hand for the other controls and Shift+Tab comes back to it."""
    card = focused(page)["card"]
    assert card
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] != "none" and ring[1] >= 2
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "last-trick-button"
    page.keyboard.press("Shift+Tab")
    assert focused(page)["card"] == card


def test_a_whole_game_with_the_keyboard_alone(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    page.goto("/")
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused(page)["id"] == "new-game":
            break
    assert focused(page)["id"] == "new-game"
    page.keyboard.press("Enter")
    rng = random.Random(5)
    steps = {"bid": 0, "play": 0, "deal": 0}
    checked_tab_order = False
    for _ in range(MAX_STEPS):
        if not checked_tab_order and situation(page) == "play":
            check_focus_ring_and_tab_order(page)
            checked_tab_order = True
        now = keyboard_turn(page, rng)
        if now == "end":
            break
        steps[now] += 1
    assert situation(page) == "end"
    assert focused(page)["id"] == "end-new-game"
    assert steps["play"] >= 4 and steps["deal"] >= 1
    assert page.locator("#end-dialog-title").inner_text() in ("Gagné !", "Perdu, cette fois.")

    # Every card of the game, the bots' and South's, was announced in order, in French.
    record = finished_record(page)
    played = [move.split(":") for move in record["moves"] if move.split(":")[1] not in ("take", "pass")]
    expected = [spoken_card_fr(seat, card) for seat, card in played]
    announced = [line for line in page.evaluate("window.__announced") if " joue " in line or "Tu joues" in line]
    assert announced == expected
    screenshot(page, "desktop-end-of-game")


def review_last_trick(page: Any) -> None:
    """Open the last trick: its four cards, the winner marked, the same as the server's; then close it."""
    last = current_game(page)["view"]["deal"]["tricks"][-1]
    page.click("#last-trick-button")
    dialog = page.locator("#trick-dialog")
    assert dialog.is_visible()
    labels = dialog.locator(".review-cards .card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    assert labels == [entry["card"] for entry in last["cards"]]
    assert dialog.locator(".review-cards li.is-winner .review-seat").inner_text() == SEAT_NAMES[last["winner"]]
    page.click("#trick-dialog-close")
    assert dialog.is_hidden()


def test_a_whole_game_with_the_mouse_and_one_drag(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    errors = collect_errors(page)
    start_free_game(page)
    rng = random.Random(11)
    dragged = False
    reviewed_last_trick = False
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "end":
            break
        if now == "play" and not reviewed_last_trick and current_game(page)["view"]["deal"]["tricks"]:
            review_last_trick(page)
            reviewed_last_trick = True
        will_drag = now == "play" and not dragged
        before = current_game(page)["view"] if will_drag else None
        mouse_turn(page, rng, drag=will_drag)
        if before is not None:
            dragged = True
            situation(page)
            after = current_game(page)["view"]
            assert after["move_number"] > before["move_number"]
            played = set(before["hand"]) - set(after["hand"])
            assert len(played) == 1 or after["deal"]["number"] > before["deal"]["number"]
    assert dragged
    assert situation(page) == "end"
    assert reviewed_last_trick
    page.click("#end-new-game")
    assert situation(page) in ("bid", "play")
    assert page.locator(".hand-card").count() == 4
    assert errors == []


def test_a_phone_with_touch_taps(new_context: ContextFactory) -> None:
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.goto("/")
    page.locator("#new-game").tap()
    rng = random.Random(3)
    deals = 0
    for _ in range(MAX_STEPS):
        now = touch_turn(page, rng)
        if now == "deal":
            deals += 1
        if now == "end" or deals == 2:
            break
    assert deals == 2 or situation(page) == "end"
    # Nothing sticks out sideways on a 360 px phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def reach_a_position_with_an_unplayable_card(page: Any, rng: random.Random) -> None:
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "play" and unplayable_cards(page):
            return
        assert now != "end", "the game ended before South ever held an unplayable card"
        mouse_turn(page, rng)
    raise AssertionError("no position with an unplayable card")


def test_illegal_cards_cannot_be_played_by_click_tap_drag_or_enter(new_context: ContextFactory) -> None:
    page = new_context(has_touch=True).new_page()
    start_free_game(page)
    rng = random.Random(7)
    reach_a_position_with_an_unplayable_card(page, rng)
    before = current_game(page)["view"]
    sent = sent_count(page)
    card = unplayable_cards(page)[0]
    locator = page.locator(f'.hand-card[data-card="{card}"]')
    assert locator.get_attribute("aria-disabled") == "true"

    # force: Playwright itself refuses to act on an aria-disabled element; a person would not.
    locator.click(force=True)
    locator.tap(force=True)
    drag_to_centre(page, card)
    locator.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")

    assert sent_count(page) == sent
    after = current_game(page)["view"]
    assert after["move_number"] == before["move_number"]
    assert card in after["hand"]
    assert page.locator(f'.hand-card[data-card="{card}"]').count() == 1
    assert page.locator(f'#trick .slot[data-seat="S"][data-card="{card}"]').count() == 0
    # A legal card still plays.
    legal = playable_cards(page)[0]
    page.click(f'.hand-card[data-card="{legal}"]')
    assert situation(page) in ("bid", "play", "deal", "end")
    assert current_game(page)["view"]["move_number"] > before["move_number"]


def test_a_reload_in_the_middle_of_a_deal_resumes_it(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    rng = random.Random(2)
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "play" and page.locator(".hand-card").count() < 4:
            break
        assert now != "end"
        mouse_turn(page, rng)
    hand = sorted(page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)"))
    trick = page.locator("#trick .slot").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    facts = page.locator("#deal-facts").inner_text()
    chalk = page.locator("#chalk-teams").inner_text()

    page.reload()
    assert situation(page) == "play"
    assert sorted(page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")) == hand
    assert page.locator("#trick .slot").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)") == trick
    assert page.locator("#deal-facts").inner_text() == facts
    assert page.locator("#chalk-teams").inner_text() == chalk
    assert current_game(page)["view"]["hand"] and playable_cards(page)
    move_number = current_game(page)["view"]["move_number"]
    mouse_turn(page, rng)
    # The move has left the page; once South acts again (or a summary opens) the server has answered it.
    situation(page)
    assert current_game(page)["view"]["move_number"] > move_number


def test_a_refused_request_is_explained_and_the_move_can_be_made_again(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    busy = {"error": {"code": "too_many_requests", "message": "Too many requests; try again in a few seconds."}}
    page.route(
        "**/api/games/*/moves",
        lambda route: route.fulfill(status=429, headers={"Retry-After": "2"}, json=busy),
    )
    before = current_game(page)["view"]["move_number"]
    now = situation(page)
    if now == "bid":
        page.click("#pass-button")
    else:
        page.click(f'.hand-card[data-card="{playable_cards(page)[0]}"]')
    page.wait_for_selector("#prompt:has-text('Réessaie dans quelques secondes')")
    assert current_game(page)["view"]["move_number"] == before
    page.unroute("**/api/games/*/moves")
    assert situation(page) == now
    mouse_turn(page, random.Random(0))
    # The move has left the page; once South acts again (or a summary opens) the server has answered it.
    situation(page)
    assert current_game(page)["view"]["move_number"] > before


def test_a_new_game_from_home_replaces_the_stored_one(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    first = page.locator("#view-table").get_attribute("data-game")
    page.click(".brand")
    page.wait_for_selector("#resume-game:not([hidden])")
    page.click("#new-game")
    situation(page)
    page.wait_for_function("(first) => document.getElementById('view-table').dataset.game !== first", arg=first)
    second = page.locator("#view-table").get_attribute("data-game")
    assert page.evaluate("localStorage.getItem('couyon.game')") == second
    shown = sorted(page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)"))
    assert shown == sorted(current_game(page)["view"]["hand"])
    # Resuming from home shows the new game, not the first one.
    page.click(".brand")
    page.click("#resume-game")
    situation(page)
    assert page.locator("#view-table").get_attribute("data-game") == second
