"""The leaderboard page (issue 12, defect 7), at 320 px and on a desktop, in French and English.

The player's own row is marked, for the eye and for a screen reader (aria-current and "(toi)");
a nameless player shows as "Anonyme n°" and the five digits of the server's tag, so two
anonymous players differ; a player whose row is nameless is invited, right there, to choose a
name; the free board can be shown for today, this week or all time; and at 320 px no column
is cut off: the table fits the screen without a sideways scroll.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playing import DESKTOP, ContextFactory, assert_no_violations, screenshot
from playwright.sync_api import expect

PHONE_320 = {"width": 320, "height": 568}
ANONYMOUS = {"fr": re.compile(r"^Anonyme n°\d{5}"), "en": re.compile(r"^Anonymous #\d{5}")}
YOU = {"fr": "(toi)", "en": "(you)"}
PERIODS = {"fr": ("Aujourd'hui", "Cette semaine", "Depuis toujours"), "en": ("Today", "This week", "All time")}
SAVED = {"fr": "Nom enregistré.", "en": "Name saved."}
HIDDEN = {
    "fr": "Le classement d'aujourd'hui s'affiche quand ton essai classé du jour est terminé, et pour tout le monde "
    "dès minuit, heure de Bruxelles. Ceux des jours passés sont ouverts à tous.",
    "en": "Today's board shows once your ranked attempt of the day is finished, and for everyone from midnight, "
    "Brussels time. Past days' boards are open to all.",
}
EMPTY = {"fr": "Personne n'a encore fini de partie ici.", "en": "Nobody has finished a game here yet."}
CAPTION = {"fr": "Défi du ", "en": "Challenge of "}


def finish_free_game(request: Any, seed: int) -> None:
    """Play a free couyon game to its end through the API, with this context's cookie (random legal moves)."""
    rng = random.Random(seed)
    answer = request.post("/api/games", data={"mode": "free"}).json()
    while answer["view"]["winner"] is None:
        body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
        response = request.post(f"/api/games/{answer['id']}/moves", data=body)
        assert response.ok, response.text()
        answer = response.json()
    # Asking for the game again runs (or waits for) the replay check that enters the board.
    shown = request.get(f"/api/games/{answer['id']}").json()
    assert shown["leaderboard"] is not None


def rows(page: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = page.locator("#board tbody tr").evaluate_all(
        """(rows) => rows.map((row) => ({ name: row.cells[1].textContent, current: row.getAttribute('aria-current'),
        marked: row.classList.contains('is-you') }))"""
    )
    return result


@pytest.mark.parametrize("language", ["fr", "en"])
def test_own_row_anonymous_names_periods_and_a_narrow_screen(new_context: ContextFactory, language: str) -> None:
    other = new_context()
    finish_free_game(other.request, 21)
    context = new_context(viewport=PHONE_320, has_touch=True, language=language)
    finish_free_game(context.request, 22)
    page = context.new_page()
    page.goto("/#/leaderboard")
    # The page opens on today's daily board, which waits for the player's own ranked attempt of the day
    # (issue 19, item 5): one sentence instead of a table.
    expect(page.locator("#board")).to_have_text(HIDDEN[language])
    assert page.locator("#board table").count() == 0
    page.locator("#board-free").tap()
    page.wait_for_selector("#board tbody tr")

    # Every row: one the player's own (marked, aria-current, "(toi)"), the others not; nameless rows numbered.
    lines = rows(page)
    mine = [line for line in lines if line["current"] == "true"]
    assert len(mine) == 1 and mine[0]["marked"] and mine[0]["name"].endswith(YOU[language]), lines
    assert all(not line["marked"] and YOU[language] not in line["name"] for line in lines if line not in mine)
    anonymous = [line["name"] for line in lines if ANONYMOUS[language].match(line["name"])]
    assert len(anonymous) >= 2 and len({name.removesuffix(YOU[language]).strip() for name in anonymous}) >= 2

    # The own row is highlighted for the eye too: its background differs from another row's.
    backgrounds = page.locator("#board tbody tr").evaluate_all(
        "(rows) => rows.map((row) => getComputedStyle(row).backgroundColor)"
    )
    index = next(i for i, line in enumerate(lines) if line["current"] == "true")
    assert all(backgrounds[index] != colour for i, colour in enumerate(backgrounds) if i != index)

    # At 320 px nothing is cut off: the table fits its box, every header inside the screen.
    fits = page.evaluate(
        """() => { const box = document.getElementById('board'); const right = document.documentElement.clientWidth;
        return { scroll: box.scrollWidth, client: box.clientWidth,
          over: [...box.querySelectorAll('th, td')].filter((c) => c.getBoundingClientRect().right > right + 0.5)
            .map((c) => c.textContent) }; }"""
    )
    assert fits["scroll"] <= fits["client"] and fits["over"] == [], fits
    assert_no_violations(page, f"free leaderboard at 320 px ({language})")
    screenshot(page, f"phone-320-leaderboard-{language}")
    page.set_viewport_size(DESKTOP)
    screenshot(page, f"desktop-leaderboard-{language}")
    page.set_viewport_size(PHONE_320)

    # Periods of the free board.
    today, week, ever = PERIODS[language]
    for label in (today, week, ever):
        button = page.get_by_role("button", name=label, exact=True)
        with page.expect_response(lambda response: "/api/leaderboard" in response.url) as answered:
            button.tap()
        period = {today: "day", week: "week", ever: "all"}[label]
        assert f"period={period}" in answered.value.url or (period == "all" and "period" not in answered.value.url)
        assert button.get_attribute("aria-pressed") == "true"
        page.wait_for_selector("#board tbody tr")
        assert any(line["current"] == "true" for line in rows(page))

    # The invitation to choose a name, beside the nameless own row; the row then shows the name.
    name = page.get_by_label(re.compile("nom au classement|name on the leaderboard", re.I))
    name.fill(f"Lou {language}")
    page.locator("#board-invite button[type=submit]").tap()
    page.wait_for_selector(f"#board-name-status:has-text('{SAVED[language]}')")
    page.wait_for_selector(f"#board tbody tr[aria-current='true']:has-text('Lou {language}')")
    assert page.locator("#board-invite form").count() == 0
    assert_no_violations(page, f"named leaderboard ({language})")

    # The daily board hides the periods; today's is still hidden, yesterday's is open to all.
    page.locator("#board-daily").tap()
    assert page.get_by_role("button", name=today, exact=True).is_hidden()
    expect(page.locator("#board")).to_have_text(HIDDEN[language])
    page.locator("#day-previous").tap()
    open_board = rf"^{re.escape(EMPTY[language])}$|^{re.escape(CAPTION[language])}"
    expect(page.locator("#board")).to_have_text(re.compile(open_board))
