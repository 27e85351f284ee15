"""The bidding moment and the seats say what they mean, on a 320 px phone too (issue 12, defects 4 and 6).

The prompt proposes the turned card's suit as trumps (not the card), the seat to speak is marked
"à parler" rather than "à jouer", the phone shows which of the eight proposals this is, the take
and pass buttons describe what they commit to, and each seat reads as one list ("Est, adversaire,
donneur, 4 cartes.") whose chips stay inside the felt.
"""

from __future__ import annotations

import random
import re
from typing import Any

from playing import ContextFactory, assert_no_violations, current_game, mouse_turn, situation, start_free_game
from playwright.sync_api import expect

PHONE_320 = {"width": 320, "height": 568}
SUIT_FR = {"C": "Trèfle", "D": "Carreau", "H": "Cœur", "S": "Pique"}
SUIT_EN = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
SEAT_FR = {"S": "Sud (toi)", "W": "Ouest", "N": "Nord", "E": "Est"}

# The boxes of the chips and seat names that stick out of the felt.
OUTSIDE_FELT = """() => {
  const felt = document.getElementById('felt').getBoundingClientRect();
  return [...document.querySelectorAll('#felt .chip, #felt .seat-name')].filter((node) => node.checkVisibility())
    .map((node) => [node.textContent, node.getBoundingClientRect()])
    .filter(([, box]) => box.left < felt.left || box.right > felt.right || box.top < felt.top || box.bottom > felt.bottom)
    .map(([text, box]) => `${text} ${Math.round(box.left)}..${Math.round(box.right)}`);
}"""


def turned_suit(page: Any) -> str:
    proposals: list[str] = current_game(page)["view"]["deal"]["proposals"]
    return proposals[-1][-1]


def bid_turn(page: Any, rng: random.Random) -> None:
    """Play on until South is asked to bid."""
    for _ in range(60):
        if situation(page) == "bid":
            return
        mouse_turn(page, rng)
    raise AssertionError("South was never asked to bid")


def test_the_bidding_moment_is_clear_in_both_languages(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE_320, has_touch=True).new_page()
    start_free_game(page)
    rng = random.Random(4)
    bid_turn(page, rng)
    proposals = len(current_game(page)["view"]["deal"]["proposals"])
    prompt = page.locator("#prompt").text_content() or ""
    assert re.fullmatch(rf"{SUIT_FR[turned_suit(page)]} comme atout \? Carte retournée : (la|le|l')[^.]+\.", prompt), (
        prompt
    )
    # Which proposal of the eight, shown on the phone.
    count = page.locator(".proposal-count")
    expect(count).to_be_visible()
    assert count.text_content() == f"Proposition {proposals} sur 8"
    # South is to speak, not to play.
    expect(page.locator("#seat-S .chip-turn")).to_have_text("à parler")
    expect(page.get_by_role("button", name="Prendre")).to_have_accessible_description(re.compile("atout.*ton camp"))
    expect(page.get_by_role("button", name="Passer")).to_have_accessible_description(re.compile("joueur suivant"))
    assert_no_violations(page, "the bidding moment in French")

    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    assert situation(page) == "bid"
    prompt = page.locator("#prompt").text_content() or ""
    assert re.fullmatch(rf"{SUIT_EN[turned_suit(page)]} as trumps\? Turned up: the [^.]+\.", prompt), prompt
    assert page.locator(".proposal-count").text_content() == f"Offer {proposals} of 8"
    expect(page.locator("#seat-S .chip-turn")).to_have_text("to bid")
    expect(page.get_by_role("button", name="Take")).to_have_accessible_description(re.compile("trumps.*your side"))
    expect(page.get_by_role("button", name="Pass")).to_have_accessible_description(re.compile("next player"))
    assert_no_violations(page, "the bidding moment in English")


def test_seats_read_as_lists_and_their_chips_stay_on_the_felt(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE_320, has_touch=True).new_page()
    start_free_game(page)
    rng = random.Random(6)
    seen_taker = False
    for _ in range(40):
        now = situation(page)
        if now == "end":
            break
        assert not page.evaluate(OUTSIDE_FELT), f"{now}: past the felt's edge: {page.evaluate(OUTSIDE_FELT)}"
        if now == "deal":
            # The summary is read over the finished deal; the server is at the next one already.
            mouse_turn(page, rng)
            continue
        view = current_game(page)["view"]
        dealer, taker = view["deal"]["dealer"], view["deal"]["taker"]
        for seat in "WNE":
            said = page.locator(f"#seat-{seat}").aria_snapshot()
            # One line: name, role, chips, cards, each set off by a comma.
            line = next(text for text in said.splitlines() if SEAT_FR[seat] in text)
            assert f"{SEAT_FR[seat]}, " in line and re.search(r", \d cartes?\.|, aucune carte\.", line), said
            assert (", donneur," in line) == (seat == dealer), said
            assert (", preneur," in line) == (seat == taker), said
            seen_taker = seen_taker or seat == taker
        if now == "play" and view["to_move"] == "S":
            expect(page.locator("#seat-S .chip-turn")).to_have_text("à jouer")
        mouse_turn(page, rng)
        if seen_taker and now == "play":
            break
    assert seen_taker, "no bot took in the deals played"
