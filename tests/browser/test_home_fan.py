"""The home page's card fan stays clear of the panels under it (issue 12, defect 11)."""

from __future__ import annotations

import pytest
from playing import ContextFactory

SIZES = [(1280, 800), (1024, 768), (1440, 900), (1920, 1080), (768, 1024), (320, 568)]

# Pairs (fan card, panel) whose boxes (a turned card's box holds all its corners) intersect.
OVERLAPS = """(fan) => {
  const boxes = (selector) => [...document.querySelectorAll(selector)].filter((n) => n.checkVisibility())
    .map((n) => [(n.querySelector('h2') ?? n).textContent.trim(), n.getBoundingClientRect()]);
  const cards = boxes(`#${fan} .card`);
  const panels = boxes(`#${fan} ~ .home-grid .panel`);
  const hits = [];
  for (const [, card] of cards)
    for (const [name, panel] of panels)
      if (card.left < panel.right && panel.left < card.right && card.top < panel.bottom && panel.top < card.bottom)
        hits.push(`${name}: card ${Math.round(card.top)}..${Math.round(card.bottom)}, panel from ${Math.round(panel.top)}`);
  return { cards: cards.length, panels: panels.length, hits };
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_fan_does_not_overlap_the_panels(new_context: ContextFactory, width: int, height: int) -> None:
    page = new_context(viewport={"width": width, "height": height}).new_page()
    for route, fan in (("/", "hero-fan"), ("/#/malmedy", "game-fan")):
        page.goto(route)
        page.wait_for_selector(f"#{fan} .card")
        result = page.evaluate(OVERLAPS, fan)
        # Three panels of the solo game and the friends' one (issue 21: "Jouer entre amis").
        assert result["cards"] == 4 and result["panels"] == 4, result
        assert not result["hits"], f"{route} at {width}x{height}: {result['hits']}"
