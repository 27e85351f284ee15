"""Driving the web table from tests: wait for South's turn, act by keyboard, mouse or touch.

The page marks what it waits for on ``#view-table[data-turn]`` (bid, play, wait, over; in
Malmedy also trump and answer) and counts the moves it sent in ``data-sent``; a helper that
acts waits for that count to rise before it waits for the next turn, so it never reads a
turn that is already over.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from axe_playwright_python.sync_playwright import Axe

from couyon.loadgen import ServerProcess

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 900}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
REVIEW_SCREENSHOTS = os.environ.get("COUYON_SCREENSHOTS", "") not in ("", "0")


def browser_server(data_dir: Path, **environment: str) -> ServerProcess:
    """A ``couyon serve`` for pages and their requests, which keeps an idle connection open for a minute.

    A page's ``request`` keeps its connections open with no time limit of its own, and learns that the server
    closed one only once Node reads the close: a request sent on a connection the server was closing after its
    default 5 idle seconds was reset (ECONNRESET, once in CI). A test's pause between two requests of one page
    would now have to last a minute to meet that moment.
    """
    return ServerProcess(data_dir, environment={"COUYON_KEEPALIVE_SECONDS": "60", **environment})


ContextFactory = Callable[..., Any]
"""The ``new_context`` fixture: makes a browser context on the test server."""

Situation = Literal["bid", "play", "deal", "end", "trump", "answer"]

SITUATION_SCRIPT = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  if (document.getElementById('deal-dialog').open) return 'deal';
  const turn = document.getElementById('view-table').dataset.turn;
  return ['bid', 'play', 'trump', 'answer'].includes(turn) ? turn : null;
}"""

# Collects every line the live region receives, from the first load of each document.
ANNOUNCEMENT_RECORDER = """
window.__announced = [];
document.addEventListener('DOMContentLoaded', () => {
  const region = document.getElementById('announcer');
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) window.__announced.push(node.textContent);
  }).observe(region, { childList: true });
});
"""

RANK_FR = {"9": "le neuf", "10": "le dix", "J": "le valet", "Q": "la dame", "K": "le roi", "A": "l'as"}
SUIT_FR = {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"}
SEAT_FR = {"W": "Ouest", "N": "Nord", "E": "Est"}


def spoken_card_fr(seat: str, card: str) -> str:
    """The French sentence the live region must say when ``seat`` plays ``card``."""
    words = f"{RANK_FR[card[:-1]]} de {SUIT_FR[card[-1]]}"
    return f"Tu joues {words}." if seat == "S" else f"{SEAT_FR[seat]} joue {words}."


def situation(page: Any) -> Situation:
    """Wait until South must act (bid, name trumps, answer a mite, play), or a deal summary or the end is shown."""
    handle = page.wait_for_function(SITUATION_SCRIPT, timeout=30_000)
    value: Situation = handle.json_value()
    return value


def sent_count(page: Any) -> int:
    return int(page.locator("#view-table").get_attribute("data-sent") or 0)


def wait_sent(page: Any, before: int) -> None:
    """Wait until the page has sent a move since ``before`` was read."""
    page.wait_for_function(
        "(before) => Number(document.getElementById('view-table').dataset.sent || 0) > before", arg=before
    )


def current_game(page: Any) -> dict[str, Any]:
    """The game answer the server gives for the game the page remembers (same cookie)."""
    game_id = page.locator("#view-table").get_attribute("data-game")
    assert game_id, "the page remembers no game"
    response = page.request.get(f"/api/games/{game_id}")
    assert response.ok, response.text()
    answer: dict[str, Any] = response.json()
    return answer


def focused(page: Any) -> dict[str, Any]:
    """The focused element's id, card and aria-disabled state."""
    result: dict[str, Any] = page.evaluate(
        """() => { const e = document.activeElement; return { id: e.id, card: e.dataset.card || null,
        disabled: e.getAttribute('aria-disabled'), tag: e.tagName }; }"""
    )
    return result


def playable_cards(page: Any) -> list[str]:
    cards: list[str] = page.locator(".hand-card.is-playable").evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.card)"
    )
    return cards


def unplayable_cards(page: Any) -> list[str]:
    cards: list[str] = page.locator('.hand-card[aria-disabled="true"]').evaluate_all(
        "(nodes) => nodes.map((n) => n.dataset.card)"
    )
    return cards


def keyboard_turn(page: Any, rng: random.Random) -> Situation:
    """Take one step of the game with the keyboard alone; return what it was."""
    now = situation(page)
    if now == "end":
        return now
    if now == "deal":
        assert focused(page)["id"] == "deal-dialog-close"
        page.keyboard.press("Enter")
        return now
    before = sent_count(page)
    if now == "bid":
        assert focused(page)["id"] == "take-button", focused(page)
        if rng.random() >= 0.4:
            page.keyboard.press("Tab")
            assert focused(page)["id"] == "pass-button"
        page.keyboard.press("Enter")
    else:
        start = focused(page)
        assert start["card"], f"focus should be in the hand, not on {start}"
        for _ in range(rng.randrange(4)):
            page.keyboard.press("ArrowRight")
        for _ in range(4):
            if focused(page)["disabled"] == "false":
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["disabled"] == "false"
        page.keyboard.press("Enter")
    wait_sent(page, before)
    return now


def mouse_turn(page: Any, rng: random.Random, *, drag: bool = False) -> Situation:
    """Take one step with the mouse (or a drag of a playable card to the centre)."""
    now = situation(page)
    if now == "end":
        return now
    if now == "deal":
        page.click("#deal-dialog-close")
        return now
    before = sent_count(page)
    if now == "bid":
        page.click("#take-button" if rng.random() < 0.4 else "#pass-button")
    else:
        card = rng.choice(playable_cards(page))
        if drag:
            drag_to_centre(page, card)
        else:
            page.click(f'.hand-card[data-card="{card}"]')
    wait_sent(page, before)
    return now


def touch_turn(page: Any, rng: random.Random) -> Situation:
    """Take one step with touch taps."""
    now = situation(page)
    if now == "end":
        return now
    if now == "deal":
        page.locator("#deal-dialog-close").tap()
        return now
    before = sent_count(page)
    if now == "bid":
        page.locator("#take-button" if rng.random() < 0.4 else "#pass-button").tap()
    else:
        page.locator(f'.hand-card[data-card="{rng.choice(playable_cards(page))}"]').tap()
    wait_sent(page, before)
    return now


def drag_to_centre(page: Any, card: str) -> None:
    """Press on a hand card, move it in steps onto the centre of the table, release."""
    source = page.locator(f'.hand-card[data-card="{card}"]').bounding_box()
    target = page.locator("#centre").bounding_box()
    assert source and target
    page.mouse.move(source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    page.mouse.down()
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=12)
    page.mouse.up()


def start_free_game(page: Any) -> None:
    page.goto("/")
    page.click("#new-game")
    situation(page)


def finished_game_through_api(
    page: Any, body: dict[str, Any], seed: int, prefer: tuple[str, ...] = ()
) -> dict[str, Any]:
    """A game of this page's player (``body`` of ``POST /api/games``) played to its end through the API: the first
    legal move named in ``prefer`` whenever there is one, else a random legal move."""
    rng = random.Random(seed)
    answer: dict[str, Any] = page.request.post("/api/games", data=body).json()
    while answer["view"]["phase"] != "over":
        legal = answer["view"]["legal"]
        chosen = next((move for move in prefer if move in legal), None) or rng.choice(legal)
        response = page.request.post(
            f"/api/games/{answer['id']}/moves", data={"move": chosen, "move_number": answer["view"]["move_number"]}
        )
        assert response.ok, response.text()
        answer = response.json()
    return answer


def finish_through_api(page: Any, seed: int) -> None:
    """Play the game the page shows to its end through the API (a random legal move each time), then reload the
    table: its end-of-game dialog opens. Call it while the page waits for South (nothing in flight); for tests
    that need the end screen of a game, not the moves that lead to it."""
    rng = random.Random(seed)
    answer = current_game(page)
    while answer["view"]["phase"] != "over":
        view = answer["view"]
        response = page.request.post(
            f"/api/games/{answer['id']}/moves",
            data={"move": rng.choice(view["legal"]), "move_number": view["move_number"]},
        )
        assert response.ok, response.text()
        answer = response.json()
    page.reload()
    page.wait_for_selector("#end-dialog[open]")


def show_the_end_of(page: Any, answer: dict[str, Any]) -> None:
    """The table of this finished game (its id stored as the page stores its game), its end-of-game dialog open."""
    game = answer["game"]
    key = "couyon.game" if game == "couyon" else f"couyon.game.{game}"
    page.evaluate("([key, id]) => localStorage.setItem(key, id)", [key, answer["id"]])
    page.goto("/#/table" if game == "couyon" else f"/#/table/{game}")
    page.wait_for_selector("#end-dialog[open]")


def screenshot(page: Any, name: str, *, failing: bool = False) -> None:
    """Save a full-page screenshot for review under test-artifacts/screenshots/ (gitignored) when
    COUYON_SCREENSHOTS=1; one of a check about to fail (``failing``) is always saved. A full-page screenshot
    costs a few hundred milliseconds, and the suite takes hundreds of them for review only."""
    if not (failing or REVIEW_SCREENSHOTS):
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


AXE = Axe()


def assert_no_violations(page: Any, screen: str) -> None:
    """axe-core finds no violation on the page as it stands.

    As ``Axe.run`` with its default options (violations only), but axe-core is injected only into a document
    that does not have it yet: the page's screens are routes of one document, and injecting its 500 kB again
    at every check cost about a third of each check."""
    if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
        page.evaluate(AXE.axe_script)
    response = page.evaluate("axe.run({resultTypes: ['violations']}).then((results) => results)")
    violations = response["violations"]
    details = [
        f"{violation['id']}: {violation['help']} -> {[node['target'] for node in violation['nodes']][:5]}"
        for violation in violations
    ]
    assert not violations, f"axe violations on {screen}:\n" + "\n".join(details)


def collect_errors(page: Any) -> list[str]:
    """Gather the page's uncaught exceptions and console errors (a CSP refusal is one) into a list."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"exception: {error}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


# ---------------------------------------------------------------- the couyon de Malmedy

SUITS = "CDHS"
SUIT_NAMES = {
    "fr": {"C": "Trèfle ♣", "D": "Carreau ♦", "H": "Cœur ♥", "S": "Pique ♠"},
    "en": {"C": "Clubs ♣", "D": "Diamonds ♦", "H": "Hearts ♥", "S": "Spades ♠"},
}
SEAT_NAMES_FR = {"S": "Sud", **SEAT_FR}


def mite_offered(page: Any) -> bool:
    return bool(page.locator("#mite-button").is_visible())


def spoken_call_fr(seat: str, action: str) -> str | None:
    """The French sentence the live region must say for a Malmedy move that is not a card (None for a card)."""
    you = seat == "S"
    name = SEAT_NAMES_FR[seat]
    if action.startswith("trump-"):
        suit = SUIT_FR[action[-1]]
        return f"Tu choisis l'atout : {suit}." if you else f"{name} choisit l'atout : {suit}."
    if action == "mite":
        return "Tu annonces mite." if you else f"{name} annonce mite."
    if action == "pass":
        return "Tu passes." if you else f"{name} passe."
    if action in ("contra", "recontra"):
        return f"Tu dis {action}." if you else f"{name} dit {action}."
    return None


def spoken_move_fr(move: str) -> str:
    """What the live region says for one record move of a Malmedy game (``W:trump-H``, ``N:mite``, ``E:AH`` …)."""
    seat, action = move.split(":")
    return spoken_call_fr(seat, action) or spoken_card_fr(seat, action)


def malmedy_turn(page: Any, rng: random.Random, how: Literal["keyboard", "mouse", "touch"]) -> Situation:
    """Take one step of a Malmedy game by keyboard, mouse or touch; return what it was.

    Names a random suit, answers a mite at random, calls mite two times in three when it is
    offered, and otherwise plays a random raised card.
    """
    now = situation(page)
    if now == "end":
        return now

    def press(selector: str) -> None:
        if how == "touch":
            page.locator(selector).tap()
        else:
            page.click(selector)

    if now == "deal":
        if how == "keyboard":
            assert focused(page)["id"] == "deal-dialog-close"
            page.keyboard.press("Enter")
        else:
            press("#deal-dialog-close")
        return now
    before = sent_count(page)
    if now == "trump":
        suit = rng.choice(SUITS)
        if how == "keyboard":
            assert focused(page)["id"] == "trump-C", focused(page)
            for _ in range(SUITS.index(suit)):
                page.keyboard.press("Tab")
            assert focused(page)["id"] == f"trump-{suit}"
            page.keyboard.press("Enter")
        else:
            press(f"#trump-{suit}")
    elif now == "answer":
        raise_it = rng.random() < 0.5
        if how == "keyboard":
            assert focused(page)["id"] == "raise-button", focused(page)
            if not raise_it:
                page.keyboard.press("Tab")
                assert focused(page)["id"] == "answer-pass-button"
            page.keyboard.press("Enter")
        else:
            press("#raise-button" if raise_it else "#answer-pass-button")
    elif mite_offered(page) and rng.random() < 2 / 3:
        if how == "keyboard":
            assert focused(page)["card"], f"focus should be in the hand, not on {focused(page)}"
            # The mite button comes just before the hand in the tab order.
            page.keyboard.press("Shift+Tab")
            assert focused(page)["id"] == "mite-button", focused(page)
            page.keyboard.press("Enter")
        else:
            press("#mite-button")
    elif how == "keyboard":
        assert focused(page)["card"], f"focus should be in the hand, not on {focused(page)}"
        for _ in range(rng.randrange(5)):
            page.keyboard.press("ArrowRight")
        for _ in range(5):
            if focused(page)["disabled"] == "false":
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["disabled"] == "false"
        page.keyboard.press("Enter")
    else:
        press(f'.hand-card[data-card="{rng.choice(playable_cards(page))}"]')
    wait_sent(page, before)
    return now


def start_malmedy_game(page: Any) -> None:
    page.goto("/#/malmedy")
    page.click("#game-new")
    situation(page)


# ---------------------------------------------------------------- French tarot

TAROT_SITUATION_SCRIPT = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  if (document.getElementById('deal-dialog').open) return 'deal';
  const turn = document.getElementById('view-table').dataset.turn;
  return ['bid', 'call', 'ecart', 'chelem', 'play', 'poignee'].includes(turn) ? turn : null;
}"""

TarotSituation = Literal["bid", "call", "ecart", "chelem", "play", "poignee", "deal", "end"]
How = Literal["keyboard", "mouse", "touch"]

# A card South may pick now (an écart, a poignée): not veiled, not picked yet.
PICKABLE = '.hand-card[aria-disabled="false"][aria-pressed="false"]'


def tarot_situation(page: Any) -> TarotSituation:
    """Wait until South must act at the tarot table (or a deal's score sheet or the end is shown)."""
    handle = page.wait_for_function(TAROT_SITUATION_SCRIPT, timeout=30_000)
    value: TarotSituation = handle.json_value()
    return value


def visible_ids(page: Any, selector: str) -> list[str]:
    ids: list[str] = page.locator(selector).evaluate_all(
        "(nodes) => nodes.filter((n) => n.getClientRects().length && !n.disabled).map((n) => n.id)"
    )
    return ids


def _press(page: Any, how: How, selector: str) -> None:
    if how == "touch":
        page.locator(selector).tap()
    else:
        page.click(selector)


def _tab_to(page: Any, target: str, *, backwards: bool = False, limit: int = 12) -> None:
    """Tab (or Shift+Tab) until the element ``target`` has the focus."""
    for _ in range(limit):
        if focused(page)["id"] == target:
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    assert focused(page)["id"] == target, focused(page)


def _arrow_to(page: Any, selector: str, rng: random.Random) -> None:
    """Move through the hand with the arrow keys until the focused card matches ``selector``."""
    for _ in range(rng.randrange(3)):
        page.keyboard.press("ArrowRight")
    for _ in range(30):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("ArrowRight")
    raise AssertionError(f"no card of the hand matches {selector}")


def pick_until(page: Any, rng: random.Random, how: How, done: Callable[[], bool]) -> None:
    """Pick cards in the hand (keyboard: arrows and Enter; else taps or clicks) until ``done()``."""
    for _ in range(30):
        if done():
            return
        if how == "keyboard":
            assert focused(page)["card"], f"focus should be in the hand, not on {focused(page)}"
            _arrow_to(page, PICKABLE, rng)
            page.keyboard.press("Enter")
        else:
            cards = page.locator(PICKABLE).evaluate_all("(nodes) => nodes.map((n) => n.dataset.card)")
            _press(page, how, f'.hand-card[data-card="{rng.choice(cards[:3])}"]')
    assert done()


def tarot_turn(page: Any, rng: random.Random, how: How) -> TarotSituation:
    """Take one step of a tarot game by keyboard, mouse or touch; return what it was.

    Passes or takes at the lowest bid offered (sometimes bids at random), calls a random card, picks a random écart card by card,
    lets the chelem go three times in four, shows a poignée or announces a misère half of the
    times they are offered, and otherwise plays a random raised card.
    """
    now = tarot_situation(page)
    if now == "end":
        return now
    if now == "deal":
        if how == "keyboard":
            assert focused(page)["id"] == "deal-dialog-close"
            page.keyboard.press("Enter")
        else:
            _press(page, how, "#deal-dialog-close")
        return now
    before = sent_count(page)
    if now in ("bid", "call", "chelem"):
        group = {"bid": "#tarot-bids button", "call": "#tarot-calls button", "chelem": "#tarot-chelem button"}[now]
        offered = visible_ids(page, group)
        if now == "bid":
            # Pass, take at the lowest bid offered (an écart follows a petite or a garde), or bid at random.
            draw = rng.random()
            target = (
                offered[0] if draw < 0.4 or len(offered) == 1 else offered[1] if draw < 0.8 else rng.choice(offered)
            )
        elif now == "chelem":
            target = "chelem-button" if rng.random() < 0.25 else "no-chelem-button"
        else:
            target = rng.choice(offered)
        if how == "keyboard":
            assert focused(page)["id"] == offered[0], focused(page)
            _tab_to(page, target)
            page.keyboard.press("Enter")
        else:
            _press(page, how, f"#{target}")
    elif now == "ecart":
        pick_until(page, rng, how, lambda: page.locator("#ecart-button").is_enabled())
        if how == "keyboard":
            _tab_to(page, "ecart-button", backwards=True)
            page.keyboard.press("Enter")
        else:
            _press(page, how, "#ecart-button")
    elif now == "poignee":
        raise AssertionError("a poignée is picked within the turn that opens it")
    else:
        offered = visible_ids(page, "#tarot-announce button")
        if offered and rng.random() < 0.5:
            target = rng.choice(offered)
            if how == "keyboard":
                _tab_to(page, target, backwards=True)
                page.keyboard.press("Enter")
            else:
                _press(page, how, f"#{target}")
            if target == "poignee-button":
                tarot_situation(page)
                ready = "#tarot-poignee button.primary:enabled"
                pick_until(page, rng, how, lambda: page.locator(ready).count() > 0)
                show = visible_ids(page, "#tarot-poignee button.primary")[0]
                if how == "keyboard":
                    _tab_to(page, show, backwards=True)
                    page.keyboard.press("Enter")
                else:
                    _press(page, how, f"#{show}")
        elif how == "keyboard":
            assert focused(page)["card"], f"focus should be in the hand, not on {focused(page)}"
            _arrow_to(page, '.hand-card[aria-disabled="false"]', rng)
            page.keyboard.press("Enter")
        else:
            _press(page, how, f'.hand-card[data-card="{rng.choice(playable_cards(page))}"]')
    wait_sent(page, before)
    return now


def start_tarot_game(page: Any, players: int, how: How = "mouse") -> None:
    """From the tarot home, choose the number of players and start a free game."""
    page.goto("/#/tarot")
    page.wait_for_selector("#game-choice:not([hidden])")
    choice = page.get_by_role("radio", name=f"{players} joueurs")
    if how == "touch":
        choice.tap()
        page.locator("#game-new").tap()
    else:
        choice.check()
        page.click("#game-new")
    tarot_situation(page)


# ---------------------------------------------------------------- coucou

COUCOU_SITUATION_SCRIPT = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  return document.getElementById('view-table').dataset.turn === 'decide' ? 'decide' : null;
}"""

CoucouSituation = Literal["decide", "end"]


def coucou_situation(page: Any) -> CoucouSituation:
    """Wait until seat 1 must keep or change, or the end of the game is shown."""
    value: CoucouSituation = page.wait_for_function(COUCOU_SITUATION_SCRIPT, timeout=30_000).json_value()
    return value


def coucou_turn(page: Any, rng: random.Random, how: Literal["keyboard", "mouse", "touch"]) -> str | None:
    """Keep or change once, by keyboard (the two buttons or the G and C keys), mouse or touch; the move sent.

    Changes two times in three, so that seat 1 meets exchanges, coucous and the stock, and goes out in time.
    """
    if coucou_situation(page) == "end":
        return None
    move = "change" if rng.random() < 2 / 3 else "keep"
    before = sent_count(page)
    if how == "keyboard":
        # The focus is on one of the two buttons: "Garder" on the first turn, else the one used last.
        start = focused(page)["id"]
        assert start in ("keep-button", "change-button"), focused(page)
        if rng.random() < 0.3:
            page.keyboard.press("c" if move == "change" else rng.choice("gk"))
        else:
            if start != f"{move}-button":
                page.keyboard.press("Tab" if move == "change" else "Shift+Tab")
                assert focused(page)["id"] == f"{move}-button"
            page.keyboard.press(rng.choice(["Enter", " "]))
    elif how == "touch":
        page.locator(f"#{move}-button").tap()
    else:
        page.click(f"#{move}-button")
    wait_sent(page, before)
    return move


def start_coucou_game(page: Any, players: int, how: Literal["keyboard", "mouse", "touch"] = "mouse") -> None:
    """Open the coucou home, choose the table size, start a free game and wait for seat 1's first turn."""
    page.goto("/#/coucou")
    page.wait_for_selector("#game-options:not([hidden]) select")
    if how == "keyboard":
        for _ in range(40):
            page.keyboard.press("Tab")
            if focused(page)["id"] == "option-players":
                break
        assert focused(page)["id"] == "option-players"
        page.keyboard.type(str(players))
        for _ in range(6):
            page.keyboard.press("Tab")
            if focused(page)["id"] == "game-new":
                break
        assert focused(page)["id"] == "game-new"
        page.keyboard.press("Enter")
    else:
        page.select_option("#option-players", str(players))
        if how == "touch":
            page.locator("#game-new").tap()
        else:
            page.click("#game-new")
    coucou_situation(page)
