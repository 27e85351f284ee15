"""Levels and hints of free games: the level chooses the bots and the free board; a hint is the expert's move
from the player's view, and a game helped by one is never ranked; the daily challenge has neither."""

from __future__ import annotations

import random
from typing import Any

import pytest
from sqlalchemy import text
from tests.server.helpers import new_game, play_to_end, send_move

from couyon.games.couyon.cards import Seat
from couyon.games.couyon.view import SeatView
from couyon.registry import COUYON


def hint(client: Any, answer: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{answer['id']}/hint", json={"move_number": answer["view"]["move_number"]})


def games_stored(client: Any) -> int:
    with client.app.state.store.engine.connect() as connection:
        return int(connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one())


def test_the_level_chooses_the_bots_of_a_free_game_and_never_of_the_daily(make_client: Any) -> None:
    client = make_client()
    beginner = new_game(client, options={"level": "beginner"})
    assert beginner["bot"] == "baseline/1" and beginner["options"] == {"level": "beginner"}
    expert = new_game(client)
    assert expert["bot"] == COUYON.table_bot_id and expert["options"] == {"level": "expert"}
    malmedy = new_game(client, game="malmedy", options={"level": "beginner"})
    assert malmedy["bot"] == "baseline/1"
    daily = new_game(client, "daily", options={"level": "beginner"})
    assert daily["bot"] == COUYON.table_bot_id and daily["options"] == {"level": "expert"}
    tarot = new_game(client, game="tarot5", options={"level": "beginner"})
    assert tarot["bot"] == "baseline/1" and tarot["options"] == {"level": "beginner"}
    tarot_daily = new_game(client, "daily", game="tarot5", options={"level": "beginner"})
    assert tarot_daily["bot"] == "expert/5" and tarot_daily["options"] == {"level": "expert"}
    stored = games_stored(client)
    for body, sentence in (
        ({"options": {"level": "hard"}}, "The option level of couyon is one of beginner, expert."),
        ({"game": "malmedy", "options": {"level": "easy"}}, "The option level of malmedy is one of beginner, expert."),
        ({"game": "tarot4", "options": {"level": "easy"}}, "The option level of tarot4 is one of beginner, expert."),
        ({"game": "tarot4", "options": {"level": "expert", "players": 4}}, "Tarot4 has no option 'players'."),
    ):
        response = client.post("/api/games", json={"mode": "free", **body})
        assert response.status_code == 422
        assert response.json() == {"error": {"code": "invalid_fields", "message": sentence}}
    assert games_stored(client) == stored


def test_each_level_has_its_own_free_board_and_is_verified_with_its_own_bots(make_client: Any) -> None:
    # The expert level is the table bot's: random/1 here, so that whole games are quick.
    client = make_client(table_bot="random/1")
    rng = random.Random(12)
    beginner = play_to_end(client, new_game(client, options={"level": "beginner"}), rng)
    expert = play_to_end(client, new_game(client), rng)
    for answer in (beginner, expert):
        placed = client.get(f"/api/games/{answer['id']}").json()["leaderboard"]
        assert placed is not None and placed["rank"] == 1 and placed["board"] == "free"

    def board(**query: str) -> dict[str, Any]:
        response = client.get("/api/leaderboard", params={"board": "free", **query})
        assert response.status_code == 200, response.text
        document: dict[str, Any] = response.json()
        return document

    default = board()
    assert default["level"] == "expert" and len(default["entries"]) == 1
    assert default["entries"][0]["score"] == expert["view"]["score"]
    beginners = board(level="beginner")
    assert beginners["level"] == "beginner" and len(beginners["entries"]) == 1
    assert beginners["entries"][0]["score"] == beginner["view"]["score"]
    assert board(level="expert") == default
    assert board(game="malmedy", level="beginner")["entries"] == []
    assert board(game="tarot4")["level"] == "expert"
    for query, sentence in (
        ({"level": "hard"}, "There is no level 'hard' here: the levels are beginner and expert."),
        (
            {"game": "coucou", "level": "beginner"},
            "There is no level 'beginner' here: the levels are easy, normal and expert.",
        ),
        ({"game": "tarot4", "level": "easy"}, "There is no level 'easy' here: the levels are beginner and expert."),
        ({"board": "daily", "level": "beginner"}, "The daily challenge is always played at the expert level."),
    ):
        response = client.get("/api/leaderboard", params={"board": "free", **query})
        assert response.status_code == 422
        assert response.json() == {"error": {"code": "invalid_fields", "message": sentence}}


def test_a_hint_is_the_experts_move_from_the_players_view(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_client(table_bot="random/1")
    hint_bot_id = COUYON.hint_bot_id or ""
    expert = COUYON.bot(hint_bot_id)
    seen: list[Any] = []

    class Spy:
        """The expert, watched (a compiled bot's methods cannot be replaced, so the table's entry is)."""

        def choose(self, seat_view: Any, rng: Any) -> Any:
            seen.append(seat_view)
            return expert.choose(seat_view, rng)

    monkeypatch.setitem(COUYON.bots, hint_bot_id, Spy())
    answer = new_game(client)
    response = hint(client, answer)
    assert response.status_code == 200, response.text
    told = response.json()
    assert told["move"] in answer["view"]["legal"] and told["hints"] == 1 and told["ranked"] is False
    # The expert was handed South's view (its hand and the table), never the state with the other hands.
    assert len(seen) == 1 and isinstance(seen[0], SeatView) and seen[0].seat == Seat.S
    assert sorted(str(card) for card in seen[0].hand) == sorted(answer["view"]["hand"])
    # Asked again on the same view: the same move, still one hint.
    assert hint(client, answer).json() == told


def test_a_game_helped_by_a_hint_is_stored_as_such_and_never_ranked(make_client: Any) -> None:
    client = make_client(table_bot="random/1")
    rng = random.Random(3)
    helped = new_game(client)
    assert helped["hints"] == 0 and helped["ranked"] is True
    assert hint(client, helped).status_code == 200
    shown = client.get(f"/api/games/{helped['id']}").json()
    assert shown["hints"] == 1 and shown["ranked"] is False
    moved = send_move(client, shown, rng.choice(shown["view"]["legal"])).json()
    assert moved["hints"] == 1 and moved["ranked"] is False
    finished = play_to_end(client, moved, rng)
    assert finished["leaderboard_pending"] is False
    end = client.get(f"/api/games/{helped['id']}").json()
    assert end["leaderboard"] is None and end["hints"] == 1 and end["ranked"] is False
    # The same play without a hint is ranked: the board holds only that game.
    unhelped = play_to_end(client, new_game(client), rng)
    entries = client.get("/api/leaderboard", params={"board": "free"}).json()["entries"]
    assert len(entries) == 1 and client.get(f"/api/games/{unhelped['id']}").json()["leaderboard"]["rank"] == 1


def test_a_hint_asked_as_the_final_move_is_played_keeps_the_game_off_the_board(make_client: Any) -> None:
    client = make_client(table_bot="random/1")
    service = client.app.state.service
    rng = random.Random(5)
    answer = new_game(client)
    player = service.store.game(answer["id"])[0].player_id
    played = service.show(player, answer["id"])
    while played.state.winner is None:
        view = COUYON.view_json(played.state, COUYON.human)
        played = service.move(player, answer["id"], rng.choice(view["legal"]), view["move_number"])
    service.store.add_hint(answer["id"], 0)  # Stored after the final move, before the verifying replay.
    assert service.show(player, answer["id"]).leaderboard is None
    assert client.get("/api/leaderboard", params={"board": "free"}).json()["entries"] == []


def test_hints_are_refused_in_daily_games_and_on_a_stale_or_finished_view(make_client: Any) -> None:
    client = make_client(table_bot="random/1")
    daily = new_game(client, "daily")
    response = hint(client, daily)
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "no_hints",
        "message": "Hints are for free games: the daily challenge is played without help.",
    }
    free = new_game(client)
    stale = client.post(f"/api/games/{free['id']}/hint", json={"move_number": free["view"]["move_number"] + 1})
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "stale"
    other = make_client(table_bot="random/1")
    assert hint(other, free).status_code == 404
    finished = play_to_end(client, free, random.Random(8))
    over = hint(client, finished)
    assert over.status_code == 409 and over.json()["error"]["code"] == "game_over"
    bad = client.post(f"/api/games/{free['id']}/hint", json={"move_number": "3"})
    assert bad.status_code == 422
    with client.app.state.store.engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM hints")).scalar_one() == 0
