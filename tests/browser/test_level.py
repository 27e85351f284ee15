"""Issue 35 in real Chromium at 320x568: a person plays a coucou game at a friends' table (through the API, the bots
moved by the real server's hub), opens "Mon niveau" from the menu and reads his rating, its curve (a plot named as
an image) and the same numbers as a table, in French and then in English; the board's view by rating, and the rating
in a table's lobby. axe on each screen."""

from __future__ import annotations

import re
import time
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from playing import ContextFactory, assert_no_violations
from playwright.sync_api import expect

PHONE = {"width": 320, "height": 568}


def table_game_through_api(page: Any) -> None:
    """A coucou table game (five players, one token) of this page's person and four bots, played to its end."""
    opened = page.request.post(
        "/api/tables", data={"game": "coucou", "options": {"players": 5, "tokens": 1}, "clock": 0}
    )
    assert opened.ok, opened.text()
    table = opened.json()
    path, secret = f"/api/tables/{table['code']}", table["secret"]
    assert page.request.post(f"{path}/start", data={"secret": secret}).ok
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        answer = page.request.get(f"{path}/game?secret={secret}&since=-1").json()
        if answer["view"]["winner"] is not None:
            return
        if answer["view"]["legal"]:
            body = {"secret": secret, "move": answer["view"]["legal"][0], "move_number": answer["move_number"]}
            page.request.post(f"{path}/moves", data=body)
        else:
            time.sleep(0.1)
    raise AssertionError("the table game did not end")


def test_my_level_shows_the_rating_its_curve_and_its_table_in_both_languages(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto("/")
    assert page.request.put("/api/player", data={"name": "Niveau"}).ok
    table_game_through_api(page)
    page.get_by_role("navigation", name="Navigation principale").get_by_role("link", name="Mon niveau").click()
    expect(page.get_by_role("heading", level=1, name="Mon niveau")).to_be_focused()
    expect(page.get_by_role("heading", level=2, name="Coucou")).to_be_visible()
    expect(page.get_by_role("img", name="Courbe du niveau au Coucou")).to_be_visible()
    curve = page.get_by_role("table", name="Niveau au Coucou, partie après partie")
    expect(curve.get_by_role("row")).to_have_count(2)  # Its header and the one game.
    expect(page.get_by_text("Niveau", exact=True)).to_be_visible()
    expect(page.get_by_text("Performance au défi", exact=True)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_no_violations(page, "Mon niveau")
    shown = page.request.get("/api/ratings/me").json()["games"][0]["rating"]["rating"]
    # The board by rating: only established ratings, so none yet after one game.
    page.get_by_role("navigation", name="Navigation principale").get_by_role("link", name="Classement").click()
    page.get_by_role("button", name="Par niveau").click()
    expect(page.get_by_role("button", name="Par niveau")).to_have_attribute("aria-pressed", "true")
    expect(page.get_by_text("Personne n'a encore de niveau établi à ce jeu", exact=False)).to_be_visible()
    assert_no_violations(page, "Classement par niveau")
    # A table's lobby shows the person's rating in its game.
    lobby = page.request.post("/api/tables", data={"game": "coucou", "options": {"players": 5}, "clock": 0}).json()
    page.goto(lobby["link"])
    # Said with one decimal at most and a decimal comma, as a French page writes a number.
    said = str(abs(Decimal(str(shown))).quantize(Decimal("0.1"), ROUND_HALF_UP)).removesuffix(".0").replace(".", ",")
    sign = "[-\u2212]" if shown < 0 else ""  # Intl may write a minus sign, not a hyphen
    expect(page.get_by_text(re.compile(rf"niveau {sign}{re.escape(said)} \(provisoire\)"))).to_be_visible()
    assert_no_violations(page, "Salon de la table")
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    page.get_by_role("navigation", name="Main navigation").get_by_role("link", name="My level").click()
    expect(page.get_by_role("heading", level=1, name="My level")).to_be_visible()
    expect(page.get_by_role("img", name="Rating curve at Coucou")).to_be_visible()
    expect(page.get_by_role("table", name="Rating at Coucou, game after game")).to_be_visible()
    expect(page.get_by_text("Challenge performance", exact=True)).to_be_visible()
    assert_no_violations(page, "My level")
