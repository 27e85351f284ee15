"""As qui court in real Chromium against a real server: its own entry on the home page and its rules in French
and English; a whole game by keyboard on a desktop and by touch on a 320 × 568 phone (5 and 20 seats), every
move said in the live region in order, a shown king among them; the dealer's move ("Changer avec le talon") on
the archive of a day whose first coup hands seat 1, the dealer, an ace; a king shown before seat 1's turn drawn
face up at its seat; axe clean in both languages.

The archive days come from this module's own server, whose secret the test knows (as test_rare_moments.py):
the engine and the table's bots find the first past day that brings the moment.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playing import (
    ANNOUNCEMENT_RECORDER,
    DESKTOP,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    coucou_situation,
    coucou_turn,
    current_game,
    focused,
)
from test_rare_moments import first_day, open_archive, server_url

from couyon.games.coucou.game import Outcome
from couyon.registry import GAMES, verify_record

__all__ = ["server_url"]  # this module's server (its secret known), as test_rare_moments.py's

GAME = "as-qui-court"
SMALL_PHONE = {"width": 320, "height": 568}
MAX_TURNS = 200

# One line of the live region per move, by its outcome (the dealer's own move included).
SPOKEN = {
    "keep": re.compile(r"^(Tu gardes ta carte\.|Joueur \d+ garde\.)$"),
    "exchange": re.compile(r"^(Tu changes avec Joueur \d+ : |Joueur \d+ change avec (Joueur \d+\.$|toi : ))"),
    "king-shown": re.compile(
        r"^((Tu veux|Joueur \d+ veut) changer avec Joueur \d+, qui abat son roi, le roi de \w+ : "
        r"|Joueur \d+ veut changer avec toi\. Tu abats ton roi, le roi de \w+ : )"
    ),
    "stock": re.compile(r"^(Tu changes avec le talon : tu prends|Joueur \d+ change avec le talon et prend) "),
    "stock-king": re.compile(r"^Le talon montre le roi de \w+ : pas d'échange"),
}


def outcome_of(line: str) -> str | None:
    found = [outcome for outcome, pattern in SPOKEN.items() if pattern.search(line)]
    assert len(found) <= 1, line
    return found[0] if found else None


def start(page: Any, players: int, how: str) -> None:
    """From the home page's own entry to a free game of ``players`` seats with one token each."""
    page.goto("/")
    page.get_by_role("link", name="As qui court", exact=True).first.click()
    page.wait_for_selector("#game-options:not([hidden]) select")
    page.select_option("#option-players", str(players))
    page.select_option("#option-tokens", "1")
    if how == "keyboard":
        page.locator("#game-new").focus()
        page.keyboard.press("Enter")
    elif how == "touch":
        page.locator("#game-new").tap()
    else:
        page.click("#game-new")
    coucou_situation(page)


def finished_report(page: Any) -> dict[str, Any]:
    game_id = page.locator("#view-table").get_attribute("data-game")
    response = page.request.get(f"/api/games/{game_id}/record")
    assert response.ok, response.text()
    document = response.json()
    assert document["format"] == "coucou-record/2" and document["variant"] == GAME
    report = verify_record(response.body())
    assert report["valid"] and report["finished"] and report["variant"] == GAME, report
    return report


def play_out(page: Any, how: str, seed: int, check: Any = None) -> int:
    rng = random.Random(seed)
    turns = 0
    for _ in range(MAX_TURNS):
        if check is not None and coucou_situation(page) == "decide":
            check(turns)
        if coucou_turn(page, rng, how) is None:
            break
        turns += 1
    assert coucou_situation(page) == "end"
    return turns


def test_a_whole_game_by_keyboard_on_a_desktop_every_move_said(new_context: ContextFactory) -> None:
    page = new_context(viewport=DESKTOP).new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    errors = collect_errors(page)
    start(page, 5, "keyboard")
    assert current_game(page)["game"] == GAME
    assert page.locator("#coucou-rules-link").get_attribute("href") == "#/rules/as-qui-court"
    page.locator("#keep-button").focus()

    def check(turns: int) -> None:
        if turns == 1:
            assert_no_violations(page, "as qui court table, desktop, French")

    play_out(page, "keyboard", 5, check)
    report = finished_report(page)
    expected = [action.split(":")[1] for coup in report["coup_log"] for action in coup["actions"]]
    said = [outcome for outcome in map(outcome_of, page.evaluate("window.__announced")) if outcome]
    assert said == expected
    assert "coucou" not in expected
    assert errors == []


@pytest.mark.parametrize("players", [5, 20])
def test_a_whole_game_by_touch_on_a_320_px_phone(new_context: ContextFactory, players: int) -> None:
    context = new_context(viewport=SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    errors = collect_errors(page)
    if players == 5:  # the home and the rules, in French on the phone, once
        home_and_rules_pass_axe(page, "fr")
    start(page, players, "touch")
    width = SMALL_PHONE["width"]

    def check(turns: int) -> None:
        if turns < 2:
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            boxes = page.locator(".coucou-seat").evaluate_all(
                "(nodes) => nodes.map((n) => { const r = n.getBoundingClientRect(); return [r.x, r.right]; })"
            )
            assert len(boxes) == players and all(left >= 0 and right <= width for left, right in boxes)
            for name in ("#keep-button", "#change-button"):
                box = page.locator(name).bounding_box()
                assert box and box["height"] >= 44
        if turns == 1 and players == 20:  # the 5-seat phone game ran axe on the home and the rules
            assert_no_violations(page, f"as qui court table of {players} on a 320 px phone")

    play_out(page, "touch", players, check)
    finished_report(page)
    assert errors == []


def seat_one_is_handed_an_ace_as_dealer(state: Any) -> bool:
    """Coup 1 dealt by seat 1, the table's bots playing up to it: seat 1 is to speak, so it holds a handed ace."""
    kind = GAMES[GAME]
    bot = kind.bot(kind.table_bot_id)
    while state.to_move not in (None, 1):
        state = kind.engine.play(state, kind.engine.bot_move(state, bot))
    return bool(state.to_move == 1 and state.coup.number == 1 and state.coup.dealer == 1)


def a_king_is_shown_before_seat_one(state: Any) -> bool:
    kind = GAMES[GAME]
    bot = kind.bot(kind.table_bot_id)
    while state.to_move not in (None, 1):
        state = kind.engine.play(state, kind.engine.bot_move(state, bot))
    coup = state.coup
    return bool(state.to_move == 1 and coup.number == 1 and 1 not in coup.kings_shown and coup.kings_shown)


def test_the_dealer_handed_an_ace_changes_with_the_stock_by_keyboard(new_context: ContextFactory) -> None:
    how = "keyboard"  # by touch, the phone's whole games tap the same two buttons
    day = first_day(GAME, seat_one_is_handed_an_ace_as_dealer)
    page = open_archive(new_context, GAME, day, how)
    errors = collect_errors(page)
    assert coucou_situation(page) == "decide"
    coup = current_game(page)["view"]["coup"]
    assert coup["dealer"] == 1 and coup["dealer_has_move"] is True and coup["card"].startswith("A")
    button = page.get_by_role("button", name="Changer avec le talon", exact=True)
    assert button.is_visible() and page.get_by_role("button", name="Garder", exact=True).is_visible()
    assert "changes avec la carte du talon" in page.locator("#prompt").inner_text()
    assert "C pour changer avec le talon" in page.locator("#coucou-keys").inner_text()
    assert how == "keyboard"
    page.locator("#keep-button").focus()
    page.keyboard.press("Tab")
    assert focused(page)["id"] == "change-button"
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => [...window.__announced].some((line) => /^(Tu changes avec le talon|Le talon montre)/.test(line))"
    )
    first = current_game(page)["view"]["history"][0]
    assert first["number"] == 1 and first["actions"][-1] in ("1:stock", "1:stock-king")
    assert errors == []


def test_a_shown_king_is_drawn_face_up_and_said(new_context: ContextFactory) -> None:
    day = first_day(GAME, a_king_is_shown_before_seat_one)
    page = open_archive(new_context, GAME, day, "keyboard")
    errors = collect_errors(page)
    assert coucou_situation(page) == "decide"
    shown = current_game(page)["view"]["coup"]["kings_shown"]
    assert shown
    for king in shown:
        card = page.locator(f'.coucou-seat[data-seat="{king["seat"]}"] .mini-card.is-shown')
        assert card.get_attribute("aria-label").endswith("abattu : tout le monde le voit")
        assert card.inner_text().startswith("R")  # the king's letter, face up
    assert_no_violations(page, "as qui court table with a king shown, French")
    # Seat 1 keeps: every king shown by the bots' moves that follow, up to seat 1's next turn, is said.
    page.locator("#keep-button").focus()
    page.keyboard.press("Enter")
    coucou_situation(page)
    view = current_game(page)["view"]
    actions = [action for coup in view["history"] for action in coup["actions"]]
    actions += view["coup"]["actions"] if view["coup"] else []
    later = sum(action.endswith(":king-shown") for action in actions) - len(shown)
    said = [line for line in page.evaluate("window.__announced") if outcome_of(line) == str(Outcome.KING_SHOWN)]
    assert len(said) == later
    assert errors == []


def home_and_rules_pass_axe(page: Any, language: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="As qui court", exact=True).first.click()
    page.wait_for_selector("#game-daily-time:not(:empty)")
    assert page.locator("#game-options:not([hidden]) select").count() == 3  # players, tokens, level
    assert_no_violations(page, f"as qui court home ({language})")
    page.locator("#game-rules-link").click()
    page.wait_for_selector("#game-rules-body h1:visible")
    heading = page.locator("#game-rules-body h1:visible").inner_text()
    assert heading == ("L'as qui court" if language == "fr" else "As qui court")
    assert_no_violations(page, f"as qui court rules ({language})")


def test_home_rules_and_daily_table_pass_axe_in_english(new_context: ContextFactory) -> None:
    page = new_context(viewport=DESKTOP, language="en").new_page()
    errors = collect_errors(page)
    home_and_rules_pass_axe(page, "en")
    page.goto(f"/#/{GAME}")
    page.get_by_role("button", name="Play the challenge").click()
    coucou_situation(page)
    assert current_game(page)["options"] == {"level": "expert", "players": 8, "tokens": 3}
    assert page.get_by_role("button", name="Keep", exact=True).is_visible()
    assert_no_violations(page, "as qui court daily table (en)")
    assert errors == []
