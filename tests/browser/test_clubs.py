"""Issue 22 in real Chromium: three players with their own cookies create a club, join it, schedule a tournament,
play it (a game opened on the table from the tournament's page, the moves through the API from each page's own
request context), and read the standings and the per-deal results in French and English; a friend takes up a
challenge from the end-of-game dialog and plays the whole game on the page. axe on every new screen."""

from __future__ import annotations

import random
import re
import time
from typing import Any

from playing import (
    ContextFactory,
    assert_no_violations,
    current_game,
    finish_through_api,
    finished_game_through_api,
    show_the_end_of,
    situation,
)
from playwright.sync_api import expect

WATCHING = """() => {
  if (document.getElementById('end-dialog').open) return 'end';
  const skip = document.getElementById('coucou-skip');
  if (skip && !skip.hidden) return 'skip';
  return document.getElementById('view-table').dataset.turn === 'decide' ? 'decide' : null;
}"""
"""What a coucou table waits for (tests/browser/test_coucou.py's WATCHING_SCRIPT)."""


def named_player(new_context: ContextFactory, name: str, language: str | None = None) -> Any:
    page = new_context(language=language).new_page()
    page.goto("/")
    assert page.request.put("/api/player", data={"name": name}).ok
    return page


def tournament_through_api(page: Any, tournament_id: str, seed: int) -> None:
    """Every game of the tournament this page's player has left, played to its end through the API."""
    rng = random.Random(seed)
    while True:
        started = page.request.post(f"/api/tournaments/{tournament_id}/play")
        if started.status == 409:
            return
        answer = started.json()
        while answer["view"]["phase"] != "over":
            body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
            response = page.request.post(f"/api/games/{answer['id']}/moves", data=body)
            assert response.ok, response.text()
            answer = response.json()


def wait_counted(page: Any, tournament_id: str, entrants: int) -> None:
    """Until every entrant's game is verified by its replay (run after the final move's answer)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        results = page.request.get(f"/api/tournaments/{tournament_id}/results").json()
        if sum(row["games"] for row in results.get("standings", [])) == entrants:
            return
        time.sleep(0.2)
    raise AssertionError(f"the games of {tournament_id} were not all verified")


def test_three_players_run_a_club_tournament_and_read_its_results_in_french_and_english(
    new_context: ContextFactory,
) -> None:
    founder = named_player(new_context, "Josée")
    guest = named_player(new_context, "Albert", "en")
    third = named_player(new_context, "Marcel")

    founder.get_by_role("link", name="Clubs").click()
    expect(founder.get_by_role("heading", name="Clubs", level=1)).to_be_visible()
    assert_no_violations(founder, "clubs-fr")
    founder.get_by_label("Nom du club").fill("Café de la Poste")
    founder.get_by_role("button", name="Créer un club").click()
    expect(founder.get_by_role("heading", name="Café de la Poste", level=1)).to_be_visible()
    expect(founder.locator("#clubs-root")).to_contain_text("Code du club :")
    code = re.search(r"Code du club : (\S+)", founder.locator("#clubs-root").inner_text())
    assert code, founder.locator("#clubs-root").inner_text()
    assert_no_violations(founder, "club-fr")

    guest.goto("/#/clubs")
    guest.get_by_label("Club code").fill(code.group(1).lower())
    guest.get_by_role("button", name="Join a club").click()
    expect(guest.get_by_role("heading", name="Café de la Poste", level=1)).to_be_visible()
    assert_no_violations(guest, "club-en")
    third.goto("/#/clubs")
    third.get_by_label("Code du club").fill(code.group(1))
    third.get_by_role("button", name="Rejoindre un club").click()
    expect(third.get_by_role("table", name="Les membres du club et leur rôle")).to_contain_text("Albert")

    founder.reload()
    # A tarot tournament's length may be given in deals: 8 deals at 4 players are two games of tarot's own four deals.
    founder.get_by_label("Nom du tournoi").fill("Donnes")
    founder.get_by_label("Jeu du tournoi").select_option("tarot4")
    founder.get_by_label("Longueur du tournoi").select_option("deals")
    expect(founder.get_by_label("Nombre de donnes")).to_have_value("12")  # The form's 3 games, in deals.
    founder.get_by_label("Nombre de donnes").fill("8")
    founder.get_by_role("button", name="Organiser un tournoi").click()
    expect(founder.get_by_text("Tarot à 4, 2 parties (8 donnes), ouvert")).to_be_visible()
    founder.go_back()
    expect(founder.get_by_role("heading", name="Café de la Poste", level=1)).to_be_visible()
    founder.get_by_label("Nom du tournoi").fill("Lundi")
    founder.get_by_label("Jeu du tournoi").select_option("couyon")
    founder.get_by_label("Niveau des robots").select_option("beginner")
    # A couyon tournament may be given in deals too (games of one deal each, docs/clubs.md); this one is in games.
    expect(founder.get_by_label("Longueur du tournoi")).to_have_value("games")
    founder.get_by_label("Nombre de parties").fill("1")
    founder.get_by_role("button", name="Organiser un tournoi").click()
    expect(founder.get_by_role("button", name="Jouer le tournoi")).to_be_visible()
    tournament_id = founder.url.rsplit("/", 1)[1]
    assert_no_violations(founder, "tournament-fr")

    # The third player's game opens on the table from the tournament's page, and he leaves it unfinished: it counts
    # nothing. The two others play theirs through the API, to keep the test short (a whole game is played on the
    # page in the challenge's test).
    third.goto(f"/#/tournament/{tournament_id}")
    third.get_by_role("button", name="Jouer le tournoi").click()
    situation(third)
    assert (
        third.locator("#view-table").get_attribute("data-game")
        == third.request.post(f"/api/tournaments/{tournament_id}/play").json()["id"]
    )
    tournament_through_api(founder, tournament_id, 1)
    tournament_through_api(guest, tournament_id, 2)
    wait_counted(founder, tournament_id, 2)

    founder.reload()
    standings = founder.get_by_role("table", name="Classement du tournoi Lundi")
    expect(standings).to_be_visible()
    for name in ("Josée (toi)", "Albert"):
        expect(standings).to_contain_text(name)
    expect(standings.get_by_role("row", name=re.compile("Marcel"))).to_contain_text("0")  # No counted game.
    # Each deal's results are fetched when it is opened; seats are named in the page's words.
    founder.get_by_role("button", name="Partie 1, donne 1 (2 joueurs)").click()
    deal = founder.get_by_role("table", name="Partie 1, donne 1 : ce que chacun en a fait")
    expect(deal.get_by_role("row")).to_have_count(3)  # The header and the two entrants who played the deal.
    expect(deal.get_by_role("columnheader", name="Preneur")).to_be_visible()
    takers = deal.locator("tbody tr td:nth-of-type(1)").all_inner_texts()
    assert takers and set(takers) <= {"Sud", "Ouest", "Nord", "Est", "personne"}, takers
    assert_no_violations(founder, "standings-fr")

    guest.goto(f"/#/tournament/{tournament_id}")
    guest.reload()
    standings = guest.get_by_role("table", name="Standings of the tournament Lundi")
    expect(standings).to_contain_text("Albert (you)")
    expect(standings.get_by_role("columnheader", name="Duplicate (%)")).to_be_visible()
    guest.get_by_role("button", name="Game 1, deal 1 (2 entrants)").click()
    expect(guest.get_by_role("table", name="Game 1, deal 1: what each entrant made of it")).to_contain_text("Josée")
    expect(guest.get_by_text("You have played every game of this tournament")).to_be_visible()
    assert_no_violations(guest, "standings-en")


def test_a_friend_takes_up_a_challenge_from_the_end_of_game_dialog(new_context: ContextFactory) -> None:
    sender = named_player(new_context, "Maryse")
    answer = finished_game_through_api(
        sender, {"mode": "free", "game": "coucou", "options": {"players": 5, "tokens": 1}}, 5
    )
    show_the_end_of(sender, answer)
    sender.get_by_role("button", name="Défier un ami").click()
    link = sender.get_by_label("Envoie ce lien à ton ami")
    expect(link).to_have_value(re.compile(r"/#/challenge/d_"))
    assert_no_violations(sender, "challenge-sent-fr")

    friend = named_player(new_context, "Paul", "en")
    friend.goto(link.input_value())
    friend.get_by_role("button", name="Take up the challenge").click()
    # The friend plays the whole game on the page: change every card, skip to the end once out.
    while (now := friend.wait_for_function(WATCHING, timeout=30_000).json_value()) != "end":
        sent = friend.evaluate("() => Number(document.getElementById('view-table').dataset.sent ?? 0)")
        friend.click("#change-button" if now == "decide" else "#coucou-skip")
        if now == "decide":
            # The move's count, not the turn: the bots' answer can bring the next decision before a poll sees
            # the table waiting.
            friend.wait_for_function(
                "(sent) => Number(document.getElementById('view-table').dataset.sent ?? 0) > sent", arg=sent
            )
    challenge_id = link.input_value().rsplit("/", 1)[1]
    mine = friend.request.post(f"/api/challenges/{challenge_id}/play").json()
    assert mine["view"]["phase"] == "over"
    friend.get_by_role("link", name="Back to the challenge").click()
    both = friend.get_by_role("table", name="Your results, deal by deal")
    expect(both).to_contain_text("Maryse")
    expect(both).to_contain_text("Paul (you)")
    expect(both).to_contain_text(str(mine["view"]["score"]))
    assert_no_violations(friend, "challenge-en")


def test_a_couyon_tournament_in_deals_plays_one_deal_a_game(new_context: ContextFactory) -> None:
    founder = named_player(new_context, "Ginette")
    member = named_player(new_context, "Odilon", "en")
    club = founder.request.post("/api/clubs", data={"name": "Café des Donnes"}).json()
    assert member.request.post("/api/clubs/join", data={"code": club["code"]}).ok
    founder.goto(f"/#/club/{club['id']}")
    founder.get_by_label("Nom du tournoi").fill("Trois donnes")
    founder.get_by_label("Jeu du tournoi").select_option("couyon")
    founder.get_by_label("Niveau des robots").select_option("beginner")
    founder.get_by_label("Longueur du tournoi").select_option("deals")
    founder.get_by_label("Nombre de donnes").fill("2")
    founder.get_by_role("button", name="Organiser un tournoi").click()
    expect(founder.get_by_text("Couyon, 2 parties (2 donnes), ouvert")).to_be_visible()
    tournament_id = founder.url.rsplit("/", 1)[1]
    # Game 1 opens on the table; once its one deal is done the game is over, with no side out.
    founder.get_by_role("button", name="Jouer le tournoi").click()
    situation(founder)
    finish_through_api(founder, 3)
    end = founder.locator("#end-dialog")
    expect(end.get_by_role("heading", name="Donne jouée.")).to_be_visible()
    expect(end).to_contain_text("Partie en 1 donne.")
    assert_no_violations(founder, "one-deal-end-fr")
    expect(end.get_by_role("link", name="Retour au tournoi")).to_be_visible()
    # Its review (South's view until the closing) tells the deal played and its score, not a game won or lost.
    score = current_game(founder)["view"]["score"]
    founder.locator("#end-review").click()
    expect(founder.locator(".review-summary")).to_have_text(
        f"Donne jouée (partie d'une donne d'un tournoi) : {score} points."
    )
    founder.goto(f"/#/tournament/{tournament_id}")
    expect(founder.get_by_text("Tu as joué 1 partie sur 2.")).to_be_visible()
    tournament_through_api(founder, tournament_id, 4)
    tournament_through_api(member, tournament_id, 5)
    wait_counted(founder, tournament_id, 4)
    member.goto(f"/#/tournament/{tournament_id}")
    expect(member.get_by_text("Couyon, 2 games (2 deals), open")).to_be_visible()
    member.get_by_role("button", name="Game 2, deal 1 (2 entrants)").click()
    deal = member.get_by_role("table", name="Game 2, deal 1: what each entrant made of it")
    expect(deal.get_by_role("row")).to_have_count(3)
    expect(deal).to_contain_text("Ginette")
    assert_no_violations(member, "one-deal-standings-en")
