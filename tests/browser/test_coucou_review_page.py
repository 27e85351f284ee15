"""The review of a finished coucou game: opened from the end of the game by its link, seat 1's choices beside the
expert's and the other choice's outcome, axe clean in French and English (a phone, a 5-seat game)."""

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


def test_the_review_of_a_coucou_game_opens_from_its_end_in_french_and_english(new_context: ContextFactory) -> None:
    context = new_context(viewport=PHONE, language="fr")
    page = context.new_page()
    errors = collect_errors(page)
    page.goto("/")
    # A 5-seat game, seat 1 keeping or changing at random.
    body = {"mode": "free", "game": "coucou", "options": {"players": 5, "tokens": 2}}
    answer = finished_game_through_api(page, body, 2)
    show_the_end_of(page, answer)
    link = page.get_by_role("link", name="Revoir la partie")
    assert link.get_attribute("href") == f"#/review/{answer['id']}"
    link.click()
    review = page.request.get(f"/api/games/{answer['id']}/review").json()
    coups = page.get_by_role("list", name="Tes coups").get_by_role("listitem").filter(has=page.get_by_role("heading"))
    expect(coups).to_have_count(len(review["coups"]))
    first = review["coups"][0]
    coup = page.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=f"Coup {first['number']}", exact=True)
    )
    showdown = coup.get_by_role("list", name=f"Les cartes à l'abattage du coup {first['number']}")
    expect(showdown.get_by_role("listitem")).to_have_count(len(first["showdown"]["cards"]))
    judged = next((c for c in review["coups"] if c["decision"] is not None), None)
    assert judged is not None, "seat 1 spoke in some coup"
    said = {"keep": "Je garde", "change": "Je change"}
    decision = judged["decision"]
    mine = page.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=f"Coup {judged['number']}", exact=True)
    )
    expect(mine.get_by_text(f"tu as dit « {said[decision['choice']]} »")).to_be_visible()
    other = said[decision["other"]["choice"]]
    expect(mine.get_by_text(f"Avec « {other} », tu aurais fini avec")).to_be_visible()
    assert_no_violations(page, "coucou review (fr)")
    screenshot(page, "phone-coucou-review-fr")

    page.evaluate("localStorage.setItem('couyon.language', 'en')")
    page.reload()
    expect(
        page.get_by_role("list", name="Your coups").get_by_role("heading", name="Coup 1", exact=True)
    ).to_be_visible()
    expect(page.get_by_text("the rest of the coup played the same way by the simulated players")).to_be_visible()
    assert_no_violations(page, "coucou review (en)")
    assert errors == []
