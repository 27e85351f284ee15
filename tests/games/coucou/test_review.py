"""GET /api/games/{id}/review of a coucou game: seat 1's choices beside the expert's, the other choice replayed,
nothing hidden in a daily's review before its day is over (SQLite and PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

from tests.server.helpers import new_game as start_game
from tests.server.helpers import play_to_end, send_move

from couyon.games.coucou.bots import BOTS, ExpertBot, bot_move
from couyon.games.coucou.cards import DECK_52, KING
from couyon.games.coucou.game import CHANGE, KEEP, GameState, Move, play, replay

HUMAN = 1


def stored(client: Any, game_id: str) -> tuple[Any, list[str], GameState]:
    """The stored game, its moves, and the game before its first move."""
    game, moves = client.app.state.store.game(game_id)
    options = json.loads(game.options)
    return game, moves, replay(game.seed, options["players"], options["tokens"], [])


def decisions(review: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {coup["number"]: coup["decision"] for coup in review["coups"] if coup["decision"] is not None}


def test_seat_one_playing_as_the_expert_costs_nothing(make_client: Any) -> None:
    client = make_client()
    answer = start_game(client, "free", game="coucou", options={"players": 5})
    game, _, state = stored(client, answer["id"])
    while answer["view"]["winner"] is None:
        _, moves = client.app.state.store.game(answer["id"])
        state = replay(game.seed, 5, 3, moves)
        move = bot_move(state, ExpertBot())
        response = send_move(client, answer, str(move.action))
        assert response.status_code == 200, response.text
        answer = response.json()
    response = client.get(f"/api/games/{answer['id']}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert (review["game"], review["expert"], review["bots"], review["revealed"]) == (
        "coucou",
        "expert/1",
        "expert/1",
        True,
    )
    assert (review["score"], review["place"]) == (answer["view"]["score"], answer["view"]["place"])
    _, moves = client.app.state.store.game(answer["id"])
    judged = decisions(review)
    assert len(judged) == sum(text.startswith("1:") for text in moves) > 0
    assert review["cost"] == 0 and all(d["cost"] == 0 and d["choice"] == d["expert_choice"] for d in judged.values())


def test_the_expert_and_the_other_choice_are_the_bots_and_the_engines(make_client: Any) -> None:
    client = make_client()
    client.app.state.service.new_seed = lambda: "coucou-review"  # a deal in which seat 1 may take the stock
    # Easy bots at the other seats: the other choice must be replayed with them, not with the expert.
    answer = start_game(client, "free", game="coucou", options={"players": 6, "level": "easy"})
    answer = play_to_end(client, answer, random.Random(3))
    game, moves, state = stored(client, answer["id"])
    assert game.bot_id == "easy/1"
    review = client.get(f"/api/games/{answer['id']}/review").json()
    assert review["bots"] == "easy/1"
    judged = decisions(review)
    showdowns = {coup["number"]: coup["showdown"] for coup in review["coups"]}
    by_hand = 0
    for text in moves:
        move = Move.parse(text)
        if move.seat == HUMAN:
            coup = state.coup
            decision = judged[coup.number]
            expert = bot_move(state, ExpertBot()).action
            assert decision["card"] == str(coup.card_of(HUMAN)) and decision["choice"] == str(move.action)
            assert decision["expert_choice"] == str(expert) and decision["cost"] == int(expert != move.action)
            assert decision["lost"] == (HUMAN in showdowns[coup.number]["losers"])
            other = CHANGE if move.action == KEEP else KEEP
            assert decision["other"]["choice"] == str(other)
            # The other choice, then every later speaker by the game's bot, to the showdown.
            then = play(state, Move(HUMAN, other))
            while then.winner is None and then.coup.number == coup.number:
                then = play(then, bot_move(then, BOTS["easy/1"]))
            ended = then.finished[-1]
            assert decision["other"]["lost"] == (HUMAN in (ended.losers or ()))
            assert decision["other"]["final"] == str(ended.card_of(HUMAN))
            position = coup.order.index(HUMAN)
            if position == len(coup.order) - 2 and other == CHANGE and coup.stock.rank != KING:
                # By hand: the last to speak takes the stock's card; the others' cards are final already.
                by_hand += 1
                ranks = [card.rank for card in coup.cards]
                ranks[position] = coup.stock.rank
                assert decision["other"] == {
                    "choice": "change",
                    "outcome": "stock",
                    "final": str(coup.stock),
                    "lost": ranks[position] == min(ranks) < max(ranks),
                }
        state = play(state, move)
    assert len(judged) == sum(text.startswith("1:") for text in moves)
    assert review["cost"] == sum(d["cost"] for d in judged.values())
    assert [coup["number"] for coup in review["coups"]] == [c.number for c in state.finished if HUMAN in c.order]
    for coup in review["coups"]:
        finished = state.finished[coup["number"] - 1]
        ranks = [card.rank for card in finished.cards]
        assert coup["showdown"]["cards"] == {
            str(s): str(c) for s, c in zip(finished.order, finished.cards, strict=True)
        }
        assert coup["showdown"]["losers"] == list(finished.losers or ())
        assert (min(ranks) < max(ranks)) == bool(coup["showdown"]["losers"])
    # Seat 1 spoke last (before the dealer) in some coup, with the stock's card not a king.
    assert by_hand > 0


def test_a_daily_coucou_review_hides_the_cards_until_the_day_is_over(make_client: Any, clock: Any) -> None:
    client = make_client()
    answer = play_to_end(client, start_game(client, "daily", game="coucou"), random.Random(5))
    hidden = client.get(f"/api/games/{answer['id']}/review")
    assert hidden.status_code == 200, hidden.text
    review = hidden.json()
    game, _, _ = stored(client, answer["id"])
    assert review["revealed"] is False and review["day"] == "2026-11-29" and game.seed not in hidden.text
    cards = {str(card) for card in DECK_52}
    for coup in review["coups"]:
        decision = coup["decision"]
        assert decision is None or set(decision) == {"card", "choice", "expert_choice", "cost", "outcome"}
        # Seat 1's own card and what the whole table saw at the showdown; no discard, no stock left face down.
        seen = set(coup["showdown"]["cards"].values()) | {coup["showdown"]["stock"]}
        seen |= set() if decision is None else {decision["card"]}
        assert set(json.dumps(coup).split('"')) & cards <= seen
    clock.advance(dt.timedelta(hours=15))  # Past midnight in Brussels: the day is over.
    revealed = client.get(f"/api/games/{answer['id']}/review").json()
    assert revealed["revealed"] is True
    assert all("other" in decision and "lost" in decision for decision in decisions(revealed).values())
