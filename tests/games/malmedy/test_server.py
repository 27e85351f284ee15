"""The couyon de Malmedy over the API, on SQLite and PostgreSQL: whole games, daily challenges and
leaderboards of their own, the catalogue, and every refusal of a move that belongs to another game
or breaks the mite and contra rules (one sentence, the right status, nothing stored)."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text
from tests.server.helpers import Answer, new_game, play_to_end, send_move

from couyon.games.couyon.cards import CARD_BY_CODE, Seat, cards_of
from couyon.games.couyon.game import Move, play
from couyon.games.malmedy.record import verify
from couyon.registry import GAMES
from couyon.server.games import kind_of
from couyon.store import Store

DAY = "2026-11-29"


def assert_refused(response: Any, status: int, code: str, message: str) -> None:
    assert response.status_code == status, response.text
    assert response.json() == {"error": {"code": code, "message": message}}


# -- South's knowledge, from the database --------------------------------------------------------


def truth(store: Store, game_id: str) -> tuple[list[str], Any, dict[int, set[str]], dict[int, set[str]]]:
    """The stored moves, the state they fold to, South's five cards and the cards played, per deal."""
    loaded = store.game(game_id)
    assert loaded is not None
    game, moves = loaded
    state = kind_of(game).new_game(game.seed)
    south: dict[int, set[str]] = {}
    played: dict[int, set[str]] = {}

    def note(current: Any) -> None:
        number = current.deal.number
        south.setdefault(number, {str(card) for card in cards_of(current.deal.hands[Seat.S])})
        played.setdefault(number, set())

    note(state)
    for written in moves:
        move = Move.parse(written)
        if move.card is not None:
            played[state.deal.number].add(str(move.card))
        state = play(state, move)
        note(state)
    return moves, state, south, played


def cards_in(document: Any) -> set[str]:
    if isinstance(document, str):
        return {document} if document in CARD_BY_CODE else set()
    if isinstance(document, dict):
        assert not {"seed", "hands", "deck", "talon"} & set(document), sorted(document)
        assert not isinstance(document.get("blind", 0), list | str), "the blind is only ever counted"
        return set().union(set(), *(cards_in(value) for value in document.values()))
    if isinstance(document, list):
        return set().union(set(), *(cards_in(value) for value in document))
    return set()


def malmedy_move_of(event: dict[str, Any]) -> str | None:
    """The record spelling of the move a Malmedy event tells, or None for an event that is no move."""
    seat = event.get("seat")
    return {
        "trump": f"{seat}:trump-{event.get('suit')}",
        "mite": f"{seat}:mite",
        "answer": f"{seat}:{event.get('answer')}",
        "card": f"{seat}:{event.get('card')}",
    }.get(event["type"])


def check_answer(store: Store, before: Answer | None, raw: str) -> None:
    """South sees its hand and the cards played, nothing else; the events are exactly the new moves."""
    answer = json.loads(raw)
    moves, state, south, played = truth(store, answer["id"])
    game, _ = store.game(answer["id"])  # type: ignore[misc]
    assert game.seed not in raw
    view = answer["view"]
    assert answer["game"] == view["game"] == "malmedy"
    number = view["deal"]["number"]
    deal = state.deal
    shown = deal.hands[Seat.S] if deal.trump is not None else deal.first_cards[Seat.S]
    assert set(view["hand"]) == {str(card) for card in cards_of(shown)}
    if view["deal"]["trump"] is None and view["winner"] is None:
        # Before the trump is named, only the first three cards of each hand exist for anyone.
        assert len(view["hand"]) == 3 and set(view["hand_sizes"].values()) == {3}
    assert cards_in(view) <= south[number] | played[number]
    deal_number = number - sum(1 for event in answer["events"] if event["type"] == "deal_start")
    for event in answer["events"]:
        if event["type"] == "deal_start":
            deal_number = event["number"]
        assert cards_in(event) <= played[deal_number], event
    told = [malmedy_move_of(event) for event in answer["events"]]
    first = 0 if before is None else before["view"]["move_number"]
    assert [move for move in told if move is not None] == moves[first:]
    assert sum(1 for event in answer["events"] if "seat" in event) == len(moves) - first
    assert view["move_number"] == len(moves)


# -- whole games -----------------------------------------------------------------------------------


def test_a_whole_malmedy_game_over_the_api(make_client: Any) -> None:
    client = make_client()
    store = client.app.state.store
    client.put("/api/player", json={"name": "Marie"})
    created = client.post("/api/games", json={"mode": "free", "game": "malmedy"})
    assert created.status_code == 201, created.text
    check_answer(store, None, created.text)
    answer = created.json()
    assert answer["bot"] == GAMES["malmedy"].table_bot_id
    assert answer["view"]["lines"] == {"NS": 13, "WE": 13}
    rng, kinds = random.Random(2026), set()
    while answer["view"]["winner"] is None:
        response = send_move(client, answer, rng.choice(answer["view"]["legal"]))
        assert response.status_code == 200, response.text
        check_answer(store, answer, response.text)
        kinds |= {event["type"] for event in response.json()["events"]}
        answer = response.json()
        assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
    assert {"trump", "card", "trick", "deal_end", "deal_start", "game_over"} <= kinds
    over = answer["events"][-1]
    assert over == {
        "type": "game_over",
        "winner": answer["view"]["winner"],
        "score": answer["view"]["score"],
        "deals": answer["view"]["deal_log"][-1]["number"],
    }
    lines = answer["view"]["lines"]
    own, other = (lines["NS"], lines["WE"])
    assert answer["view"]["score"] == 1000 + 100 * (other - own)
    # The record replays as a Malmedy game to what South saw.
    record = client.get(f"/api/games/{answer['id']}/record")
    assert record.status_code == 200
    assert record.json()["variant"] == "malmedy" and record.json()["bots"] == answer["bot"]
    report = verify(record.content)
    assert report["valid"] and (report["winner"], report["score"]) == (answer["view"]["winner"], over["score"])
    # The verifying replay (the Malmedy bots, by the stored id) enters the Malmedy board only.
    assert answer["leaderboard_pending"] is True
    shown = client.get(f"/api/games/{answer['id']}").json()
    assert shown["leaderboard"] == {"board": "free", "rank": 1, "score": over["score"], "deals": over["deals"]}
    board = client.get("/api/leaderboard?game=malmedy&board=free").json()
    assert [(entry["name"], entry["score"]) for entry in board["entries"]] == [("Marie", over["score"])]
    assert client.get("/api/leaderboard?board=free").json()["entries"] == []
    assert client.get("/api/leaderboard?game=couyon&board=free").json()["entries"] == []


def test_a_client_that_names_no_game_plays_couyon(make_client: Any) -> None:
    client = make_client()
    answer = new_game(client)
    assert answer["game"] == answer["view"]["game"] == "couyon" and answer["view"]["lines"] == {"NS": 5, "WE": 5}
    named = new_game(client, game="couyon")
    assert named["game"] == "couyon" and named["bot"] == answer["bot"] == GAMES["couyon"].table_bot_id


def test_the_catalog_lists_every_game_of_the_registry_in_order(make_client: Any) -> None:
    catalog = make_client(table_bot="malmedy=random/1").get("/api/catalog")
    assert catalog.status_code == 200
    document = catalog.json()
    assert document["default"] == "couyon"
    assert [game["id"] for game in document["games"]] == list(GAMES)
    assert list(GAMES)[:2] == ["couyon", "malmedy"]  # couyon first, its variant next
    for listed, kind in zip(document["games"], GAMES.values(), strict=True):
        expected = kind.describe() | {"table_bot": "random/1" if kind.id == "malmedy" else kind.table_bot_id}
        assert listed == expected
    malmedy = document["games"][1]
    assert malmedy["variant"] == "malmedy" and malmedy["names"]["fr"] == "Couyon de Malmedy"


# -- the daily challenge of each game ----------------------------------------------------------------


def test_each_game_has_its_own_daily_challenge_seed_and_board(make_client: Any, clock: Any) -> None:
    marie, jules = make_client(), make_client()
    couyon = new_game(marie, "daily")
    malmedy = new_game(marie, "daily", game="malmedy")
    assert couyon["id"] != malmedy["id"] and (couyon["game"], malmedy["game"]) == ("couyon", "malmedy")
    assert couyon["ranked"] and malmedy["ranked"] and malmedy["day"] == DAY
    # One ranked attempt per game: asking again resumes each one.
    for fields, attempt in (({}, couyon), ({"game": "couyon"}, couyon), ({"game": "malmedy"}, malmedy)):
        again = marie.post("/api/games", json={"mode": "daily", **fields})
        assert again.status_code == 200 and again.json()["id"] == attempt["id"]
    assert marie.get("/api/daily").json()["game_id"] == couyon["id"]
    assert marie.get("/api/daily?game=couyon").json()["game_id"] == couyon["id"]
    status = marie.get("/api/daily?game=malmedy").json()
    assert status == {"day": DAY, "seconds_left": 14 * 3600, "game_id": malmedy["id"], "finished": False}
    assert jules.get("/api/daily?game=malmedy").json()["game_id"] is None
    # Another player gets the same Malmedy deals.
    other = new_game(jules, "daily", game="malmedy")
    assert {k: v for k, v in other.items() if k != "id"} == {k: v for k, v in malmedy.items() if k != "id"}
    # Finishing the Malmedy attempt enters the Malmedy daily board, not the couyon one.
    finished = play_to_end(marie, malmedy, random.Random(5))
    shown = marie.get(f"/api/games/{malmedy['id']}").json()
    assert shown["leaderboard"] is not None and shown["leaderboard"]["board"] == "daily"
    assert marie.get("/api/daily?game=malmedy").json()["finished"] is True
    assert marie.get("/api/daily").json()["finished"] is False
    board = marie.get(f"/api/leaderboard?board=daily&day={DAY}&game=malmedy").json()
    assert [entry["score"] for entry in board["entries"]] == [finished["view"]["score"]]
    # Couyon's board of the day is hidden from Marie, who has not played it (issue 19, item 5); it holds nothing.
    assert marie.get(f"/api/leaderboard?board=daily&day={DAY}").json()["error"]["code"] == "results_hidden"
    assert marie.app.state.store.leaderboard("daily", dt.date(2026, 11, 29), 50, "couyon") == []
    # Seeds differ per game, stay secret until the day is over, and couyon's are those published before.
    for query in ("", "?game=couyon", "?game=malmedy"):
        assert marie.get(f"/api/daily/{DAY}/seed{query}").status_code == 403
    clock.advance(dt.timedelta(hours=15))
    seeds = {query: marie.get(f"/api/daily/{DAY}/seed{query}").json()["seed"] for query in ("", "?game=malmedy")}
    assert seeds[""] == marie.get(f"/api/daily/{DAY}/seed?game=couyon").json()["seed"]
    assert seeds[""] == hmac.new(b"test-secret", f"daily:{DAY}".encode(), hashlib.sha256).hexdigest()[:32]
    assert (
        seeds["?game=malmedy"]
        == hmac.new(b"test-secret", f"daily:malmedy:{DAY}".encode(), hashlib.sha256).hexdigest()[:32]
    )
    assert marie.get(f"/api/games/{malmedy['id']}/record").json()["seed"] == seeds["?game=malmedy"]


# -- refusals ------------------------------------------------------------------------------------------


class Tables:
    """A client whose Malmedy tables have random/1 bots (they double half the time) and whose games are dealt
    from the seeds ``refusals:1``, ``refusals:2``, …: positions are found by trying seeds, the same ones each run."""

    def __init__(self, client: Any) -> None:
        self.client = client
        self.dealt = 0
        client.app.state.service.new_seed = self.next_seed

    def next_seed(self) -> str:
        self.dealt += 1
        return f"refusals:{self.dealt}"

    def first_card_turn(self) -> Answer | None:
        """A new Malmedy game played up to South's first card of the first deal (None if a bot's mite asks first)."""
        answer = new_game(self.client, game="malmedy")
        if answer["view"]["phase"] == "choosing":
            answer = send_move(self.client, answer, "trump-H").json()
        view = answer["view"]
        assert view["phase"] == "playing" and len(view["hand"]) == 5 and view["deal"]["number"] == 1
        return answer if view["deal"]["asking"] is None else None

    def find(self, wanted: Callable[[Answer], bool]) -> Answer:
        for _ in range(200):
            answer = self.first_card_turn()
            if answer is not None and wanted(answer):
                return answer
        raise AssertionError("none of 200 new games reaches this position")


@pytest.fixture
def tables(make_client: Any) -> Tables:
    return Tables(make_client(table_bot="malmedy=random/1"))


def stored_moves(client: Any, answer: Answer) -> list[str]:
    loaded = client.app.state.store.game(answer["id"])
    assert loaded is not None
    return list(loaded[1])


def refuse(client: Any, answer: Answer, move: str, status: int, code: str, message: str) -> None:
    """``move`` is refused with ``message`` and leaves the stored game and South's view as they were."""
    before = stored_moves(client, answer)
    assert_refused(send_move(client, answer, move), status, code, message)
    assert stored_moves(client, answer) == before
    assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]


def test_a_move_of_the_other_game_is_refused(tables: Tables) -> None:
    client = tables.client
    couyon = new_game(client)
    if couyon["view"]["phase"] == "bidding":
        refuse(client, couyon, "mite", 409, "illegal_move", "S cannot play mite during the bidding: take or pass.")
        message = "S cannot play trump-H during the bidding: take or pass."
        refuse(client, couyon, "trump-H", 409, "illegal_move", message)
    else:
        message = "S cannot mite now: the bidding is over and a card must be played."
        refuse(client, couyon, "mite", 409, "illegal_move", message)
    refuse(client, couyon, "XX", 422, "invalid_move", "'XX' is not a move: send take, pass or a card like AH or 10C.")
    chooser = next(
        answer
        for answer in (new_game(client, game="malmedy") for _ in range(40))
        if answer["view"]["phase"] == "choosing"
    )
    assert chooser["view"]["legal"] == ["trump-C", "trump-D", "trump-H", "trump-S"]
    message = "S must first name the trump: trump-C, trump-D, trump-H or trump-S."
    refuse(client, chooser, "take", 409, "illegal_move", message)
    refuse(client, chooser, "AH", 409, "illegal_move", message)
    playing = tables.find(lambda answer: True)
    refuse(client, playing, "take", 409, "illegal_move", "S cannot take now: a card must be played.")
    refuse(client, playing, "pass", 409, "illegal_move", "S cannot pass now: a card must be played.")
    message = (
        "'XX' is not a move: send trump-C, trump-D, trump-H, trump-S, mite, contra, recontra, pass or a card like "
        "AH or 10C."
    )
    refuse(client, playing, "XX", 422, "invalid_move", message)


def test_a_mite_without_the_queen_of_spades_or_after_the_first_card_is_refused(tables: Tables) -> None:
    client = tables.client
    without = tables.find(lambda answer: "QS" not in answer["view"]["hand"])
    assert "mite" not in without["view"]["legal"]
    refuse(client, without, "mite", 409, "illegal_move", "S cannot announce mite without the queen of spades.")
    holding = tables.find(lambda answer: "mite" in answer["view"]["legal"])
    card = next(card for card in holding["view"]["legal"] if card not in ("mite", "QS"))
    after = send_move(client, holding, card).json()
    assert after["view"]["deal"]["number"] == 1 and "QS" in after["view"]["hand"]
    assert "mite" not in after["view"]["legal"]
    refuse(client, after, "mite", 409, "illegal_move", "S can announce mite only just before his first card.")


def test_contra_belongs_to_the_announcers_left_and_recontra_to_the_announcer(tables: Tables) -> None:
    client = tables.client
    holding = tables.find(lambda answer: "mite" in answer["view"]["legal"])
    refuse(client, holding, "contra", 409, "illegal_move", "S cannot contra now: a card must be played.")
    refuse(client, holding, "recontra", 409, "illegal_move", "S cannot recontra now: a card must be played.")
    # South announces; West, at the announcer's left, answers. After West's contra South may only redouble or pass.
    for _ in range(60):
        answered = send_move(client, holding, "mite").json()
        if answered["view"]["deal"]["asking"] == "recontra":
            break
        holding = tables.find(lambda answer: "mite" in answer["view"]["legal"])
    else:
        raise AssertionError("West never doubled")
    assert [event for event in answered["events"] if event["type"] in ("mite", "answer")] == [
        {"type": "mite", "seat": "S"},
        {"type": "answer", "seat": "W", "answer": "contra"},
    ]
    assert answered["view"]["legal"] == ["recontra", "pass"] and answered["view"]["deal"]["mite"] == "S"
    for wrong in ("contra", "mite", "QS"):
        refuse(client, answered, wrong, 409, "illegal_move", "S must answer the contra: recontra or pass.")
    # "recontra" (8 characters; "S:recontra" is 10 in the store) is read, played and stored.
    doubled = send_move(client, answered, "recontra")
    assert doubled.status_code == 200, doubled.text
    assert stored_moves(client, answered)[answered["view"]["move_number"]] == "S:recontra"
    assert doubled.json()["view"]["deal"]["contra"] == 2 and "QS" in doubled.json()["view"]["trumps"]


def test_an_unknown_game_is_refused_in_one_sentence(make_client: Any) -> None:
    client = make_client()
    games = " and ".join(", ".join(GAMES).rsplit(", ", 1))
    assert games.startswith("couyon, malmedy, ")
    message = f"There is no game 'tarot' here: the games are {games}."
    assert_refused(client.post("/api/games", json={"mode": "free", "game": "tarot"}), 422, "invalid_fields", message)
    assert_refused(client.get("/api/daily?game=tarot"), 422, "invalid_fields", message)
    assert_refused(client.get(f"/api/daily/{DAY}/seed?game=tarot"), 422, "invalid_fields", message)
    assert_refused(client.get("/api/leaderboard?game=tarot"), 422, "invalid_fields", message)
    for wrong in (3, None, ["malmedy"], "Malmedy", ""):
        response = client.post("/api/games", json={"mode": "daily", "game": wrong})
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_fields", wrong
    assert client.get("/api/daily").json()["game_id"] is None  # Nothing was created.
    with client.app.state.store.engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM games")).scalar_one() == 0
