"""The daily challenge: same deals for all, one ranked attempt, a secret seed, and a replay check on entry."""

from __future__ import annotations

import datetime as dt
import random
import threading
from typing import Any

from sqlalchemy import delete, insert, select, text
from tests.server.helpers import new_game as start_game
from tests.server.helpers import play_to_end

from couyon.games.couyon.cards import Seat
from couyon.games.couyon.game import legal_moves, new_game, play
from couyon.server.games import GameAnswer, GameService, replay_check
from couyon.store import Store, StoredGame
from couyon.store.schema import leaderboard_entries, moves


def public_part(answer: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in answer.items() if key != "id"}


def test_two_players_get_identical_deals(make_client: Any) -> None:
    marie, jules = make_client(), make_client()
    first, second = start_game(marie, "daily"), start_game(jules, "daily")
    assert first["id"] != second["id"]
    assert public_part(first) == public_part(second)
    # The same choices give the same bots' answers: the whole game is the same for both.
    rng_marie, rng_jules = random.Random(7), random.Random(7)
    for _ in range(6):
        if first["view"]["winner"] is not None:
            break
        a = marie.post(
            f"/api/games/{first['id']}/moves",
            json={"move": rng_marie.choice(first["view"]["legal"]), "move_number": first["view"]["move_number"]},
        )
        b = jules.post(
            f"/api/games/{second['id']}/moves",
            json={"move": rng_jules.choice(second["view"]["legal"]), "move_number": second["view"]["move_number"]},
        )
        first, second = a.json(), b.json()
        assert public_part(first) == public_part(second)


def test_one_ranked_attempt_per_day_then_unranked_plays(make_client: Any) -> None:
    client = make_client()
    # Issue 11, item 1: an unranked play of the day would preview the ranked attempt's hidden cards and
    # outcomes (deals and bots are deterministic), so it waits until that attempt is finished.
    early = client.post("/api/games", json={"mode": "daily", "ranked": False})
    refusal = "Today's challenge can be replayed unranked once your ranked attempt of the day is finished."
    assert early.status_code == 409
    assert early.json() == {"error": {"code": "daily_not_finished", "message": refusal}}
    attempt = start_game(client, "daily")
    assert attempt["ranked"] is True and attempt["day"] == "2026-11-29"
    again = client.post("/api/games", json={"mode": "daily"})
    assert again.status_code == 200 and again.json()["id"] == attempt["id"]  # A reload resumes, never re-deals.
    during = client.post("/api/games", json={"mode": "daily", "ranked": False})
    assert (during.status_code, during.json()["error"]["message"]) == (409, refusal)
    with client.app.state.store.engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one() == 1  # nothing stored
    finished = play_to_end(client, attempt, random.Random(2))
    extra = client.post("/api/games", json={"mode": "daily", "ranked": False})
    assert extra.status_code == 201
    assert extra.json()["ranked"] is False and extra.json()["id"] != attempt["id"]
    assert extra.json()["view"]["hand"] == attempt["view"]["hand"]
    # The extra play never enters the board; the attempt does.
    finished_extra = play_to_end(client, extra.json(), random.Random(1))
    assert finished_extra["leaderboard"] is None and finished_extra["leaderboard_pending"] is False
    assert finished["leaderboard"] is None and finished["leaderboard_pending"] is True
    assert client.get(f"/api/games/{attempt['id']}").json()["leaderboard"] == {
        "board": "daily",
        "rank": 1,
        "score": finished["view"]["score"],
        "deals": finished["view"]["deal_log"][-1]["number"],
    }
    board = client.get("/api/leaderboard?board=daily&day=2026-11-29").json()
    assert [entry["score"] for entry in board["entries"]] == [finished["view"]["score"]]
    assert client.get("/api/daily").json()["finished"] is True
    # A finished attempt still counts: asking again resumes it rather than dealing a new ranked game.
    assert client.post("/api/games", json={"mode": "daily"}).json()["id"] == attempt["id"]


def test_the_seed_stays_secret_until_the_day_is_over(make_client: Any, clock: Any) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    service = client.app.state.service
    seed = service.daily_seed(dt.date(2026, 11, 29))
    finished = play_to_end(client, attempt, random.Random(4), on_answer=lambda r: assert_no_seed(r.text, seed))
    assert_no_seed(client.get(f"/api/games/{attempt['id']}").text, seed)
    assert client.get("/api/daily/2026-11-29/seed").status_code == 403
    assert client.get(f"/api/games/{attempt['id']}/record").status_code == 403
    clock.advance(dt.timedelta(hours=14, seconds=-1))  # 23:59:59 in Brussels: still the same day.
    assert client.get("/api/daily/2026-11-29/seed").status_code == 403
    clock.advance(dt.timedelta(seconds=1))
    published = client.get("/api/daily/2026-11-29/seed").json()
    assert published == {"day": "2026-11-29", "seed": seed}
    record = client.get(f"/api/games/{attempt['id']}/record").json()
    assert record["seed"] == seed and record["challenge"] == "2026-11-29"
    assert finished["view"]["winner"] is not None


def assert_no_seed(text: str, seed: str) -> None:
    assert seed not in text


def test_a_ranked_attempt_finished_after_its_day_is_not_ranked(make_client: Any, clock: Any) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    clock.advance(dt.timedelta(days=1))
    finished = play_to_end(client, attempt, random.Random(8))
    assert finished["leaderboard"] is None and finished["leaderboard_pending"] is False
    assert client.get(f"/api/games/{attempt['id']}").json()["leaderboard"] is None
    assert client.get("/api/leaderboard?board=daily&day=2026-11-29").json()["entries"] == []


def forged_moves(seed: str, rng: random.Random) -> list[str]:
    """A legal game from ``seed`` in which the bot seats play their last legal move, not what the bot would."""
    state = new_game(seed)
    played: list[str] = []
    while state.winner is None:
        options = legal_moves(state)
        move = rng.choice(options) if state.to_move == Seat.S else options[-1]
        played.append(str(move))
        state = play(state, move)
    return played


def test_a_tampered_move_list_is_refused_by_the_replay_check(make_client: Any, monkeypatch: Any) -> None:
    client = make_client()
    replays = count_replays(client.app.state.service, monkeypatch)
    attempt = start_game(client, "daily")
    store = client.app.state.store
    game, _ = store.game(attempt["id"])
    forged = forged_moves(game.seed, random.Random(9))
    last_south = max(index for index, move in enumerate(forged) if move.startswith("S:"))
    with store.engine.begin() as connection:
        connection.execute(delete(moves).where(moves.c.game_id == game.id))
        connection.execute(
            insert(moves), [{"game_id": game.id, "number": n, "move": m} for n, m in enumerate(forged[:last_south])]
        )
    resumed = client.get(f"/api/games/{attempt['id']}").json()
    assert resumed["view"]["to_move"] == "S"
    finished = play_to_end(client, resumed, random.Random(10))
    assert finished["view"]["winner"] is not None
    assert finished["leaderboard"] is None and finished["leaderboard_pending"] is True
    assert replays == [attempt["id"]]  # The replay after the final move's answer refused it...
    for _ in range(3):
        shown = client.get(f"/api/games/{attempt['id']}").json()
        assert shown["leaderboard"] is None and shown["leaderboard_pending"] is False
    assert replays == [attempt["id"]]  # ...and recorded why, so showing the game does not replay it again.
    refusal = store.ranked_finish(attempt["id"]).refusal
    assert refusal is not None and "bot" in refusal
    with store.engine.connect() as connection:
        assert connection.execute(select(leaderboard_entries)).all() == []
    assert client.get("/api/leaderboard?board=daily").json()["entries"] == []


def count_replays(service: GameService, monkeypatch: Any) -> list[str]:
    """The ids of the games whose verifying replay ``service`` runs from now on (in its replay process), in order."""
    replays: list[str] = []
    replay = service.replay

    def counted(game: StoredGame, game_moves: list[str]) -> tuple[int, int] | str:
        replays.append(game.id)
        return replay(game, game_moves)

    monkeypatch.setattr(service, "replay", counted)
    return replays


def play_without_background(service: GameService, attempt: dict[str, Any], rng: random.Random) -> GameAnswer:
    """Play South's moves to the end through the service alone, as if every final-move background task was lost."""
    game, _ = service.store.game(attempt["id"])
    answer = service.show(game.player_id, game.id)
    while answer.state.winner is None:
        legal = answer.to_json()["view"]["legal"]
        answer = service.move(game.player_id, game.id, rng.choice(legal), answer.state.move_count)
    return answer


def test_a_game_whose_verification_was_lost_is_verified_on_the_next_show(make_client: Any, monkeypatch: Any) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    finished = play_without_background(client.app.state.service, attempt, random.Random(12))
    assert finished.leaderboard is None and finished.leaderboard_pending
    # The process is killed before its background task ran; a restarted one verifies on the next GET.
    restarted = make_client(secret="test-secret")  # Another app over the same database and secret.
    restarted.cookies.set("couyon_player", client.cookies["couyon_player"])
    replays = count_replays(restarted.app.state.service, monkeypatch)
    shown = restarted.get(f"/api/games/{attempt['id']}").json()
    assert replays == [attempt["id"]]
    assert shown["leaderboard"] == {
        "board": "daily",
        "rank": 1,
        "score": finished.state.score,
        "deals": finished.state.finished_deals[-1].number,
    }
    assert shown["leaderboard_pending"] is False
    assert restarted.get(f"/api/games/{attempt['id']}").json()["leaderboard"] == shown["leaderboard"]
    assert replays == [attempt["id"]]  # Entered once: later shows only read the entry.


def test_a_daily_game_finished_before_midnight_and_verified_after_it_counts(make_client: Any, clock: Any) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    clock.advance(dt.timedelta(hours=14, seconds=-1))  # 23:59:59 in Brussels on the challenge's day.
    finished = play_without_background(client.app.state.service, attempt, random.Random(13))
    assert finished.leaderboard_pending
    clock.advance(dt.timedelta(seconds=2))  # The verification happens on the next day.
    shown = client.get(f"/api/games/{attempt['id']}").json()
    assert shown["leaderboard"] is not None and shown["leaderboard"]["rank"] == 1
    board = client.get("/api/leaderboard?board=daily&day=2026-11-29").json()["entries"]
    assert [entry["finished_at"] for entry in board] == ["2026-11-29T22:59:59+00:00"]


def test_two_concurrent_verifications_enter_one_entry(make_client: Any, database_url: str) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    play_without_background(client.app.state.service, attempt, random.Random(14))
    # Two server processes (their own store and service) show the game at once, both past the replay.
    both_replayed = threading.Barrier(2, timeout=30)

    def replay_then_wait(game: StoredGame, game_moves: list[str]) -> tuple[int, int] | str:
        verdict = replay_check(game, game_moves)
        both_replayed.wait()
        return verdict

    stores = [Store(database_url) for _ in range(2)]
    clock = client.app.state.service.clock
    services = [GameService(store, b"test-secret", clock, replay=replay_then_wait) for store in stores]
    game, _ = stores[0].game(attempt["id"])
    places: list[Any] = []
    threads = [
        threading.Thread(target=lambda s=service: places.append(s.show(game.player_id, game.id).leaderboard))
        for service in services
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    for store in stores:
        store.close()
    assert len(places) == 2 and places[0] is not None and places[0] == places[1]
    with client.app.state.store.engine.connect() as connection:
        assert len(connection.execute(select(leaderboard_entries)).all()) == 1


def test_a_move_list_that_breaks_the_rules_cannot_be_played_on(make_client: Any) -> None:
    client = make_client()
    attempt = start_game(client, "daily")
    store = client.app.state.store
    with store.engine.begin() as connection:
        connection.execute(
            insert(moves).values(game_id=attempt["id"], number=attempt["view"]["move_number"], move="W:AS")
        )
    response = client.post(
        f"/api/games/{attempt['id']}/moves",
        json={"move": attempt["view"]["legal"][0], "move_number": attempt["view"]["move_number"]},
    )
    assert response.status_code == 409 and response.json()["error"]["code"] == "corrupt_game"


def test_the_day_follows_brussels_time_across_daylight_saving(make_client: Any, clock: Any) -> None:
    client = make_client()
    clock.now = dt.datetime(2026, 3, 28, 23, 30, tzinfo=dt.UTC)  # 00:30 CET on 29 March, the 23-hour day.
    status = client.get("/api/daily").json()
    assert status["day"] == "2026-03-29"
    assert status["seconds_left"] == 22 * 3600 + 30 * 60  # Midnight CEST is 22:00 UTC.
    clock.now = dt.datetime(2026, 3, 29, 22, 0, tzinfo=dt.UTC)
    assert client.get("/api/daily").json()["day"] == "2026-03-30"
    assert client.get("/api/daily/2026-03-29/seed").status_code == 200
