"""Issue 20: the moments a random game seldom reaches, each played at least once by keyboard and once by touch.

Every deal here is the archive of a past day: the module's own server keeps a secret the test
knows (stored in its database before it starts, as the server stores the one it makes), so
the test computes each past day's seed as ``GameService.daily_seed`` does and looks, with the
engine and the table's own bots, for the first day whose deal brings the moment. No route
lets a player choose a deal; the archive deals the day's seed, public once the day is over.

Each moment is played by keyboard (Tab to the control, Enter; arrows and Enter in the hand) on a
desktop and by touch (taps) on a 375×667 phone, and the live region must say it. A drag has no
keyboard form: it is played with the mouse and with a finger (touch events through the DevTools
protocol). Coucou has no card play, so no drag.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playing import ANNOUNCEMENT_RECORDER, ContextFactory, browser_server, situation, tarot_situation

from couyon.games.tarot import game as tarot_game
from couyon.games.tarot.cards import FACE_MASK, KING_MASK, TRUMP_MASK
from couyon.registry import GAMES
from couyon.store.store import Store, sqlite_url

SECRET = "rare-moments-test-secret-5f3a9c1e7b2d4086"
PHONE_375 = {"width": 375, "height": 667}
FIRST_DAY = dt.date(2024, 1, 1)


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of this module: its secret known to the test, its answers not held back (no answer floor)."""
    data_dir = tmp_path_factory.mktemp("rare-moments")
    store = Store(sqlite_url(data_dir))
    store.migrate()
    assert store.setting("server_secret", lambda: SECRET) == SECRET
    store.engine.dispose()
    with browser_server(data_dir, COUYON_ANSWER_FLOOR_MS="0") as server:
        yield server.url


def daily_seed(game: str, day: dt.date) -> str:
    """The seed the server deals for ``game``'s challenge of ``day`` (GameService.daily_seed)."""
    # The default game's message names no game: its seeds were published before there were others.
    message = f"daily:{day.isoformat()}" if game == "couyon" else f"daily:{game}:{day.isoformat()}"
    return hmac.new(SECRET.encode(), message.encode(), hashlib.sha256).hexdigest()[:32]


def first_day(game: str, wanted: Callable[[Any], bool], start: dt.date = FIRST_DAY, days: int = 3000) -> dt.date:
    """The first past day from ``start`` whose new game of ``game`` passes ``wanted``."""
    kind = GAMES[game]
    yesterday = dt.date.today() - dt.timedelta(days=2)
    for offset in range(days):
        day = start + dt.timedelta(days=offset)
        if day > yesterday:
            break
        if wanted(kind.engine.new_game(daily_seed(game, day), dict(kind.daily_options))):
            return day
    raise AssertionError(f"no day of {game} brings the moment: search further")


def until_south(game: str, state: Any) -> Any:
    """The game after the table's bots have played up to South's first turn."""
    kind = GAMES[game]
    bot = kind.bot(kind.level_bots.get("expert", kind.table_bot_id))
    while not kind.engine.is_over(state) and str(kind.engine.to_move(state)) != "S":
        state = kind.engine.play(state, kind.engine.bot_move(state, bot))
    return state


def south_may_bid(state: Any, bid: str) -> bool:
    return f"S:{bid}" in {str(move) for move in tarot_game.legal_moves(until_south(f"tarot{state.players}", state))}


def open_archive(new_context: ContextFactory, game: str, day: dt.date, how: str) -> Any:
    """A page at the table of ``game``'s challenge of ``day`` (the archive), on a desktop or a 375×667 touch phone."""
    options: dict[str, Any] = {"viewport": PHONE_375, "has_touch": True, "is_mobile": True} if how == "touch" else {}
    page = new_context(**options).new_page()
    page.add_init_script(ANNOUNCEMENT_RECORDER)
    page.goto("/")
    answer = page.request.post(
        "/api/games", data={"mode": "daily", "ranked": False, "game": game, "day": day.isoformat()}
    )
    assert answer.ok, answer.text()
    # The page knows one tarot (its table size is the game's): tarot4's game is kept as tarot's.
    page_game = "tarot" if game.startswith("tarot") else game
    key = "couyon.game" if page_game == "couyon" else f"couyon.game.{page_game}"
    page.evaluate("([key, id]) => localStorage.setItem(key, id)", [key, answer.json()["id"]])
    page.goto("/#/table" if page_game == "couyon" else f"/#/table/{page_game}")
    return page


def current_deal(page: Any) -> int:
    game_id = page.locator("#view-table").get_attribute("data-game")
    return int(page.request.get(f"/api/games/{game_id}").json()["view"]["deal"]["number"])


def has_focus(locator: Any) -> bool:
    return bool(locator.evaluate("(node) => node === document.activeElement"))


def press(page: Any, how: str, control: Any, *, backwards: bool = False) -> None:
    """Use a control as a person would: by touch, a tap; by mouse, a click; by keyboard, Tab (or Shift+Tab) to it, then Enter."""
    control.wait_for()
    if how == "touch":
        control.tap()
        return
    if how == "mouse":
        control.click()
        return
    for _ in range(40):
        if has_focus(control):
            break
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    assert has_focus(control), f"Tab never reached {control}"
    page.keyboard.press("Enter")


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=re.compile(rf"^{re.escape(name)}"))


def wait_turn(page: Any, turn: str) -> None:
    page.wait_for_function("(turn) => document.getElementById('view-table').dataset.turn === turn", arg=turn)


def wait_said(page: Any, line: str) -> None:
    """Wait until the live region has said ``line``."""
    page.wait_for_function("(line) => window.__announced.includes(line)", arg=line)


def pick_cards(page: Any, how: str, cards: list[Any]) -> None:
    """Pick these hand cards: by touch, tap each; by keyboard, walk the hand with the arrows and press Enter on each."""
    for card in cards:
        if how == "touch":
            card.tap()
        else:
            for _ in range(30):
                if has_focus(card):
                    break
                page.keyboard.press("ArrowRight")
            assert has_focus(card)
            page.keyboard.press("Enter")
        page.wait_for_function("(node) => node.getAttribute('aria-pressed') === 'true'", arg=card.element_handle())


# ---------------------------------------------------------------- tarot


def trumps(state: Any) -> int:
    return int((state.deal.hands[0] & TRUMP_MASK).bit_count())


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_tarot_south_announces_a_chelem_and_shows_a_poignee(new_context: ContextFactory, how: str) -> None:
    # At four, ten trumps make a simple poignée; South takes garde contre, so he alone may announce a chelem.
    day = first_day(
        "tarot4", lambda state: trumps(state) >= 10 and south_may_bid(state, "garde-contre"), dt.date(2024, 9, 1)
    )
    page = open_archive(new_context, "tarot4", day, how)
    wait_turn(page, "bid")
    press(page, how, button(page, "Garde contre"))
    wait_turn(page, "chelem")
    press(page, how, button(page, "Annoncer le chelem"))
    wait_said(page, "Tu annonces le chelem.")
    wait_turn(page, "play")
    press(page, how, button(page, "Montrer une poignée"), backwards=True)
    hand = page.get_by_role("toolbar", name="Ta main")
    pick_cards(page, how, hand.get_by_role("button", name=re.compile(r"^\d+ d'atout$")).all()[:10])
    press(page, how, button(page, "Montrer 10 atouts"), backwards=True)
    page.wait_for_function(
        "() => window.__announced.some((line) => line.startsWith('Tu montres une poignée de 10 : '))"
    )


def south_takes_and_plays(page: Any, how: str) -> None:
    """South bids garde contre, lets the chelem go, and waits for his first card."""
    wait_turn(page, "bid")
    press(page, how, button(page, "Garde contre"))
    wait_said(page, "Tu prends : Garde contre, points multipliés par 6.")


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_tarot_south_announces_a_misere(new_context: ContextFactory, how: str) -> None:
    # At five, fifteen cards without a trump (misère d'atout) or without a face (misère de tête).
    def misere(state: Any) -> bool:
        hand = state.deal.hands[0]
        return bool(not hand & TRUMP_MASK or not hand & FACE_MASK) and south_may_bid(state, "garde-contre")

    day = first_day("tarot5", misere, dt.date(2024, 1, 1))
    page = open_archive(new_context, "tarot5", day, how)
    south_takes_and_plays(page, how)
    wait_turn(page, "call")
    press(page, how, page.get_by_role("group", name="La carte à appeler").get_by_role("button").first)
    wait_turn(page, "chelem")
    press(page, how, button(page, "Jouer sans chelem"))
    wait_turn(page, "play")
    offered = page.get_by_role("button", name=re.compile("^Annoncer misère d"))
    offered.first.wait_for()
    name = offered.first.inner_text().strip()
    press(page, how, offered.first, backwards=True)
    kind = name.removeprefix("Annoncer ")
    wait_said(page, f"Tu annonces {kind}.")


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_tarot_south_holding_the_four_kings_calls_a_queen(new_context: ContextFactory, how: str) -> None:
    # At five the taker calls a king, or a queen once he holds the four kings (ruling 7).
    day = first_day(
        "tarot5",
        lambda state: state.deal.hands[0] & KING_MASK == KING_MASK and south_may_bid(state, "garde-contre"),
        dt.date(2024, 8, 1),
    )
    page = open_archive(new_context, "tarot5", day, how)
    south_takes_and_plays(page, how)
    wait_turn(page, "call")
    calls = page.get_by_role("group", name="La carte à appeler")
    queen = calls.get_by_role("button", name=re.compile("^Appeler la dame de "))
    assert [queen.nth(index).is_enabled() for index in range(queen.count())] == [True] * 4
    name = queen.nth(2).inner_text().strip()
    press(page, how, queen.nth(2))
    wait_said(page, f"Tu appelles {name.removeprefix('Appeler ')}.")


def passed_out_then_petit_sec(state: Any) -> bool:
    """Whether everyone passes deal 1 when South passes, and a petit sec then annuls deal 2 (ruling 4)."""
    players = state.players
    if (
        state.finished_deals
        or not tarot_game._deal_from(state.seed, players, 2, (state.deal.dealer + 1) % players, ())[1]
    ):
        return False
    kind = GAMES[f"tarot{players}"]
    bot = kind.bot(kind.level_bots.get("expert", kind.table_bot_id))
    while state.deal.number == 1:
        south = str(tarot_game.to_move(state)) == "S"
        move = tarot_game.Move.parse("S:pass", players) if south else kind.engine.bot_move(state, bot)
        if move.action != "pass":
            return False
        state = tarot_game.play(state, move)
    return True


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_tarot_a_petit_sec_annuls_the_deal(new_context: ContextFactory, how: str) -> None:
    # A petit sec dealt to the first deal annuls it before anyone sees it; one dealt after a passed-out deal is shown.
    day = first_day("tarot5", passed_out_then_petit_sec, dt.date(2026, 1, 1))
    page = open_archive(new_context, "tarot5", day, how)
    wait_turn(page, "bid")
    press(page, how, button(page, "Passer"))
    passed = page.get_by_role("dialog", name="Fin de la donne 1")
    press(page, how, passed.get_by_role("button", name="Donne suivante"))
    annulled = page.get_by_role("dialog", name="Fin de la donne 2")
    annulled.get_by_text(re.compile(r"^Petit sec \(.+\) : la donne est annulée\.$")).wait_for()
    page.wait_for_function(
        "() => window.__announced.some((line) => /^Fin de la donne 2\\. Petit sec \\(.+\\) : la donne est annulée\\./.test(line))"
    )
    press(page, how, annulled.get_by_role("button", name="Donne suivante"))
    wait_turn(page, "bid")
    assert current_deal(page) == 3


# ---------------------------------------------------------------- the couyon de Malmedy


def malmedy_recontra(state: Any, south_says: str) -> bool:
    """Whether, in the first deal, South (who names the first trump offered, calls a mite he may call, contras
    every mite he may answer, and plays his first legal card) meets a recontra: his own (``south_says`` recontra)
    or the announcer's after his contra (``south_says`` contra)."""
    kind = GAMES["malmedy"]
    engine = kind.engine
    bot = kind.bot(kind.level_bots.get("expert", kind.table_bot_id))
    said: list[str] = []
    while len(said) < 22 and not engine.is_over(state):
        if str(engine.to_move(state)) == "S":
            legal = {str(move).split(":")[1]: move for move in engine.legal_moves(state)}
            move = next((legal[name] for name in ("recontra", "contra", "mite") if name in legal), None)
            move = move or next(iter(legal.values()))
        else:
            move = engine.bot_move(state, bot)
        said.append(str(move))
        if said[-1].endswith(":recontra"):
            return said[-1] == "S:recontra" if south_says == "recontra" else "S:contra" in said
        state = engine.play(state, move)
    return False


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_malmedy_south_says_contra_and_the_mite_answers_recontra(new_context: ContextFactory, how: str) -> None:
    day = first_day("malmedy", lambda state: malmedy_recontra(state, "contra"), dt.date(2024, 1, 1))
    page = open_archive(new_context, "malmedy", day, how)
    wait_turn(page, "answer")
    press(page, how, button(page, "Contra"))
    wait_said(page, "Tu dis contra.")
    page.wait_for_function("() => window.__announced.some((line) => / dit recontra\\.$/.test(line))")


@pytest.mark.parametrize("how", ["keyboard", "touch"])
def test_malmedy_south_calls_a_mite_and_answers_the_contra_with_recontra(new_context: ContextFactory, how: str) -> None:
    day = first_day("malmedy", lambda state: malmedy_recontra(state, "recontra"), dt.date(2024, 2, 1))
    page = open_archive(new_context, "malmedy", day, how)
    wait_turn(page, "play")
    # The mite button comes just before the hand in the tab order.
    press(page, how, button(page, "Annoncer mite"), backwards=True)
    wait_said(page, "Tu annonces mite.")
    wait_turn(page, "answer")
    page.wait_for_function("() => window.__announced.some((line) => / dit contra\\.$/.test(line))")
    press(page, how, button(page, "Recontra"))
    wait_said(page, "Tu dis recontra.")


# ---------------------------------------------------------------- a card dragged onto the table


def reach_south_card(page: Any, game: str, how: str) -> None:
    """Bid, name trumps, answer and close summaries (taking when South may) until South must play a card."""
    for _ in range(30):
        turn = tarot_situation(page) if game.startswith("tarot") else situation(page)
        before = page.locator("#view-table").get_attribute("data-sent") or "0"
        if turn == "play":
            return
        if turn == "deal":
            dialog = page.get_by_role("dialog")
            press(page, how, dialog.get_by_role("button", name="Donne suivante"))
            page.wait_for_selector("#deal-dialog:not([open])")
            continue
        if turn == "bid":
            offered = page.get_by_role("button", name=re.compile("^(Garde contre|Prendre)$"))
            press(page, how, offered.first if offered.count() else button(page, "Passer"))
        elif turn == "chelem":
            press(page, how, button(page, "Jouer sans chelem"))
        elif turn == "call":
            press(page, how, page.get_by_role("group", name="La carte à appeler").get_by_role("button").first)
        elif turn == "trump":
            press(page, how, page.get_by_role("group", name="Choisis l'atout").get_by_role("button").first)
        elif turn == "answer":
            press(page, how, button(page, "Passer"))
        else:
            raise AssertionError(f"no step for the turn {turn}")
        page.wait_for_function(
            "(before) => (document.getElementById('view-table').dataset.sent || '0') !== before", arg=before
        )
    raise AssertionError("South never came to play a card")


def drag_onto_the_table(page: Any, card: Any, how: str) -> None:
    """Press on the card, move it in steps onto the centre of the table and let go: with the mouse, or a finger."""
    source = card.bounding_box()
    target = page.locator("#centre").bounding_box()
    assert source and target
    start = (source["x"] + source["width"] / 2, source["y"] + source["height"] / 2)
    end = (target["x"] + target["width"] / 2, target["y"] + target["height"] / 2)
    if how == "mouse":
        page.mouse.move(*start)
        page.mouse.down()
        page.mouse.move(*end, steps=12)
        page.mouse.up()
        return
    touch = page.context.new_cdp_session(page)
    touch.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": start[0], "y": start[1]}]})
    for step in range(1, 13):
        x = start[0] + (end[0] - start[0]) * step / 12
        y = start[1] + (end[1] - start[1]) * step / 12
        touch.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


@pytest.mark.parametrize("how", ["mouse", "touch"])
@pytest.mark.parametrize("game", ["couyon", "malmedy", "tarot3"])
def test_a_card_dragged_onto_the_table_is_played(new_context: ContextFactory, game: str, how: str) -> None:
    page = open_archive(new_context, game, dt.date(2024, 3, 1), how)
    reach_south_card(page, game, how)
    hand = page.get_by_role("toolbar", name="Ta main")
    card = hand.get_by_role("button", disabled=False).first
    # "as de carreau, atout": the card's name, then what it is this deal.
    name = card.evaluate("(node) => node.getAttribute('aria-label') || node.textContent.trim()").split(",")[0]
    code = card.get_attribute("data-card")
    drag_onto_the_table(page, card, how)
    page.wait_for_function(
        "(name) => window.__announced.some((line) => line.startsWith('Tu joues ') && line.includes(name))", arg=name
    )
    assert hand.locator(f'[data-card="{code}"]').count() == 0
