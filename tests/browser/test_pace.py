"""The bots' cards arrive one at a time at the chosen pace, and reduced motion turns the flights off."""

from __future__ import annotations

import random

from playing import ContextFactory, mouse_turn, situation, start_free_game

# Records the seat and classes of every card added to the trick, and every pause of 100 ms or more the page schedules.
PACE_RECORDER = """
window.__trickSeats = [];
window.__pauses = [];
const plainSetTimeout = window.setTimeout;
window.setTimeout = (callback, delay, ...rest) => {
  if (delay >= 100) window.__pauses.push(delay);
  return plainSetTimeout(callback, delay, ...rest);
};
document.addEventListener('DOMContentLoaded', () => {
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) if (node.classList?.contains('slot')) window.__trickSeats.push([node.dataset.seat, node.className]);
  }).observe(document.getElementById('trick'), { childList: true });
});
"""
FAST_CARD_PAUSE = 380  # settings.js, PACES.fast.card


def test_bots_cards_arrive_one_by_one_at_a_readable_pace(new_context: ContextFactory) -> None:
    page = new_context(speed="fast").new_page()
    page.add_init_script(PACE_RECORDER)
    start_free_game(page)
    rng = random.Random(9)
    for _ in range(40):
        if len(page.evaluate("window.__trickSeats")) >= 8:
            break
        mouse_turn(page, rng)
    bot_cards = [(seat, classes) for seat, classes in page.evaluate("window.__trickSeats") if seat != "S"]
    assert len(bot_cards) >= 6
    # Each flies in from its player's side of the table.
    assert all(f"fly-from-{seat}" in classes.split() for seat, classes in bot_cards)
    # After each card it shows, the page pauses for the pace's card time before the next event.
    assert page.evaluate("window.__pauses").count(FAST_CARD_PAUSE) >= len(bot_cards)
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--fly')") == "200ms"


def test_reduced_motion_keeps_cards_still(new_context: ContextFactory) -> None:
    page = new_context(speed="normal", reduced_motion="reduce").new_page()
    start_free_game(page)
    assert page.evaluate("document.documentElement.classList.contains('no-motion')")
    assert page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--fly')") == "0ms"
    rng = random.Random(1)
    while page.locator("#trick .slot .card").count() == 0:
        assert situation(page) != "end"
        mouse_turn(page, rng)
    duration = page.locator("#trick .slot .card").first.evaluate("(card) => getComputedStyle(card).animationDuration")
    assert float(duration.removesuffix("s")) < 0.001
