"""The review of a finished Malmedy game: opened from the end of the game by its link, the trump choice and the
cards judged, axe clean in French and English (a phone first, then the same page in English)."""

from __future__ import annotations

from playing import (
    PHONE,
    ContextFactory,
    assert_no_violations,
    collect_errors,
    finished_game_through_api,
    screenshot,
    show_the_end_of,
)
from playwright.sync_api import expect


def test_the_review_of_a_malmedy_game_opens_from_its_end_in_french_and_english(new_context: ContextFactory) -> None:
    context = new_context(viewport=PHONE, language="fr")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto("/")
    # South calls mite whenever it may (so the review judges one), else plays at random.
    answer = finished_game_through_api(page, {"mode": "free", "game": "malmedy"}, 4, prefer=("mite",))
    show_the_end_of(page, answer)
    link = page.get_by_role("link", name="Revoir la partie")
    assert link.get_attribute("href") == f"#/review/{answer['id']}"
    link.click()
    page.wait_for_selector("#review-deal-panel")
    review = page.request.get(f"/api/games/{answer['id']}/review").json()
    deals = review["deals"]
    deal_select = page.get_by_role("combobox", name="Donne")
    assert deal_select.locator("option").count() == len(deals)

    # A deal in which South named trumps: the four suits valued by the expert and with open cards.
    chosen = next(index for index, deal in enumerate(deals) if deal["chooser"] == "S")
    deal_select.select_option(str(chosen))
    trump = deals[chosen]["bids"][0]
    suit = {"C": "trèfle", "D": "carreau", "H": "cœur", "S": "pique"}[trump["call"][-1]]
    head = page.locator("#review-deal-head")
    expect(head.get_by_text(f"Sud choisit l'atout {suit}.", exact=True)).to_be_visible()
    table = head.get_by_role("table", name="Ce que valait chaque atout, en lignes pour ton camp")
    expect(table.get_by_role("columnheader")).to_have_text(["Atout", "Selon l'expert", "À cartes ouvertes"])
    expect(table.get_by_role("row")).to_have_count(5)
    expect(table.get_by_role("rowheader", name=f"{suit} (ton choix)")).to_be_visible()

    # The first trick South chose a card in: every legal card (and the mite when it was offered) in the table.
    own = next(
        (card for trick in deals[chosen]["tricks"] for card in trick["cards"] if "review" in card),
    )
    assert own["review"]["forced"] is False  # South leads the first trick with five cards.
    options = page.locator("#review-trick .review-options tbody tr")
    expect(options).to_have_count(len(own["review"]["options"]))
    assert_no_violations(page, "Malmedy review (fr)")
    screenshot(page, "phone-malmedy-review-fr")

    # South's mite, when South held the queen of spades: judged among the cards in the calls.
    mite = next(
        (
            index
            for index, deal in enumerate(deals)
            for bid in deal["bids"]
            if "review" in bid and bid["call"] == "mite"
        ),
        None,
    )
    if mite is not None:
        deal_select.select_option(str(mite))
        expect(head.get_by_text("Sud annonce mite.", exact=True)).to_be_visible()
        expect(head.get_by_role("rowheader", name="Annoncer mite (ton choix)")).to_be_visible()
        assert_no_violations(page, "Malmedy review, the mite (fr)")

    # The same review in English.
    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    page.wait_for_selector("#review-deal-panel")
    page.get_by_role("combobox", name="Deal").select_option(str(chosen))
    english = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[trump["call"][-1]]
    expect(page.locator("#review-deal-head").get_by_text(f"South names {english} trumps.", exact=True)).to_be_visible()
    expect(page.get_by_role("table", name="What each trump suit was worth, in lines for your side")).to_be_visible()
    assert_no_violations(page, "Malmedy review (en)")
    assert errors == []
