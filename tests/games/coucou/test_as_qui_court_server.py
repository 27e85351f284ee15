"""As qui court over the API: its own game id, served, levelled, ranked on boards of its own, verified by replay
(``coucou-record/2`` with its variant), its daily challenge with its own seed, its review and day's results; and
coucou's games still replay their version-1 bots exactly."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import random
from typing import Any

import pytest
from tests.server.helpers import new_game, play_to_end, send_move

from couyon.games.coucou.bots import AQC_BOTS, BOTS, bot_move
from couyon.games.coucou.game import AS_QUI_COURT, replay
from couyon.registry import GAMES, verify_record
from couyon.server.games import kind_of, replay_check

DAY = "2026-11-29"
GAME = "as-qui-court"
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
"""The store's two backends are covered by the whole games; the rest asks the server, not the store."""


def truth(client: Any, game_id: str) -> tuple[Any, list[str], Any]:
    loaded = client.app.state.store.game(game_id)
    assert loaded is not None
    game, moves = loaded
    options = json.loads(game.options)
    return game, moves, replay(game.seed, options["players"], options["tokens"], moves, AS_QUI_COURT)


@pytest.mark.parametrize(
    ("database_url", "players"), [("sqlite", 5), ("sqlite", 20), ("postgres", 5)], indirect=["database_url"]
)
def test_a_whole_game_at_five_and_twenty_seats_is_served_verified_and_boarded(make_client: Any, players: int) -> None:
    client = make_client()
    client.put("/api/player", json={"name": "Méry"})
    boarded: list[int] = []
    for seed in (players,):
        answer = new_game(client, game=GAME, options={"players": players, "tokens": 1})
        assert answer["game"] == GAME and answer["bot"] == "expert/2" and answer["view"]["game"] == GAME
        rng, kinds = random.Random(seed), {event["type"] for event in answer["events"]}
        while answer["view"]["winner"] is None:
            view = answer["view"]
            coup = view["coup"]
            assert "kings_shown" in coup and "dealer_has_move" in coup and coup["discards"] == []
            for shown in coup["kings_shown"]:  # public: every king shown is seat 1's to see
                assert shown["card"][:-1] == "K"
                assert shown["seat"] == 1 or coup["known"].get(str(shown["seat"])) == shown["card"]
            # Seat 1 is asked only when it may speak: the dealer only once handed an ace (ruling 22).
            if coup["position"] == len(coup["order"]) - 1:
                assert coup["dealer_has_move"] is True and coup["card"][:-1] == "A"
            response = send_move(client, answer, rng.choice(view["legal"]))
            assert response.status_code == 200, response.text
            kinds |= {event["type"] for event in response.json()["events"]}
            answer = response.json()
        assert "coucou" not in kinds and {"showdown", "game_over"} <= kinds
        for event in (event for event in answer["events"] if event["type"] == "king-shown"):
            assert event["king"][:-1] == "K"  # a shown king is public: its card is in the event
        game, moves, state = truth(client, answer["id"])
        assert game.variant == GAME and kind_of(game).id == GAME and state.is_over
        document = client.get(f"/api/games/{answer['id']}/record").json()
        assert (document["format"], document["variant"], document["bots"]) == ("coucou-record/2", GAME, "expert/2")
        report = verify_record(json.dumps(document))
        assert report["valid"] and report["variant"] == GAME and report["finished"]
        assert (report["score"], report["place"]) == (answer["view"]["score"], answer["view"]["place"])
        assert replay_check(game, moves) == (state.score, answer["events"][-1]["survived"])
        # A bot move turned around is refused by the verifying replay, naming the move.
        index, move = next((i, move) for i, move in enumerate(moves) if not move.startswith("1:"))
        seat, action = move.split(":")
        altered = [*moves[:index], f"{seat}:{'keep' if action == 'change' else 'change'}", *moves[index + 1 :]]
        refusal = replay_check(game, altered)
        assert isinstance(refusal, str) and refusal.startswith(f"move {index} ")
        shown = client.get(f"/api/games/{answer['id']}").json()
        # With one token seat 1 can be out before he speaks (dealer of coup 1, not handed an ace, lowest): the
        # game then ends in its creation, and is ranked all the same.
        assert shown["leaderboard"]["board"] == "free"
        boarded.append(players)
    board = client.get(f"/api/leaderboard?game={GAME}&board=free").json()["entries"]
    assert [line["players"] for line in board] == boarded and all(line["name"] == "Méry" for line in board)
    assert client.get("/api/leaderboard?game=coucou&board=free").json()["entries"] == []  # its own boards


def dealt_out_before_speaking(seed: str) -> bool:
    """Whether the table's bots end a 5-seat, one-token game of ``seed`` before seat 1 has a move."""
    kind = GAMES[GAME]
    state = kind.new_game(seed, {"players": 5, "tokens": 1})
    bot = kind.bot(kind.table_bot_id)
    while not kind.engine.is_over(state) and not kind.human_may_move(state):
        state = kind.engine.play(state, kind.engine.bot_move(state, bot))
    return bool(kind.engine.is_over(state))


@SQLITE_ONLY
def test_a_game_the_bots_end_before_seat_1_speaks_is_ranked(make_client: Any) -> None:
    """Seat 1, first dealer with one token, not handed an ace and lowest, is out before his first move: the game
    ends in the request that creates it, and is verified and boarded as one ended by a move."""
    seed = next(f"dealt-out-{n}" for n in range(2000) if dealt_out_before_speaking(f"dealt-out-{n}"))
    client = make_client()
    client.put("/api/player", json={"name": "Méry"})
    client.app.state.service.new_seed = lambda: seed
    answer = new_game(client, game=GAME, options={"players": 5, "tokens": 1})
    assert answer["view"]["winner"] is not None and answer["leaderboard_pending"] is True
    shown = client.get(f"/api/games/{answer['id']}").json()
    assert shown["leaderboard"]["board"] == "free"
    board = client.get(f"/api/leaderboard?game={GAME}&board=free").json()["entries"]
    assert [line["name"] for line in board] == ["Méry"]


@SQLITE_ONLY
def test_levels_catalog_and_hints_are_its_own(make_client: Any) -> None:
    client = make_client()
    for level in ("easy", "normal", "expert"):
        answer = new_game(client, game=GAME, options={"players": 9, "tokens": 2, "level": level})
        assert answer["bot"] == f"{level}/2" and answer["options"] == {"level": level, "players": 9, "tokens": 2}
    games = client.get("/api/catalog").json()["games"]
    entry = next(game for game in games if game["id"] == GAME)
    assert entry == GAMES[GAME].describe() and entry["names"] == {"fr": "As qui court", "en": "As qui court"}
    assert entry["record_format"] == "coucou-record/2" and entry["rules"] == "#/rules/as-qui-court"
    assert entry["options"] == next(game for game in games if game["id"] == "coucou")["options"]
    assert entry["hints"] is True
    answer = new_game(client, game=GAME)
    hint = client.post(f"/api/games/{answer['id']}/hint", json={"move_number": answer["view"]["move_number"]})
    assert hint.status_code == 200, hint.text
    _, _, state = truth(client, answer["id"])
    assert hint.json()["move"] == str(bot_move(state, AQC_BOTS["expert/2"]).action)


@SQLITE_ONLY
def test_its_daily_has_its_own_seed_board_review_and_results(make_client: Any, clock: Any) -> None:
    marie, jules = make_client(), make_client()
    daily = new_game(marie, "daily", game=GAME, options={"players": 20})
    assert daily["options"] == {"level": "expert", "players": 8, "tokens": 3} and daily["bot"] == "expert/2"
    assert marie.get(f"/api/daily?game={GAME}").json()["game_id"] == daily["id"]
    assert marie.get("/api/daily?game=coucou").json()["game_id"] is None
    finished = [
        play_to_end(marie, daily, random.Random(1)),
        play_to_end(jules, new_game(jules, "daily", game=GAME), random.Random(9)),
    ]
    for client, answer in zip((marie, jules), finished, strict=True):
        assert client.get(f"/api/games/{answer['id']}").json()["leaderboard"]["board"] == "daily"
    board = marie.get(f"/api/leaderboard?board=daily&day={DAY}&game={GAME}").json()["entries"]
    assert sorted(line["score"] for line in board) == sorted(answer["view"]["score"] for answer in finished)
    review = marie.get(f"/api/games/{daily['id']}/review").json()
    assert review["game"] == GAME and review["variant"] == GAME and review["expert"] == "expert/2"
    assert "other" not in json.dumps(review)  # the day is not over: no other choice shown
    clock.advance(dt.timedelta(days=1))
    seed = marie.get(f"/api/daily/{DAY}/seed?game={GAME}").json()["seed"]
    assert seed == hmac.new(b"test-secret", f"daily:{GAME}:{DAY}".encode(), hashlib.sha256).hexdigest()[:32]
    results = marie.get(f"/api/daily/results?game={GAME}&day={DAY}").json()
    assert results["players"] == 2 and results["traveller"][0]["coup"] == 1
    assert results["traveller"][0]["games"] == 2
    revealed = marie.get(f"/api/games/{daily['id']}/review").json()
    decisions = [coup["decision"] for coup in revealed["coups"] if coup["decision"] is not None]
    assert decisions and all("other" in decision for decision in decisions)


def test_coucou_games_still_replay_their_version_1_bots() -> None:
    """A coucou game's stored bots are expert/1 (and easy/1, normal/1): unchanged by the variant's bots."""
    coucou = GAMES["coucou"]
    assert coucou.bots == BOTS and set(BOTS) == {"easy/1", "normal/1", "expert/1"}
    assert set(AQC_BOTS) == {"easy/2", "normal/2", "expert/2"} and GAMES[GAME].bots == AQC_BOTS
    # Three coucou games played by the version-1 bots, pinned by the moves they made before the variant's bots.
    for level in ("easy", "normal", "expert"):
        state = coucou.new_game("pinned", {"players": 8, "tokens": 1, "level": level})
        moves = []
        while not state.is_over:
            move = bot_move(state, BOTS[f"{level}/1"])
            moves.append(str(move))
            state = coucou.engine.play(state, move)
        # Version 2 plays a coucou coup exactly as version 1.
        again = coucou.new_game("pinned", {"players": 8, "tokens": 1})
        for text in moves:
            assert str(bot_move(again, AQC_BOTS[f"{level}/2"])) == text
            again = coucou.engine.play(again, coucou.engine.parse_move(text, {}))
        assert PINNED[level] == (len(moves), state.winner), (level, len(moves), state.winner)


PINNED = {"easy": (23, 8), "normal": (23, 8), "expert": (28, 2)}
"""(moves, winner) of the game "pinned" at 8 players with 1 token by each version-1 level, measured on main at d1424a5
(before the variant's bots): a change to a version-1 bot changes them."""
