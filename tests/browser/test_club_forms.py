"""Issue 32, part 4 in real Chromium: the club page's tournament form has the site's look, and its opening and
closing are chosen with a date picker that speaks the page's language, by keyboard (French) and by touch on a
320 px phone (English); the tournament made has the chosen moments, read back over the API. axe with the picker
open and closed."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any
from zoneinfo import ZoneInfo

from playing import ContextFactory, assert_no_violations
from playwright.sync_api import expect

BRUSSELS = ZoneInfo("Europe/Brussels")
# The page's words for days and months, written here and not read from the browser's Intl: the test checks the
# page says them, whatever the browser's own locale.
DAYS = {
    "fr": ("lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"),
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
}
MONTHS = {
    "fr": (
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
    ),
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
}
SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def said(language: str, moment: dt.datetime) -> re.Pattern[str]:
    """A moment as the page's field says it: "lundi 7 décembre 2026, 18:00" / "Monday 7 December 2026, 18:00" (the
    comma after an English weekday is the browser's Intl data's choice, which changed between its versions)."""
    weekday = DAYS[language][moment.weekday()]
    day = f"{moment.day} {MONTHS[language][moment.month - 1]} {moment.year}"
    return re.compile(
        rf"^{weekday},? {day}, {moment:%H:%M}$" if language == "en" else rf"^{weekday} {day}, {moment:%H:%M}$"
    )


def club_page(new_context: ContextFactory, language: str, name: str, **options: Any) -> Any:
    """The club page of its founder ``name`` (a name no other browser test gives: a name on a leaderboard is
    refused to another player), in ``language``, the browser's clock in Brussels."""
    page = new_context(language=language, timezone_id="Europe/Brussels", **options).new_page()
    page.goto("/")
    assert page.request.put("/api/player", data={"name": name}).ok
    club = page.request.post("/api/clubs", data={"name": "Café du Pont"}).json()
    page.goto(f"/#/club/{club['id']}")
    return page


def made_tournament(page: Any, name: str) -> dict[str, Any]:
    """The tournament ``name`` whose page the browser shows after the form was sent, over the API."""
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
    answer: dict[str, Any] = page.request.get(f"/api/tournaments/{page.url.rsplit('/', 1)[1]}").json()
    return answer


def test_a_person_chooses_the_opening_and_closing_by_keyboard_in_french(new_context: ContextFactory) -> None:
    page = club_page(new_context, "fr", "Léonie")
    today = dt.datetime.now(BRUSSELS).date()
    page.get_by_label("Nom du tournoi").fill("Clavier")
    opens = page.get_by_role("group", name="Ouverture")
    choose = opens.get_by_role("button", name="Choisir la date")
    # The form opens now, said in French (its minutes rounded down to five).
    now = dt.datetime.now(BRUSSELS)
    drawn = f"{DAYS['fr'][now.weekday()]} {now.day} {MONTHS['fr'][now.month - 1]} {now.year}"
    expect(opens.get_by_role("textbox", name="Ouverture")).to_have_value(re.compile(rf"^{drawn}, \d\d:\d[05]$"))
    assert_no_violations(page, "club-form-fr")

    # The opening: tomorrow, 18:30. The grid opens on the chosen day (today); Page Down and Page Up go a month on and
    # back; Escape leaves the field unchanged and gives the focus back to the button.
    choose.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog")
    expect(dialog).to_have_accessible_name(f"Ouverture {MONTHS['fr'][today.month - 1]} {today.year}")
    grid = dialog.get_by_role("grid")
    expect(grid.get_by_role("gridcell", name=str(today.day), exact=True)).to_be_focused()
    expect(grid.get_by_role("columnheader").first).to_have_text("lun.")
    assert_no_violations(page, "club-picker-open-fr")
    before = opens.get_by_role("textbox", name="Ouverture").input_value()
    page.keyboard.press("PageDown")
    ahead = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    expect(dialog.get_by_role("heading")).to_have_text(f"{MONTHS['fr'][ahead.month - 1]} {ahead.year}")
    page.keyboard.press("PageUp")
    expect(dialog.get_by_role("heading")).to_have_text(f"{MONTHS['fr'][today.month - 1]} {today.year}")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(choose).to_be_focused()
    expect(opens.get_by_role("textbox", name="Ouverture")).to_have_value(before)
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    expect(choose).to_be_focused()
    page.keyboard.press("Tab")
    expect(opens.get_by_label("Heure")).to_be_focused()
    page.keyboard.type("18")
    page.keyboard.press("Tab")
    page.keyboard.type("30")
    opening = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(18, 30), BRUSSELS)
    expect(opens.get_by_role("textbox", name="Ouverture")).to_have_value(said("fr", opening))

    # The closing (the form's: a day after it was drawn): a week on (arrow down), that week's Monday (Home), its
    # Sunday (End), chosen with Space; 20:15.
    closes = page.get_by_role("group", name="Clôture")
    closes.get_by_role("button", name="Choisir la date").focus()
    page.keyboard.press("Space")
    week = today + dt.timedelta(days=8)
    monday = week - dt.timedelta(days=week.weekday())
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Home")
    expect(page.get_by_role("dialog").get_by_role("gridcell", name=str(monday.day), exact=True)).to_be_focused()
    page.keyboard.press("End")
    page.keyboard.press(" ")
    page.keyboard.press("Tab")
    page.keyboard.type("20")
    page.keyboard.press("Tab")
    page.keyboard.type("15")
    closing = dt.datetime.combine(monday + dt.timedelta(days=6), dt.time(20, 15), BRUSSELS)
    expect(closes.get_by_role("textbox", name="Clôture")).to_have_value(said("fr", closing))
    assert_no_violations(page, "club-picker-closed-fr")

    page.get_by_role("button", name="Organiser un tournoi").focus()
    page.keyboard.press("Enter")
    made = made_tournament(page, "Clavier")
    assert dt.datetime.fromisoformat(made["opens_at"]) == opening, made
    assert dt.datetime.fromisoformat(made["closes_at"]) == closing, made
    shown = page.locator("#clubs-root").inner_text()
    assert f"{opening.day} {MONTHS['fr'][opening.month - 1][:3]}" in shown, shown


def test_a_person_chooses_the_dates_by_touch_on_a_320_px_phone_in_english(new_context: ContextFactory) -> None:
    page = club_page(new_context, "en", "Thibault", viewport={"width": 320, "height": 568}, has_touch=True)
    today = dt.datetime.now(BRUSSELS).date()
    ahead = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    page.get_by_label("Tournament name").fill("Thumbs")
    assert page.evaluate(SIDEWAYS) <= 0, "the club page scrolls sideways at 320 px"

    opens = page.get_by_role("group", name="Opens")
    opens.get_by_role("button", name="Choose the date").tap()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_have_accessible_name(f"Opens {MONTHS['en'][today.month - 1]} {today.year}")
    dialog.get_by_role("button", name="Next month").tap()
    expect(dialog.get_by_role("heading")).to_have_text(f"{MONTHS['en'][ahead.month - 1]} {ahead.year}")
    expect(dialog.get_by_role("columnheader").first).to_have_text("Mon")
    box = dialog.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 320, box
    assert page.evaluate(SIDEWAYS) <= 0, "the open picker scrolls sideways at 320 px"
    assert_no_violations(page, "club-picker-open-en-320")
    dialog.get_by_role("gridcell", name="3", exact=True).tap()
    expect(dialog).to_be_hidden()
    opens.get_by_label("Hour").select_option("9")
    opens.get_by_label("Minutes").select_option("45")
    opening = dt.datetime.combine(ahead.replace(day=3), dt.time(9, 45), BRUSSELS)
    expect(opens.get_by_role("textbox", name="Opens")).to_have_value(said("en", opening))

    closes = page.get_by_role("group", name="Closes")
    closes.get_by_role("button", name="Choose the date").tap()
    # Its grid opens on the form's closing, tomorrow: the month before and back, then on to the opening's month.
    dialog = page.get_by_role("dialog", name="Closes")
    dialog.get_by_role("button", name="Previous month").tap()
    dialog.get_by_role("button", name="Next month").tap()
    if (today + dt.timedelta(days=1)).month == today.month:
        dialog.get_by_role("button", name="Next month").tap()
    expect(dialog.get_by_role("heading")).to_have_text(f"{MONTHS['en'][ahead.month - 1]} {ahead.year}")
    dialog.get_by_role("gridcell", name="10", exact=True).tap()
    closes.get_by_label("Hour").select_option("21")
    closes.get_by_label("Minutes").select_option("0")
    closing = dt.datetime.combine(ahead.replace(day=10), dt.time(21, 0), BRUSSELS)
    expect(closes.get_by_role("textbox", name="Closes")).to_have_value(said("en", closing))
    assert page.evaluate(SIDEWAYS) <= 0, "the filled form scrolls sideways at 320 px"
    assert_no_violations(page, "club-picker-closed-en-320")

    page.get_by_role("button", name="Schedule a tournament").tap()
    made = made_tournament(page, "Thumbs")
    assert dt.datetime.fromisoformat(made["opens_at"]) == opening, made
    assert dt.datetime.fromisoformat(made["closes_at"]) == closing, made
    assert f"{opening.day} {MONTHS['en'][opening.month - 1][:3]}" in page.locator("#clubs-root").inner_text()


LOOK = """(element) => { const style = getComputedStyle(element); const box = element.getBoundingClientRect();
  return { height: box.height, font: style.fontFamily, size: style.fontSize, border: style.borderTopColor,
    radius: style.borderTopLeftRadius, background: style.backgroundColor }; }"""


def test_the_club_form_s_controls_have_the_table_options_look(new_context: ContextFactory) -> None:
    """At 320 px each select and field of the tournament form is as tall as a finger (44 px) and drawn as the table
    options' selects on a game's home; each button is the site's button."""
    page = new_context(viewport={"width": 320, "height": 568}, has_touch=True).new_page()
    page.goto("/#/coucou")
    reference = page.locator("#game-options .option-row select").first
    reference.wait_for()
    option = reference.evaluate(LOOK)
    button = page.locator("#game-new").evaluate(LOOK)
    assert page.request.put("/api/player", data={"name": "Ghislaine"}).ok
    club = page.request.post("/api/clubs", data={"name": "Café du Coin"}).json()
    page.goto(f"/#/club/{club['id']}")
    form = page.get_by_role("form", name="Organiser un tournoi")
    fields = form.locator("select, textarea, input:not([type='checkbox'])")
    expect(fields.first).to_be_visible()
    for index in range(fields.count()):
        look = fields.nth(index).evaluate(LOOK)
        assert look["height"] >= 44, (index, look)
        for key in ("font", "size", "border", "radius", "background"):
            assert look[key] == option[key], (index, key, look, option)
    buttons = form.get_by_role("button")
    for index in range(buttons.count()):
        look = buttons.nth(index).evaluate(LOOK)
        assert look["height"] >= 44 and look["font"] == button["font"], (index, look, button)
