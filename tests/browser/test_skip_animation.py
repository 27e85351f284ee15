"""The other players' moves can be skipped, and the speed is chosen at the table (issue 12, defect 10).

Escape, Space or a tap on the felt while the bots' moves are animated shows the rest at once: no
further pause is scheduled before South's turn comes back. The live region says so once, and a
speed menu sits at the table, named and reachable by keyboard.
"""

from __future__ import annotations

from typing import Any

from playing import ANNOUNCEMENT_RECORDER, ContextFactory, focused, sent_count, situation, start_free_game, wait_sent

# Counts the pauses of 100 ms or more the page schedules (the animation's waits).
PAUSE_COUNTER = """
window.__pauses = 0;
const plainSetTimeout = window.setTimeout;
window.setTimeout = (callback, delay, ...rest) => {
  if (delay >= 100) window.__pauses += 1;
  return plainSetTimeout(callback, delay, ...rest);
};
"""


ANIMATING_OR_SUMMARY = "(n) => window.__pauses > n || document.getElementById('deal-dialog').open"


def decide_then_skip(page: Any, skip: str) -> bool:
    """Pass (or play the first card South may play) by keyboard, skip the bots' animation once it runs.

    False when the move ended the deal without the bots moving (a summary to close instead)."""
    now = situation(page)
    if now == "deal":
        page.keyboard.press("Enter")
        return False
    assert now in ("bid", "play"), now
    before = sent_count(page)
    pauses = page.evaluate("window.__pauses")
    if now == "bid":
        page.keyboard.press("Tab")
        assert focused(page)["id"] == "pass-button"
    page.keyboard.press("Enter")
    wait_sent(page, before)
    page.wait_for_function(ANIMATING_OR_SUMMARY, arg=pauses)
    if page.evaluate("document.getElementById('deal-dialog').open"):
        return False
    if skip == "tap":
        page.locator("#felt").click(position={"x": 40, "y": 40})
    else:
        page.keyboard.press(skip)
    skipped = page.evaluate("window.__pauses")
    assert situation(page) in ("bid", "play", "deal")
    assert sent_count(page) == before + 1, "the skipping key also made a move"
    assert page.evaluate("window.__pauses") == skipped, "the animation went on pausing after the skip"
    return True


def test_escape_space_or_a_tap_skip_the_bots_moves(new_context: ContextFactory) -> None:
    page = new_context(speed="slow").new_page()
    page.add_init_script(PAUSE_COUNTER)
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    start_free_game(page)
    for skip in ("Escape", "tap", " "):
        for _ in range(5):
            if decide_then_skip(page, skip):
                break
        else:
            raise AssertionError(f"no animation to skip with {skip!r}")
    hints = [line for line in page.evaluate("window.__announced") if "Échap" in line]
    assert len(hints) == 1, hints

    # The speed menu of the table: reached by Tab from the button before it, and remembered.
    speed = page.get_by_role("combobox", name="Vitesse du jeu")
    assert speed.input_value() == "slow"
    page.locator("#last-trick-button").focus()
    for _ in range(6):
        if focused(page)["id"] == "table-speed":
            break
        page.keyboard.press("Tab")
    assert focused(page)["id"] == "table-speed"
    speed.select_option("fast")
    assert page.evaluate("localStorage.getItem('couyon.speed')") == "fast"
