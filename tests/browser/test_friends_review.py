"""The review of a friends' table's game in the browser (issue 21, item 4): each person opens it from the table
and reads it from his own seat, turned round as the table was (his seat at South, his camp "us").

The game is played to its end through the tables' HTTP routes from each page's own context (its cookie): playing
a table by hand is tests/browser/test_friends.py's business. Names here are this file's own (one server).
"""

from __future__ import annotations

from typing import Any

from playing import ContextFactory, assert_no_violations, collect_errors, screenshot
from playwright.sync_api import expect

CARD_NAMES = "(codes) => import('/js/i18n.js').then((i18n) => codes.map(i18n.cardName))"


def finished_table(host: Any, guest: Any, guest_seat: str) -> dict[str, Any]:
    """A couyon table (beginner bots) with ``host`` at South and ``guest`` at ``guest_seat``, played to its end by
    each person's first legal move: the table as it ends."""
    body = {"game": "couyon", "options": {"level": "beginner"}, "clock": 0}
    table: dict[str, Any] = host.request.post("/api/tables", data=body).json()
    api, secret = f"/api/tables/{table['code']}", table["secret"]
    assert guest.request.post(f"{api}/seats", data={"secret": secret, "seat": guest_seat}).ok
    assert host.request.post(f"{api}/start", data={"secret": secret}).ok
    people = {"S": host, guest_seat: guest}
    for _ in range(600):
        answers = {
            seat: page.request.get(f"{api}/game?secret={secret}&since=-1").json() for seat, page in people.items()
        }
        if answers["S"]["view"]["winner"] is not None:
            break
        for seat, answer in answers.items():
            if answer["view"]["to_move"] == seat:
                move = {"secret": secret, "move": answer["view"]["legal"][0], "move_number": answer["move_number"]}
                assert people[seat].request.post(f"{api}/moves", data=move).ok
    ended: dict[str, Any] = host.request.get(f"{api}?secret={secret}").json()
    assert ended["state"] == "over", ended
    return ended


def test_each_person_reads_the_review_of_a_table_game_from_his_own_seat(new_context: ContextFactory) -> None:
    pages = {}
    for name, language in (("Ysaline", "fr"), ("Wendelin", "en")):
        page = new_context(language=language).new_page()
        page.goto("/")
        assert page.request.put("/api/player", data={"name": name}).ok
        pages[name] = page
    ysaline, wendelin = pages["Ysaline"], pages["Wendelin"]
    errors = collect_errors(wendelin)
    table = finished_table(ysaline, wendelin, "W")
    api = f"/api/tables/{table['code']}/review?secret={table['secret']}"

    # Wendelin, at West, opens the review from the table's end of game: his seat is South there, as at the table.
    wendelin.goto(table["link"])
    wendelin.get_by_role("dialog").get_by_role("link", name="Review the game").click()
    wendelin.wait_for_selector("#review-deal-panel")
    review = wendelin.request.get(api).json()
    assert review["seat"] == "W"
    won = review["winner"] == "WE"
    expect(wendelin.locator(".review-summary")).to_have_text(
        f"{'Game won' if won else 'Game lost'}: {review['score']} points in {len(review['deals'])} "
        f"deal{'' if len(review['deals']) == 1 else 's'}."
    )
    hands = wendelin.locator(".review-hands li")
    expect(hands).to_have_count(4)
    expect(hands.first).to_contain_text("South")
    # The hand shown at South is West's, as dealt (the first deal's first trick: nothing played yet).
    shown = hands.first.locator(".review-card").evaluate_all("(chips) => chips.map((chip) => chip.ariaLabel)")
    assert sorted(shown) == sorted(wendelin.evaluate(CARD_NAMES, review["deals"][0]["hands"]["W"]))
    assert_no_violations(wendelin, "the review of a table game from West (EN)")
    screenshot(wendelin, "friends-review-west-en")

    # Ysaline, at South, reads hers from South: her own score, her camp's result.
    ysaline.goto(table["link"])
    ysaline.get_by_role("dialog").get_by_role("link", name="Revoir la partie").click()
    ysaline.wait_for_selector("#review-deal-panel")
    south = ysaline.request.get(api).json()
    assert south["seat"] == "S" and south["score"] == 2000 - review["score"]
    summary = ysaline.locator(".review-summary")
    expect(summary).to_contain_text(f"{'Partie perdue' if won else 'Partie gagnée'} : {south['score']} points")
    assert_no_violations(ysaline, "the review of a table game from South (FR)")

    # Back to the table by the review's own link.
    wendelin.get_by_role("link", name="Back to the table").click()
    wendelin.wait_for_selector("#view-tables:not([hidden])")
    expect(wendelin.locator("#bar-review")).to_have_attribute("href", f"{table['link']}/review/{table['game_id']}")
    assert errors == []
