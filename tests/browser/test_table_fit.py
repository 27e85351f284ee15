"""Every decision shows the hand and the question together, without scrolling (issue 12, defect 1).

From a 320×568 phone to a 1920×1080 screen, upright and sideways: when South is asked to bid or
to play, the hand's cards, the buttons of the decision, the prompt (and, while bidding, the turned
card) are inside the viewport at scroll 0 and nothing covers their top-left corner.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from playing import (
    ContextFactory,
    coucou_situation,
    mouse_turn,
    screenshot,
    situation,
    start_coucou_game,
    start_free_game,
    start_malmedy_game,
    start_tarot_game,
    tarot_situation,
    tarot_turn,
)

SIZES = {
    "320x568": (320, 568),
    "375x667": (375, 667),
    "568x320-landscape": (568, 320),
    "768x1024": (768, 1024),
    "1280x800": (1280, 800),
    "1920x1080": (1920, 1080),
}

# The parts of a decision that are not inside the viewport, or are covered at their centre.
HIDDEN_PARTS = """(extra) => {
  window.scrollTo(0, 0);
  const parts = [...document.querySelectorAll('#hand .hand-card, #game-controls button, #prompt, ' + extra)]
    .filter((node) => node.checkVisibility());
  const wrong = [];
  for (const node of parts) {
    const box = node.getBoundingClientRect();
    const inside = box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth;
    // The top-left corner a player reads and taps (tarot's cards overlap like a fan on a phone).
    const hit = document.elementFromPoint(box.left + Math.min(10, box.width / 3), box.top + Math.min(12, box.height / 3));
    if (!inside || !(hit && (node === hit || node.contains(hit))))
      wrong.push(`${node.id || node.dataset.card || node.className} at ${Math.round(box.top)}..${Math.round(box.bottom)}`);
  }
  return { count: parts.length, wrong, scrolled: scrollY };
}"""


def assert_decision_fits(page: Any, what: str, extra: str = "#proposal .turned") -> None:
    result = page.evaluate(HIDDEN_PARTS, extra)
    assert result["scrolled"] == 0
    assert result["count"] >= 3, f"{what}: too few parts of the decision found"
    if result["wrong"]:
        screenshot(page, f"fit-failed-{what.replace(' ', '-')}", failing=True)
    assert not result["wrong"], f"{what}: off screen or covered at scroll 0: {result['wrong']}"


@pytest.mark.parametrize("size", list(SIZES))
def test_couyon_bid_and_card_fit_without_scrolling(new_context: ContextFactory, size: str) -> None:
    width, height = SIZES[size]
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    start_free_game(page)
    rng = random.Random(3)
    seen: set[str] = set()
    for _ in range(30):
        now = situation(page)
        if now in ("bid", "play") and now not in seen:
            seen.add(now)
            assert page.locator("#prompt").inner_text().strip()
            assert_decision_fits(page, f"{size} {now}")
            if now == "bid":
                screenshot(page, f"fit-{size}-bid")
        if seen == {"bid", "play"} or now == "end":
            break
        mouse_turn(page, rng)
    assert seen == {"bid", "play"}


@pytest.mark.parametrize("size", ["320x568", "1280x800"])
def test_the_other_games_decisions_fit_too(new_context: ContextFactory, size: str) -> None:
    width, height = SIZES[size]
    context = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000)
    page = context.new_page()
    start_malmedy_game(page)
    assert_decision_fits(page, f"malmedy {size}", "#nothing")
    start_tarot_game(page, 5)
    # The first decision that shows buttons (a bid) or a card to play.
    for _ in range(6):
        if tarot_situation(page) in ("bid", "play"):
            break
        tarot_turn(page, random.Random(1), "mouse")
    assert_decision_fits(page, f"tarot {size}", "#nothing")
    start_coucou_game(page, 8)
    assert coucou_situation(page) == "decide"
    assert_decision_fits(page, f"coucou {size}", "#nothing")


# Tarot on a phone held sideways: 3, 4 and 5 players, a bid, the écart (the chien in a full hand) and a card.
SIDEWAYS = {"568x320": (568, 320), "740x360": (740, 360)}
PLAIN_CARDS = [f"{rank}{suit}" for suit in "SHCD" for rank in [*map(str, range(1, 11)), "J", "N", "Q", "K"]]


def south_discards(route: Any) -> None:
    """The server's view, with South taking a garde and the chien (cards he does not hold) added to his hand."""
    response = route.fetch()
    answer = response.json()
    view = answer["view"]
    size = 3 if view["players"] == 5 else 6
    chien = [card for card in PLAIN_CARDS if card not in view["hand"]][:size]
    view["hand"] = [*view["hand"], *chien]
    view["phase"] = "ecart"
    view["to_move"] = "S"
    view["deal"].update(taker="S", contract="garde", multiplier=2, bids=[{"seat": "S", "bid": "garde"}], chien=chien)
    view["bid_choices"] = []
    view["poignee_rule"] = None
    allowed = [card for card in view["hand"] if card in PLAIN_CARDS and not card.startswith("K")]
    view["ecart_rule"] = {"size": size, "cards": allowed, "max_trumps": 0}
    view["legal"] = ["ecart:" + ",".join(allowed[:size])]
    route.fulfill(response=response, body=json.dumps(answer))


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("size", list(SIDEWAYS))
def test_tarot_decisions_fit_on_a_phone_held_sideways(new_context: ContextFactory, size: str, players: int) -> None:
    width, height = SIDEWAYS[size]
    page = new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True).new_page()
    start_tarot_game(page, players)
    assert tarot_situation(page) == "bid"
    assert_decision_fits(page, f"tarot{players} {size} bid", "#nothing")
    screenshot(page, f"fit-{size}-tarot{players}-bid")

    page.route("**/api/games/g_*", south_discards)
    page.reload()
    page.wait_for_selector('#view-table[data-turn="ecart"]')
    assert page.locator(".hand-card").count() == {3: 30, 4: 24, 5: 18}[players]
    assert_decision_fits(page, f"tarot{players} {size} ecart", "#nothing")
    screenshot(page, f"fit-{size}-tarot{players}-ecart")
    page.unroute("**/api/games/g_*")
    page.reload()

    rng = random.Random(players)
    for _ in range(20):
        if tarot_situation(page) == "play":
            break
        tarot_turn(page, rng, "mouse")
    assert tarot_situation(page) == "play"
    assert_decision_fits(page, f"tarot{players} {size} play", "#nothing")
    screenshot(page, f"fit-{size}-tarot{players}-play")
    assert_felt_on_screen(page, f"tarot{players} {size} play", players, height)

    # The longest contract the badge can say, whatever the random deal gave: before and after the partner is known.
    for partner_known in (False, True):
        page.route("**/api/games/g_*", longest_contract(partner_known))
        page.reload()
        page.wait_for_selector("#centre .contract-badge")
        assert_felt_on_screen(page, f"tarot{players} {size} longest contract", players, height)
        page.unroute("**/api/games/g_*")


def longest_contract(partner_known: bool) -> Callable[[Any], None]:
    """A route giving the server's view with the longest badge: a garde contre by the seat of the longest name
    and, at five, a knight called (the longest card's name) whose holder is that seat too."""

    def fulfill(route: Any) -> None:
        response = route.fetch()
        answer = response.json()
        deal = answer["view"]["deal"]
        longest = "NW" if answer["view"]["players"] == 5 else "W"
        deal.update(taker=longest, contract="garde-contre", multiplier=6)
        if answer["view"]["players"] == 5:
            deal.update(called="ND", partner_known=partner_known, partner=longest if partner_known else None)
        route.fulfill(response=response, body=json.dumps(answer))

    return fulfill


def assert_felt_on_screen(page: Any, what: str, players: int, height: int) -> None:
    """The felt beside the hand is on the screen too: every seat's name, the contract and the trick."""
    felt = "#felt .seat:not([hidden]) .seat-name, #centre .contract-badge, #trick .card"
    bottoms = page.locator(felt).evaluate_all(
        "(nodes) => nodes.map((n) => [n.dataset.card || n.textContent, n.getBoundingClientRect().bottom])"
    )
    assert len(bottoms) >= players + 1
    below = [(part, round(bottom)) for part, bottom in bottoms if bottom > height]
    if below:
        screenshot(page, f"fit-failed-{what.replace(' ', '-')}", failing=True)
    assert not below, f"{what}: below the screen: {below}"


# Tarot: at every card South plays once others have, the trick he answers is on the screen with
# the question and his hand (issue 20, item 1: the score table filled a phone's top and pushed the
# trick under the question bar; at 1280×800 the sidebar stretched the bar over the felt).
@pytest.mark.parametrize(
    ("size", "players"),
    [("320x568", 3), ("320x568", 4), ("320x568", 5), ("375x667", 5), ("1280x800", 5), ("1280x800", 3)],
)
def test_tarot_shows_the_trick_south_answers(new_context: ContextFactory, size: str, players: int) -> None:
    width, height = SIZES[size]
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    start_tarot_game(page, players)
    rng = random.Random(players)
    checked = 0
    for _ in range(200):
        now = tarot_situation(page)
        if now == "end" or checked == 12:
            break
        if now == "play" and page.locator("#trick .card").count():
            assert page.locator("#prompt").inner_text().strip()
            assert_decision_fits(page, f"tarot{players} {size} answer", "#trick .card")
            checked += 1
        tarot_turn(page, rng, "mouse")
    assert checked == 12


def offers_a_poignee_and_a_misere(route: Any) -> None:
    """The server's view, with South offered both announcements a first card may bring (the longest question)."""
    response = route.fetch()
    answer = response.json()
    view = answer["view"]
    trumps = [card for card in view["hand"] if card.endswith("T")]
    view["poignee_rule"] = {"sizes": [{"size": 8, "prime": 20}], "trumps": trumps, "excuse": False}
    view["legal"] = [*view["legal"], "misere-tete"]
    route.fulfill(response=response, body=json.dumps(answer))


def test_tarot_s_two_announcements_leave_the_trick_in_view_on_a_phone(new_context: ContextFactory) -> None:
    # A rare deal (CI, 320x568 at five): South answering a trick with a poignée and a misère de tête to offer; the
    # three-line question and buttons, stuck to the screen's bottom, covered the trick's cards (and so did the
    # poignée's question, count and buttons once he chose to show one).
    page = new_context(viewport={"width": 320, "height": 568}, has_touch=True).new_page()
    start_tarot_game(page, 5)
    rng = random.Random(5)
    for _ in range(60):
        if tarot_situation(page) == "play" and page.locator("#trick .card").count():
            break
        tarot_turn(page, rng, "mouse")
    assert page.locator("#trick .card").count()
    page.route("**/api/games/g_*", offers_a_poignee_and_a_misere)
    page.reload()
    page.wait_for_selector("#poignee-button:visible")
    assert page.locator("#misere-tete-button").is_visible()
    assert_decision_fits(page, "tarot5 320x568 announcements", "#trick .card")
    # Then the poignée's trumps are picked under its question, its count and its buttons.
    page.click("#poignee-button")
    page.wait_for_selector("#poignee-cancel:visible")
    assert_decision_fits(page, "tarot5 320x568 poignee", "#trick .card")
