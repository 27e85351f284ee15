"""The puzzles' routes: only the seat's view before the answer, one answer per player and puzzle, every refusal one
sentence with its status, the day's puzzle the same for everyone, and an answer as slow right or wrong."""

from __future__ import annotations

import datetime as dt
import time
from functools import cache
from typing import Any

from couyon.common.puzzles import MinedGame, Puzzle
from couyon.registry import GAMES
from couyon.store.puzzles import PuzzleStore

MINER = GAMES["couyon"].puzzles
assert MINER is not None


@cache
def sources() -> tuple[tuple[str, MinedGame], ...]:
    """Seeded couyon games with at least three puzzles among them."""
    found: list[tuple[str, MinedGame]] = []
    index = 0
    while sum(len(mined.puzzles) for _, mined in found) < 3:
        seed = f"api:{index}"
        found.append((seed, MINER.mine(seed)))
        index += 1
    return tuple(found)


def stocked(client: Any) -> list[Puzzle]:
    puzzles = PuzzleStore(client.app.state.store)
    for seed, mined in sources():
        puzzles.add_mined("couyon", seed, mined)
    return [puzzle for _, mined in sources() for puzzle in mined.puzzles]


def refusal(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    message = response.json()["error"]["message"]
    assert message.endswith(".") and "Traceback" not in message
    return str(message)


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *map(strings, value.values()), *map(strings, value.keys()))
    if isinstance(value, list):
        return set().union(set(), *map(strings, value))
    return set()


def test_a_puzzle_is_asked_then_answered_once(make_client: Any) -> None:
    client = make_client()
    puzzles = {puzzle.id: puzzle for puzzle in stocked(client)}
    asked = client.get("/api/puzzles/next", params={"game": "couyon"})
    assert asked.status_code == 200
    question = asked.json()["puzzle"]
    # No themes before the answer: keep-trump or lead-trump would say which cards are best.
    assert set(question) == {"id", "game", "seat", "view", "rating"}
    assert asked.json()["player_rating"] == {"rating": 1500, "deviation": 500, "volatility": 0.09, "provisional": True}
    puzzle = puzzles[question["id"]]
    hidden = MINER.hidden_cards(puzzle)
    assert not hidden & strings({key: value for key, value in question["view"].items() if key != "deal_log"})
    assert puzzle.seed not in strings(asked.json())
    wrong = next(value.card for value in puzzle.values if value.card not in puzzle.best)
    answered = client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": wrong})
    assert answered.status_code == 200
    body = answered.json()
    assert body["correct"] is False and body["best"] == list(puzzle.best) and body["themes"] == list(puzzle.themes)
    assert body["layout"] == puzzle.failures[wrong] and body["source"]["seed"] == puzzle.seed
    assert body["source"]["moves"] == list(puzzle.moves)
    assert body["player_rating"]["rating"] < 1500
    again = client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": puzzle.best[0]})
    assert refusal(again, 409) == "You have answered this puzzle already: only the first answer counts."
    mine = client.get("/api/puzzles/me", params={"game": "couyon"}).json()
    assert mine["rating"] == body["player_rating"]
    assert [(item["puzzle"], item["card"], item["correct"]) for item in mine["answers"]] == [(puzzle.id, wrong, False)]
    assert mine["answers"][0]["rating"] == body["player_rating"]
    assert make_client().get("/api/puzzles/me", params={"game": "couyon"}).json()["answers"] == []
    following = client.get("/api/puzzles/next", params={"game": "couyon"}).json()["puzzle"]["id"]
    assert following != puzzle.id
    # Another player finds the best card.
    other = make_client()
    right = other.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": puzzle.best[0]}).json()
    assert right["correct"] is True and right["layout"] is None and right["player_rating"]["rating"] > 1500


def test_every_refusal_is_one_sentence(make_client: Any) -> None:
    client = make_client()
    puzzle = stocked(client)[0]
    assert refusal(client.post("/api/puzzles/nope/answer", json={"card": "AS"}), 404) == "There is no puzzle 'nope'."
    illegal = refusal(client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": "XX"}), 409)
    assert illegal.startswith("'XX' is not a card the seat may play here")
    refusal(client.post(f"/api/puzzles/{puzzle.id}/answer", json={}), 422)
    refusal(client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": 3}), 422)
    refusal(client.get("/api/puzzles/next", params={"game": "whist"}), 422)
    assert refusal(client.get("/api/puzzles/next", params={"game": "coucou"}), 404) == "Coucou has no puzzles yet."
    # Nothing of those was recorded: the first real answer still counts.
    assert client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": puzzle.best[0]}).json()["correct"] is True


def test_the_days_puzzle_is_everyones_and_is_over_the_next_day(make_client: Any, clock: Any) -> None:
    first, second = make_client(), make_client()
    stocked(first)
    day = first.get("/api/puzzles/daily", params={"game": "couyon"}).json()
    assert day["day"] == "2026-11-29" and day["answered"] is False
    assert second.get("/api/puzzles/daily", params={"game": "couyon"}).json()["puzzle"] == day["puzzle"]
    puzzle_id = day["puzzle"]["id"]
    card = day["puzzle"]["view"]["legal"][0]
    assert first.post(f"/api/puzzles/{puzzle_id}/answer", json={"card": card}).json()["daily"] == "2026-11-29"
    assert first.get("/api/puzzles/daily", params={"game": "couyon"}).json()["answered"] is True
    clock.advance(dt.timedelta(days=1))
    late = second.post(f"/api/puzzles/{puzzle_id}/answer", json={"card": card})
    assert refusal(late, 410) == "The puzzle of 2026-11-29 is over: today's puzzle is another one."


def test_an_answer_takes_as_long_right_or_wrong(make_client: Any) -> None:
    client = make_client(answer_floor_ms=None)
    puzzles = stocked(client)
    for puzzle, right in ((puzzles[0], True), (puzzles[1], False)):
        card = puzzle.best[0] if right else next(value.card for value in puzzle.values if value.card not in puzzle.best)
        started = time.monotonic()
        assert client.post(f"/api/puzzles/{puzzle.id}/answer", json={"card": card}).json()["correct"] is right
        assert time.monotonic() - started >= 0.1


def test_answers_count_against_the_moves_budget(make_client: Any) -> None:
    # An answer is a player's write (and may make a new player): it spends the moves' budget, not the reads'.
    client = make_client(rate_moves_per_minute=1)
    first, second, third = stocked(client)[:3]
    # The first answer makes the player (its cookie); his next answers are counted against him.
    assert client.post(f"/api/puzzles/{first.id}/answer", json={"card": first.best[0]}).status_code == 200
    assert client.post(f"/api/puzzles/{second.id}/answer", json={"card": second.best[0]}).status_code == 200
    refusal(client.post(f"/api/puzzles/{third.id}/answer", json={"card": third.best[0]}), 429)
    assert client.get("/api/puzzles/next", params={"game": "couyon"}).status_code == 200
