"""Issue 12 for players who come back: the daily's rules (defect 8), the result at home, sharing, the day's
results and the traveller, the archive, and the statistics page; axe in French and English on each new screen."""

from __future__ import annotations

import datetime as dt
import json
import random
import re
from typing import Any

from playing import DESKTOP, PHONE, ContextFactory, assert_no_violations, screenshot
from playwright.sync_api import expect


def finish_daily_by_api(page: Any, seed: int) -> dict[str, Any]:
    """The context's player plays today's ranked challenge to its end through the API (as the page would)."""
    answer: dict[str, Any] = page.request.post("/api/games", data={"mode": "daily"}).json()
    rng = random.Random(seed)
    while answer["view"]["winner"] is None:
        body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
        response = page.request.post(f"/api/games/{answer['id']}/moves", data=body)
        assert response.ok, response.text()
        answer = response.json()
    shown: dict[str, Any] = page.request.get(f"/api/games/{answer['id']}").json()  # Verified by now.
    assert shown["leaderboard"] is not None
    return shown


def english(page: Any) -> None:
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()


# Records what the page hands to the share sheet; "noShare" in sessionStorage takes the share sheet away.
SHARE_STUB = """
if (sessionStorage.getItem('noShare')) { delete Navigator.prototype.share; delete navigator.share; }
else {
  window.__shared = [];
  Object.defineProperty(navigator, 'share', { configurable: true, value: (data) => { window.__shared.push(data.text); return Promise.resolve(); } });
}
"""


def test_the_daily_panel_says_the_one_ranked_try_the_tie_rule_and_when_the_day_turns(
    new_context: ContextFactory,
) -> None:
    page = new_context().new_page()
    page.goto("/")
    daily = page.locator("#view-home .panel", has=page.get_by_role("heading", name="Le défi du jour"))
    text = daily.inner_text()
    assert "Un seul essai classé par jour" in text
    assert "le moins de donnes passe devant, puis celui qui a fini le premier" in text
    assert "minuit, heure de Bruxelles" in text
    page.goto("/#/malmedy")
    assert "minuit, heure de Bruxelles" in page.locator("#view-game").inner_text()
    english(page)
    page.goto("/")
    text = page.locator("#view-home").inner_text()
    assert "One ranked try a day" in text and "midnight, Brussels time" in text and "fewer deals" in text


def test_after_the_ranked_try_home_shows_the_rank_and_the_results_and_statistics_pages(
    new_context: ContextFactory,
) -> None:
    context = new_context()
    context.add_init_script(SHARE_STUB)
    page = context.new_page()
    page.goto("/")
    assert page.locator("#daily-result").is_hidden()  # Nothing to say before the try.
    game = finish_daily_by_api(page, 7)
    score, rank = game["view"]["score"], game["leaderboard"]["rank"]
    page.reload()
    result = page.locator("#daily-result")
    result.wait_for()
    place = "1re" if rank == 1 else f"{rank}e"
    assert re.fullmatch(
        rf"Ton défi du jour : {score} points, à la {place} place sur \d+\.( Mieux que \d+ % des autres joueurs\.)?",
        result.inner_text(),
    ), result.inner_text()

    # The end of the game: the share sheet where there is one, and the copy.
    page.evaluate(f"localStorage.setItem('couyon.game', {json.dumps(game['id'])})")
    page.goto("/#/table")
    dialog = page.get_by_role("dialog")
    share = dialog.get_by_role("button", name="Partager")
    share.click()
    shared = page.evaluate("window.__shared")
    assert shared == [page.locator("#share-text").inner_text()] and str(score) in shared[0]
    assert dialog.get_by_role("button", name="Copier le texte").is_visible()
    assert dialog.get_by_role("link", name="Voir les résultats du jour").is_visible()
    page.evaluate(
        f"sessionStorage.setItem('noShare', '1'); localStorage.setItem('couyon.game', {json.dumps(game['id'])})"
    )
    page.reload()
    dialog.get_by_role("button", name="Copier le texte").wait_for()
    assert dialog.get_by_role("button", name="Partager").count() == 0  # No share sheet: the copy alone.
    dialog.get_by_role("link", name="Voir les résultats du jour").click()

    # The day's results: the field, the player's place, the scores and the day's board; no traveller yet.
    summary = page.locator("#results-summary")
    summary.wait_for()
    assert f"Toi : {score} points en {game['leaderboard']['deals']} donnes" in summary.inner_text()
    scores = page.get_by_role("table", name="Combien de joueurs ont fait chaque score")
    assert scores.get_by_role("rowheader", name=str(score)).count() == 1
    board = page.get_by_role("table", name=re.compile("Les dix premiers"))
    board.wait_for()
    assert board.get_by_role("row").count() >= 2
    assert "Le détail donne par donne s'affiche une fois le jour fini." in page.locator("#results-root").inner_text()
    assert page.get_by_role("button", name="Rejouer ce défi hors classement").count() == 0  # Today is not over.
    assert_no_violations(page, "results (fr)")
    screenshot(page, "results-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "results-phone")
    page.set_viewport_size(DESKTOP)

    # The statistics: one day played, a streak of one, today's calendar cell marked as played.
    page.goto("/#/stats")
    streak = page.locator("#streak")
    streak.wait_for()
    assert streak.inner_text() == "Série en cours : 1 jour de suite."
    facts = page.locator("#stats-facts").inner_text()
    assert "Défis du jour joués\n1" in facts and "Parties classées finies\n1" in facts
    today = page.locator('.calendar td[aria-current="date"]')
    assert "played" in (today.get_attribute("class") or "")
    assert f"{score} points" in today.inner_text()
    assert_no_violations(page, "statistics (fr)")
    screenshot(page, "stats-desktop")
    page.set_viewport_size(PHONE)
    assert_no_violations(page, "statistics (fr, phone)")
    screenshot(page, "stats-phone")
    english(page)
    page.locator("#streak").wait_for()
    assert page.locator("#streak").inner_text() == "Current streak: 1 day in a row."
    assert_no_violations(page, "statistics (en)")
    page.goto("/#/results")
    page.locator("#results-summary").wait_for()
    assert f"You: {score} points" in page.locator("#results-summary").inner_text()
    assert_no_violations(page, "results (en)")
    page.goto("/")
    expect(page.locator("#daily-result")).to_have_text(re.compile(rf"^Today's challenge: {score} points, "))


MONTHS_FR = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]
NO_ENTRY = "Tu n'as pas de partie classée ce jour-là."


def french_day(iso: str) -> str:
    """A day as the page writes it in French (``29 novembre 2026``)."""
    day = dt.date.fromisoformat(iso)
    return f"{day.day} {MONTHS_FR[day.month - 1]} {day.year}"


def yesterday_results(day: str) -> dict[str, Any]:
    """A past day's results as the server gives them (docs/api.md), with a traveller of two deals."""
    return {
        "game": "couyon",
        "day": day,
        "over": True,
        "players": 3,
        "scores": [{"score": 1300, "players": 1}, {"score": 900, "players": 2}],
        "deals": [{"deals": 6, "players": 2}, {"deals": 8, "players": 1}],
        "you": {"score": 900, "deals": 8, "rank": 3, "better_than_percent": 0},
        "traveller": [
            {
                "deal": 1,
                "games": 3,
                "not_taken": 0,
                "taken_by_us": 2,
                "taken_by_them": 1,
                "made": 2,
                "failed": 1,
                "tie": 0,
                "you": {"taker": "S", "side": "us", "outcome": "failed"},
            },
            {
                "deal": 2,
                "games": 3,
                "not_taken": 1,
                "taken_by_us": 0,
                "taken_by_them": 2,
                "made": 1,
                "failed": 0,
                "tie": 1,
                "you": {"taker": None, "side": None, "outcome": "redeal"},
            },
        ],
    }


def test_a_past_day_shows_its_traveller_and_is_played_again_unranked_beside_its_board(
    new_context: ContextFactory,
) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto("/")
    today = page.request.get("/api/daily").json()["day"]
    yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
    # Only the page is under test here: the server's traveller is tested in tests/server/test_day_results.py.
    page.route(
        f"**/api/daily/results?day={yesterday}",
        lambda route: route.fulfill(json=yesterday_results(yesterday)),
    )
    page.get_by_role("link", name="Les résultats du jour et les défis passés").click()
    # Today's try is not played: today's results are hidden, yesterday's are shown.
    root = page.locator("#results-root")
    page.get_by_role("table", name="Ce que chaque donne du jour est devenue").wait_for()
    assert "Les résultats d'aujourd'hui s'affichent quand ton essai classé est terminé" in root.inner_text()
    assert page.get_by_role("button", name="Jouer le défi du jour").is_visible()
    assert "Toi : 900 points en 8 donnes, 3e sur 3." in root.inner_text()
    traveller = page.get_by_role("table", name="Ce que chaque donne du jour est devenue")
    rows = traveller.get_by_role("row")
    assert rows.nth(1).inner_text().split("\t") == ["1", "Sud a pris : chutée", "3", "0", "2", "1", "2", "1", "0"]
    assert rows.nth(2).inner_text().split("\t")[1] == "Personne n'a pris"
    assert page.get_by_role("button", name="Jour suivant").is_disabled()  # Today's are hidden until played.
    # By keyboard the day buttons keep the focus, and the status says the day now shown.
    page.get_by_role("button", name="Jour précédent").focus()
    page.keyboard.press("Enter")
    before = (dt.date.fromisoformat(yesterday) - dt.timedelta(days=1)).isoformat()
    status = page.locator("#results-status")
    expect(status).to_have_text(f"Le défi du {french_day(before)}. Personne n'a fini ce défi classé. {NO_ENTRY}")
    assert page.evaluate("document.activeElement.id") == "results-previous"
    assert page.get_by_role("table", name="Ce que chaque donne du jour est devenue").count() == 0  # Nobody played it.
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Jour suivant: back to yesterday, whose next day is closed: focus on the heading.
    expect(status).to_contain_text("3 joueurs l'ont fini.")
    assert page.evaluate("document.activeElement.id") == "results-title"
    # Any past day at once: the archive's date field.
    far = (dt.date.fromisoformat(yesterday) - dt.timedelta(days=40)).isoformat()
    page.get_by_label("Aller au défi du").fill(far)
    page.keyboard.press("Enter")
    expect(status).to_have_text(f"Le défi du {french_day(far)}. Personne n'a fini ce défi classé. {NO_ENTRY}")
    assert page.evaluate("document.activeElement.id") == "results-day"
    assert page.get_by_role("button", name="Rejouer ce défi hors classement").is_visible()
    page.get_by_label("Aller au défi du").fill(yesterday)
    page.get_by_role("button", name="Voir ce jour").click()
    expect(status).to_contain_text("3 joueurs l'ont fini.")
    assert_no_violations(page, "past day's results (fr, phone)")
    screenshot(page, "results-past-day-phone")

    page.get_by_role("button", name="Rejouer ce défi hors classement").click()
    page.locator("#view-table[data-turn]").wait_for()
    game_id = page.locator("#view-table").get_attribute("data-game")
    answer = page.request.get(f"/api/games/{game_id}").json()
    assert (answer["mode"], answer["day"], answer["ranked"]) == ("daily", yesterday, False)
    beside = page.get_by_role("region", name="Le classement de ce jour")
    beside.wait_for()
    assert beside.is_visible()
    assert_no_violations(page, "archive game (fr, phone)")
    screenshot(page, "archive-table-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "archive-table-desktop")
    page.set_viewport_size(PHONE)

    english(page)
    page.goto("/#/results")
    page.get_by_role("table", name="What became of each deal of the day").wait_for()
    assert "South took: failed" in page.locator("#results-root").inner_text()
    assert_no_violations(page, "past day's results (en, phone)")


def tarot_results(day: str) -> dict[str, Any]:
    """A past day's results of tarot at four as the server gives them (docs/api.md), with a traveller of two deals."""
    return {
        "game": "tarot4",
        "day": day,
        "over": True,
        "players": 3,
        "scores": [{"score": 120, "players": 1}, {"score": -40, "players": 2}],
        "deals": [{"deals": 4, "players": 2}, {"deals": 5, "players": 1}],
        "you": {"score": -40, "deals": 5, "rank": 2, "better_than_percent": 50},
        "traveller": [
            {
                "deal": 1,
                "games": 3,
                "not_taken": 0,
                "taken_by_us": 1,
                "taken_by_them": 2,
                "made": 2,
                "failed": 1,
                "tie": 0,
                "contracts": [
                    {"contract": "petite", "taken_by_us": 0, "taken_by_them": 2, "made": 2, "failed": 0},
                    {"contract": "garde", "taken_by_us": 1, "taken_by_them": 0, "made": 0, "failed": 1},
                ],
                "average_points": -12.5,
                "you": {"taker": "S", "side": "us", "contract": "garde", "outcome": "failed", "points": -132},
            },
            {
                "deal": 2,
                "games": 3,
                "not_taken": 3,
                "taken_by_us": 0,
                "taken_by_them": 0,
                "made": 0,
                "failed": 0,
                "tie": 0,
                "contracts": [],
                "average_points": 0,
                "you": {"taker": None, "side": None, "contract": None, "outcome": "redeal", "points": 0},
            },
        ],
    }


def test_tarot_s_traveller_shows_each_contract_and_south_s_average_points(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE).new_page()
    page.goto("/")
    today = page.request.get("/api/daily").json()["day"]
    yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
    # The server's traveller is tested in tests/server/test_day_results.py; here, how the page draws it.
    page.route("**/api/daily/results?game=tarot4*", lambda route: route.fulfill(json=tarot_results(yesterday)))
    page.goto("/#/results/tarot")
    traveller = page.get_by_role("table", name="Ce que chaque donne du jour est devenue")
    traveller.wait_for()
    rows = traveller.get_by_role("row")
    assert rows.nth(0).inner_text().split("\t")[-2:] == ["Contrats", "Points moyens de Sud"]
    assert rows.nth(1).inner_text().split("\t") == [
        "1",
        "Garde de Sud : chutée, −132 pour toi",
        "3",
        "0",
        "1",
        "2",
        "2",
        "1",
        "Petite : 2, 2 réussies ; Garde : 1, 0 réussie",
        "−12,5",
    ]
    assert rows.nth(2).inner_text().split("\t")[1] == "Pas jouée (redonnée), 0 pour toi"
    assert_no_violations(page, "tarot traveller (fr, phone)")
    screenshot(page, "results-tarot-traveller-phone")
    english(page)
    traveller = page.get_by_role("table", name="What became of each deal of the day")
    traveller.wait_for()
    row = traveller.get_by_role("row").nth(1).inner_text().split("\t")
    assert row[1] == "South's Garde: failed, −132 for you" and row[-2:] == [
        "Petite: 2, 2 made; Garde: 1, 0 made",
        "−12.5",
    ]
    assert_no_violations(page, "tarot traveller (en, phone)")


def coucou_results(day: str) -> dict[str, Any]:
    """A past day's results of coucou as the server gives them (docs/api.md), with a traveller of two coups."""
    return {
        "game": "coucou",
        "day": day,
        "over": True,
        "players": 3,
        "scores": [{"score": 1020, "players": 1}, {"score": 573, "players": 2}],
        "deals": [{"deals": 14, "players": 2}, {"deals": 19, "players": 1}],
        "you": {"score": 573, "deals": 14, "rank": 2, "better_than_percent": 50},
        "traveller": [
            {
                "coup": 1,
                "games": 3,
                "keep": 2,
                "change": 1,
                "dealer": 0,
                "lost": 1,
                "eliminated": 0,
                "you": {"card": "QH", "said": "keep", "lost": True, "eliminated": False},
            },
            {
                "coup": 2,
                "games": 2,
                "keep": 0,
                "change": 0,
                "dealer": 2,
                "lost": 2,
                "eliminated": 1,
                "you": None,
            },
        ],
    }


def test_coucou_s_traveller_shows_what_seat_1_said_and_lost_at_each_coup(new_context: ContextFactory) -> None:
    page = new_context(viewport={"width": 320, "height": 568}).new_page()  # The smallest phone.
    page.goto("/")
    today = page.request.get("/api/daily").json()["day"]
    yesterday = (dt.date.fromisoformat(today) - dt.timedelta(days=1)).isoformat()
    # The server's traveller is tested in tests/server/test_day_results.py; here, how the page draws it.
    page.route("**/api/daily/results?game=coucou*", lambda route: route.fulfill(json=coucou_results(yesterday)))
    page.goto("/#/results/coucou")
    page.get_by_role("heading", name="Coup par coup").wait_for()
    rows = page.get_by_role("table", name="Ce que chaque coup du jour t'a coûté").get_by_role("row")
    expect(rows.nth(0)).to_have_text(re.compile("Coup.*Toi.*Parties.*Tu gardes.*Tu changes.*Tu donnes.*Éliminé"))
    expect(rows.nth(1)).to_have_text(re.compile(r"1\s*dame de cœur : gardée, un jeton perdu\s*3\s*2\s*1\s*0\s*1\s*0"))
    expect(rows.nth(2)).to_have_text(re.compile(r"2\s*—\s*2\s*0\s*0\s*2\s*2\s*1"))
    # Coucou counts the coups a player lasted where the other games count deals.
    expect(page.locator("#results-summary")).to_contain_text("Toi : 573 points, 14 coups tenus, ")
    expect(page.get_by_role("table", name="Combien de coups les joueurs ont tenu")).to_be_visible()
    assert_no_violations(page, "coucou traveller (fr, 320 px)")
    screenshot(page, "results-coucou-traveller-320")
    english(page)
    rows = page.get_by_role("table", name="What each coup of the day cost you").get_by_role("row")
    expect(rows.nth(1)).to_have_text(re.compile(r"1\s*queen of hearts: kept, lost a token\s*3"))
    expect(page.locator("#results-summary")).to_contain_text("You: 573 points, 14 coups lasted, ")
    assert_no_violations(page, "coucou traveller (en, 320 px)")


def test_coucou_s_results_of_today_say_the_coup_by_coup_detail_comes_at_midnight(new_context: ContextFactory) -> None:
    page = new_context(viewport={"width": 320, "height": 568}).new_page()
    page.goto("/")
    status = page.request.get("/api/daily?game=coucou").json()
    today = {**coucou_results(status["day"]), "over": False, "traveller": None}
    # The page shows today's results once the ranked try is finished; here the server's answers say so.
    page.route("**/api/daily?game=coucou", lambda route: route.fulfill(json={**status, "finished": True}))
    page.route("**/api/daily/results?game=coucou*", lambda route: route.fulfill(json=today))
    page.goto("/#/results/coucou")
    root = page.locator("#results-root")
    expect(root).to_contain_text("Le détail coup par coup s'affiche une fois le jour fini.")
    expect(page.get_by_role("heading", name="Coup par coup")).to_have_count(0)
    english(page)
    expect(root).to_contain_text("The coup-by-coup detail shows once the day is over.")
