"""The keyboard focus stays at the table while the other players move (issue 12, defect 2).

After each of South's bids and cards the focus goes to his hand (it used to fall to <body>), and
when his turn comes back it lands on the first bid button or on the first card he may play.
"""

from __future__ import annotations

import random

from playing import ContextFactory, focused, keyboard_turn, situation, start_free_game

# Every 40 ms while the table waits for the other players: where the focus is.
FOCUS_SAMPLER = """
window.__focus = [];
setInterval(() => {
  const table = document.getElementById('view-table');
  if (!table || table.hidden || table.dataset.turn !== 'wait' || document.querySelector('dialog[open]')) return;
  const active = document.activeElement;
  window.__focus.push(active && table.contains(active) && active !== document.body
    ? 'table' : `${active ? active.tagName : 'none'}#${active ? active.id : ''}`);
}, 40);
"""

FIRST_PLAYABLE = """() => { const card = document.querySelector('#hand .hand-card[aria-disabled="false"]');
  return card ? card.dataset.card : null; }"""


def test_focus_stays_at_the_table_during_the_bots_turn(new_context: ContextFactory) -> None:
    page = new_context(speed="fast").new_page()
    page.add_init_script(FOCUS_SAMPLER)
    start_free_game(page)
    rng = random.Random(12)
    turns = {"bid": 0, "play": 0}
    for _ in range(40):
        now = situation(page)
        if now in turns:
            turns[now] += 1
            # The turn came back: the focus is on the first bid button or the first card South may play.
            if now == "bid":
                assert focused(page)["id"] == "take-button", focused(page)
            else:
                assert focused(page)["card"] == page.evaluate(FIRST_PLAYABLE), focused(page)
        if now == "end" or (turns["bid"] >= 2 and turns["play"] >= 4):
            break
        keyboard_turn(page, rng)
    assert turns["bid"] >= 2 and turns["play"] >= 4, turns
    samples = page.evaluate("window.__focus")
    assert len(samples) >= 20, "too few samples of the bots' turn"
    lost = [sample for sample in samples if sample != "table"]
    assert not lost, f"{len(lost)} of {len(samples)} samples outside the table: {sorted(set(lost))}"
