"""The tools of a player who comes back: the level of a free table, the expert's hint, sound, the recovery code.

Each control is found by its role and name, as a person would; axe runs on every new screen in French
and English.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playing import (
    PHONE,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    current_game,
    finish_through_api,
    mouse_turn,
    screenshot,
    situation,
    start_free_game,
    start_malmedy_game,
    start_tarot_game,
    tarot_situation,
)
from playwright.sync_api import expect


def hint_button(page: Any, name: str = "Conseil de l'expert") -> Any:
    return page.get_by_role("button", name=name, exact=True)


def test_a_beginner_table_with_a_hint_is_played_unranked_and_has_its_own_board(new_context: ContextFactory) -> None:
    page = new_context().new_page()
    errors = collect_errors(page)
    page.goto("/")
    level = page.get_by_role("combobox", name="Niveau des joueurs simulés")
    assert level.input_value() == "expert"
    level.select_option(label="Débutant")
    assert_no_violations(page, "home with the level")
    screenshot(page, "desktop-home-level")
    page.get_by_role("button", name="Nouvelle partie").first.click()
    situation(page)
    game = current_game(page)
    assert game["options"] == {"level": "beginner"} and game["bot"] == "baseline/1" and game["hints"] == 0

    hint_button(page).click()
    line = page.locator("#hint-line")
    line.wait_for(state="visible")
    told = line.inner_text()
    assert told.startswith("L'expert jouerait : ")
    assert page.locator(".is-hinted").count() >= 1
    assert current_game(page)["hints"] == 1
    assert_no_violations(page, "table with a hint")
    screenshot(page, "desktop-table-hint")

    # The same table in English: the button and the hint in its words.
    page.goto("/#/settings")
    page.get_by_label("English").check()
    page.goto("/#/table")
    situation(page)
    hint_button(page, "Expert's hint").click()
    page.locator("#hint-line:has-text('The expert would play: ')").wait_for()
    assert_no_violations(page, "table with a hint (English)")
    page.goto("/")
    assert page.get_by_role("combobox", name="Level of the simulated players").input_value() == "beginner"
    assert_no_violations(page, "home with the level (English)")
    page.goto("/#/leaderboard")
    page.get_by_role("button", name="Free games").click()
    page.get_by_role("combobox", name="Level of the simulated players").wait_for()
    assert_no_violations(page, "free board of a level (English)")
    page.goto("/#/settings")
    page.get_by_label("Français").check()
    page.goto("/#/table")

    # The rest of the game through the API (test_play plays whole games by hand): its end is what is checked.
    situation(page)
    finish_through_api(page, 4)
    end = page.locator("#end-dialog-body").inner_text()
    assert "Partie non classée : tu as demandé " in end and "conseil" in end
    assert current_game(page)["leaderboard"] is None

    # The free board of the beginner level: chosen from the end screen's link, asked with level=beginner.
    with page.expect_request(lambda request: "level=beginner" in request.url):
        page.click("#end-leaderboard")
    page.get_by_role("button", name="Parties libres").click()
    board_level = page.get_by_role("combobox", name="Niveau des joueurs simulés")
    assert board_level.input_value() == "beginner"
    assert_no_violations(page, "free board of a level")
    screenshot(page, "desktop-board-level")
    with page.expect_request(lambda request: "level=expert" in request.url):
        board_level.select_option(label="Expert")

    # The daily challenge offers no hint.
    page.goto("/")
    page.click("#play-daily")
    situation(page)
    assert hint_button(page).count() == 0
    assert current_game(page)["mode"] == "daily"
    assert errors == []


def sound_pressed(page: Any) -> str | None:
    """Whether the table's sound button is pressed, read from the tools menu of a phone (closed again)."""
    page.get_by_role("button", name="Outils de la table").tap()
    pressed = page.get_by_role("button", name="Son", exact=True).get_attribute("aria-pressed")
    page.keyboard.press("Escape")
    return pressed


def test_sound_is_off_at_first_then_kept_from_the_table_and_the_settings(new_context: ContextFactory) -> None:
    context = new_context(viewport=PHONE, has_touch=True, reduced_motion="reduce")
    page = context.new_page()
    errors = collect_errors(page)
    loaded: list[str] = []
    page.on("request", lambda request: loaded.append(request.url))
    page.goto("/")
    page.click("#new-game")
    situation(page)
    # On a phone the sound is in the table's tools menu.
    page.get_by_role("button", name="Outils de la table").tap()
    toggle = page.get_by_role("button", name="Son", exact=True)
    assert toggle.get_attribute("aria-pressed") == "false"
    assert not any(url.endswith("/js/sound.js") for url in loaded), "no sound code on the first load"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    hint_button(page).click()
    page.locator("#hint-line").wait_for(state="visible")
    screenshot(page, "phone-table-hint")
    assert page.evaluate("localStorage.getItem('couyon.sound')") == "on"
    page.wait_for_function("() => performance.getEntriesByName(location.origin + '/js/sound.js').length > 0")
    # A card played with sound on: its sound is made without an error.
    mouse_turn(page, random.Random(2))
    situation(page)
    page.reload()
    situation(page)
    assert sound_pressed(page) == "true"
    # Reduced motion is still honoured: cards appear in place.
    assert page.evaluate("document.documentElement.classList.contains('no-motion')")

    page.goto("/#/settings")
    box = page.get_by_label("Bruit des cartes, des plis et de la craie")
    assert box.is_checked()
    box.uncheck()
    assert page.evaluate("localStorage.getItem('couyon.sound')") == "off"
    page.goto("/#/table")
    situation(page)
    assert sound_pressed(page) == "false"
    page.reload()
    situation(page)
    assert sound_pressed(page) == "false"
    assert errors == []


def test_a_recovery_code_brings_the_player_to_another_device(new_context: ContextFactory) -> None:
    phone = new_context(viewport=PHONE, has_touch=True, permissions=["clipboard-read", "clipboard-write"]).new_page()
    phone.goto("/#/settings")
    phone.get_by_role("button", name="Montrer mon code").click()
    status = phone.locator("#recovery-status")
    expect(status).to_have_text(  # Said once the server has answered.
        "Pas encore de joueur sur cet appareil : joue une partie ou enregistre un nom d'abord."
    )
    phone.get_by_label("Nom (1 à 24 caractères)").fill("Marie")
    phone.get_by_role("button", name="Enregistrer").click()
    phone.locator("#name-status:has-text('Nom enregistré.')").wait_for()
    phone.get_by_role("button", name="Montrer mon code").click()
    field = phone.get_by_label("Ton code de récupération")
    field.wait_for()
    code = field.input_value()
    assert len(code) >= 40
    phone.get_by_role("button", name="Copier le code").click()
    phone.locator("#recovery-status:has-text('Texte copié.')").wait_for()
    assert phone.evaluate("navigator.clipboard.readText()") == code
    phone.get_by_role("button", name="Copier le lien").click()
    link = phone.evaluate("navigator.clipboard.readText()")
    assert link.endswith(f"/#/recover/{code}")
    assert_no_violations(phone, "recovery code")
    screenshot(phone, "phone-recovery")
    phone.goto("/#/settings")
    phone.get_by_label("English").check()
    phone.get_by_role("button", name="Show my code").click()
    phone.get_by_label("Your recovery code").wait_for()
    assert_no_violations(phone, "recovery code (English)")
    phone.get_by_label("Français").check()

    laptop = new_context().new_page()
    laptop.goto("/#/settings")
    entered = laptop.get_by_label("Entrer un code")
    entered.fill("ceci n'est pas un code")
    laptop.get_by_role("button", name="Utiliser ce code").click()
    laptop.locator("#recovery-status").filter(has_text="Ce code n'est pas valable").wait_for()
    assert laptop.locator("#recovery-status").inner_text() == (
        "Ce code n'est pas valable : recopie-le en entier depuis l'appareil où tu joues."
    )
    # The link: the code waits in the field (and leaves the address bar) until the player uses it.
    laptop.goto(link.replace(link.split("/#/")[0], ""))
    laptop.wait_for_function("() => location.hash === '#/settings'")
    assert entered.input_value() == code
    laptop.get_by_role("button", name="Utiliser ce code").click()
    laptop.locator("#recovery-status:has-text('cet appareil joue maintenant comme Marie')").wait_for()
    screenshot(laptop, "desktop-recovery")
    assert laptop.request.get("/api/player").json() == {"name": "Marie"}
    assert laptop.get_by_label("Nom (1 à 24 caractères)").input_value() == "Marie"


# The tools of the table (hint, speed) at the top of the page, the hand still in view, at scroll 0.
TOOLS_IN_VIEW = """(names) => {
  window.scrollTo(0, 0);
  const inView = (node) => {
    const box = node.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + Math.min(10, box.width / 3), box.top + Math.min(12, box.height / 3));
    return box.width > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth
      && hit !== null && (node === hit || node.contains(hit));
  };
  const cards = [...document.querySelectorAll('#hand .hand-card')];
  const out = names.map((id) => document.getElementById(id)).filter((node) => !inView(node)).map((node) => node.id);
  return { out, handInView: cards.length > 0 && cards.every(inView), scrolled: scrollY };
}"""


@pytest.mark.parametrize("size", [(320, 568), (375, 667), (568, 320)], ids=["320x568", "375x667", "568x320"])
def test_on_a_phone_the_hint_and_the_speed_are_one_tap_away_with_the_hand_in_view(
    new_context: ContextFactory, size: tuple[int, int]
) -> None:
    width, height = size
    page = new_context(viewport={"width": width, "height": height}, has_touch=True).new_page()
    errors = collect_errors(page)
    start_free_game(page) if width != 375 else start_malmedy_game(page)
    tools = page.get_by_role("button", name="Outils de la table")
    result = page.evaluate(TOOLS_IN_VIEW, ["tools-button"])
    assert result == {"out": [], "handInView": True, "scrolled": 0}
    expect(tools).to_have_attribute("aria-expanded", "false")
    tools.tap()
    expect(tools).to_have_attribute("aria-expanded", "true")
    expect(hint_button(page)).to_be_focused()
    speed = page.get_by_role("combobox", name="Vitesse du jeu")
    result = page.evaluate(TOOLS_IN_VIEW, ["hint-button", "table-speed", "sound-toggle"])
    assert result["out"] == [] and result["scrolled"] == 0
    screenshot(page, f"phone-tools-{width}x{height}")
    assert_no_violations(page, f"tools menu {width}x{height}")
    # Escape closes the menu and gives the focus back to its button; Tab then reaches it again.
    page.keyboard.press("Escape")
    expect(tools).to_have_attribute("aria-expanded", "false")
    expect(tools).to_be_focused()
    expect(speed).to_be_hidden()
    page.keyboard.press("Enter")
    expect(hint_button(page)).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Son", exact=True)).to_be_focused()
    page.keyboard.press("Tab")
    expect(speed).to_be_focused()
    speed.select_option("slow")
    assert page.evaluate("localStorage.getItem('couyon.speed')") == "slow"
    # The hint closes the menu, so that the hand and the hinted move are seen.
    hint_button(page).tap()
    expect(page.locator("#hint-line")).to_be_visible()
    expect(tools).to_have_attribute("aria-expanded", "false")
    expect(tools).to_be_focused()
    # In English: the same controls, by their English names.
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    situation(page)
    page.get_by_role("button", name="Table tools").tap()
    expect(page.get_by_role("combobox", name="Game speed")).to_be_visible()
    assert_no_violations(page, f"tools menu {width}x{height} (English)")
    page.keyboard.press("Escape")
    expect(page.get_by_role("button", name="Table tools")).to_be_focused()
    assert errors == []


# Tarot held sideways puts its slate below the felt: the tools must not go with it.
@pytest.mark.parametrize(
    ("players", "width", "height"), [(5, 568, 320), (3, 740, 360)], ids=["tarot5-568x320", "tarot3-740x360"]
)
def test_tarot_held_sideways_has_its_tools_at_scroll_0(
    new_context: ContextFactory, players: int, width: int, height: int
) -> None:
    page = new_context(viewport={"width": width, "height": height}, has_touch=True, is_mobile=True).new_page()
    errors = collect_errors(page)
    start_tarot_game(page, players)
    assert tarot_situation(page) == "bid"
    # The button, and the question, the bids and the hand it must not cover.
    bids = page.locator("#game-controls button").evaluate_all(
        "(nodes) => nodes.filter((n) => n.checkVisibility()).map((n) => n.id)"
    )
    assert "bid-pass" in bids
    result = page.evaluate(TOOLS_IN_VIEW, ["tools-button", "prompt", *bids])
    assert result == {"out": [], "handInView": True, "scrolled": 0}
    tools = page.get_by_role("button", name="Outils de la table")
    tools.tap()
    expect(hint_button(page)).to_be_focused()
    result = page.evaluate(TOOLS_IN_VIEW, ["hint-button", "table-speed", "sound-toggle"])
    assert result["out"] == [] and result["scrolled"] == 0
    screenshot(page, f"phone-tools-tarot{players}-{width}x{height}")
    assert_no_violations(page, f"tarot tools menu {width}x{height}")
    page.keyboard.press("Escape")
    expect(tools).to_be_focused()
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    page.get_by_role("button", name="Table tools").tap()
    expect(page.get_by_role("combobox", name="Game speed")).to_be_visible()
    result = page.evaluate(TOOLS_IN_VIEW, ["tools-button", "hint-button", "table-speed", "sound-toggle"])
    assert result["out"] == [] and result["scrolled"] == 0
    assert_no_violations(page, f"tarot tools menu {width}x{height} (English)")
    assert errors == []


def test_a_code_asks_before_it_replaces_a_player_with_games_and_a_new_code_ends_the_old_ones(
    new_context: ContextFactory,
) -> None:
    phone = new_context(viewport=PHONE, has_touch=True).new_page()
    start_free_game(phone)
    phone.goto("/#/settings")
    phone.get_by_role("button", name="Montrer mon code").click()
    field = phone.get_by_label("Ton code de récupération")
    expect(field).to_have_value(re.compile(r".{40,}"))
    old_code = field.input_value()
    phone.get_by_role("button", name="Faire un nouveau code").click()
    expect(phone.locator("#recovery-status")).to_have_text(
        "Voici ton nouveau code : les anciens ne marchent plus, et ton joueur ne joue plus que sur cet appareil."
    )
    expect(field).not_to_have_value(old_code)
    new_code = field.input_value()
    assert phone.request.get("/api/player/recovery").json()["code"] == new_code
    assert_no_violations(phone, "a new recovery code")

    laptop = new_context().new_page()
    errors = collect_errors(laptop)
    start_free_game(laptop)
    own_code = laptop.request.get("/api/player/recovery").json()["code"]
    laptop.goto("/#/settings")
    laptop.get_by_label("Entrer un code").fill(new_code)
    use = laptop.get_by_role("button", name="Utiliser ce code")
    dialog = laptop.get_by_role("dialog", name="Changer de joueur sur cet appareil ?")
    status = laptop.locator("#recovery-status")
    # Escape, then "Keep my player": nothing changes, and the focus is back on the button.
    for cancel in ("Escape", "Garder mon joueur"):
        use.click()
        expect(dialog).to_be_visible()
        expect(dialog.get_by_role("button", name="Garder mon joueur")).to_be_focused()
        expect(dialog.get_by_label("Le code de ton joueur actuel")).to_have_value(own_code)
        expect(dialog).to_contain_text(
            "Ton joueur actuel garde sa partie : tu ne la retrouveras qu'avec son propre code."
        )
        if cancel == "Escape":
            assert_no_violations(laptop, "the question before another player")
            screenshot(laptop, "desktop-recovery-question")
            laptop.keyboard.press("Escape")
        else:
            dialog.get_by_role("button", name=cancel).click()
        expect(dialog).to_be_hidden()
        expect(use).to_be_focused()
        expect(status).to_have_text("Rien n'a changé : cet appareil garde ton joueur.")
        assert laptop.request.get("/api/player/recovery").json()["code"] == own_code
    use.click()
    dialog.get_by_role("button", name="Jouer comme l'autre joueur").click()
    expect(status).to_have_text("C'est fait : cet appareil joue maintenant avec ce joueur.")
    expect(use).to_be_focused()
    assert laptop.request.get("/api/player/recovery").json() == {"code": new_code, "games": 1}

    # The code made before the new one: asked first (this device has games), then refused in one sentence.
    laptop.get_by_label("Entrer un code").fill(old_code)
    use.click()
    dialog.get_by_role("button", name="Jouer comme l'autre joueur").click()
    expect(status).to_have_text("Ce code a été remplacé par un plus récent : demande le dernier code de ce joueur.")
    assert laptop.request.get("/api/player/recovery").json()["code"] == new_code

    # In English.
    laptop.get_by_label("English").check()
    laptop.get_by_label("Enter a code").fill(own_code)
    laptop.get_by_role("button", name="Use this code").click()
    english = laptop.get_by_role("dialog", name="Switch players on this device?")
    expect(english.get_by_role("button", name="Keep my player")).to_be_focused()
    expect(english).to_contain_text(
        "Your current player keeps its game: you can get it back only with that player's own code."
    )
    assert_no_violations(laptop, "the question before another player (English)")
    english.get_by_role("button", name="Play as the other player").click()
    expect(laptop.locator("#recovery-status")).to_have_text("Done: this device now plays as that player.")
    assert laptop.request.get("/api/player/recovery").json()["code"] == own_code
    laptop.get_by_label("Français").check()
    # The browser reports the refused code's answer itself; the page throws nothing.
    assert [error for error in errors if "status of 410" not in error] == []
