"""Friends' tables in the browser (issue 21): real Chromium pages, each its own player, at one table.

A server of its own for this module: the grace before the bot takes an absent person's seat is short
(``COUYON_TABLE_GRACE_S``) and the bots answer at once (``COUYON_ANSWER_FLOOR_MS=0``); the pages play at the
"instant" pace. The tables are opened, shared and joined through the page itself (the home's "Jouer entre amis",
the "Lien de la table" field, "Prendre cette place", "Commencer la partie"), then played by keyboard, mouse
or touch with the solo table's helpers (playing.py), each page acting whenever its own seat is asked.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playing import (
    COUCOU_SITUATION_SCRIPT,
    DESKTOP,
    SITUATION_SCRIPT,
    TAROT_SITUATION_SCRIPT,
    How,
    assert_no_violations,
    browser_server,
    collect_errors,
    coucou_turn,
    keyboard_turn,
    malmedy_turn,
    screenshot,
    tarot_turn,
    touch_turn,
)
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

GRACE_S = 2
PHONE_375 = {"width": 375, "height": 667}
PHONE_320 = {"width": 320, "height": 568}
# What is wider than the window: the page (it would scroll sideways) or an open dialog (its own content). The
# width is the layout's (a phone's browser zooms out to show a page wider than itself: innerWidth grows then).
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  if (document.documentElement.scrollWidth > width) {
    const over = [...document.body.querySelectorAll('*')].filter(
      (node) => node.checkVisibility() && node.getBoundingClientRect().right > width + 0.5);
    wide.push(`the page, ${document.documentElement.scrollWidth} px: ${over.slice(0, 5).map((node) => node.id || node.className)}`);
  }
  for (const dialog of document.querySelectorAll('dialog[open]')) {
    if (dialog.getBoundingClientRect().right > width + 0.5 || dialog.scrollWidth > dialog.clientWidth)
      wide.push(`${dialog.id}, ${dialog.scrollWidth} px`);
  }
  return wide;
}"""
# The names the issue gives the table's controls, in each language.
NAMES = {
    "fr": {
        "play": "Jouer entre amis",
        "link": "Lien de la table",
        "copy": "Copier le lien",
        "code": "Code de la table",
        "join": "Rejoindre une table",
        "take": "Prendre cette place",
        "start": "Commencer la partie",
        "rematch": "Revanche",
    },
    "en": {
        "play": "Play with friends",
        "link": "Table link",
        "copy": "Copy the link",
        "code": "Table code",
        "join": "Join a table",
        "take": "Take this seat",
        "start": "Start the game",
        "rematch": "Rematch",
    },
}
RECORDER = """
window.__announced = [];
document.addEventListener('DOMContentLoaded', () => {
  const region = document.getElementById('announcer');
  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) window.__announced.push(node.textContent);
  }).observe(region, { childList: true });
});
"""

# Every WebSocket the page opens, whether it opened and closed, and the frames it sent (the page's own socket,
# watched, not replaced).
SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const record = { open: false, closed: false, sent: [] };
      this.__record = record;
      window.__sockets.push(record);
      this.addEventListener('open', () => { record.open = true; });
      this.addEventListener('close', () => { record.closed = true; });
    }
    send(data) {
      this.__record.sent.push(String(data));
      return super.send(data);
    }
  };
})();
"""

Turn = Callable[[Any], object]
# What the table asked last, as the live region's last lines say it (for a question taken away by another's move).
LAST_TURN = "() => window.__announced.slice(-6).join(' ').toLowerCase()"


@pytest.fixture(scope="module")
def friends_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = browser_server(
        tmp_path_factory.mktemp("couyon-friends"), COUYON_TABLE_GRACE_S=str(GRACE_S), COUYON_ANSWER_FLOOR_MS="0"
    )
    with server:
        yield server.url


@pytest.fixture
def person(browser: Any, friends_url: str) -> Iterator[Callable[..., Any]]:
    """A new person (browser context, so his own cookie) with a name, on the home page: returns his page."""
    contexts: list[Any] = []

    def make(
        name: str,
        *,
        language: str = "fr",
        phone: bool = False,
        through: str | None = None,
        viewport: dict[str, int] | None = None,
        speed: str = "instant",
    ) -> Any:
        """``through``: the address of a proxy in front of the server, for this person's connections; ``viewport``:
        the phone's size, if not 375×667; ``speed``: the pace of the animations."""
        options: dict[str, Any] = {"viewport": viewport or (PHONE_375 if phone else DESKTOP)}
        if phone:
            options.update(has_touch=True, is_mobile=True)
        context = browser.new_context(base_url=through or friends_url, **options)
        context.set_default_timeout(15_000)
        context.add_init_script(
            f"localStorage.setItem('couyon.speed', {speed!r}); localStorage.setItem('couyon.language', {language!r});"
        )
        context.add_init_script(RECORDER)
        context.add_init_script(SOCKETS)
        contexts.append(context)
        page = context.new_page()
        page.errors = collect_errors(page)
        page.goto("/")
        if name:
            assert page.request.put("/api/player", data={"name": name}).ok
        return page

    yield make
    for context in contexts:
        context.close()


class CuttingProxy:
    """A TCP proxy in front of the server, as a phone's network or a proxy that drops sockets: ``cut()`` closes
    every connection through it (the page's WebSocket and its HTTP connections) and refuses new ones until
    ``mend()``; the page sees a real closed connection, not an emulated one (Chromium's offline emulation leaves
    an open WebSocket open). ``cut_after_next_frame()``: the same cut, right after the next frame the page sends
    on its WebSocket has reached the server (the server has it; its answer is lost). ``sockets=False``: a proxy
    that never holds a WebSocket (it closes each upgrade request) but passes HTTP."""

    def __init__(self, upstream: str, *, sockets: bool = True) -> None:
        self.upstream = int(upstream.rsplit(":", 1)[1])
        self.sockets = sockets
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.passing = True
        self.cutting_after_frame = False
        self.connections: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if not self.passing:
                client.close()
                continue
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.connections.update((client, server))
            for source, sink, asks in ((client, server, True), (server, client, False)):
                threading.Thread(target=self._pump, args=(source, sink, asks), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, asks: bool) -> None:
        upgraded = False
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                if asks and b"upgrade: websocket" in data.lower():
                    if not self.sockets:
                        break
                    upgraded = True
                elif upgraded and self.cutting_after_frame:
                    sink.sendall(data)
                    self.cutting_after_frame = False
                    self.cut()
                    return
                sink.sendall(data)
        self._drop(source, sink)

    def _drop(self, *ends: socket.socket) -> None:
        with self.lock:
            for end in ends:
                self.connections.discard(end)
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    def cut(self) -> None:
        self.passing = False
        with self.lock:
            ends = list(self.connections)
        self._drop(*ends)

    def cut_after_next_frame(self) -> None:
        self.cutting_after_frame = True

    def mend(self) -> None:
        self.passing = True

    def close(self) -> None:
        self.cut()
        self.listener.close()


def started_through(
    proxy: CuttingProxy, friends_url: str, host: Any, guest: Any, seat: str, name: str
) -> tuple[str, str]:
    """A beginner couyon table that ``host`` (through ``proxy``) opens and starts, ``guest`` (English, straight to
    the server) sitting at ``seat`` as ``name``: its code and secret."""
    link = open_table(host, "/", choose=lambda page: page.select_option("#home-option-level", "beginner"))
    sit(guest, link.replace(proxy.url, friends_url), seat, take="Take this seat")
    host.wait_for_selector(f'#lobby-holder-{seat}:has-text("{name}")')
    start(host)
    return code_and_secret(link)


def open_table(host: Any, home: str, *, clock: str = "60", choose: Callable[[Any], None] | None = None) -> str:
    """From a game's home, "Jouer entre amis" with the clock given: the invitation link the lobby shows."""
    host.goto(home)
    prefix = "" if home == "/" else "game-"
    if choose:
        choose(host)
    host.select_option(f"#{prefix}friends-clock", clock)
    host.locator(f"#{prefix}play-friends").click()
    field = host.get_by_role("textbox", name=re.compile("Lien de la table|Table link"))
    field.wait_for()
    link: str = field.input_value()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/#/tables/[2-9A-HJKMNP-Z]{6}/[\w-]{22}", link), link
    code = host.locator("#table-code").text_content() or ""
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{3}-[2-9A-HJKMNP-Z]{3}", code), code
    return link


def code_and_secret(link: str) -> tuple[str, str]:
    """The table's code and secret in its invitation link (for the API, as the page's own requests)."""
    found = re.search(r"/tables/(\w+)/([\w-]+)$", link)
    assert found, link
    code, secret = found.groups()
    return code, secret


def sit(page: Any, link: str, seat: str, *, take: str = "Prendre cette place") -> None:
    """Open the link and take ``seat`` by its button (named "Prendre cette place" / "Take this seat")."""
    page.goto(link)
    button = page.locator(f"#take-{seat}")
    button.wait_for()
    assert button.get_attribute("aria-describedby"), "the button says which seat it takes"
    assert page.get_by_role("button", name=take).count() >= 1
    button.click()
    page.wait_for_function(f"() => !document.getElementById('take-{seat}')")


def start(host: Any, name: str = "Commencer la partie") -> None:
    host.get_by_role("button", name=name).click()


def play(players: list[tuple[Any, str, Turn]], limit_s: float, until: Callable[[], bool] | None = None) -> None:
    """Each page acts whenever its own seat is asked (``script`` says so), until ``until()`` or, without it,
    until every page shows the end of the game."""
    ended: set[int] = set()
    deadline = time.monotonic() + limit_s
    while len(ended) < len(players) and not (until and until()):
        if time.monotonic() > deadline:
            for index, (page, _, _) in enumerate(players):
                screenshot(page, f"friends-stuck-{index}", failing=True)
            states = [
                page.evaluate(
                    "() => [document.getElementById('prompt').textContent, document.getElementById('view-table').dataset.turn, document.getElementById('view-table').dataset.sent, window.__announced.slice(-5)]"
                )
                for page, _, _ in players
            ]
            raise AssertionError(f"the game did not get there in {limit_s} s: {states}")
        acted = False
        for index, (page, script, turn) in enumerate(players):
            if index in ended:
                continue
            now = page.evaluate(script)
            if now == "end":
                ended.add(index)
            elif now:
                turn(page)
                acted = True
        if not acted:
            players[0][0].wait_for_timeout(20)


def announced(page: Any) -> list[str]:
    lines: list[str] = page.evaluate("() => window.__announced")
    return lines


def seat_text(page: Any, seat: str) -> str:
    return page.locator(f"#seat-{seat}").inner_text()


def test_a_couyon_table_of_two_people_one_away_for_a_while(person: Callable[..., Any]) -> None:
    """Anne (keyboard, desktop, French) opens a couyon table, Bruno (touch, 375×667, English) sits East; his page
    closes mid-game, the bot plays East after the grace, his return gives the seat back; a whole game, a rematch."""
    anne = person("Anne")
    bruno = person("Bruno", language="en", phone=True)
    link = open_table(anne, "/", clock="15", choose=lambda page: page.select_option("#home-option-level", "beginner"))
    assert_no_violations(anne, "the lobby of a couyon table (FR)")
    bruno.goto(link)
    bruno.locator("#take-E").wait_for()
    # Partners sit opposite: the lobby says who is opposite whom.
    assert "opposite North" in bruno.locator('.seat-entry[data-seat="S"]').inner_text()
    assert_no_violations(bruno, "the lobby of a couyon table, phone (EN)")
    bruno.get_by_role("button", name="Take this seat").nth(2).tap()  # the third free seat: East
    anne.wait_for_selector('#lobby-holder-E:has-text("Bruno")')
    screenshot(bruno, "friends-lobby-phone-en")
    start(anne)

    # Each sees his own seat at the bottom and the other by name, across the table's turning.
    for page in (anne, bruno):
        page.wait_for_selector("#friends-bar:not([hidden])")
        page.wait_for_function("() => document.getElementById('view-table').dataset.turn")
    assert "Anne" in seat_text(anne, "S") and "Bruno" in seat_text(anne, "E")
    assert "Bruno" in seat_text(bruno, "S") and "Anne" in seat_text(bruno, "W")
    assert "bot" in seat_text(bruno, "N") and "robot" in seat_text(anne, "W")
    assert_no_violations(anne, "a couyon table with a friend (FR)")
    assert_no_violations(bruno, "a couyon table with a friend, phone (EN)")
    screenshot(bruno, "friends-couyon-phone-en")

    rng = random.Random(21)
    sent = {"bruno": 0}

    def bruno_turn(page: Any) -> None:
        touch_turn(page, rng)
        sent["bruno"] += 1

    play(
        [(anne, SITUATION_SCRIPT, lambda page: keyboard_turn(page, rng)), (bruno, SITUATION_SCRIPT, bruno_turn)],
        limit_s=30,
        until=lambda: sent["bruno"] >= 3,
    )
    # The other seat's moves were said with his name, in each one's language.
    assert any(re.fullmatch(r"Bruno (joue|prend|passe).*", line) for line in announced(anne)), announced(anne)[-20:]
    assert any(re.fullmatch(r"Anne (plays|takes|passes).*", line) for line in announced(bruno)), announced(bruno)[-20:]

    # Bruno's phone is gone: after the grace the bot plays East, and Anne's table says so.
    context = bruno.context
    bruno.close()
    anne.wait_for_function(
        "() => document.getElementById('seat-E').innerText.includes('le robot joue pour lui')",
        timeout=(GRACE_S + 15) * 1000,
    )
    # Anne's clock runs on her turn, and is said before it runs out.
    anne.wait_for_function(f"() => ({SITUATION_SCRIPT})() !== null")
    assert re.fullmatch(r"Il te reste \d+ s", anne.locator("#friends-timer").inner_text())
    anne.wait_for_function("() => window.__announced.some((line) => line.startsWith('Plus que'))", timeout=8_000)
    keyboard_turn(anne, rng)

    # He comes back (the same browser): the table catches up and the seat is his again.
    back = context.new_page()
    back.errors = collect_errors(back)
    back.goto(link)
    back.wait_for_selector("#friends-bar:not([hidden])")
    assert "Bruno" in seat_text(back, "S")
    players = [(anne, SITUATION_SCRIPT, lambda page: keyboard_turn(page, rng)), (back, SITUATION_SCRIPT, bruno_turn)]
    before = sent["bruno"]
    # At his seat's next decision: Anne's table no longer says the bot plays for him, and he is asked.
    play(players, limit_s=20, until=lambda: "le robot joue pour lui" not in seat_text(anne, "E"))
    play(players, limit_s=60)
    assert sent["bruno"] > before, "the seat came back to Bruno"
    for page, rematch, results in ((anne, "Revanche", "1 partie jouée"), (back, "Rematch", "1 game played")):
        dialog = page.locator("#end-dialog")
        assert dialog.get_by_role("button", name=rematch).is_visible()
        assert results in dialog.inner_text()
        assert not page.locator("#end-new-game").is_visible()
    first_game = anne.locator("#view-table").get_attribute("data-game")
    anne.locator("#end-dialog").get_by_role("button", name="Revanche").press("Enter")
    back.locator("#end-dialog").get_by_role("button", name="Rematch").tap()
    # Both asked: a new game, the same seats, on both pages.
    for page in (anne, back):
        page.wait_for_function(
            "(first) => { const id = document.getElementById('view-table').dataset.game; return id && id !== first; }",
            arg=first_game,
        )
        assert not page.locator("#end-dialog").is_visible()
    assert "Bruno" in seat_text(back, "S")

    # Quick messages: Anne mutes them, Bruno says hello; it shows beside his seat on her table, in her words,
    # and his own live region says it (hers is quiet).
    anne.get_by_text("Messages rapides").click()
    anne.get_by_role("button", name="Couper les messages").click()
    assert anne.get_by_role("button", name="Couper les messages").get_attribute("aria-pressed") == "true"
    back.get_by_text("Quick messages").tap()
    back.get_by_role("button", name="Hello!").tap()
    back.wait_for_function("() => window.__announced.includes('Bruno (you): Hello!')")
    anne.wait_for_function("() => document.getElementById('seat-E').innerText.includes('Bonjour !')")
    assert not any("Bonjour" in line for line in announced(anne))
    assert anne.errors == [] and back.errors == []


def test_a_malmedy_table_of_two_partners(person: Callable[..., Any]) -> None:
    """Malmedy: Fanny (keyboard, desktop, French) opens the table, Gaston (touch, 375×667, English) sits opposite
    her (North) as her partner, the bot holds West and East; a whole game to its end, the same result on both pages
    (the server's), the table's results and "Revanche" / "Rematch"; then a newcomer takes West for the next game."""
    fanny = person("Fanny")
    gaston = person("Gaston", language="en", phone=True)
    link = open_table(fanny, "/#/malmedy", choose=lambda page: page.select_option("#option-level", "beginner"))
    assert fanny.locator(".seat-entry").count() == 4
    gaston.goto(link)
    gaston.locator("#take-N").wait_for()
    assert "opposite South (Fanny" in gaston.locator('.seat-entry[data-seat="N"]').inner_text()
    gaston.locator("#take-N").tap()
    fanny.wait_for_selector('#lobby-holder-N:has-text("Gaston")')
    assert "en face de Nord (Gaston" in fanny.locator('.seat-entry[data-seat="S"]').inner_text()
    start(fanny)
    for page in (fanny, gaston):
        page.wait_for_selector("#friends-bar:not([hidden])")
        page.wait_for_function("() => document.getElementById('view-table').dataset.turn")
    # Partners opposite on both tables: each at the bottom, the other at the top.
    assert "Gaston" in seat_text(fanny, "N") and "Fanny" in seat_text(gaston, "N")
    rng = random.Random(12)
    play(
        [
            (fanny, SITUATION_SCRIPT, lambda page: malmedy_turn(page, rng, "keyboard")),
            (gaston, SITUATION_SCRIPT, lambda page: malmedy_turn(page, rng, "touch")),
        ],
        limit_s=240,
    )
    code, secret = code_and_secret(link)
    answer = fanny.request.get(f"/api/tables/{code}/game?secret={secret}&since=-1").json()
    won = answer["view"]["winner"] == "NS"
    ends = (
        (fanny, "Gagné !" if won else "Perdu, cette fois.", "Lignes restantes : nous", "Revanche", "1 partie jouée"),
        (gaston, "You won!" if won else "Lost, this time.", "Lines left: us", "Rematch", "1 game played"),
    )
    for page, title, lines, rematch, results in ends:
        dialog = page.locator("#end-dialog")
        assert page.locator("#end-dialog-title").inner_text() == title
        assert lines in dialog.inner_text() and results in dialog.inner_text()
        assert dialog.get_by_role("button", name=rematch).is_visible()
    assert_no_violations(fanny, "the end of a Malmedy table (FR)")
    assert_no_violations(gaston, "the end of a Malmedy table, phone (EN)")

    # Between games a newcomer may take a seat the bot holds: Hortense opens the link and takes West, then the
    # rematch waits for her too and deals the next game with her at West.
    hortense = person("Hortense")
    hortense.goto(link)
    hortense.get_by_text("La partie est finie : prends une place que tient le robot").wait_for()
    assert hortense.get_by_role("button", name="Prendre cette place").count() == 2  # West and East, the bot's
    assert_no_violations(hortense, "a finished Malmedy table, to a newcomer (FR)")
    hortense.locator("#take-W").click()
    fanny.wait_for_function("() => document.getElementById('seat-W').innerText.includes('Hortense')")
    first_game = fanny.locator("#view-table").get_attribute("data-game")
    # Her page draws the finished game as it stands (not played again from its first move) and its end.
    hortense.locator("#end-dialog").wait_for()
    hortense.locator("#end-dialog").get_by_role("button", name="Revanche").click()
    fanny.locator("#end-dialog").get_by_role("button", name="Revanche").press("Enter")
    gaston.locator("#end-dialog").get_by_role("button", name="Rematch").tap()
    for page in (fanny, gaston, hortense):
        page.wait_for_function(
            "(first) => { const id = document.getElementById('view-table').dataset.game; return id && id !== first; }",
            arg=first_game,
        )
    assert "Hortense" in seat_text(hortense, "S") and "Hortense" in seat_text(fanny, "W")
    # Her partner East, drawn opposite her, is named by his own seat, as the lobby and the results name him.
    assert "Robot (Est)" in seat_text(hortense, "N") and "Robot (Est)" in seat_text(fanny, "E")
    assert fanny.errors == [] and gaston.errors == [] and hortense.errors == []


def counted(sent: dict[str, int], who: str, how: Callable[[Any, random.Random], object], rng: random.Random) -> Turn:
    """A turn by ``how`` that counts in ``sent[who]`` the moves ``who`` made, for a test that checks none was lost."""

    def turn(page: Any) -> None:
        how(page, rng)
        sent[who] += 1

    return turn


def tarot_step(rng: random.Random, how: How) -> Turn:
    """One step of a tarot table by ``how``, allowing the one question another person's move may take away."""

    def turn(page: Any) -> None:
        try:
            tarot_turn(page, rng, how)
        except PlaywrightTimeoutError:
            # The taker's chelem window stays open while the leader may already play: when another
            # person leads first, the question goes away under the taker's finger. Anything else fails.
            if page.evaluate(TAROT_SITUATION_SCRIPT) == "chelem" or "chelem" not in page.evaluate(LAST_TURN):
                raise

    return turn


def test_a_tarot_table_of_three_with_two_people(person: Callable[..., Any]) -> None:
    """Tarot at three: Anne by mouse, Chloé by touch on a phone; the bot holds the third seat."""
    anne = person("Anne")
    chloe = person("Chloé", phone=True)

    def choose(page: Any) -> None:
        page.get_by_role("radio", name="3 joueurs").check()
        page.select_option("#option-level", "beginner")

    link = open_table(anne, "/#/tarot", choose=choose)
    assert anne.locator(".seat-entry").count() == 3
    sit(chloe, link, "E")
    anne.wait_for_selector('#lobby-holder-E:has-text("Chloé")')
    start(anne)
    rng = random.Random(5)
    for page in (anne, chloe):
        page.set_default_timeout(5_000)
    play(
        [
            (anne, TAROT_SITUATION_SCRIPT, tarot_step(rng, "mouse")),
            (chloe, TAROT_SITUATION_SCRIPT, tarot_step(rng, "touch")),
        ],
        limit_s=90,
    )
    # Chloé, at East, sat at the bottom of her table: West's seat (Anne's, turned) was drawn with her name.
    assert "Anne" in chloe.locator("#seat-W").inner_text()
    for page in (anne, chloe):
        assert page.locator("#end-dialog").get_by_role("button", name="Revanche").is_visible()
        assert "1 partie jouée" in page.locator("#end-dialog").inner_text()
    assert anne.errors == [] and chloe.errors == []


def test_a_tarot_table_of_five_with_three_people_to_the_first_score_sheet(person: Callable[..., Any]) -> None:
    """Tarot at five, a king called: Julie by mouse (French, the host, South), Karim by keyboard (English, North-West),
    Léa by touch on a phone (French, East), the bot at West and North-East; each sees the others where they sit
    from his own seat, and the first deal is played until each page shows its score sheet, with the three names.
    (Whole games are played at the other tables: five deals here would cost minutes.)"""
    julie = person("Julie")
    karim = person("Karim", language="en")
    lea = person("Léa", phone=True)

    def choose(page: Any) -> None:
        page.get_by_role("radio", name="5 joueurs").check()
        page.select_option("#option-level", "beginner")

    link = open_table(julie, "/#/tarot", choose=choose)
    assert julie.locator(".seat-entry").count() == 5
    sit(karim, link, "NW", take="Take this seat")
    sit(lea, link, "E")
    julie.wait_for_selector('#lobby-holder-NW:has-text("Karim")')
    julie.wait_for_selector('#lobby-holder-E:has-text("Léa")')
    start(julie)
    for page in (julie, karim, lea):
        page.wait_for_selector("#friends-bar:not([hidden])")
        page.wait_for_function("() => document.getElementById('view-table').dataset.turn")
        page.set_default_timeout(5_000)
    # The round S, W, NW, NE, E turned so that each is South, the others in their order to his left.
    assert "Karim" in seat_text(julie, "NW") and "Léa" in seat_text(julie, "E")
    assert "Julie" in seat_text(karim, "NE") and "Léa" in seat_text(karim, "NW")
    assert "Julie" in seat_text(lea, "W") and "Karim" in seat_text(lea, "NE")
    rng = random.Random(55)
    sheets: set[int] = set()

    def until_the_sheet(index: int, how: How) -> Turn:
        step = tarot_step(rng, how)

        def turn(page: Any) -> None:
            if page.evaluate(TAROT_SITUATION_SCRIPT) == "deal":
                sheets.add(index)  # Left open: the deal is over for everyone.
            else:
                step(page)

        return turn

    players = [(julie, "mouse"), (karim, "keyboard"), (lea, "touch")]
    play(
        [(page, TAROT_SITUATION_SCRIPT, until_the_sheet(index, how)) for index, (page, how) in enumerate(players)],
        limit_s=60,
        until=lambda: len(sheets) == len(players),
    )
    # Each score sheet names the people, his own row with his name too (not the solo table's "Sud (toi)").
    for (page, _), own in zip(players, ("Julie (toi)", "Karim (you)", "Léa (toi)"), strict=True):
        sheet = page.locator("#deal-dialog").inner_text()
        assert own in sheet and all(name in sheet for name in ("Julie", "Karim", "Léa")), sheet
    assert julie.errors == [] and karim.errors == [] and lea.errors == []


def test_a_coucou_table_of_eight_with_three_people(person: Callable[..., Any]) -> None:
    """Coucou at eight with one token each: three people (mouse, keyboard, touch) and five seats of the bot."""
    anne = person("Anne")
    bruno = person("Bruno")
    chloe = person("", phone=True)  # no name yet: the lobby asks for one
    # A code nobody opened is one sentence, not a table.
    anne.get_by_role("textbox", name="Code de la table").fill("zzz-zzz")
    anne.get_by_role("button", name="Rejoindre une table").click()
    anne.wait_for_selector('#join-status:has-text("Cette table est introuvable")')
    anne.errors.clear()  # the browser logs the refused request (404) as a console error

    def choose(page: Any) -> None:
        page.wait_for_selector("#game-options:not([hidden]) select")
        page.select_option("#option-players", "8")
        page.select_option("#option-tokens", "1")

    link = open_table(anne, "/#/coucou", choose=choose)
    assert anne.locator(".seat-entry").count() == 8
    sit(bruno, link, "4")
    # Chloé joins by the code read aloud, typed on the home page; she gives her name, then takes a seat.
    code = anne.locator("#table-code").inner_text()
    chloe.get_by_role("textbox", name="Code de la table").fill(code.lower().replace("-", " "))
    chloe.get_by_role("button", name="Rejoindre une table").tap()
    # The lobby's own field (the home's, of the same name, shows until the lobby replaces it).
    chloe.locator("#friends-name-form").get_by_role("textbox", name="Ton nom", exact=True).fill("Chloé")
    chloe.get_by_role("button", name="Enregistrer").tap()
    chloe.wait_for_selector("#friends-name-form", state="detached")
    chloe.locator("#take-7").tap()
    anne.wait_for_selector('#lobby-holder-7:has-text("Chloé")')
    start(anne)
    rng = random.Random(8)
    play(
        [
            (anne, COUCOU_SITUATION_SCRIPT, lambda page: coucou_turn(page, rng, "mouse")),
            (bruno, COUCOU_SITUATION_SCRIPT, lambda page: coucou_turn(page, rng, "keyboard")),
            (chloe, COUCOU_SITUATION_SCRIPT, lambda page: coucou_turn(page, rng, "touch")),
        ],
        limit_s=60,
    )
    for page in (anne, bruno, chloe):
        assert page.locator("#end-dialog").get_by_role("button", name="Revanche").is_visible()
    assert anne.errors == [] and bruno.errors == [] and chloe.errors == []


def test_a_page_whose_socket_drops_catches_up_without_a_reload(person: Callable[..., Any], friends_url: str) -> None:
    """Denise's connections go through a proxy that drops them mid-game. First a socket closed and open again at
    once (a proxy closing it) while her page, at the slow pace, still animates moves with others waiting behind
    them: no move is asked for, animated or said twice. Then the network gone for longer than the grace: Émile
    and the bots (hers too) move meanwhile; when it comes back her page reconnects, asks for what it missed from
    its last move number and shows the server's move count and her seat's cards, in the same document (no
    reload); then she plays on."""
    proxy = CuttingProxy(friends_url)
    try:
        denise = person("Denise", through=proxy.url, speed="slow")
        emile = person("Émile", language="en", phone=True)
        code, secret = started_through(proxy, friends_url, denise, emile, "E", "Émile")
        denise.wait_for_selector("#friends-bar:not([hidden])")
        denise.evaluate("window.__sameDocument = true")

        def served() -> dict[str, Any]:
            response = emile.request.get(f"/api/tables/{code}?secret={secret}")
            assert response.ok, response.text()
            table: dict[str, Any] = response.json()
            return table

        def shown(page: Any) -> int:
            return int(page.locator("#view-table").get_attribute("data-shown-move") or -1)

        def drop() -> tuple[int, int]:
            """Cut the proxy: the socket in use closes (a real closed connection). Its index and the move shown."""
            in_use: int = denise.evaluate("window.__sockets.findIndex((socket) => socket.open && !socket.closed)")
            assert in_use >= 0
            before = shown(denise)
            proxy.cut()
            denise.wait_for_function("(index) => window.__sockets[index].closed", arg=in_use)
            return in_use, before

        def hello_after(in_use: int) -> dict[str, Any]:
            """The first frame of the next socket that opened: its hello."""
            denise.wait_for_function("(index) => window.__sockets.slice(index + 1).some((s) => s.open)", arg=in_use)
            reopened = denise.evaluate("(index) => window.__sockets.slice(index + 1).filter((s) => s.open)", in_use)
            hello: dict[str, Any] = json.loads(reopened[0]["sent"][0])
            assert hello["type"] == "hello", hello
            return hello

        def caught_up() -> dict[str, Any]:
            """Wait, nobody else moving, until Denise's page shows the server's last move: the table then."""
            deadline = time.monotonic() + 20
            while True:
                table = served()
                to_move = next(entry for entry in table["seats"] if entry["seat"] == table["to_move"])
                settled = to_move["holder"] == "person" and not to_move["bot_now"]
                if settled and shown(denise) == table["move_number"]:
                    return table
                assert time.monotonic() < deadline, (table["move_number"], shown(denise), announced(denise)[-6:])
                if denise.evaluate(SITUATION_SCRIPT) == "deal":
                    keyboard_turn(denise, rng)  # A deal that ended meanwhile: its summary waits to be closed.
                denise.wait_for_timeout(100)

        rng = random.Random(34)
        sent = {"denise": 0, "emile": 0}

        denise_plays = (denise, SITUATION_SCRIPT, counted(sent, "denise", keyboard_turn, rng))
        emile_plays = (emile, SITUATION_SCRIPT, counted(sent, "emile", touch_turn, rng))

        def behind() -> bool:
            """Whether the cards are played and Denise's page has answers waiting behind the one it animates."""
            if emile.locator("#felt").get_attribute("data-phase") != "playing" or sent["denise"] < 1:
                return False
            if served()["move_number"] <= shown(denise):
                return False
            denise.wait_for_timeout(150)  # Not an answer on its way: one received and waiting.
            return served()["move_number"] > shown(denise)

        play([denise_plays, emile_plays], limit_s=40, until=behind)

        # A socket closed by a proxy, and the next move made meanwhile (Émile's, or the bot's for Denise after the
        # grace); the network still there: the page is back within a second or two, animating still.
        in_use, before = drop()
        dropped_at = served()["move_number"]
        play([emile_plays], limit_s=15, until=lambda: served()["move_number"] > dropped_at)
        proxy.mend()
        assert hello_after(in_use)["since"] >= before
        denise.evaluate("localStorage.setItem('couyon.speed', 'instant')")  # The rest at the tests' pace.
        play([denise_plays, emile_plays], limit_s=30, until=lambda: served()["move_number"] >= before + 8)

        # The network goes for longer than the grace; the page says so.
        caught_up()
        in_use, before = drop()
        denise.wait_for_function("() => window.__announced.includes('Connexion perdue : nouvel essai…')")
        # Émile and the bots play on, Denise's seat too once the grace is over; her page sees none of it.
        play([emile_plays], limit_s=30, until=lambda: served()["move_number"] >= before + 8)
        assert shown(denise) == before, "the page had no way to hear of the moves"

        # The network comes back: nobody else moves until she has caught up.
        proxy.mend()
        table = caught_up()
        assert denise.evaluate("window.__sameDocument") is True, "the page was reloaded"
        assert table["move_number"] >= before + 8
        answer = denise.request.get(f"/api/tables/{code}/game?secret={secret}&since=-1").json()
        cards = denise.locator("#hand .hand-card").evaluate_all("(nodes) => nodes.map((node) => node.dataset.card)")
        assert sorted(cards) == sorted(answer["view"]["hand"])
        # A new socket said hello with the last move number the page had, not -1 (not "everything again").
        assert before <= hello_after(in_use)["since"] <= table["move_number"]
        denise.wait_for_function("() => window.__announced.includes('Connexion rétablie.')")
        # Each card of a deal played was said once.
        deals = [
            re.findall(r"(?:Tu|\S+ \(\w+\)|Émile) joues? [^.]+\.", deal)
            for deal in " ".join(announced(denise)).split("Fin de la donne")
        ]
        assert deals[0], "the cards were said"
        for plays in deals:
            assert len(plays) == len(set(plays)), plays
        forget_network_errors(denise)

        # She plays on from there, her seat hers again.
        played = sent["denise"]
        play([denise_plays, emile_plays], limit_s=30, until=lambda: sent["denise"] > played)
        assert denise.errors == [] and emile.errors == []
    finally:
        proxy.close()


def test_a_slow_page_whose_socket_drops_again_and_again_keeps_up(person: Callable[..., Any], friends_url: str) -> None:
    """Denise plays on a slow phone (her page's CPU slowed sixfold) whose socket drops as soon as each of her
    moves has reached the server, its answer lost, 12 times in a row, the network back after up to 0.4 s. After
    each drop her page catches up to the server's move count with one live socket; it never offers her a decision
    the server has already taken (a view older than the server's while her seat is hers), and her keyboard always
    finds a card she may play."""
    proxy = CuttingProxy(friends_url)
    try:
        denise = person("Denise", through=proxy.url)
        emile = person("Émile", language="en", phone=True)
        code, secret = started_through(proxy, friends_url, denise, emile, "E", "Émile")
        denise.wait_for_selector("#friends-bar:not([hidden])")
        denise.context.new_cdp_session(denise).send("Emulation.setCPUThrottlingRate", {"rate": 6})
        rng = random.Random(32)
        live = "() => window.__sockets.filter((socket) => socket.open && !socket.closed).length"
        page_now = """() => [Number(document.getElementById('view-table').dataset.shownMove ?? -1),
          document.getElementById('view-table').dataset.turn]"""

        def served() -> dict[str, Any]:
            response = emile.request.get(f"/api/tables/{code}?secret={secret}")
            assert response.ok, response.text()
            table: dict[str, Any] = response.json()
            return table

        def caught_up() -> None:
            """Until her page shows the server's move with one socket, Émile playing his turns: no stale decision."""
            deadline = time.monotonic() + 15
            while True:
                shown, turn = denise.evaluate(page_now)
                table = served()
                mine = next(entry for entry in table["seats"] if entry["seat"] == "S")
                if turn in ("bid", "play") and not mine["bot_now"]:
                    assert table["move_number"] <= shown, f"a decision offered at move {shown}, the server at {table}"
                sockets = denise.evaluate(live)
                assert sockets <= 1, f"{sockets} sockets open at once"
                if shown == table["move_number"] and sockets == 1:
                    return
                assert time.monotonic() < deadline, (table["move_number"], shown, turn, announced(denise)[-6:])
                if emile.evaluate(SITUATION_SCRIPT) not in (None, "end"):
                    touch_turn(emile, rng)
                if denise.evaluate(SITUATION_SCRIPT) == "deal":
                    keyboard_turn(denise, rng)

        drops = 0

        def dropping_turn(page: Any) -> None:
            """Her move, the socket cut as soon as the server has it (its answer lost), then the network back."""
            nonlocal drops
            if page.evaluate(SITUATION_SCRIPT) == "deal":
                keyboard_turn(page, rng)
                return
            proxy.cut_after_next_frame()
            keyboard_turn(page, rng)
            page.wait_for_timeout(rng.uniform(0, 400))
            proxy.mend()
            drops += 1
            caught_up()

        play(
            [(denise, SITUATION_SCRIPT, dropping_turn), (emile, SITUATION_SCRIPT, lambda page: touch_turn(page, rng))],
            limit_s=60,
            until=lambda: drops >= 12,
        )
        forget_network_errors(denise)
        assert denise.errors == [] and emile.errors == []
    finally:
        proxy.close()


def forget_network_errors(page: Any) -> None:
    """The browser logs each request and socket refused while the network was gone as a console error."""
    page.errors[:] = [line for line in page.errors if "net::ERR_" not in line and "WebSocket" not in line]


def test_a_page_behind_a_proxy_that_holds_no_socket_plays_over_http(
    person: Callable[..., Any], friends_url: str
) -> None:
    """Pierre's page is behind a proxy that closes every WebSocket asked of it but passes HTTP (some networks
    do): his page never holds a socket and still plays, his moves sent over HTTP, the others' brought by its
    polls; his seat stays his (he is there, polling), nobody's move is lost."""
    proxy = CuttingProxy(friends_url, sockets=False)
    try:
        pierre = person("Pierre", through=proxy.url)
        quentin = person("Quentin", language="en", phone=True)
        code, secret = started_through(proxy, friends_url, pierre, quentin, "W", "Quentin")
        rng = random.Random(61)
        sent = {"pierre": 0, "quentin": 0}

        play(
            [
                (pierre, SITUATION_SCRIPT, counted(sent, "pierre", keyboard_turn, rng)),
                (quentin, SITUATION_SCRIPT, counted(sent, "quentin", touch_turn, rng)),
            ],
            limit_s=60,
            until=lambda: sent["pierre"] >= 4 and sent["quentin"] >= 4,
        )
        sockets = pierre.evaluate("window.__sockets")
        assert sockets and not any(record["open"] for record in sockets), "the proxy let no socket through"
        assert not any(line.startswith("Connexion") for line in announced(pierre)), "nothing was lost"
        table = quentin.request.get(f"/api/tables/{code}?secret={secret}").json()
        mine = next(entry for entry in table["seats"] if entry["seat"] == "S")
        assert not mine["bot_now"], "the bot took the seat of a person who was there"
        # His page shows the server's last move (its polls bring it) and his seat's cards.
        deadline = time.monotonic() + 10
        while True:
            record = pierre.request.get(f"/api/tables/{code}/game?secret={secret}&since=-1").json()
            shown = pierre.locator("#view-table").get_attribute("data-shown-move")
            if shown == str(record["move_number"]):
                break
            assert time.monotonic() < deadline, (shown, record["move_number"])
            # A deal's summary holds the page's moves until he closes it (the play above may stop on one).
            if pierre.evaluate("() => document.getElementById('deal-dialog').open"):
                pierre.click("#deal-dialog-close")
            pierre.wait_for_timeout(200)
        cards = pierre.locator("#hand .hand-card").evaluate_all("(nodes) => nodes.map((node) => node.dataset.card)")
        assert sorted(cards) == sorted(record["view"]["hand"])
        forget_network_errors(pierre)
        assert pierre.errors == [] and quentin.errors == []
    finally:
        proxy.close()


def assert_fits(page: Any, screen: str) -> None:
    wide = page.evaluate(TOO_WIDE)
    assert not wide, f"{screen} is wider than {page.viewport_size['width']} px: {wide}"


def test_the_table_by_the_names_of_its_controls_on_the_smallest_phone(person: Callable[..., Any]) -> None:
    """At 320×568, by touch: Hugo (French) opens a couyon table, Inès (English) joins by its code; every control
    the issue names is found by that accessible name in each language, and the home, the lobby, the table at each
    decision and the end of the game fit 320 px wide without scrolling sideways."""
    hugo = person("Hugo", viewport=PHONE_320, phone=True)
    ines = person("Inès", language="en", viewport=PHONE_320, phone=True)
    fr, en = NAMES["fr"], NAMES["en"]
    for page, names in ((hugo, fr), (ines, en)):
        page.wait_for_selector("#daily-time:not(:empty)")
        assert page.get_by_role("button", name=names["play"], exact=True).is_visible()
        assert page.get_by_role("textbox", name=names["code"], exact=True).is_visible()
        assert page.get_by_role("button", name=names["join"], exact=True).is_visible()
        assert_fits(page, f"the home ({names['play']})")
    hugo.context.grant_permissions(["clipboard-read", "clipboard-write"])
    hugo.get_by_role("button", name=fr["play"], exact=True).tap()
    field = hugo.get_by_role("textbox", name=fr["link"], exact=True)
    field.wait_for()
    hugo.get_by_role("button", name=fr["copy"], exact=True).tap()
    hugo.wait_for_selector('#copy-status:has-text("Lien copié.")')
    assert hugo.evaluate("navigator.clipboard.readText()") == field.input_value()
    code = hugo.locator("#table-code").inner_text()

    ines.get_by_role("textbox", name=en["code"], exact=True).fill(code)
    ines.get_by_role("button", name=en["join"], exact=True).tap()
    ines.get_by_role("button", name=en["take"], exact=True).first.wait_for()
    assert ines.get_by_role("button", name=en["take"], exact=True).count() == 3  # Hugo sits South
    ines.locator("#take-N").tap()
    hugo.wait_for_selector('#lobby-holder-N:has-text("Inès")')
    assert hugo.get_by_role("button", name=fr["take"], exact=True).count() == 2
    for page, names in ((hugo, fr), (ines, en)):
        assert page.get_by_role("textbox", name=names["link"], exact=True).input_value() == field.input_value()
        assert page.get_by_role("button", name=names["copy"], exact=True).is_visible()
        term = page.evaluate("document.getElementById('table-code').previousElementSibling.textContent")
        assert term == names["code"]
        assert_fits(page, f"the lobby ({names['link']})")
    assert ines.get_by_role("button", name=en["start"]).count() == 0, "only the host starts"
    hugo.get_by_role("button", name=fr["start"], exact=True).tap()

    rng = random.Random(320)
    screens: set[str] = set()

    def fitting(page: Any) -> None:
        now = page.evaluate(SITUATION_SCRIPT)
        assert_fits(page, f"the table, {now}")
        screens.add(now)
        touch_turn(page, rng)

    play([(hugo, SITUATION_SCRIPT, fitting), (ines, SITUATION_SCRIPT, fitting)], limit_s=120)
    assert {"bid", "play", "deal"} <= screens, screens
    for page, names in ((hugo, fr), (ines, en)):
        assert page.locator("#end-dialog").get_by_role("button", name=names["rematch"], exact=True).is_visible()
        assert_fits(page, "the end of the game")
    assert hugo.errors == [] and ines.errors == []


NAME_STEPS = {
    "fr": {
        "name": "Ton nom",
        "needed": "Donne-toi un nom avant de t'asseoir.",
        "mixed": "Un nom ne peut pas mêler les lettres de plusieurs écritures.",
        "save": "Enregistrer",
    },
    "en": {
        "name": "Your name",
        "needed": "Give yourself a name before you sit down.",
        "mixed": "A name may not mix Cyrillic and Latin letters.",
        "save": "Save",
    },
}


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_person_without_a_name_gives_it_on_the_way(person: Callable[..., Any], language: str) -> None:
    """Issue 32, part 1: the host, a friend who opens the link and one who types a code on a game's home, none of
    them named, each gives his name where he is (the refusals one sentence of the page's language beside it) and
    goes on without a detour through the settings."""
    names, steps = NAMES[language], NAME_STEPS[language]
    host = person("", language=language)
    host.get_by_role("button", name=names["play"]).click()
    field = host.get_by_role("textbox", name=steps["name"], exact=True)
    status = host.locator("#friends-home-name-status")
    status.filter(has_text=steps["needed"]).wait_for()
    assert host.evaluate("() => document.activeElement.id") == "friends-home-name"
    field.fill("Mаrie")  # a Cyrillic а among Latin letters
    host.get_by_role("button", name=names["play"]).click()
    status.filter(has_text=steps["mixed"]).wait_for()
    assert_no_violations(host, f"home, name refused ({language})")
    field.fill("Marie")
    host.get_by_role("button", name=names["play"]).click()
    link_field = host.get_by_role("textbox", name=names["link"])
    link_field.wait_for()
    assert host.locator("#friends-name-form").count() == 0, "the host's name is known: the lobby asks none"
    link, code = link_field.input_value(), host.locator("#table-code").inner_text()

    # A friend opens the link: the name in place, then the seats.
    friend = person("", language=language)
    friend.goto(link)
    friend.locator("#friends-name-form").get_by_role("textbox", name=steps["name"], exact=True).fill("Bruno")
    friend.get_by_role("button", name=steps["save"]).click()
    friend.wait_for_selector("#friends-name-form", state="detached")
    friend.get_by_role("button", name=names["take"]).first.click()
    host.wait_for_selector('.seat-holder:has-text("Bruno")')

    # Another types the code on tarot's home, his name beside it.
    third = person("", language=language)
    third.goto("/#/tarot")
    third.get_by_role("textbox", name=steps["name"], exact=True).fill("Chloé")
    third.get_by_role("textbox", name=names["code"]).fill(code)
    third.get_by_role("button", name=names["join"]).click()
    third.get_by_role("button", name=names["take"]).first.wait_for()
    assert third.locator("#friends-name-form").count() == 0, "Chloé's name was saved on the way"
    assert third.request.get("/api/player").json()["name"] == "Chloé"
    assert_no_violations(third, f"lobby after the code ({language})")
