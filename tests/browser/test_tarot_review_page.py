"""The review of a finished tarot game: opened from the end of the game by its link, South's bid and cards judged in
points, axe clean in French and English."""

from __future__ import annotations

from playing import ContextFactory, assert_no_violations, collect_errors, finished_game_through_api, screenshot
from playwright.sync_api import expect


def test_the_review_of_a_tarot_game_opens_from_its_end_in_french_and_english(new_context: ContextFactory) -> None:
    context = new_context(language="fr")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto("/")
    body = {"mode": "free", "game": "tarot4", "options": {"level": "beginner"}}
    answer = finished_game_through_api(page, body, 7)
    page.evaluate(
        "([id]) => { localStorage.setItem('couyon.game.tarot', id); localStorage.setItem('couyon.tarot.players', '4'); }",
        [answer["id"]],
    )
    page.goto("/#/table/tarot")
    page.wait_for_selector("#end-dialog[open]")
    link = page.get_by_role("link", name="Revoir la partie")
    assert link.get_attribute("href") == f"#/review/{answer['id']}"
    link.click()
    page.wait_for_selector(".review-summary")
    review = page.request.get(f"/api/games/{answer['id']}/review").json()
    assert review["game"] == "tarot4" and review["revealed"] is True
    deals = page.get_by_role("list", name="Les donnes")
    expect(deals.locator(":scope > li")).to_have_count(len(review["deals"]))

    # South's first bid: its choices valued by the expert and with open cards, in points.
    first = next(deal for deal in review["deals"] if any("review" in bid for bid in deal["bids"]))
    choices = page.get_by_role("list", name=f"Tes choix de la donne {first['number']}")
    bid = next(bid for bid in first["bids"] if "review" in bid)
    if not bid["review"]["forced"]:
        choices.locator("summary").first.click()
        table = choices.get_by_role("table", name="Ce que valait chaque choix, en points de ton score pour la donne")
        expect(table.first.get_by_role("columnheader")).to_have_text(["Enchère", "Selon l'expert", "À cartes ouvertes"])
        expect(table.first.locator("tbody tr")).to_have_count(len(bid["review"]["options"]))
    # A card South chose among several: every legal card in its table.
    own = next(
        card["review"]
        for trick in first["tricks"]
        for card in trick["cards"]
        if "review" in card and not card["review"]["forced"]
    )
    card = choices.locator("details").filter(has_text="Pli").filter(has=page.locator(".review-options")).first
    card.locator("summary").click()
    expect(card.locator(".review-options tbody tr")).to_have_count(len(own["options"]))
    expect(card.get_by_role("columnheader").first).to_have_text("Carte")
    # A costly choice's button opens it where it sits in its deal, the focus on it (South bids at random here:
    # some of its bids cost hundreds of points).
    see = page.get_by_role("button", name="Voir : donne", exact=False)
    expect(see.first).to_be_visible()
    see.first.click()
    expect(page.locator("details[open] summary:focus")).to_have_count(1)
    assert_no_violations(page, "tarot review (fr)")
    screenshot(page, "tarot-review-fr")

    # The same review in English.
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    page.wait_for_selector(".review-summary")
    english = page.get_by_role("list", name=f"Your choices in deal {first['number']}")
    english.locator("summary").first.click()
    expect(english.locator("summary").first).to_contain_text("Your")
    assert_no_violations(page, "tarot review (en)")
    assert errors == []
