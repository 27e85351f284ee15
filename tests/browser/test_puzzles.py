"""Issue 34's page in real Chromium: "Problèmes" in the menu, a couyon puzzle asked on the table and solved by
keyboard only (French, desktop) and by touch with a wrong card (English, 320x568, no horizontal overflow: the layout
where it fails), the answer's table of every legal card, the rating and its history, the puzzle of the day, a Malmedy
puzzle, and a game without puzzles; axe on the question and on the answer.

The server under test has its own data folder, filled by the real ``couyon puzzles mine`` before it starts (a few
seeded couyon games and one Malmedy game: see ``MINED_GAMES``; the time it took is printed)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playing import ContextFactory, assert_no_violations, browser_server
from playwright.sync_api import expect

PHONE = {"width": 320, "height": 568}
MINED_GAMES = 20
"""Seeded couyon games mined for the tests: 20 give 5 puzzles in about 7 CPU seconds (seed ``puzzles``); Malmedy's
first game gives 3 in about one."""

LEGAL = '#hand .hand-card[aria-disabled="false"]'


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A ``couyon serve`` whose database holds puzzles mined by the real command (overrides conftest's)."""
    data = tmp_path_factory.mktemp("couyon-puzzles")
    command = [str(Path(sys.executable).with_name("couyon")), "puzzles", "mine", "--game"]
    started = time.monotonic()
    for game, count in (("couyon", MINED_GAMES), ("malmedy", 1)):
        subprocess.run(
            [*command, game, "--games", str(count), "--data-dir", str(data), "--no-progress"],
            check=True,
            capture_output=True,
            timeout=300,
        )
    print(f"\nmined {MINED_GAMES} couyon games and one Malmedy game in {time.monotonic() - started:.1f} s")
    with browser_server(data) as server:
        yield server.url


def legal_cards(page: Any) -> list[str]:
    cards: list[str] = page.locator(LEGAL).evaluate_all("(nodes) => nodes.map((node) => node.dataset.card)")
    return cards


def announced(page: Any) -> str:
    text: str = page.locator("#announcer").inner_text()
    return text


def tab_to(page: Any, target: Any, limit: int = 25) -> None:
    """Press Tab until ``target`` (a locator) holds the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if target.evaluate("(node) => node === document.activeElement"):
            return
    raise AssertionError(f"Tab never reached {target}")


def check_answer(page: Any, legal: list[str], verdicts: re.Pattern[str], table_name: str) -> None:
    """The verdict heading takes the focus, the table lists every legal card (and only them), the bars beside it."""
    expect(page.get_by_role("heading", level=2, name=verdicts)).to_be_focused()
    grid = page.get_by_role("table", name=table_name)
    expect(grid.get_by_role("row")).to_have_count(len(legal) + 1)
    for code in legal:
        name = page.locator(f'#hand [data-card="{code}"]').get_attribute("aria-label") or ""
        expect(grid.get_by_role("rowheader", name=re.compile(re.escape(name.split(",")[0]), re.I))).to_have_count(1)
    assert re.search(verdicts, announced(page)), announced(page)
    # The themes, shown after the answer only; every puzzle is in attack or in defence.
    themes = page.get_by_text(re.compile(r"^(Thèmes :|Themes:) .*\b(en attaque|en défense|attack|defence)\b.*\.$"))
    expect(themes).to_be_visible()


def test_a_puzzle_solved_by_keyboard_in_french(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    page.goto("/")
    tab_to(page, page.get_by_role("navigation", name="Navigation principale").get_by_role("link", name="Problèmes"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1, name="Problèmes")).to_be_focused()
    expect(page.locator("#prompt")).to_have_text("À toi : quelle carte ?")
    expect(page.locator("#announcer")).to_contain_text("À toi : quelle carte ?")
    legal = legal_cards(page)
    assert len(legal) >= 2, legal
    # The table shows the seat's hand as South's, with the turn: the question is the table's own.
    expect(page.locator("#view-table")).to_have_attribute("data-turn", "play")
    assert_no_violations(page, "la question d'un problème")
    # Keyboard only: Tab reaches the hand at the first card the seat may play; arrows walk it, Enter plays.
    tab_to(page, page.locator(LEGAL).first)
    page.keyboard.press("End")
    page.keyboard.press("Home")
    while page.evaluate("document.activeElement.getAttribute('aria-disabled')") != "false":
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    check_answer(page, legal, re.compile("Bien vu !|Pas la meilleure carte."), "Chaque carte jouable")
    expect(page.get_by_role("img", name=re.compile("Part des donnes où chaque carte est la meilleure"))).to_be_visible()
    expect(
        page.get_by_text(re.compile(r"Ton classement aux problèmes : [\d\s ]+ \(provisoire\) \([+−]\d+\)\."))
    ).to_be_visible()
    assert_no_violations(page, "la réponse d'un problème")
    # The history: the rating, its curve and the answer in a table.
    tab_to(page, page.locator("#puzzle-history summary"), limit=40)
    page.keyboard.press("Enter")
    expect(page.get_by_role("img", name="Courbe de ton classement aux problèmes de Couyon")).to_be_visible()
    history = page.get_by_role("table", name="Tes problèmes de Couyon, réponse après réponse")
    expect(history.get_by_role("row")).to_have_count(2)
    assert_no_violations(page, "l'historique des problèmes")
    # The next one, by keyboard: another puzzle (or none left, said in one sentence).
    tab_to(page, page.get_by_role("button", name="Problème suivant"), limit=40)
    page.keyboard.press("Enter")
    left = page.get_by_text("Couyon : pas de nouveau problème pour toi pour l'instant.")
    expect(page.locator(f"{LEGAL}:focus").or_(left)).to_have_count(1)


def test_a_wrong_card_by_touch_in_english_at_320_shows_where_it_fails(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE, has_touch=True, is_mobile=True, language="en").new_page()
    with page.expect_response(lambda response: "/api/puzzles/next" in response.url) as asked:
        page.goto("/#/puzzles")
    puzzle = asked.value.json()["puzzle"]
    expect(page.locator("#prompt")).to_have_text("Your turn: which card?")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    legal = legal_cards(page)
    assert_no_violations(page, "a puzzle's question at 320")
    # Another player's answer tells the best cards (his rating is too new to move the puzzle's): play another one.
    other = new_context().request.post(f"/api/puzzles/{puzzle['id']}/answer", data={"card": legal[0]})
    assert other.ok, other.text()
    wrong = next(card for card in legal if card not in other.json()["best"])
    page.locator(f'#hand [data-card="{wrong}"]').tap()
    check_answer(page, legal, re.compile("Not the best card."), "Every legal card")
    layout = page.get_by_role("region", name="A layout where your card fails and the best one does not")
    expect(layout.get_by_role("term")).to_have_count(3)
    hidden = {seat: size for seat, size in puzzle["view"]["hand_sizes"].items() if seat != puzzle["seat"]}
    expect(layout.get_by_role("img")).to_have_count(sum(hidden.values()))  # each hand the seat could not see
    expect(page.get_by_text(re.compile(r"^Your puzzle rating: [\d,]+ \(provisional\) \(−\d+\)\.$"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    expect(page.get_by_role("button", name="Next puzzle")).to_be_visible()
    assert_no_violations(page, "a puzzle's answer at 320")


def test_the_puzzle_of_the_day_and_a_game_without_puzzles(new_context: ContextFactory) -> None:
    page = new_context(viewport=PHONE, has_touch=True).new_page()
    page.goto("/#/puzzles")
    expect(page.locator("#prompt")).to_have_text("À toi : quelle carte ?")
    page.get_by_role("button", name="Problème du jour").tap()
    expect(page.get_by_text(re.compile("^Problème du jour, "))).to_be_visible()
    expect(page.locator("#prompt")).to_have_text("À toi : quelle carte ?")
    page.locator(LEGAL).first.tap()
    expect(page.get_by_role("heading", level=2, name=re.compile("Bien vu !|Pas la meilleure carte."))).to_be_visible()
    page.get_by_role("button", name="Problème du jour").tap()
    expect(page.get_by_text(re.compile("Tu as déjà répondu au problème du jour"))).to_be_visible()
    expect(page.locator("#view-table")).to_be_hidden()
    # Malmedy's puzzles, on its own table.
    games = page.get_by_role("navigation", name="Jeux des problèmes")
    games.get_by_role("link", name="Le couyon de Malmedy").tap()
    expect(page.locator("#view-table")).to_have_attribute("data-variant", "malmedy")
    expect(page.locator("#prompt")).to_have_text("À toi : quelle carte ?")
    legal = legal_cards(page)
    page.locator(LEGAL).first.tap()
    check_answer(page, legal, re.compile("Bien vu !|Pas la meilleure carte."), "Chaque carte jouable")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Tarot has no puzzles: one sentence.
    games.get_by_role("link", name="Tarot").tap()
    expect(page.get_by_text(re.compile("^Tarot : pas encore de problèmes."))).to_be_visible()
    expect(page.locator("#view-table")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert_no_violations(page, "un jeu sans problèmes")
