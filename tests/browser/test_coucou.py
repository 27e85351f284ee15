"""Coucou in real Chromium against a real server: whole games at 5 and 20 seats by keyboard (the two buttons
and the G and C keys) and by touch on a 320 × 568 phone, every move said in the live region in order, the
seats round the oval never overlapping, axe clean on each of those tables and at their end, skipping to the
end once out, and axe on every coucou screen in French on a phone and in English on a desktop."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from playing import (
    ANNOUNCEMENT_RECORDER,
    COUCOU_SITUATION_SCRIPT,
    DESKTOP,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    coucou_situation,
    coucou_turn,
    current_game,
    focused,
    screenshot,
    start_coucou_game,
)

from couyon.registry import verify_record

SMALL_PHONE = {"width": 320, "height": 568}
MAX_TURNS = 200  # seat 1 speaks once a coup, and a game is at most a few dozen coups: this stops a runaway loop

# One line of the live region per move, recognised by its outcome (docs/web.md, "Coucou").
SPOKEN = {
    "keep": re.compile(r"^(Tu gardes ta carte\.|Joueur \d+ garde\.)$"),
    "exchange": re.compile(r"^(Tu changes avec Joueur \d+ : |Joueur \d+ change avec (Joueur \d+\.$|toi : ))"),
    "coucou": re.compile(r"^(Tu veux|Joueur \d+ veut) changer avec (Joueur \d+|toi)\. Coucou !"),
    "stock": re.compile(r"^(Tu changes avec le talon : tu prends|Joueur \d+ change avec le talon et prend) "),
    "stock-king": re.compile(r"^Le talon montre le roi de \w+ : pas d'échange"),
}


def outcome_of(line: str) -> str | None:
    found = [outcome for outcome, pattern in SPOKEN.items() if pattern.search(line)]
    assert len(found) <= 1, line
    return found[0] if found else None


def finished_report(page: Any) -> dict[str, Any]:
    """The couyon verify report of the finished game the page shows."""
    game_id = page.locator("#view-table").get_attribute("data-game")
    response = page.request.get(f"/api/games/{game_id}/record")
    assert response.ok, response.text()
    report = verify_record(response.body())
    assert report["valid"] and report["finished"], report
    return report


def seat_boxes(page: Any) -> list[dict[str, float]]:
    boxes: list[dict[str, float]] = page.locator(".coucou-seat").evaluate_all(
        "(nodes) => nodes.map((n) => { const r = n.getBoundingClientRect();"
        " return {x: r.x, y: r.y, width: r.width, height: r.height}; })"
    )
    return boxes


def assert_seats_apart(page: Any, players: int, width: int | None = None) -> None:
    """Every seat is drawn, no two seats overlap, and on a phone none leaves the screen's width."""
    boxes = seat_boxes(page)
    assert len(boxes) == players
    for i, a in enumerate(boxes):
        if width is not None:
            assert a["x"] >= 0 and a["x"] + a["width"] <= width, a
        for b in boxes[i + 1 :]:
            apart = (
                a["x"] + a["width"] <= b["x"] + 1
                or b["x"] + b["width"] <= a["x"] + 1
                or a["y"] + a["height"] <= b["y"] + 1
                or b["y"] + b["height"] <= a["y"] + 1
            )
            assert apart, (a, b)


@pytest.mark.parametrize("players", [5, 20])
def test_a_whole_coucou_game_with_the_keyboard_alone(new_context: ContextFactory, players: int) -> None:
    page = new_context().new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    errors = collect_errors(page)
    start_coucou_game(page, players, "keyboard")
    assert focused(page)["id"] == "keep-button"
    game = current_game(page)
    assert game["game"] == "coucou" and game["options"] == {"level": "expert", "players": players, "tokens": 3}
    assert_seats_apart(page, players)
    # The two buttons by name, with their one-key shortcuts said on the page.
    assert page.get_by_role("button", name="Garder", exact=True).is_visible()
    assert page.get_by_role("button", name="Changer", exact=True).is_visible()
    assert page.locator("#keep-button").get_attribute("aria-keyshortcuts") == "G K"
    assert "G pour garder, C pour changer" in page.locator("#coucou-keys").inner_text()
    assert "Touche G pour garder, C pour changer." in page.evaluate("window.__announced").pop()

    rng = random.Random(players)
    turns = 0
    for _ in range(MAX_TURNS):
        if coucou_situation(page) == "decide" and turns < 4:
            own = current_game(page)["view"]["coup"]["card"]
            assert page.locator("#coucou-own-card .card").get_attribute("data-card") == own
            if turns == 1:
                assert_no_violations(page, f"coucou table of {players}, desktop, a coup already shown")
        if coucou_turn(page, rng, "keyboard") is None:
            break
        turns += 1
    assert coucou_situation(page) == "end" and turns >= 2  # axe ran on the table before the second move
    assert focused(page)["id"] == "end-new-game"
    view = current_game(page)["view"]
    title = page.locator("#end-dialog-title").inner_text()
    assert (
        title == "Tu gagnes la partie !"
        if view["winner"] == 1
        else title == f"Partie finie : {view['place']}e sur {players}"
    )
    assert f"Ton score : {view['score']} points." in page.locator("#end-dialog-body").inner_text()

    # Every move of the game, the bots' and seat 1's, was said in order, one line each, by its outcome.
    report = finished_report(page)
    expected = [action.split(":")[1] for coup in report["coup_log"] for action in coup["actions"]]
    said = [outcome for outcome in map(outcome_of, page.evaluate("window.__announced")) if outcome]
    assert said == expected
    showdowns = [line for line in page.evaluate("window.__announced") if re.match(r"^Coup \d+ : ", line)]
    assert len(showdowns) == report["coups"]
    assert_no_violations(page, f"coucou end of a game of {players}, desktop")
    screenshot(page, f"desktop-coucou-{players}-end")
    assert errors == []


@pytest.mark.parametrize("players", [20, 5])
def test_a_whole_coucou_game_by_touch_on_a_320_px_phone(new_context: ContextFactory, players: int) -> None:
    context = new_context(viewport=SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    errors = collect_errors(page)
    start_coucou_game(page, players, "touch")
    width = SMALL_PHONE["width"]
    rng = random.Random(100 + players)
    checked = 0
    for _ in range(MAX_TURNS):
        if coucou_situation(page) == "decide" and checked < 4:
            checked += 1
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            assert_seats_apart(page, players, width)
            # Legible at 320 px: names of at least 11 px, buttons of at least 44 px.
            sizes = page.locator(".cs-name").evaluate_all(
                "(nodes) => nodes.map((n) => parseFloat(getComputedStyle(n).fontSize))"
            )
            assert min(sizes) >= 11
            for name in ("#keep-button", "#change-button"):
                box = page.locator(name).bounding_box()
                assert box and box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= width
            if checked == 2:
                assert_no_violations(page, f"coucou table of {players} on a 320 px phone")
                screenshot(page, f"phone-320-coucou-{players}")
        if coucou_turn(page, rng, "touch") is None:
            break
    assert coucou_situation(page) == "end" and checked >= 2  # axe ran on the table at the second decision
    assert page.locator("#end-dialog").is_visible()
    finished_report(page)
    # The final places are on the table: every seat out shows its place, the winner is marked.
    view = current_game(page)["view"]
    winner = page.locator(f'.coucou-seat[data-seat="{view["winner"]}"]')
    assert "gagnant" in winner.inner_text()
    for out in view["eliminations"]:
        assert f"éliminé · {out['place']}e" in page.locator(f'.coucou-seat[data-seat="{out["seat"]}"]').inner_text()
    assert_no_violations(page, f"coucou end of a game of {players} on a 320 px phone")
    assert errors == []


WATCHING_SCRIPT = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  const skip = document.getElementById('coucou-skip');
  if (skip && !skip.hidden) return 'skip';
  return document.getElementById('view-table').dataset.turn === 'decide' ? 'decide' : null;
}"""


def test_once_out_the_player_watches_the_table_finish_or_skips_to_the_end(new_context: ContextFactory) -> None:
    page = new_context(speed="fast").new_page()
    errors = collect_errors(page)
    page.goto("/#/coucou")
    page.wait_for_selector("#game-options:not([hidden]) select")
    page.select_option("#option-players", "5")
    page.select_option("#option-tokens", "1")
    page.click("#game-new")
    skipped = False
    for _ in range(8):
        for _ in range(MAX_TURNS):
            now = page.wait_for_function(WATCHING_SCRIPT, timeout=30_000).json_value()
            if now == "end":
                break
            if now == "decide":
                sent = page.evaluate("() => Number(document.getElementById('view-table').dataset.sent ?? 0)")
                page.click("#change-button")
                # The move's count, not the turn: the answer can bring the next decision before a poll sees it.
                page.wait_for_function(
                    "(sent) => Number(document.getElementById('view-table').dataset.sent ?? 0) > sent",
                    arg=sent,
                    timeout=10_000,
                )
                continue
            # Out with others still in: the table goes on at speed, and offers to skip to the end.
            assert page.get_by_role("button", name="Passer à la fin").is_visible()
            assert focused(page)["id"] == "coucou-skip"
            page.locator("#coucou-skip").click()
            skipped = True
        if skipped:
            break
        page.click("#end-new-game")  # Seat 1 won or went out last: another game at the same table.
    assert skipped, "seat 1 never went out before the end in eight games"
    assert coucou_situation(page) == "end"
    finished_report(page)
    assert errors == []


def faked_out(route: Any) -> None:
    """The server's own answer with seat 1 out while the table still plays (seat 1 watches)."""
    response = route.fetch()
    answer = response.json()
    view = answer["view"]
    coup = view["coup"]
    view["tokens"]["1"] = 0
    view["eliminations"].append({"seat": 1, "coup": coup["number"], "place": view["players"]})
    view["legal"] = []
    view["to_move"] = next(seat for seat in coup["order"] if seat != 1)
    coup["order"] = [seat for seat in coup["order"] if seat != 1]
    coup.update(card=None, dealt=None, position=None, swaps=[], known={})
    route.fulfill(response=response, body=json.dumps(answer))


@pytest.mark.parametrize(("size", "language"), [("phone", "fr"), ("desktop", "en")])
def test_coucou_screens_pass_axe(new_context: ContextFactory, size: str, language: str) -> None:
    phone = size == "phone"
    page = new_context(viewport=SMALL_PHONE if phone else DESKTOP, has_touch=phone, language=language).new_page()
    errors = collect_errors(page)
    words = {
        "fr": {"new": "Nouvelle partie", "players": "Joueurs à la table", "keep": "Garder", "daily": "Jouer le défi"},
        "en": {"new": "New game", "players": "Players at the table", "keep": "Keep", "daily": "Play the challenge"},
    }[language]

    page.goto("/")
    page.wait_for_selector("#daily-time:not(:empty)")
    page.get_by_role("link", name="Coucou", exact=True).click()
    page.wait_for_selector("#game-daily-time:not(:empty)")
    assert page.get_by_role("combobox", name=words["players"]).input_value() == "8"
    assert_no_violations(page, "coucou home")
    screenshot(page, f"{size}-coucou-home-{language}")
    page.locator("#game-rules-link").click()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert_no_violations(page, "coucou rules")

    # The daily challenge: eight players, three tokens, expert bots.
    page.goto("/#/coucou")
    page.get_by_role("button", name=words["daily"]).click()
    coucou_situation(page)
    assert current_game(page)["options"] == {"level": "expert", "players": 8, "tokens": 3}
    assert current_game(page)["mode"] == "daily"
    assert page.get_by_role("button", name=words["keep"], exact=True).is_visible()
    assert_no_violations(page, "coucou table, seat 1 to speak")
    screenshot(page, f"{size}-coucou-table-{language}")
    # The rules are one link away from the table.
    assert page.locator("#coucou-rules-link").get_attribute("href") == "#/rules/coucou"

    page.route("**/api/games/g_*", faked_out)
    page.reload()
    page.wait_for_selector("#coucou-skip", state="attached")
    page.wait_for_function("() => document.getElementById('view-table').dataset.turn === 'wait'")
    assert_no_violations(page, "coucou table, seat 1 out")
    page.unroute("**/api/games/g_*")
    page.reload()

    rng = random.Random(9)
    seen_last_coup = False
    for _ in range(MAX_TURNS):
        if coucou_situation(page) == "decide" and not seen_last_coup and current_game(page)["view"]["history"]:
            seen_last_coup = True
            assert page.locator("#coucou-last .coucou-review li").count() >= 2
            assert_no_violations(page, "coucou table with the last coup")
        if coucou_turn(page, rng, "mouse") is None:
            break
    assert_no_violations(page, "coucou end of game")
    screenshot(page, f"{size}-coucou-end-{language}")
    page.keyboard.press("Escape")

    page.goto("/#/leaderboard/coucou")
    page.wait_for_selector("#board table")
    header = page.locator("#board thead").inner_text()
    assert "Place" in header and ("Coups tenus" if language == "fr" else "Coups lasted") in header
    assert_no_violations(page, "coucou leaderboard")
    assert errors == []


def test_a_coucou_game_resumes_after_a_reload_and_keeps_its_own_slot(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_coucou_game(page, 12)
    rng = random.Random(4)
    coucou_turn(page, rng, "mouse")
    if coucou_situation(page) == "end":
        start_coucou_game(page, 12)
    game_id = page.locator("#view-table").get_attribute("data-game")
    assert page.evaluate("localStorage.getItem('couyon.game.coucou')") == game_id
    card = page.locator("#coucou-own-card .card").get_attribute("data-card")
    seats = page.locator("#coucou-seats").inner_text()
    page.reload()
    assert coucou_situation(page) == "decide"
    assert page.locator("#coucou-own-card .card").get_attribute("data-card") == card
    assert page.locator("#coucou-seats").inner_text() == seats
    # The table size chosen on the home is remembered for the next free game.
    page.goto("/#/coucou")
    assert page.locator("#option-players").input_value() == "12"
    assert page.locator("#game-resume").is_visible()


# What the question needs in view: South's seat, the seat of the neighbour it names (or the stock), the
# question and the two buttons, inside the viewport, none of them under the question bar or another part.
DECISION_IN_VIEW = """() => {
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const prompt = document.getElementById('prompt').textContent;
  const named = /avec (Joueur \\d+) \\?/.exec(prompt);
  const seats = [...document.querySelectorAll('.coucou-seat')];
  const parts = { you: seats.find((seat) => seat.classList.contains('is-you')), stock: document.getElementById('coucou-stock') };
  if (named) parts.neighbour = seats.find((seat) => seat.querySelector('.cs-name').textContent === named[1]);
  const wrong = [];
  for (const [what, node] of Object.entries(parts)) {
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (box.top < 0 || box.bottom > bar.top || !(hit && node.contains(hit)))
      wrong.push(`${what} at ${Math.round(box.top)}..${Math.round(box.bottom)}, bar from ${Math.round(bar.top)}`);
  }
  for (const id of ['prompt', 'keep-button', 'change-button']) {
    const box = document.getElementById(id).getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight) wrong.push(`${id} at ${Math.round(box.top)}..${Math.round(box.bottom)}`);
  }
  return { wrong, named: Boolean(named) };
}"""


@pytest.mark.parametrize(
    ("size", "players"), [("320x568", 5), ("320x568", 20), ("375x667", 20), ("1280x800", 20), ("1280x800", 8)]
)
def test_the_neighbour_named_in_the_question_is_in_view(new_context: ContextFactory, size: str, players: int) -> None:
    """Issue 20, item 2: "… ou tu changes avec Joueur 2 ?" with Joueur 2, South's seat and the stock under the bar."""
    width, height = map(int, size.split("x"))
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    start_coucou_game(page, players)
    rng = random.Random(players)
    named = 0
    for _ in range(MAX_TURNS):
        if coucou_situation(page) == "end" or named == 6:
            break
        assert page.get_by_role("button", name="Garder").is_visible()
        result = page.evaluate(DECISION_IN_VIEW)
        if result["wrong"]:
            screenshot(page, f"coucou-decision-{size}-{players}", failing=True)
        assert not result["wrong"], f"{size}, {players} seats: {result['wrong']}"
        named += result["named"]
        coucou_turn(page, rng, "mouse")
    assert named >= 1


WATCHING = "() => { const skip = document.getElementById('coucou-skip'); return Boolean(skip && !skip.hidden); }"
"""South is out and watches the rest of the game: the skip button is shown."""

FOCUS_WATCH = """() => {
  window.__fell = [];
  setInterval(() => {
    const table = document.getElementById('view-table');
    if (table.hidden || document.querySelector('dialog[open]')) return;
    const active = document.activeElement;
    if (!active || active === document.body || !table.contains(active)) window.__fell.push(active ? active.tagName : 'none');
  }, 5);
}"""


@pytest.mark.parametrize("players", [5])
def test_the_focus_stays_in_the_table_between_decisions(new_context: ContextFactory, players: int) -> None:
    """Issue 20, item 3: after each keep or change the focus fell to <body> until South's next turn.

    The bots' moves are paced ("fast"), so the focus is watched over every gap between two of South's decisions,
    up to twelve of them, at 5 seats only: the code that keeps the focus (coucou.js, when the two buttons hide)
    does not depend on the number of seats, and a 20-seat table spent about 90 s of the suite reaching eight
    decisions (the whole game at 20 seats by keyboard still checks the focus at each of South's turns).
    """
    page = new_context(speed="fast").new_page()
    start_coucou_game(page, players, "keyboard")
    page.evaluate(FOCUS_WATCH)
    rng = random.Random(players)
    decisions = 0
    for _ in range(MAX_TURNS):
        # Out of the game, South watches the rest (a 20-seat table can take longer than a wait's 30 s to end):
        # the skip button then holds the focus, which the watch above checks too.
        page.wait_for_function(f"() => ({WATCHING})() || ({COUCOU_SITUATION_SCRIPT})() !== null", timeout=30_000)
        if page.evaluate(WATCHING) or decisions == 12 or coucou_situation(page) == "end":
            break
        coucou_turn(page, rng, "keyboard")
        decisions += 1
        page.wait_for_timeout(150)
        fell = page.evaluate("window.__fell")
        assert not fell, f"after decision {decisions} the focus left the table: {fell[:3]}"
    assert not page.evaluate("window.__fell")
    assert decisions >= 3
