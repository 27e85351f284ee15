"""Clubs, tournaments and challenges through the API (issue 22, docs/clubs.md): the happy paths and every refusal."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
import threading
from typing import Any

import pytest
from tests.server.helpers import at_once, new_game, play_to_end, send_move

from couyon.registry import game_named
from couyon.server.clubs import service as clubs
from couyon.server.games import replay_check
from couyon.store.clubs import ClubStore

FAST = {"players": 5, "tokens": 1, "level": "easy"}
"""Coucou's shortest table: a game of it ends in a few requests, but 37 of 3,000 seeds end before South's first
move (the bots' first coups put him out and play on to the end)."""
PLAYABLE = {"players": 5, "tokens": 2, "level": "easy"}
"""A short coucou table whose games wait for South's first move (none of 2,000 seeds ended before it): a tournament's
by default, for tests that need a game to play or a game unfinished."""


@pytest.fixture
def make_client(make_client: Any) -> Any:
    """The shared fixture's clients, their app verifying finished games in this process: the same replay check,
    without starting a replay process for each test's app."""

    def make(**overrides: Any) -> Any:
        client = make_client(**overrides)
        client.app.state.service.replay = replay_check
        return client

    return make


def moment(clock: Any, **delta: float) -> str:
    return str((clock.now + dt.timedelta(**delta)).isoformat())


def error_of(response: Any) -> tuple[int, str, str]:
    body = response.json()["error"]
    return response.status_code, body["code"], body["message"]


def a_club(make_client: Any, players: int = 2) -> tuple[list[Any], dict[str, Any]]:
    clients = [make_client() for _ in range(players)]
    for index, client in enumerate(clients):
        assert client.put("/api/player", json={"name": f"Joueur{'ABCD'[index]}"}).status_code == 200
    created = clients[0].post("/api/clubs", json={"name": "Café du Marché"})
    assert created.status_code == 201, created.text
    club = created.json()
    for client in clients[1:]:
        joined = client.post("/api/clubs/join", json={"code": club["code"].lower()})
        assert joined.status_code == 200, joined.text
    return clients, club


def schedule(client: Any, club: dict[str, Any], clock: Any, **fields: Any) -> Any:
    body = {"name": "Tournoi du lundi", "game": "coucou", "options": PLAYABLE, "count": 2}
    body |= {"opens_at": moment(clock), "closes_at": moment(clock, hours=2)} | fields
    return client.post(f"/api/clubs/{club['id']}/tournaments", json=body)


def play_tournament(client: Any, tournament_id: str, rng: random.Random) -> list[dict[str, Any]]:
    finished = []
    while True:
        started = client.post(f"/api/tournaments/{tournament_id}/play")
        if started.status_code == 409:
            return finished
        assert started.status_code in (200, 201), started.text
        finished.append(play_to_end(client, started.json(), rng))


def test_a_club_is_created_joined_renamed_and_handed_over(make_client: Any) -> None:
    (creator, member), club = a_club(make_client)
    code = club["code"].replace("-", "")
    assert len(code) == 10 and not set(code) & set("01OIL")
    assert club["role"] == "creator" and [m["role"] for m in club["members"]] == ["creator"]
    seen = member.get(f"/api/clubs/{club['id']}").json()
    assert [(m["name"], m["role"], m["you"]) for m in seen["members"]] == [
        ("JoueurA", "creator", False),
        ("JoueurB", "member", True),
    ]
    assert member.get("/api/clubs").json()["clubs"] == [{"id": club["id"], "name": "Café du Marché", "role": "member"}]
    assert creator.put(f"/api/clubs/{club['id']}", json={"name": "Ｃafé"}).json()["name"] == "Café"  # NFKC
    key = seen["members"][1]["key"]
    named = creator.put(f"/api/clubs/{club['id']}/members/{key}/role", json={"role": "manager"}).json()
    assert named["members"][1]["role"] == "manager"
    handed = creator.post(f"/api/clubs/{club['id']}/hand-over", json={"member": key}).json()
    assert {m["name"]: m["role"] for m in handed["members"]} == {"JoueurA": "manager", "JoueurB": "creator"}
    # The link's secret lets a third player in, as the code does.
    third = make_client()
    link = club["link"].rsplit("/", 1)[1]
    assert third.post("/api/clubs/join", json={"code": link}).status_code == 200


def test_bad_club_input_is_refused_in_one_sentence_and_nothing_is_stored(make_client: Any) -> None:
    (creator, member), club = a_club(make_client)
    outsider = make_client()
    assert error_of(outsider.post("/api/clubs/join", json={"code": "ABCDE-FGHJK"}))[:2] == (404, "unknown_code")
    assert error_of(member.post("/api/clubs/join", json={"code": club["code"]})) == (
        409,
        "already_member",
        "You are already a member of this club.",
    )
    status, code, message = error_of(creator.post("/api/clubs", json={"name": "\u3164\u3164"}))
    assert (status, code) == (422, "invalid_name") and message.endswith(".")
    assert error_of(creator.post("/api/clubs", json={"name": "x" * 25}))[:2] == (422, "invalid_name")
    assert creator.get("/api/clubs").json()["clubs"] == [
        {"id": club["id"], "name": "Café du Marché", "role": "creator"}
    ]
    assert error_of(outsider.get(f"/api/clubs/{club['id']}"))[:2] == (404, "unknown_club")
    assert error_of(member.put(f"/api/clubs/{club['id']}", json={"name": "Pirates"})) == (
        403,
        "not_a_manager",
        "Only the club's creator and managers may do this.",
    )
    creator_key = club["members"][0]["key"]
    assert error_of(member.delete(f"/api/clubs/{club['id']}/members/{creator_key}"))[:2] == (409, "creator_stays")
    assert error_of(member.post(f"/api/clubs/{club['id']}/hand-over", json={"member": creator_key}))[:2] == (
        403,
        "not_the_creator",
    )
    assert error_of(creator.delete(f"/api/clubs/{club['id']}/members/nobody"))[:2] == (404, "unknown_member")
    assert creator.get(f"/api/clubs/{club['id']}").json()["name"] == "Café du Marché"


def test_a_nul_character_in_an_id_code_or_secret_is_refused_in_one_sentence(make_client: Any, clock: Any) -> None:
    # PostgreSQL takes no NUL in a text: looking one up was a 500 there (SQLite compares it and finds nothing).
    (creator, member), club = a_club(make_client)
    schedule(creator, club, clock)
    requests = [
        member.post("/api/clubs/join", json={"code": "ABCDE\u0000FGHJ"}),
        member.post("/api/clubs/join", json={"code": "a" * 31 + "\u0000"}),
        member.get("/api/clubs/c_%00x"),
        member.get("/api/tournaments/t_%00x"),
        member.post("/api/tournaments/t_%00x/play"),
        member.get("/api/challenges/d_%00"),
        member.post("/api/challenges", json={"game_id": "g_\u0000"}),
        member.post("/api/challenges/d_%00/play"),
        member.get("/api/games/g_%00"),
        member.get("/api/tables/AB%00CD?secret=x"),
    ]
    for response in requests:
        status, code, message = error_of(response)
        assert status in (404, 422) and message.endswith("."), (response.request.url, status, code, message)
    assert [entry["name"] for entry in member.get("/api/clubs").json()["clubs"]] == ["Café du Marché"]


def test_a_manager_named_as_he_leaves_the_club_is_a_409_and_changes_nothing(
    make_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (creator, _bea), club = a_club(make_client, 2)
    key = creator.get(f"/api/clubs/{club['id']}").json()["members"][1]["key"]
    original = clubs.ClubService._member_named

    def found_then_gone(self: clubs.ClubService, club_id: str, key: str) -> Any:
        found = original(self, club_id, key)
        self.clubs.remove_member(club_id, found.player_id)  # Bea leaves between the check and the change.
        return found

    monkeypatch.setattr(clubs.ClubService, "_member_named", found_then_gone)
    refused = creator.put(f"/api/clubs/{club['id']}/members/{key}/role", json={"role": "manager"})
    monkeypatch.undo()
    assert error_of(refused)[:2] == (409, "club_changed")
    assert [member["role"] for member in creator.get(f"/api/clubs/{club['id']}").json()["members"]] == ["creator"]


def test_two_hand_overs_at_once_leave_one_creator(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two tabs of the creator, each handing the club to another member: both passed the creator's check before
    # either wrote, and the club had two creators.
    (creator, bea, _cyril), club = a_club(make_client, 3)
    keys = [member["key"] for member in creator.get(f"/api/clubs/{club['id']}").json()["members"][1:]]
    both_checked = threading.Barrier(2)
    original = clubs.ClubService._member_named

    def after_both_checks(self: clubs.ClubService, club_id: str, key: str) -> Any:
        found = original(self, club_id, key)
        both_checked.wait(timeout=10)
        return found

    monkeypatch.setattr(clubs.ClubService, "_member_named", after_both_checks)
    answers = at_once(
        [lambda key=key: creator.post(f"/api/clubs/{club['id']}/hand-over", json={"member": key}) for key in keys]
    )
    monkeypatch.undo()
    assert sorted(answer.status_code for answer in answers) == [200, 409], [answer.text for answer in answers]
    refused = next(answer for answer in answers if answer.status_code == 409)
    assert error_of(refused)[1] == "club_changed"
    roles = {member["name"]: member["role"] for member in bea.get(f"/api/clubs/{club['id']}").json()["members"]}
    assert sorted(roles.values()) == ["creator", "manager", "member"], roles
    assert roles["JoueurA"] == "manager"


def test_codes_cannot_be_enumerated_the_joins_of_an_address_are_limited(make_client: Any) -> None:
    guesser = make_client()
    answers = [guesser.post("/api/clubs/join", json={"code": f"ABCDE{n:05d}"}).status_code for n in range(11)]
    assert answers == [404] * 10 + [429]
    # Another browser of the same address is refused too: the limit is the address's.
    status, code, message = error_of(make_client().post("/api/clubs/join", json={"code": "ABCDEFGHJK"}))
    assert (status, code) == (429, "too_many_requests") and message.startswith("Too many club codes tried")


def test_bad_tournaments_are_refused_in_one_sentence(make_client: Any, clock: Any) -> None:
    (creator, member), club = a_club(make_client)
    cases = [
        ({"closes_at": moment(clock, hours=-1)}, "A tournament must close after it opens."),
        ({"closes_at": moment(clock, days=40)}, "A tournament stays open at most 31 days."),
        ({"closes_at": moment(clock, days=8), "weekly": True}, "A weekly tournament stays open at most 7 days."),
        ({"count": 0}, "A tournament has 1 to 20 games."),
        ({"count": 21}, "A tournament has 1 to 20 games."),
        ({"count": None}, "A tournament has either a number of games (count) or of deals (deals)."),
        ({"deals": 8}, "A tournament has either a number of games (count) or of deals (deals)."),
        (
            {"count": None, "deals": 8},
            "A game of Coucou has no fixed number of deals: give its tournament a number of games (count).",
        ),
        (
            {"count": None, "deals": 0, "game": "couyon", "options": None},
            "A tournament of Couyon has 1 to 20 deals, each played as a game of one deal.",
        ),
        (
            {"count": None, "deals": 21, "game": "malmedy", "options": None},
            "A tournament of Malmedy couyon has 1 to 20 deals, each played as a game of one deal.",
        ),
        # A game of one deal is a tournament's in deals only: given with a number of games, or with another value,
        # the option is refused.
        ({"game": "couyon", "options": {"deals": 1}}, "Couyon has no option 'deals'."),
        (
            {"count": None, "deals": 3, "game": "couyon", "options": {"deals": 2}},
            "The option deals of a game of one deal of couyon is 1.",
        ),
        (
            {"count": None, "deals": 6, "game": "tarot4", "options": None},
            "A tournament of Tarot, 4 players has 4 to 80 deals, in games of 4 deals: a multiple of 4.",
        ),
        ({"count": None, "deals": 84, "game": "tarot4", "options": None}, None),
        ({"count": None, "deals": 0, "game": "tarot4", "options": None}, None),
        (
            {"options": {"players": 99}},
            "The option players of coucou is one of 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20.",
        ),
        ({"game": "chess"}, None),
        ({"opens_at": "2026-11-29T10:00:00"}, "opens_at needs its offset from UTC, such as +01:00 or Z."),
    ]
    for fields, sentence in cases:
        status, code, message = error_of(schedule(creator, club, clock, **fields))
        assert (status, code) == (422, "invalid_fields"), (fields, message)
        assert sentence is None or message == sentence
    assert error_of(schedule(member, club, clock))[:2] == (403, "not_a_manager")
    assert creator.get(f"/api/clubs/{club['id']}/tournaments").json() == {"tournaments": []}


def test_a_tarot_tournament_is_given_its_length_in_deals(make_client: Any, clock: Any) -> None:
    (creator, _member), club = a_club(make_client)
    made = schedule(creator, club, clock, game="tarot5", options=None, count=None, deals=10)
    assert made.status_code == 201, made.text
    # Two games of five played deals each: the games are tarot's own, as its record format has them.
    assert (made.json()["count"], made.json()["deals"]) == (2, 10)
    listed = creator.get(f"/api/clubs/{club['id']}/tournaments").json()["tournaments"]
    assert [(item["count"], item["deals"]) for item in listed] == [(2, 10)]
    # A game of no fixed number of deals tells its count of games only.
    assert schedule(creator, club, clock).json()["deals"] is None


def test_a_tournament_is_played_once_in_order_verified_and_ranked(make_client: Any, clock: Any) -> None:
    (first, second, third), club = a_club(make_client, 3)
    scheduled = schedule(first, club, clock, opens_at=moment(clock, minutes=30)).json()
    tid = scheduled["id"]
    assert scheduled["state"] == "coming" and scheduled["seeds"] is None
    assert error_of(second.post(f"/api/tournaments/{tid}/play"))[:2] == (403, "tournament_not_open")
    clock.advance(dt.timedelta(minutes=31))
    # Two calls before the first game is over give the same game: one try per game number.
    started = second.post(f"/api/tournaments/{tid}/play")
    assert started.status_code == 201
    again = second.post(f"/api/tournaments/{tid}/play")
    assert again.status_code == 200 and again.json()["id"] == started.json()["id"]
    # Its record (its seed) and its results wait for the closing.
    assert error_of(second.get(f"/api/games/{started.json()['id']}/record"))[:2] in ((409, "game_not_over"),)
    rng = random.Random(22)
    games = {client: play_tournament(client, tid, rng) for client in (first, second)}
    assert all(len(played) == 2 for played in games.values())
    assert error_of(first.post(f"/api/tournaments/{tid}/play"))[:2] == (409, "tournament_done")
    assert error_of(first.get(f"/api/games/{games[first][0]['id']}/record")) == (
        403,
        "seed_secret",
        "This game's record is published once its tournament closes.",
    )
    hidden = error_of(third.get(f"/api/tournaments/{tid}/results"))
    assert hidden[:2] == (403, "results_hidden")
    results = first.get(f"/api/tournaments/{tid}/results").json()
    rows = results["standings"]
    assert [row["games"] for row in rows] == [2, 2]
    totals = {row["name"]: row["total"] for row in rows}
    assert totals == {
        "JoueurA": sum(game["view"]["score"] for game in games[first]),
        "JoueurB": sum(game["view"]["score"] for game in games[second]),
    }
    assert results["deal_based"] is False and rows[0]["duplicate"] is None
    # The third member starts, then the tournament closes: his move is refused, the seeds are published.
    late = third.post(f"/api/tournaments/{tid}/play").json()
    clock.advance(dt.timedelta(hours=2))
    refused = send_move(third, late, late["view"]["legal"][0])
    assert error_of(refused) == (
        409,
        "tournament_closed",
        "This tournament is closed: no move can be played in it now.",
    )
    assert error_of(third.post(f"/api/tournaments/{tid}/play"))[:2] == (409, "tournament_closed")
    closed = third.get(f"/api/tournaments/{tid}").json()
    assert closed["state"] == "closed" and len(closed["seeds"]) == 2
    after = third.get(f"/api/tournaments/{tid}/results").json()
    assert {row["name"]: row["games"] for row in after["standings"]} == {"JoueurA": 2, "JoueurB": 2, "JoueurC": 0}
    # The standings are kept between requests until an entry or a name changes: a new name shows at once.
    assert first.put("/api/player", json={"name": "JoueurZ"}).status_code == 200
    renamed = third.get(f"/api/tournaments/{tid}/results").json()
    assert sorted(row["name"] for row in renamed["standings"]) == ["JoueurB", "JoueurC", "JoueurZ"]
    # Anyone of the club replays any entrant's game from its published record.
    record = third.get(f"/api/tournaments/{tid}/records/{games[first][1]['id']}")
    assert record.status_code == 200
    document = json.loads(record.text)
    assert document["seed"] == closed["seeds"][1]
    assert game_named("coucou").verify(record.text)["valid"] is True


def test_a_hint_takes_a_tournament_game_out_and_a_removed_member_plays_no_more(make_client: Any, clock: Any) -> None:
    (creator, member), club = a_club(make_client)
    tid = schedule(creator, club, clock, count=1, game="couyon", options={"level": "beginner"}).json()["id"]
    started = member.post(f"/api/tournaments/{tid}/play").json()
    hinted = member.post(f"/api/games/{started['id']}/hint", json={"move_number": started["view"]["move_number"]})
    assert hinted.status_code == 200 and hinted.json()["ranked"] is False
    play_to_end(member, started, random.Random(3))
    results = member.get(f"/api/tournaments/{tid}/results").json()
    assert [(row["name"], row["games"], row["total"]) for row in results["standings"]] == [("JoueurB", 0, 0)]
    # Removed mid-tournament: the next game is refused in one sentence.
    other = make_client()
    other.post("/api/clubs/join", json={"code": club["code"]})
    playing = other.post(f"/api/tournaments/{tid}/play").json()
    key = next(m["key"] for m in creator.get(f"/api/clubs/{club['id']}").json()["members"] if m["name"] is None)
    assert creator.delete(f"/api/clubs/{club['id']}/members/{key}").status_code == 200
    assert error_of(send_move(other, playing, playing["view"]["legal"][0])) == (
        403,
        "not_a_member",
        "You are no longer a member of this club: its tournaments are closed to you.",
    )
    assert error_of(other.post(f"/api/tournaments/{tid}/play"))[:2] == (404, "unknown_tournament")


def test_a_weekly_tournament_repeats_with_an_archive_and_each_members_record(make_client: Any, clock: Any) -> None:
    (creator, member), club = a_club(make_client)
    first = schedule(creator, club, clock, count=1, weekly=True, closes_at=moment(clock, days=1)).json()
    rng = random.Random(5)
    for client in (creator, member):
        play_tournament(client, first["id"], rng)
    clock.advance(dt.timedelta(days=14, hours=1))  # The second week passed unplayed: the third is open.
    listed = creator.get(f"/api/clubs/{club['id']}/tournaments").json()["tournaments"]
    assert [item["state"] for item in listed] == ["open", "closed"]
    assert listed[0]["series"] == first["id"] and listed[0]["id"] != first["id"]
    assert dt.datetime.fromisoformat(listed[0]["opens_at"]) - dt.datetime.fromisoformat(
        first["opens_at"]
    ) == dt.timedelta(days=14)
    series = member.get(f"/api/clubs/{club['id']}/series/{first['id']}").json()
    assert [item["id"] for item in series["archive"]] == [first["id"]]
    assert sorted(row["played"] for row in series["members"]) == [1, 1]
    assert sum(row["won"] for row in series["members"]) >= 1


def test_the_members_daily_board_shows_the_week_side_by_side(make_client: Any, clock: Any) -> None:
    (creator, member), club = a_club(make_client)
    board = creator.get(f"/api/clubs/{club['id']}/daily?game=coucou").json()
    assert board["today_shown"] is False and [row["week"] for row in board["members"]] == [0, 0]
    daily = new_game(member, "daily", game="coucou")
    finished = play_to_end(member, daily, random.Random(9))
    mine = member.get(f"/api/clubs/{club['id']}/daily?game=coucou").json()
    row = next(row for row in mine["members"] if row["you"])
    assert mine["today_shown"] is True and row["today"] == finished["view"]["score"] == row["week"]
    # The creator has not played today's: today's score stays hidden from him.
    theirs = creator.get(f"/api/clubs/{club['id']}/daily?game=coucou").json()
    assert theirs["today_shown"] is False and all(row["today"] is None for row in theirs["members"])


def test_a_challenge_shows_both_results_once_both_finished(make_client: Any) -> None:
    sender, friend = make_client(), make_client()
    sender.put("/api/player", json={"name": "Marie"})
    game = new_game(sender, game="coucou", options=PLAYABLE)
    unfinished = sender.post("/api/challenges", json={"game_id": game["id"]})
    assert error_of(unfinished)[:2] == (409, "game_not_over")
    finished = play_to_end(sender, game, random.Random(1))
    link = sender.post("/api/challenges", json={"game_id": game["id"]}).json()
    assert link["link"] == f"/#/challenge/{link['id']}"
    assert error_of(sender.post(f"/api/challenges/{link['id']}/play"))[:2] == (409, "own_challenge")
    taken = friend.post(f"/api/challenges/{link['id']}/play").json()
    assert taken["mode"] == "duel" and taken["options"] == finished["options"] and taken["bot"] == finished["bot"]
    before = friend.get(f"/api/challenges/{link['id']}").json()
    assert before["shown"] is False and all(player["score"] is None for player in before["players"])
    assert error_of(friend.post(f"/api/games/{taken['id']}/hint", json={"move_number": 0}))[:2] == (403, "no_hints")
    mine = play_to_end(friend, taken, random.Random(2))
    after = friend.get(f"/api/challenges/{link['id']}").json()
    assert after["shown"] is True
    scores = {player["sender"]: player["score"] for player in after["players"]}
    assert scores == {True: finished["view"]["score"], False: mine["view"]["score"]}
    assert all(player["lines"] for player in after["players"])
    # Today's daily cannot be sent before its day is over (its deals are everybody's today).
    daily = play_to_end(sender, new_game(sender, "daily", game="coucou"), random.Random(4))
    assert error_of(sender.post("/api/challenges", json={"game_id": daily["id"]}))[:2] == (403, "seed_secret")


def test_a_deal_based_tournament_scores_each_deal_in_matchpoints(
    make_client: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    (first, second), club = a_club(make_client)
    tid = schedule(first, club, clock, count=1, game="couyon", options={"level": "beginner"}).json()["id"]
    played = {
        client: play_tournament(client, tid, random.Random(index))[0] for index, client in enumerate((first, second))
    }
    # Each game's deal lines were kept by its verification, before any results were asked.
    kept = ClubStore(first.app.state.store).lines([game["id"] for game in played.values()])
    assert {game_id: json.loads(lines)[0]["deal"] for game_id, lines in kept.items()} == {
        game["id"]: 1 for game in played.values()
    }
    results = first.get(f"/api/tournaments/{tid}/results").json()
    assert results["deal_based"] is True
    # The standings list the deals; each deal's results are asked apart, when the page opens it.
    assert all(set(deal) == {"game", "deal", "entrants"} for deal in results["deals"])
    both = [deal for deal in results["deals"] if deal["entrants"] == 2]
    assert both, "the two games share their first deal"
    for deal in both:
        answer = first.get(f"/api/tournaments/{tid}/deals/{deal['game']}/{deal['deal']}").json()
        assert (answer["entrants"], answer["offset"], answer["next_offset"]) == (2, 0, None)
        assert sum(row["percent"] for row in answer["results"]) == 100.0
        assert {"taker", "side", "outcome"} <= set(answer["results"][0])
    # A big deal comes a page at a time: here a page of one line.
    monkeypatch.setattr(clubs, "DEAL_PAGE", 1)
    path = f"/api/tournaments/{tid}/deals/{both[0]['game']}/{both[0]['deal']}"
    pages = [first.get(path).json(), first.get(f"{path}?offset=1").json()]
    assert [(page["offset"], page["next_offset"], len(page["results"])) for page in pages] == [(0, 1, 1), (1, None, 1)]
    assert pages[0]["results"][0]["percent"] >= pages[1]["results"][0]["percent"]
    assert error_of(first.get(f"/api/tournaments/{tid}/deals/9/1")) == (
        404,
        "unknown_deal",
        "This tournament has no such deal among its results.",
    )
    assert error_of(first.get(f"{path}?offset=-1"))[:2] == (422, "invalid_fields")
    outsider = make_client()
    assert error_of(outsider.get(path))[:2] == (404, "unknown_tournament")
    assert all(row["duplicate"] is not None for row in results["standings"])
    assert {row["total"] for row in results["standings"]} == {game["view"]["score"] for game in played.values()}


def test_matchpoints_share_ties_and_count_a_missing_game_as_zero() -> None:
    from couyon.server.clubs.service import Entrant, standings

    def line(deal: int, points: int) -> dict[str, Any]:
        return {"deal": deal, "taker": "S", "side": "us", "outcome": "made", "points": points}

    entrants = [
        Entrant("a", "A", {1: 50, 2: 10}, {1: [line(1, 30), line(2, 10)], 2: [line(1, 5)]}),
        Entrant("b", "B", {1: 40, 2: 20}, {1: [line(1, 30), line(2, 0)], 2: [line(1, 9)]}),
        Entrant("c", "C", {1: 60}, {1: [line(1, -10)]}),  # Game 2 unfinished at closing; his game 1 had one deal.
        Entrant("d", "D", {}, {}),  # No game counted (a hint in each): 0 on every deal, not no score at all.
    ]
    answer = standings(entrants, 2)
    percents = {
        (deal["game"], deal["deal"]): {row["entrant"]: row["percent"] for row in deal["results"]}
        for deal in answer["deals"]
    }
    assert percents == {
        (1, 1): {"a": 75.0, "b": 75.0, "c": 0.0},  # A and B tie: half a point each against the other.
        (1, 2): {"a": 100.0, "b": 0.0},
        (2, 1): {"a": 0.0, "b": 100.0},
    }
    table = {
        row["entrant"]: (row["rank"], row["total"], row["duplicate"], row["duplicate_rank"])
        for row in answer["standings"]
    }
    # C's duplicate: 0 on his one deal, and 0 on the one deal of game 2 he has no game of: 0 / 2.
    # Equal totals: more games counted first, and equal both ways shares the rank.
    assert table == {"a": (1, 60, 58.3, 1), "b": (1, 60, 58.3, 1), "c": (3, 60, 0.0, 3), "d": (4, 0, 0.0, 3)}


def test_a_game_left_unfinished_scores_no_better_than_the_lowest_finished_one() -> None:
    from couyon.server.clubs.service import Entrant, standings

    # Tarot totals go below 0: leaving game 1 unfinished (or taking a hint in it) must not rank B above A.
    entrants = [
        Entrant("a", "A", {1: -30, 2: 40}, {}),
        Entrant("b", "B", {2: 40}, {}),
        Entrant("c", "C", {1: 20}, {}),
    ]
    table = {row["entrant"]: (row["rank"], row["total"]) for row in standings(entrants, 2)["standings"]}
    # B: game 1 at its lowest (-30); C: game 2 at 0 (no one scored below 0 in it). Equal totals: more games first.
    assert table == {"c": (1, 20), "a": (2, 10), "b": (3, 10)}


def test_a_tournament_or_challenge_game_is_dealt_as_a_free_one_held_by_the_floor_and_verified(
    make_client: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both routes deal a game as POST /api/games does: the answer waits the floor of the bot moves made before the
    # player's first turn (their time would tell what the bots hold), and a game those moves ended is verified.
    from tests.games.coucou.test_as_qui_court_server import dealt_out_before_speaking

    from couyon.server.pacing import AnswerFloor

    held: list[int] = []
    original = AnswerFloor.hold

    async def recording(self: AnswerFloor, arrival: float, bot_moves: int, game_floor_ms: int, what: str) -> None:
        held.append(bot_moves)
        await original(self, arrival, bot_moves, game_floor_ms, what)

    monkeypatch.setattr(AnswerFloor, "hold", recording)
    (creator, member), club = a_club(make_client)
    tarot = schedule(creator, club, clock, game="tarot4", options={}, count=1).json()
    held.clear()
    started = member.post(f"/api/tournaments/{tarot['id']}/play")
    assert started.status_code == 201, started.text
    assert held == [started.json()["view"]["move_number"]]  # no move of his yet: every move is a bot's

    finished = play_to_end(creator, new_game(creator, game="coucou", options=FAST), random.Random(2))
    link = creator.post("/api/challenges", json={"game_id": finished["id"]}).json()["link"]
    held.clear()
    taken = member.post(f"/api/challenges/{link.rsplit('/', 1)[1]}/play")
    assert taken.status_code == 201, taken.text
    assert held == [taken.json()["view"]["move_number"]]

    # As qui court, seat 1 dealt out before he speaks: the game is over when it is dealt, and counts once verified.
    seed = next(f"dealt-out-{n}" for n in range(2000) if dealt_out_before_speaking(f"dealt-out-{n}"))
    monkeypatch.setattr(clubs.ClubService, "tournament_seed", lambda _self, _tournament, _number: seed)
    made = schedule(creator, club, clock, game="as-qui-court", options={"players": 5, "tokens": 1}, count=1).json()
    over = member.post(f"/api/tournaments/{made['id']}/play").json()
    assert over["leaderboard_pending"] and not over["view"]["legal"]
    clock.advance(dt.timedelta(hours=3))
    standings = member.get(f"/api/tournaments/{made['id']}/results").json()["standings"]
    assert [(row["name"], row["games"]) for row in standings] == [("JoueurB", 1)]


def test_a_challenge_asked_twice_at_once_is_one_link(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Two tabs asking for the same game's challenge both found none and each stored its own: two links.
    client = make_client()
    finished = play_to_end(client, new_game(client, game="coucou", options=FAST), random.Random(1))
    both_looked = threading.Barrier(2)
    original = ClubStore.challenge_of_game

    def after_both_looked(self: ClubStore, game_id: str) -> Any:
        found = original(self, game_id)
        both_looked.wait(timeout=10)
        return found

    monkeypatch.setattr(ClubStore, "challenge_of_game", after_both_looked)
    answers = at_once([lambda: client.post("/api/challenges", json={"game_id": finished["id"]})] * 2)
    monkeypatch.undo()
    assert [answer.status_code for answer in answers] == [201, 201]
    assert len({answer.json()["link"] for answer in answers}) == 1
    assert client.post("/api/challenges", json={"game_id": finished["id"]}).json() == answers[0].json()


def test_two_devices_of_one_player_starting_at_once_get_one_game(make_client: Any, clock: Any) -> None:
    (creator, member), club = a_club(make_client)
    tid = schedule(creator, club, clock, count=1).json()["id"]
    code = member.get("/api/player/recovery").json()["code"]
    other_device = make_client()
    assert other_device.post("/api/player/recovery", json={"code": code}).status_code == 200
    answers = at_once(
        [lambda: member.post(f"/api/tournaments/{tid}/play"), lambda: other_device.post(f"/api/tournaments/{tid}/play")]
    )
    assert sorted(answer.status_code for answer in answers) == [200, 201]
    assert len({answer.json()["id"] for answer in answers}) == 1
    progress = member.get(f"/api/tournaments/{tid}").json()["games"]
    assert [game["number"] for game in progress] == [1]


def matchpoints(values: dict[str, float]) -> dict[str, float]:
    """Each entrant's percentage on one deal from what it was worth to each (1 per other done worse, ½ per tie)."""
    return {
        key: 100.0
        * sum(
            1.0 if mine > theirs else 0.5 if mine == theirs else 0.0 for other, theirs in values.items() if other != key
        )
        / (len(values) - 1)
        for key, mine in values.items()
    }


ORDER = {("us", "made"): 2, ("them", "failed"): 1, ("them", "made"): -1, ("us", "failed"): -2}
"""docs/clubs.md's order of a couyon deal from South's side; anything else (a tie, a deal nobody took) is 0."""


@pytest.mark.parametrize("game", ["couyon", "malmedy"])
def test_a_couyon_or_malmedy_tournament_in_deals_plays_games_of_one_deal(
    make_client: Any, clock: Any, game: str
) -> None:
    (first, second), club = a_club(make_client)
    assert creator_form(first, club)[game] == 1
    made = schedule(first, club, clock, game=game, options={"level": "beginner"}, count=None, deals=3)
    assert made.status_code == 201, made.text
    tournament = made.json()
    tid = tournament["id"]
    assert (tournament["count"], tournament["deals"]) == (3, 3)
    assert tournament["options"] == {"deals": 1, "level": "beginner"}
    # A free game cannot be one of one deal: the option is the tournaments' alone.
    free = first.post("/api/games", json={"mode": "free", "game": game, "options": {"deals": 1}})
    assert free.status_code == 422
    starts: dict[Any, list[dict[str, Any]]] = {first: [], second: []}
    played: dict[Any, list[dict[str, Any]]] = {first: [], second: []}
    for index, client in enumerate((first, second)):
        rng = random.Random(index)
        while (started := client.post(f"/api/tournaments/{tid}/play")).status_code == 201:
            starts[client].append(started.json())
            played[client].append(play_to_end(client, started.json(), rng))
        assert error_of(started)[:2] == (409, "tournament_done")
    for number in range(3):
        # The same cards for both entrants: game n's seed is the tournament's.
        assert starts[first][number]["view"]["hand"] == starts[second][number]["view"]["hand"]
    for finished in played[first] + played[second]:
        view = finished["view"]
        # Over once its first deal is done, with no side out; scored as ruling 8 scores a game, from the lines left.
        assert view["phase"] == "over" and view["winner"] is None and view["legal"] == []
        assert [deal["number"] for deal in view["deal_log"]] == [1]
        assert view["score"] == 1000 + 100 * (view["lines"]["WE"] - view["lines"]["NS"])
        assert view["deal_log"][0]["outcome"] is not None
    results = first.get(f"/api/tournaments/{tid}/results").json()
    assert results["deal_based"] is True
    assert [(deal["game"], deal["deal"], deal["entrants"]) for deal in results["deals"]] == [
        (1, 1, 2),
        (2, 1, 2),
        (3, 1, 2),
    ]
    rows = {row["name"]: row for row in results["standings"]}
    assert {name: (row["games"], row["total"]) for name, row in rows.items()} == {
        "JoueurA": (3, sum(game["view"]["score"] for game in played[first])),
        "JoueurB": (3, sum(game["view"]["score"] for game in played[second])),
    }
    mine: dict[str, list[float]] = {"JoueurA": [], "JoueurB": []}
    for number in range(3):
        values = {}
        for name, client in (("JoueurA", first), ("JoueurB", second)):
            deal = played[client][number]["view"]["deal_log"][0]
            taker = deal.get("taker", deal.get("chooser"))
            side = None if taker is None else "us" if taker in ("S", "N") else "them"
            values[name] = float(ORDER.get((side, deal["outcome"]), 0))
        expected = matchpoints(values)
        answer = first.get(f"/api/tournaments/{tid}/deals/{number + 1}/1").json()
        assert {row["entrant"]: row["percent"] for row in answer["results"]} == {
            rows[name]["entrant"]: percent for name, percent in expected.items()
        }
        for name, percent in expected.items():
            mine[name].append(percent)
    assert {name: row["duplicate"] for name, row in rows.items()} == {
        name: round(sum(percents) / 3, 1) for name, percents in mine.items()
    }
    # A tournament's games are not the player's free and daily games: his statistics leave them out.
    assert first.get(f"/api/player/stats?game={game}").json()["games"]["played"] == 0
    # Each game counted because its verifying replay agreed; a replay with another bot or a move past the end does not.
    store = first.app.state.store
    stored, moves = store.game(played[first][0]["id"])
    assert replay_check(stored, moves) == (played[first][0]["view"]["score"], 1)
    assert isinstance(replay_check(stored, [*moves, moves[0]]), str)
    assert isinstance(replay_check(dataclasses.replace(stored, bot_id="random/1"), moves), str)
    # Once closed, the published seeds replay every record: valid, the deal played, the game unfinished by the
    # format's rules (its lines are not done), its one deal said in an extra key.
    clock.advance(dt.timedelta(hours=2))
    closed = second.get(f"/api/tournaments/{tid}").json()
    assert len(set(closed["seeds"])) == 3
    for number, finished in enumerate(played[first]):
        record = second.get(f"/api/tournaments/{tid}/records/{finished['id']}")
        document = json.loads(record.text)
        assert (document["seed"], document["deals"], document["variant"]) == (
            closed["seeds"][number],
            1,
            "standard" if game == "couyon" else "malmedy",
        )
        report = game_named(game).verify(record.text)
        assert (report["valid"], report["finished"], report["score"]) == (True, False, None)
        assert report["deal_log"][0] == finished["view"]["deal_log"][0]
        # Its review, whole once closed, is of its one deal, scored as the game was.
        review = first.get(f"/api/games/{finished['id']}/review").json()
        assert (review["winner"], review["score"], len(review["deals"])) == (None, finished["view"]["score"], 1)


def creator_form(client: Any, club: dict[str, Any]) -> dict[str, int]:
    """The games the schedule form may give in deals, and each one's deals per game."""
    form: dict[str, int] = client.get(f"/api/clubs/{club['id']}").json()["deals_per_game"]
    assert form["tarot4"] == 4 and "coucou" not in form
    return form
