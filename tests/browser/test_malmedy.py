"""The couyon de Malmedy in real Chromium against a real server, and the home page that lists the games.

A whole game with the keyboard alone (every card and every call announced, in order), a
game by touch on a 320 px phone with one drag, axe on every screen in French on a phone and
in English on a desktop, the trump buttons named by suit and symbol, and each game keeping
its own game in progress.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playing import (
    ANNOUNCEMENT_RECORDER,
    DESKTOP,
    SUIT_NAMES,
    SUITS,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    current_game,
    drag_to_centre,
    focused,
    malmedy_turn,
    mite_offered,
    playable_cards,
    screenshot,
    sent_count,
    situation,
    spoken_move_fr,
    start_free_game,
    start_malmedy_game,
    wait_sent,
)
from playwright.sync_api import expect

SMALL_PHONE = {"width": 320, "height": 568}
MAX_STEPS = 3000  # a Malmedy game is a few hundred steps at most; this only stops a runaway loop
# A line of the live region that tells a move: a card played or a call made (trump, mite, contra, pass).
MOVE_SENTENCE = re.compile(
    r"^(Tu (joues|choisis l'atout|annonces mite|passes\.|dis )|(Ouest|Nord|Est) (joue|choisit l'atout|annonce mite|passe\.|dit ))"
)


def table_game(page: Any) -> str:
    game_id = page.locator("#view-table").get_attribute("data-game")
    assert game_id
    return str(game_id)


def marked_trumps(page: Any) -> list[str]:
    cards: list[str] = page.locator(".hand-card.is-trump").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    return cards


def check_the_hand_against_the_view(page: Any) -> None:
    """The cards marked as trumps are the view's trumps, they come first, and they are named as trumps."""
    view = current_game(page)["view"]
    assert view["game"] == "malmedy"
    shown = page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    assert sorted(shown) == sorted(view["hand"])
    trumps = marked_trumps(page)
    expected = set(view["trumps"])
    if view["deal"]["trump"] is None and "QC" in view["hand"]:
        expected.add("QC")  # Always a trump; the view lists the trumps only once the trump is named.
    assert sorted(trumps) == sorted(expected)
    assert shown[: len(trumps)] == trumps, "trumps come first in the hand"
    for card in trumps:
        label = page.locator(f'.hand-card[data-card="{card}"]').get_attribute("aria-label")
        assert label and label.endswith(", atout"), label
    if "QC" in view["hand"]:
        assert "QC" in trumps, "the queen of clubs is always a trump"


def test_the_home_page_lists_the_games(new_context: ContextFactory) -> None:
    page = new_context(viewport=SMALL_PHONE, has_touch=True).new_page()
    errors = collect_errors(page)
    page.goto("/")
    # Couyon first, with its own panels, then the other games, each with one sentence.
    assert page.get_by_role("heading", level=1).inner_text() == "Une table de couyon, tout de suite"
    assert page.get_by_role("button", name="Nouvelle partie").is_visible()
    others = page.get_by_role("heading", name="Les autres jeux")
    assert others.is_visible()
    link = page.get_by_role("link", name="Le couyon de Malmedy")
    assert link.get_attribute("href") == "#/malmedy"
    assert "dame de trèfle" in page.locator("#game-list li").first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]

    # The game's home: a new game, the daily challenge, its rules and its leaderboard.
    link.click()
    page.wait_for_selector("#view-game:not([hidden])")
    assert page.get_by_role("heading", level=1).inner_text() == "Le couyon de Malmedy"
    assert page.title() == "Le couyon de Malmedy"
    assert page.get_by_role("button", name="Nouvelle partie").is_visible()
    assert page.get_by_role("button", name=re.compile("défi")).is_visible()
    assert page.get_by_role("link", name="Règles, conseils et questions").get_attribute("href") == "#/rules/malmedy"
    assert page.get_by_role("link", name="Le classement", exact=True).get_attribute("href") == "#/leaderboard/malmedy"
    # The nav leads to this game's table, rules and leaderboard.
    assert page.locator("#nav-table").get_attribute("href") == "#/table/malmedy"
    # Couyon is listed among the other games from here.
    assert page.locator("#game-others a[href='#/']").count() == 1

    page.get_by_role("link", name="Règles, conseils et questions").click()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert page.get_by_role("heading", level=1).inner_text() == "Le couyon de Malmedy"
    for heading in ["Les règles", "Conseils", "Questions fréquentes"]:
        assert page.get_by_role("heading", name=heading, exact=True).is_visible()
    assert page.evaluate("document.activeElement.tagName") == "H1"

    page.goto("/#/leaderboard/malmedy")
    page.wait_for_selector("#board table, #board p")
    games = page.get_by_role("navigation", name="Quel jeu")
    assert games.get_by_role("link", name="Le couyon de Malmedy").get_attribute("aria-current") == "page"
    games.get_by_role("link", name="Couyon", exact=True).click()
    page.wait_for_url(re.compile(r"#/leaderboard$"))

    # Couyon's own routes are as they were.
    page.goto("/#/rules")
    page.wait_for_selector("#view-rules:not([hidden])")
    assert page.get_by_role("heading", level=1).inner_text() == "Les règles du couyon"
    assert page.locator("#nav-table").get_attribute("href") == "#/table"
    assert errors == []


def test_a_game_s_home_is_shown_with_its_heading_already_said(new_context: ContextFactory) -> None:
    # The home waits for the game's own words before it fills the rest: held here, the view is shown meanwhile,
    # and a screen reader (and the focus) finds its heading already there, never empty nor the last game's.
    page = new_context().new_page()
    held: list[Any] = []
    page.route("**/js/games/malmedy-words.js", lambda route: held.append(route))
    page.goto("/#/tarot")
    page.wait_for_selector("#view-game:not([hidden])")
    assert page.locator("#game-title").inner_text() == "Tarot"
    page.get_by_role("link", name="Le couyon de Malmedy").first.click()
    page.wait_for_function(
        "() => document.body.dataset.game === 'malmedy' && !document.getElementById('view-game').hidden"
    )
    assert held, "the game's words were not asked for: the heading's race was not exercised"
    assert page.locator("#game-title").inner_text() == "Le couyon de Malmedy"
    assert page.locator("#game-lead").inner_text().strip()
    assert page.evaluate("document.activeElement.id") == "game-title"
    # Its links too: they once pointed at the last game's pages (or none) until the words came.
    assert page.locator("#game-rules-link").get_attribute("href") == "#/rules/malmedy"
    held.pop().continue_()

    # The rules are a fragment fetched on the first visit: their view is shown once it holds their heading.
    page.route("**/rules/malmedy.html", lambda route: held.append(route))
    page.get_by_role("link", name="Règles, conseils et questions").click()
    # The page's URL, not a string predicate: the CSP (no 'unsafe-eval') once refused wait_for_function's string.
    expect(page).to_have_url(re.compile(r"#/rules/malmedy$"))
    page.wait_for_timeout(300)  # the fragment is held: a view shown too early would be shown by now
    assert held, "the rules were not asked for: the heading's race was not exercised"
    shown = "[...document.querySelectorAll('.view:not([hidden])')].map((v) => v.querySelector('h1')?.textContent)"
    assert page.evaluate(shown) == ["Le couyon de Malmedy"]
    held.pop().continue_()
    page.wait_for_selector("#view-game-rules:not([hidden])")
    assert page.evaluate(shown) == ["Le couyon de Malmedy"]
    assert page.evaluate("document.activeElement.tagName") == "H1"


def test_a_whole_malmedy_game_with_the_keyboard_alone(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    page.goto("/#/malmedy")
    page.wait_for_selector("#view-game:not([hidden])")
    for _ in range(30):
        page.keyboard.press("Tab")
        if focused(page)["id"] == "game-new":
            break
    assert focused(page)["id"] == "game-new"
    page.keyboard.press("Enter")
    assert situation(page) in ("trump", "answer", "play")
    assert current_game(page)["game"] == "malmedy"
    # Thirteen lines each, and the blind face down.
    assert page.locator(".chalk-team").first.locator(".stroke").count() == 13
    assert page.locator("#proposal .blind .card-back").count() == 4

    rng = random.Random(5)
    steps = {"trump": 0, "answer": 0, "play": 0, "deal": 0}
    checked = 0
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "trump":
            assert page.locator(".hand-card").count() == 3
            for suit in SUITS:
                assert page.get_by_role("button", name=SUIT_NAMES["fr"][suit], exact=True).is_visible()
        if now in ("trump", "answer", "play") and checked < 12:
            check_the_hand_against_the_view(page)
            checked += 1
        now = malmedy_turn(page, rng, "keyboard")
        if now == "end":
            break
        steps[now] += 1
    assert situation(page) == "end"
    assert focused(page)["id"] == "end-new-game"
    assert steps["trump"] >= 1 and steps["play"] >= 5 and steps["deal"] >= 1

    # Every move of the game, cards and calls, the bots' and South's, was announced in order.
    game_id = table_game(page)
    response = page.request.get(f"/api/games/{game_id}/record")
    assert response.ok, response.text()
    expected = [spoken_move_fr(move) for move in response.json()["moves"]]
    announced = [line for line in page.evaluate("window.__announced") if MOVE_SENTENCE.match(line)]
    assert announced == expected
    screenshot(page, "desktop-malmedy-end-of-game")


def test_a_malmedy_game_by_touch_on_a_320_px_phone(new_context: ContextFactory) -> None:
    context = new_context(viewport=SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    errors = collect_errors(page)
    page.goto("/#/malmedy")
    page.locator("#game-new").tap()
    rng = random.Random(3)
    width = SMALL_PHONE["width"]
    deals = 0
    dragged = False
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now in ("trump", "answer", "play"):
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            controls = ".hand-card, #game-controls button:visible, .seat-name, #chalk-teams, #prompt"
            # All boxes in one script: an element replaced between two calls has no box (the test was flaky).
            boxes = page.locator(controls).evaluate_all(
                "(nodes) => nodes.filter((n) => n.getClientRects().length)"
                ".map((n) => { const r = n.getBoundingClientRect(); return {x: r.x, width: r.width}; })"
            )
            for box in boxes:
                assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
            assert min(page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.offsetWidth)")) >= 44
        if now == "play" and not dragged and not mite_offered(page):
            # One card dragged onto the middle of the table.
            sent = sent_count(page)
            before = current_game(page)["view"]
            drag_to_centre(page, rng.choice(playable_cards(page)))
            wait_sent(page, sent)
            dragged = True
            situation(page)
            after = current_game(page)["view"]
            assert after["move_number"] > before["move_number"]
            assert len(after["hand"]) < len(before["hand"]) or after["deal"]["number"] > before["deal"]["number"]
            continue
        now = malmedy_turn(page, rng, "touch")
        if now == "deal":
            deals += 1
        if now == "end" or deals == 3:
            break
    assert dragged
    assert deals == 3 or situation(page) == "end"
    screenshot(page, "phone-320-malmedy")
    assert errors == []


def faked(change: Callable[[dict[str, Any]], None]) -> Callable[[Any], None]:
    """A route handler that hands the page the server's own game answer with ``change`` made to its view."""

    def handler(route: Any) -> None:
        response = route.fetch()
        answer = response.json()
        change(answer["view"])
        route.fulfill(response=response, body=json.dumps(answer))

    return handler


def asked_for_contra(view: dict[str, Any]) -> None:
    view["phase"] = "playing"
    view["to_move"] = "S"
    view["deal"].update(trump=view["deal"]["trump"] or "H", mite="E", asking="contra")
    view["legal"] = ["contra", "pass"]


def offered_a_mite(view: dict[str, Any]) -> None:
    view["phase"] = "playing"
    view["to_move"] = "S"
    view["deal"].update(trump=view["deal"]["trump"] or "H", mite=None, asking=None)
    view["legal"] = ["mite", *view["hand"]]


@pytest.mark.parametrize(("size", "language"), [("phone", "fr"), ("desktop", "en")])
def test_malmedy_screens_pass_axe(new_context: ContextFactory, size: str, language: str) -> None:
    phone = size == "phone"
    page = new_context(viewport=SMALL_PHONE if phone else DESKTOP, has_touch=phone, language=language).new_page()
    errors = collect_errors(page)
    name = "Le couyon de Malmedy" if language == "fr" else "Malmedy couyon"

    page.goto("/")
    page.wait_for_selector("#daily-time:not(:empty)")
    assert_no_violations(page, "home with the games")
    page.get_by_role("link", name=name).click()
    page.wait_for_selector("#game-daily-time:not(:empty)")
    assert_no_violations(page, "Malmedy home")
    screenshot(page, f"{size}-malmedy-home-{language}")
    page.locator("#game-rules-link").click()
    page.wait_for_selector("#game-rules-body h1:visible")
    assert_no_violations(page, "Malmedy rules")
    screenshot(page, f"{size}-malmedy-rules-{language}")
    page.goto("/#/leaderboard/malmedy")
    page.wait_for_selector("#board table, #board p")
    assert_no_violations(page, "Malmedy leaderboard")

    start_malmedy_game(page)
    # Two moments a game may not reach by chance, drawn from the server's own view with one change.
    for change, turn in [(asked_for_contra, "answer"), (offered_a_mite, "play")]:
        page.route("**/api/games/g_*", faked(change))
        page.reload()
        page.wait_for_selector(f'#view-table[data-turn="{turn}"]')
        visible = "#answer-row" if turn == "answer" else "#mite-row"
        assert page.locator(visible).is_visible()
        assert_no_violations(page, f"table, {change.__name__}")
        screenshot(page, f"{size}-malmedy-{change.__name__}-{language}")
        page.unroute("**/api/games/g_*")
    page.reload()

    rng = random.Random(17)
    seen: set[str] = set()
    for _ in range(MAX_STEPS):
        now = situation(page)
        screen = "mite" if now == "play" and mite_offered(page) else now
        if screen not in seen:
            seen.add(screen)
            if screen == "trump":
                for suit in SUITS:
                    assert page.get_by_role("button", name=SUIT_NAMES[language][suit], exact=True).is_visible()
            assert_no_violations(page, f"Malmedy {screen}")
            screenshot(page, f"{size}-malmedy-{screen}-{language}")
        if now == "play" and "last-trick" not in seen and current_game(page)["view"]["deal"]["tricks"]:
            seen.add("last-trick")
            page.click("#last-trick-button")
            assert_no_violations(page, "Malmedy last trick")
            page.click("#trick-dialog-close")
        if now == "end":
            break
        malmedy_turn(page, rng, "mouse")
    assert seen >= {"trump", "play", "deal", "end", "last-trick"}
    assert errors == []


def test_each_game_keeps_its_own_game_in_progress(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    start_free_game(page)
    couyon = table_game(page)
    start_malmedy_game(page)
    page.wait_for_function("(first) => document.getElementById('view-table').dataset.game !== first", arg=couyon)
    malmedy = table_game(page)
    assert page.evaluate("localStorage.getItem('couyon.game')") == couyon
    assert page.evaluate("localStorage.getItem('couyon.game.malmedy')") == malmedy
    assert page.locator("#view-table").get_attribute("data-variant") == "malmedy"

    # The nav's table follows the game in view; each table route shows its own game.
    page.goto("/#/table")
    situation(page)
    page.wait_for_function("(id) => document.getElementById('view-table').dataset.game === id", arg=couyon)
    assert page.locator("#view-table").get_attribute("data-variant") == "couyon"
    assert page.locator(".hand-card").count() == 4
    page.goto("/#/table/malmedy")
    situation(page)
    page.wait_for_function("(id) => document.getElementById('view-table').dataset.game === id", arg=malmedy)
    assert page.get_by_role("heading", level=1, name="La table : Le couyon de Malmedy").count() == 1

    # A reload in the middle of a Malmedy deal shows the same hand, trick and slate.
    rng = random.Random(2)
    for _ in range(MAX_STEPS):
        now = situation(page)
        if now == "play" and page.locator("#trick .slot").count() > 0:
            break
        assert now != "end"
        malmedy_turn(page, rng, "mouse")
    hand = page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    trick = page.locator("#trick .slot").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
    facts = page.locator("#deal-facts").inner_text()
    page.reload()
    assert situation(page) == "play"
    assert page.locator(".hand-card").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)") == hand
    assert page.locator("#trick .slot").evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)") == trick
    assert page.locator("#deal-facts").inner_text() == facts

    # Both homes offer to resume their own game.
    page.goto("/")
    page.wait_for_selector("#resume-game:not([hidden])")
    page.goto("/#/malmedy")
    page.wait_for_selector("#game-resume:not([hidden])")


# The felt's words while South plays: any two that overlap, and (on a wide screen, where the felt has room for
# them) those of West, North and East under the question bar.
FELT_CLASHES = """() => {
  const parts = [...document.querySelectorAll(
    '#felt .seat-name, #felt .seat-role, #felt .chip, #felt .seat-count, #felt .backs, #felt .blind-caption, #felt .blind, #felt .trump-badge'
  )].filter((node) => node.checkVisibility() && node.getBoundingClientRect().width > 0);
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const name = (node) => `${node.closest('.seat')?.id ?? 'centre'} ${node.className}: ${node.textContent}`.slice(0, 60);
  const wrong = [];
  parts.forEach((node, i) => {
    const a = node.getBoundingClientRect();
    if (innerWidth >= 900 && !node.closest('#seat-S') && a.bottom > bar.top) wrong.push(`under the bar: ${name(node)}`);
    for (const other of parts.slice(i + 1)) {
      if (node.contains(other) || other.contains(node)) continue;
      const b = other.getBoundingClientRect();
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        wrong.push(`${name(node)} over ${name(other)}`);
    }
  });
  return wrong;
}"""


@pytest.mark.parametrize("size", ["320x568", "375x667", "1280x800"])
def test_the_felt_s_labels_do_not_overlap(new_context: ContextFactory, size: str) -> None:
    """Issue 20, item 6: "BLIND" under "Nord partenaire" and the trump over "Ouest" at 320 px; at 1280×800 the
    question bar over West's and East's card counts and East's "donneur" chip."""
    width, height = map(int, size.split("x"))
    page = new_context(viewport={"width": width, "height": height}, has_touch=width < 1000).new_page()
    start_malmedy_game(page)
    rng = random.Random(11)
    checked = 0
    for _ in range(120):
        now = situation(page)
        if now == "end" or checked == 15:
            break
        if now == "play":
            wrong = page.evaluate(FELT_CLASHES)
            if wrong:
                screenshot(page, f"malmedy-felt-{size}", failing=True)
            assert not wrong, f"{size}: {wrong}"
            checked += 1
        malmedy_turn(page, rng, "mouse")
    assert checked >= 10


def offered_the_mite_through_api(page: Any, rng: random.Random) -> dict[str, Any]:
    """A free Malmedy game of this page's player, played through the API (random legal moves, never the mite)
    until South may announce the mite: he holds the queen of spades at his first card of a deal."""
    for _ in range(5):
        answer: dict[str, Any] = page.request.post("/api/games", data={"mode": "free", "game": "malmedy"}).json()
        while answer["view"]["winner"] is None:
            legal = answer["view"]["legal"]
            if "mite" in legal:
                return answer
            move = rng.choice(legal)
            response = page.request.post(
                f"/api/games/{answer['id']}/moves", data={"move": move, "move_number": answer["view"]["move_number"]}
            )
            assert response.ok, response.text()
            answer = response.json()
    raise AssertionError("South was never offered the mite in five games")


# What South must see at once when the mite is offered: every seat's words and chips (none under the question bar,
# which sticks to the bottom of a short screen over the felt), the question, the mite button and his hand.
SEEN_AT_ONCE = """() => {
  const shown = (node) => node.checkVisibility() && node.getBoundingClientRect().width > 0;
  const felt = [...document.querySelectorAll('#felt .seat-name, #felt .seat-role, #felt .chip, #felt .backs')].filter(shown);
  const asked = [...document.querySelectorAll('#prompt, #mite-button, #hand .hand-card')].filter(shown);
  const bar = document.getElementById('action-bar').getBoundingClientRect();
  const name = (node) => `${node.closest('.seat')?.id ?? ''} ${node.className || node.id}: ${node.textContent}`.slice(0, 60);
  const wrong = [];
  for (const node of felt) {
    const box = node.getBoundingClientRect();
    if (box.bottom > bar.top + 1) wrong.push(`under the question bar: ${name(node)}`);
    if (box.top < 0) wrong.push(`above the screen: ${name(node)}`);
  }
  for (const node of asked) {
    const box = node.getBoundingClientRect();
    if (box.top < 0 || box.bottom > innerHeight + 1) wrong.push(`off the screen: ${name(node)}`);
  }
  if (!document.getElementById('prompt').innerText.trim()) wrong.push('no question shown');
  return wrong;
}"""


@pytest.mark.parametrize("size", ["320x568", "375x667"])
def test_the_mite_leaves_the_felt_in_sight(new_context: ContextFactory, size: str) -> None:
    """Issue 20's follow-up: at 320 px, the button and the longer question of the mite made the question bar
    taller, and it covered West's chip and South's seat. With the mite offered, the seats, the question and the
    hand are all seen without scrolling."""
    width, height = map(int, size.split("x"))
    page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
    page.goto("/")
    answer = offered_the_mite_through_api(page, random.Random(5))
    page.evaluate("(id) => localStorage.setItem('couyon.game.malmedy', id)", answer["id"])
    page.goto("/#/table/malmedy")
    page.wait_for_selector("#mite-button:visible")
    assert situation(page) == "play"
    wrong = page.evaluate(SEEN_AT_ONCE)
    if wrong:
        screenshot(page, f"malmedy-mite-{size}", failing=True)
    assert not wrong, f"{size}: {wrong}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
