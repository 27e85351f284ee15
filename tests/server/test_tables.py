"""Friends' tables in one process (TestClient on SQLite): seats, start, every refusal of HTTP and of the socket,
clocks and grace periods on a movable clock, the host's bot, rematch, results, records, the answer floor."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio.from_thread
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.conftest import MovableClock, shut_down
from tests.server.helpers import at_once

from couyon.registry import GAMES, REVIEW_CODE, verify_record
from couyon.server.app import create_app
from couyon.server.config import Settings
from couyon.server.games import VerificationError
from couyon.server.limits import request_kind
from couyon.server.tables.service import CODE_ALPHABET, TableService, first_dealer, verified_table_replay
from couyon.store.tables import TableStore

Client = Any
Table = dict[str, Any]

# Each test here takes a second or two: one that waits on a socket for a message that never comes fails fast.
pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def make_app(tmp_path: Path, clock: MovableClock) -> Iterator[Callable[..., Any]]:
    """Apps whose clients (``person``) all run on one event loop, as a server process does: by default each
    TestClient request gets a loop of its own, and the hub, bound to the newest, would notify a socket from a loop
    that is not its own (or is closed): a message then waits until something else wakes the socket's loop."""
    apps: list[Any] = []
    loops = contextlib.ExitStack()

    def make(**overrides: Any) -> Any:
        settings: dict[str, Any] = {
            "data_dir": tmp_path / "data",
            "database_url": f"sqlite:///{tmp_path / 'data' / 'couyon.sqlite3'}",
            "secret": "test-secret",
            "rate_games_per_minute": 0,
            "rate_moves_per_minute": 0,
            "answer_floor_ms": 0,
            "table_grace_seconds": 30.0,
            "table_joins_per_minute": 5,
        }
        (tmp_path / "data").mkdir(exist_ok=True)
        app = create_app(Settings(**(settings | overrides)), clock=clock)
        app.state.test_portal = loops.enter_context(anyio.from_thread.start_blocking_portal())
        apps.append(app)
        return app

    with loops:
        yield make
    for app in apps:
        shut_down(app)


@pytest.fixture
def app(make_app: Callable[..., Any]) -> Any:
    return make_app()


def person(app: Any, name: str | None) -> Client:
    client = TestClient(app, base_url="http://127.0.0.1")
    client.portal = app.state.test_portal
    if name is not None:
        assert client.put("/api/player", json={"name": name}).status_code == 200
    return client


def opened(host: Client, game: str = "couyon", clock: int = 0, **options: Any) -> Table:
    response = host.post("/api/tables", json={"game": game, "options": options or None, "clock": clock})
    assert response.status_code == 201, response.text
    table: Table = response.json()
    return table


def path(table: Table, tail: str = "") -> str:
    return f"/api/tables/{table['code']}{tail}"


def sit(client: Client, table: Table, seat: str) -> Any:
    return client.post(path(table, "/seats"), json={"secret": table["secret"], "seat": seat})


def start(host: Client, table: Table) -> Table:
    response = host.post(path(table, "/start"), json={"secret": table["secret"]})
    assert response.status_code == 200, response.text
    started: Table = response.json()
    return started


def game_of(client: Client, table: Table, since: int = -1) -> dict[str, Any]:
    response = client.get(path(table, "/game"), params={"secret": table["secret"], "since": since})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def move(client: Client, table: Table, action: str, number: int, **more: Any) -> Any:
    body = {"secret": table["secret"], "move": action, "move_number": number, **more}
    return client.post(path(table, "/moves"), json=body)


def played_to_its_end(client: Client, table: Table) -> None:
    """The table's game played to its end, ``client``'s seat by its first legal move (a short game: coucou, 1 token)."""
    for _ in range(40):
        answer = game_of(client, table)
        if answer["view"]["winner"] is not None:
            return
        assert move(client, table, answer["view"]["legal"][0], answer["move_number"]).status_code == 200
    raise AssertionError("the game did not end in 40 moves")


def refusal(response: Any, status: int, code: str) -> str:
    assert response.status_code == status, response.text
    error = response.json()["error"]
    assert error["code"] == code, error
    message: str = error["message"]
    return message


def test_a_table_is_opened_shared_joined_by_code_and_started_with_bots_in_the_free_seats(app: Any) -> None:
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, "couyon", clock=30, level="beginner")
    code = table["code"]
    assert len(code) == 7 and code[3] == "-" and all(char in CODE_ALPHABET for char in code.replace("-", ""))
    assert table["link"] == f"/#/tables/{code.replace('-', '')}/{table['secret']}" and len(table["secret"]) == 22
    assert (table["host"], table["me"], table["state"], table["clock"]) == ("S", "S", "waiting", 30)
    assert [seat["seat"] for seat in table["seats"]] == ["S", "W", "N", "E"]
    joined = bob.post("/api/tables/join", json={"code": f" {code.lower().replace('-', ' ')} "})
    assert joined.status_code == 200 and joined.json()["secret"] == table["secret"] and joined.json()["me"] is None
    seated = sit(bob, table, "N").json()
    assert seated["me"] == "N" and seated["seats"][2] | {"connected": True} == {
        "seat": "N",
        "name": "Bob",
        "holder": "person",
        "connected": True,
        "bot_now": False,
        "rematch": False,
        "rating": None,  # No game rated Bob yet (tests/server/test_ratings.py: the lobby's ratings).
        "rating_provisional": None,
    }
    refusal(bob.post(path(table, "/start"), json={"secret": table["secret"]}), 403, "not_host")
    started = start(anne, table)
    assert started["state"] == "playing" and started["game_id"]
    assert [seat["holder"] for seat in started["seats"]] == ["person", "bot", "person", "bot"]
    # Each person's answer is his own seat's view: his hand, never another's.
    south, north = game_of(anne, table), game_of(bob, table)
    assert (south["seat"], north["seat"], south["view"]["seat"], north["view"]["seat"]) == ("S", "N", "S", "N")
    assert south["view"]["hand"] and not set(south["view"]["hand"]) & set(north["view"]["hand"])
    refusal(sit(person(app, "Carl"), table, "W"), 409, "table_started")
    refusal(anne.post(path(table, "/start"), json={"secret": table["secret"]}), 409, "table_started")


def test_every_refusal_of_opening_joining_and_sitting_is_one_sentence(app: Any) -> None:
    nameless = person(app, None)
    assert refusal(nameless.post("/api/tables", json={"game": "couyon"}), 422, "name_required").endswith("sit down.")
    anne = person(app, "Anne")
    refusal(anne.post("/api/tables", json={"game": "chess"}), 422, "invalid_fields")
    refusal(anne.post("/api/tables", json={"game": "couyon", "clock": 7}), 422, "invalid_fields")
    refusal(anne.post("/api/tables", json={"game": "coucou", "options": {"players": 30}}), 422, "invalid_fields")
    table = opened(anne, "couyon")
    wrong_code = refusal(anne.post("/api/tables/join", json={"code": "ZZZ-ZZZ"}), 404, "no_table")
    wrong_secret = refusal(anne.get(path(table), params={"secret": "x" * 22}), 404, "no_table")
    assert wrong_code == wrong_secret == "There is no table with this code: check it with the person who opened it."
    refusal(anne.get(path(table), params={"secret": "é" * 22}), 404, "no_table")  # Not a 500 (compare_digest).
    refusal(anne.post("/api/tables/join", json={"code": "O0I1L!"}), 404, "no_table")  # Not even a code.
    refusal(sit(person(app, None), table, "N"), 422, "name_required")
    bob = person(app, "Bob")
    assert sit(bob, table, "N").status_code == 200
    assert refusal(sit(person(app, "Carl"), table, "N"), 409, "seat_taken") == "This seat is taken: choose a free one."
    refusal(sit(bob, table, "X"), 422, "invalid_fields")
    assert sit(person(app, "Carl"), table, "W").status_code == 200
    assert sit(person(app, "Dora"), table, "E").status_code == 200
    assert refusal(sit(person(app, "Emil"), table, "E"), 409, "table_full") == "Every seat of this table is taken."
    left = bob.delete(path(table, "/seats/mine"), params={"secret": table["secret"]})
    assert left.status_code == 200 and left.json()["seats"][2]["holder"] == "free"


def test_joins_by_code_are_limited_per_address(app: Any) -> None:
    anne = person(app, "Anne")
    for _ in range(5):
        assert anne.post("/api/tables/join", json={"code": "ZZZ-ZZZ"}).status_code == 404
    refusal(anne.post("/api/tables/join", json={"code": "ZZZ-ZZZ"}), 429, "too_many_requests")


def _to_move_is(answer: dict[str, Any], seat: str) -> bool:
    return bool(answer["view"]["to_move"] == seat)


def test_only_the_seat_to_move_may_move_and_every_bad_move_is_refused_as_at_the_solo_table(app: Any) -> None:
    anne, bob, carl = person(app, "Anne"), person(app, "Bob"), person(app, "Carl")
    table = opened(anne, "couyon", level="beginner")
    assert sit(bob, table, "N").status_code == 200
    refusal(move(anne, table, "pass", 0), 409, "not_started")
    start(anne, table)
    answers = {"S": game_of(anne, table), "N": game_of(bob, table)}
    mover, other = ("S", "N") if _to_move_is(answers["S"], "S") else ("N", "S")
    client = {"S": anne, "N": bob}
    number = answers[mover]["move_number"]
    assert refusal(move(client[other], table, "pass", number), 409, "out_of_turn") == "It is not your turn."
    sentence = refusal(move(client[mover], table, "pass", number, seat=other), 403, "not_your_seat")
    assert sentence == f"This seat is not yours: you sit at {mover}."
    refusal(move(carl, table, "pass", number), 403, "not_your_seat")
    refusal(move(client[mover], table, "pass", number + 5), 409, "stale")
    refusal(move(client[mover], table, "castle", number), 422, "invalid_move")
    refusal(
        move(client[mover], table, "AS" if "AS" not in answers[mover]["view"]["hand"] else "9C", number),
        409,
        "illegal_move",
    )
    legal = answers[mover]["view"]["legal"][0]
    played = move(client[mover], table, legal, number)
    assert played.status_code == 200 and played.json()["events"][0]["seat"] == mover
    refusal(move(client[mover], table, legal, number), 409, "stale")  # The same view played twice.


def test_a_clock_that_runs_out_has_the_bot_play_that_one_decision_recorded_as_its_move(app: Any, clock: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "couyon", clock=15, level="beginner")
    start(anne, table)
    service = app.state.tables
    code = table["code"].replace("-", "")
    shown = anne.get(path(table), params={"secret": table["secret"]}).json()
    assert shown["to_move"] == "S" and 14_000 <= shown["deadline_ms"] <= 15_000
    before = game_of(anne, table)["move_number"]
    assert service.plan_bots(code, forced=True) is None  # Not yet.
    clock.advance(dt.timedelta(seconds=16))
    plan = service.plan_bots(code, forced=True)
    assert plan is not None and plan.first_number == before and plan.bot_numbers[0] == before
    assert plan.moves[0].startswith("S:")
    assert service.commit(plan) and not service.commit(plan)  # The second process to act is refused.
    assert game_of(anne, table)["move_number"] == before + len(plan.moves)
    game_id = shown["game_id"]
    assert before in service.store.bot_numbers(game_id)


def test_a_move_made_while_a_run_out_clock_s_bot_waits_to_be_stored_is_answered_by_the_bots(
    app: Any, clock: Any
) -> None:
    # Anne's clock ran out and the bot's plan for her seat waits (on the answer floor: here, until she has moved);
    # she moves meanwhile. The plan is stale, and her move's answer found a bot run under way: that run plans again
    # from her move (it used to end there, and the game waited for bots nobody would play).
    anne = person(app, "Anne")
    for _ in range(20):  # A table where she speaks in the bidding: after a pass of hers, a bot speaks (or deals).
        table = opened(anne, "couyon", clock=15, level="beginner")
        start(anne, table)
        answer = game_of(anne, table)
        if _to_move_is(answer, "S") and "pass" in answer["view"]["legal"]:
            break
    else:
        raise AssertionError("no table of 20 began with Anne's bid")
    service, hub = app.state.tables, app.state.table_hub
    code = table["code"].replace("-", "")
    planned, moved = threading.Event(), threading.Event()
    plan_bots, commit = service.plan_bots, service.commit

    def plan_and_tell(*arguments: Any) -> Any:
        plan = plan_bots(*arguments)
        planned.set()
        return plan

    def commit_once_she_moved(plan: Any) -> bool:
        assert moved.wait(timeout=10)
        return bool(commit(plan))

    service.plan_bots, service.commit = plan_and_tell, commit_once_she_moved
    clock.advance(dt.timedelta(seconds=16))
    running = app.state.test_portal.start_task_soon(hub.run_bots, code, True)
    assert planned.wait(timeout=10)
    played = move(anne, table, "pass", answer["move_number"])
    moved.set()
    assert played.status_code == 200 and not _to_move_is(played.json(), "S"), played.text
    running.result(timeout=30)
    service.plan_bots, service.commit = plan_bots, commit
    assert service.plan_bots(code) is None  # Nothing left for the bots: the game waits for Anne again (or is over).
    after = game_of(anne, table, since=answer["move_number"])
    assert after["move_number"] > answer["move_number"] + 1 and after["events"][0]["seat"] == "S"
    assert answer["move_number"] not in service.store.bot_numbers(after["id"])  # Her move, not the bot's.


def test_a_player_gone_past_the_grace_period_has_his_seat_played_until_he_comes_back(app: Any, clock: Any) -> None:
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    assert sit(bob, table, "3").status_code == 200
    start(anne, table)
    service = app.state.tables
    code = table["code"].replace("-", "")
    clock.advance(dt.timedelta(seconds=31))
    game_of(anne, table)  # Anne polls: she is here; Bob is gone.
    shown = anne.get(path(table), params={"secret": table["secret"]}).json()
    assert [seat["bot_now"] for seat in shown["seats"]][:3] == [False, False, True]
    for _ in range(10):  # Anne plays; the bot plays Bob's seat meanwhile.
        answer = game_of(anne, table)
        if answer["view"]["to_move"] != 1 or answer["view"]["winner"] is not None:
            plan = service.plan_bots(code)
            if plan is None:
                break
            service.commit(plan)
            continue
        assert move(anne, table, answer["view"]["legal"][0], answer["move_number"]).status_code == 200
        plan = service.plan_bots(code)
        if plan is not None:
            service.commit(plan)
    game_id = shown["game_id"]
    moves = service.games.store.game(game_id)[1]
    bots_at_bob = [n for n, text in enumerate(moves) if text.startswith("3:")]
    assert bots_at_bob and set(bots_at_bob) <= service.store.bot_numbers(game_id)
    # Bob comes back: his seat is his again.
    game_of(bob, table)
    assert not anne.get(path(table), params={"secret": table["secret"]}).json()["seats"][2]["bot_now"]


def test_a_host_who_leaves_before_the_start_hands_the_table_to_the_next_seated_person(app: Any) -> None:
    anne, bob, carl = person(app, "Anne"), person(app, "Bob"), person(app, "Carl")
    table = opened(anne, "couyon", level="beginner")
    assert sit(carl, table, "E").status_code == 200 and sit(bob, table, "N").status_code == 200
    left = anne.delete(path(table, "/seats/mine"), params={"secret": table["secret"]}).json()
    assert left["host"] == "N" and left["me"] is None  # After S in turn order (W is free): North.
    refusal(anne.post(path(table, "/start"), json={"secret": table["secret"]}), 403, "not_host")
    assert start(bob, table)["state"] == "playing"


def test_table_moves_count_against_the_moves_limit_as_the_solo_table_s_do() -> None:
    assert request_kind("POST", "/api/tables/ABCDEF/moves") == request_kind("POST", "/api/games/g_1/moves") == "moves"
    assert request_kind("GET", "/api/tables/ABCDEF/game") == "reads"
    assert request_kind("POST", "/api/tables/ABCDEF/messages") == "reads"


def test_the_host_gives_a_silent_seat_to_the_bot_and_its_player_takes_it_back_with_a_hello(app: Any) -> None:
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, "couyon", level="beginner")
    assert sit(bob, table, "N").status_code == 200
    start(anne, table)
    refusal(bob.post(path(table, "/seats/S/bot"), json={"secret": table["secret"]}), 403, "not_host")
    refusal(anne.post(path(table, "/seats/W/bot"), json={"secret": table["secret"]}), 409, "no_person")
    given = anne.post(path(table, "/seats/N/bot"), json={"secret": table["secret"]})
    assert given.status_code == 200 and given.json()["seats"][2]["bot_now"]
    with socket_of(bob, path(table, f"/socket?secret={table['secret']}")) as socket:
        socket.send_json({"type": "hello", "since": -1})
        first = socket.receive_json()
        assert first["type"] == "table" and not first["table"]["seats"][2]["bot_now"]
        assert socket.receive_json()["answer"]["seat"] == "N"


def test_preset_messages_are_known_ids_at_most_one_every_three_seconds(app: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "couyon")
    send = lambda text: anne.post(path(table, "/messages"), json={"secret": table["secret"], "message": text})  # noqa: E731
    assert send("well_played").json() == {"seat": "S", "message": "well_played"}
    refusal(send("you are all bad"), 422, "invalid_fields")
    refusal(send("oops"), 429, "too_many_messages")
    refusal(
        person(app, "Bob").post(path(table, "/messages"), json={"secret": table["secret"], "message": "oops"}),
        403,
        "not_seated",
    )


def socket_of(client: Client, url: str) -> Any:
    """A WebSocket of ``client`` (TestClient does not send its cookies on a socket: the header does)."""
    cookies = "; ".join(f"{name}={value}" for name, value in client.cookies.items())
    return client.websocket_connect(url, headers={"cookie": cookies} if cookies else {})


def closed_with(socket: Any) -> tuple[int, str]:
    with pytest.raises(WebSocketDisconnect) as closed:
        for _ in range(40):
            socket.receive_text()
    return closed.value.code, closed.value.reason


def test_a_malformed_oversized_binary_or_flooding_socket_is_closed_with_1008_and_a_reason(app: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "couyon")
    url = path(table, f"/socket?secret={table['secret']}")
    with socket_of(anne, url) as socket:
        socket.send_text("x" * 2100)
        assert closed_with(socket) == (1008, "A message is at most 2048 bytes.")
    with socket_of(anne, url) as socket:
        socket.send_text("{not json")
        assert closed_with(socket) == (1008, "A message is one JSON object.")
    with socket_of(anne, url) as socket:
        socket.send_bytes(b"\x00\x01")
        assert closed_with(socket) == (1008, "Send JSON text messages only.")
    with socket_of(anne, url) as socket:
        socket.send_json({"type": "hello", "since": "zero"})
        assert closed_with(socket)[0] == 1008
    with socket_of(anne, url) as socket:
        for _ in range(25):
            socket.send_json({"type": "ping"})
        assert closed_with(socket) == (1008, "At most 20 messages a second.")
    with socket_of(anne, path(table, "/socket?secret=wrong")) as socket:
        assert socket.receive_json()["code"] == "no_table"
        assert closed_with(socket)[0] == 1008
    with socket_of(person(app, None), url) as socket:
        assert socket.receive_json()["code"] == "no_player"


def test_a_refused_move_on_the_socket_is_an_error_with_the_http_sentence_and_the_socket_stays(app: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "couyon", level="beginner")
    start(anne, table)
    with socket_of(anne, path(table, f"/socket?secret={table['secret']}")) as socket:
        socket.send_json({"type": "hello", "since": -1})
        assert socket.receive_json()["type"] == "table"
        answer = socket.receive_json()["answer"]
        socket.send_json({"type": "move", "move": "pass", "move_number": answer["move_number"] + 3})
        error = socket.receive_json()
        http = move(anne, table, "pass", answer["move_number"] + 3).json()["error"]
        assert error == {"type": "error", "status": 409, "code": "stale", "message": http["message"]}
        socket.send_json({"type": "ping"})
        assert socket.receive_json() == {"type": "pong"}


def test_a_hello_naming_a_game_a_rematch_replaced_gets_the_new_game_as_it_stands(app: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    start(anne, table)
    played_to_its_end(anne, table)
    old_game = anne.get(path(table), params={"secret": table["secret"]}).json()["game_id"]
    assert anne.post(path(table, "/rematch"), json={"secret": table["secret"]}).status_code == 200
    answer = game_of(anne, table)
    if answer["move_number"] == 0:  # Anne speaks first in the new game: one move, so there is one to miss.
        assert move(anne, table, answer["view"]["legal"][0], 0).status_code == 200
    now = anne.get(path(table), params={"secret": table["secret"]}).json()
    assert now["game_id"] != old_game and now["move_number"] > 0
    with socket_of(anne, path(table, f"/socket?secret={table['secret']}")) as socket:
        # Move 0 of the old game is no place in the new one: the new game is sent as it stands, with no events.
        socket.send_json({"type": "hello", "since": 0, "game": old_game})
        assert socket.receive_json()["type"] == "table"
        stands = socket.receive_json()["answer"]
        assert stands["move_number"] == now["move_number"] and stands["events"] == []
    with socket_of(anne, path(table, f"/socket?secret={table['secret']}")) as socket:
        socket.send_json({"type": "hello", "since": 0, "game": now["game_id"]})  # The same game: what it missed.
        assert socket.receive_json()["type"] == "table"
        assert socket.receive_json()["answer"]["events"] != []


def test_a_newcomer_s_socket_gets_the_game_he_sits_down_at_as_it_stands(app: Any) -> None:
    """A socket open before its person sits (the lobby of a table between games) is sent the game found at the
    seat he takes as it stands, with no events: its moves were made before he sat, and a page would play them
    all again. A game dealt after he sat (the rematch) comes from its first move."""
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    start(anne, table)
    played_to_its_end(anne, table)
    finished = anne.get(path(table), params={"secret": table["secret"]}).json()
    with socket_of(bob, path(table, f"/socket?secret={table['secret']}")) as socket:
        socket.send_json({"type": "hello", "since": -1})
        assert socket.receive_json()["type"] == "table"  # Not seated: no game.
        assert sit(bob, table, "2").status_code == 200
        message = socket.receive_json()
        while message["type"] == "table":
            message = socket.receive_json()
        stands = message["answer"]
        assert (stands["move_number"], stands["events"]) == (finished["move_number"], [])
        assert stands["view"]["seat"] == 2 and stands["view"]["winner"] is not None
        for client in (anne, bob):
            assert client.post(path(table, "/rematch"), json={"secret": table["secret"]}).status_code == 200
        message = socket.receive_json()
        while message["type"] == "table":
            message = socket.receive_json()
        rematch = message["answer"]
        # The new game's moves so far (the bots', if they speak first) come as events.
        assert rematch["id"] != stands["id"] and (rematch["move_number"] == 0 or rematch["events"] != [])


def test_a_finished_table_game_keeps_results_verifies_and_a_rematch_moves_the_dealer_on(app: Any) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    start(anne, table)
    played_to_its_end(anne, table)
    shown = anne.get(path(table), params={"secret": table["secret"]}).json()
    assert shown["state"] == "over" and shown["results"]["games"] == 1
    assert sum(line["wins"] for line in shown["results"]["players"]) == 1
    # A table game goes to no board.
    board = anne.get("/api/leaderboard", params={"game": "coucou", "board": "free", "level": "easy"}).json()
    assert board["entries"] == []
    record = anne.get(path(table, "/record"), params={"secret": table["secret"]})
    document = json.loads(record.text)
    assert document["people"] == {"1": "Anne"} and document["table"] == shown["code"]
    assert verify_record(record.content)["valid"] is True
    # The review, from the person's own seat.
    review = anne.get(path(table, "/review"), params={"secret": table["secret"]})
    assert review.status_code == 200 and review.json()["id"] == shown["game_id"] and review.json()["mode"] == "table"
    service = app.state.tables
    stored, moves = service.games.store.game(shown["game_id"])
    verified_table_replay(stored, moves, service.store.holders(stored.id), service.store.bot_numbers(stored.id))
    # A bot's decision changed is refused by the replay (the bot recomputes it, or the rules refuse what follows).
    index = next(n for n, text in enumerate(moves) if not text.startswith("1:"))
    flipped = moves[index].replace("keep", "change") if moves[index].endswith("keep") else moves[index][:2] + "keep"
    with pytest.raises(VerificationError):
        verified_table_replay(stored, [*moves[:index], flipped, *moves[index + 1 :]], {"1": "p"}, set())
    kind = GAMES["coucou"]
    previous = first_dealer(kind, stored.seed, {"players": 5, "tokens": 1, "level": "easy"})
    again = anne.post(path(table, "/rematch"), json={"secret": table["secret"]}).json()
    # Playing, or over already when the bots' first coups put seat 1 out (one token each).
    assert again["state"] in ("playing", "over") and again["game_id"] != shown["game_id"]
    new_seed = service.games.store.game(again["game_id"])[0].seed
    dealer = first_dealer(kind, new_seed, {"players": 5, "tokens": 1, "level": "easy"})
    assert previous is not None and int(dealer or 0) == int(previous) % 5 + 1
    if again["state"] == "playing":
        refusal(anne.post(path(table, "/rematch"), json={"secret": table["secret"]}), 409, "game_not_over")


def test_the_last_two_who_ask_for_a_rematch_at_once_both_get_the_new_game(app: Any, monkeypatch: Any) -> None:
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    assert sit(bob, table, "2").status_code == 200
    start(anne, table)
    assert anne.post(path(table, "/seats/2/bot"), json={"secret": table["secret"]}).status_code == 200
    played_to_its_end(anne, table)
    first_game = anne.get(path(table), params={"secret": table["secret"]}).json()["game_id"]
    # Each request has stored its wish before either reads the table: both find every person asked and deal.
    both_asked = threading.Barrier(2)
    ask_rematch = TableStore.ask_rematch

    def after_both_asked(self: TableStore, code: str, seat: str, game_id: str) -> bool:
        asked = ask_rematch(self, code, seat, game_id)
        both_asked.wait(timeout=10)
        return asked

    monkeypatch.setattr(TableStore, "ask_rematch", after_both_asked)
    answers = at_once(
        [
            lambda client=client: client.post(path(table, "/rematch"), json={"secret": table["secret"]})
            for client in (anne, bob)
        ]
    )
    monkeypatch.undo()
    assert [answer.status_code for answer in answers] == [200, 200], [answer.text for answer in answers]
    games = {answer.json()["game_id"] for answer in answers}
    assert len(games) == 1 and first_game not in games
    assert app.state.tables.load(table["code"]).table.game_id in games  # One game dealt: the one both were sent.


def test_a_second_click_on_rematch_that_lands_after_the_deal_asks_nothing_of_the_next_game(
    app: Any, monkeypatch: Any
) -> None:
    anne = person(app, "Anne")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    start(anne, table)
    played_to_its_end(anne, table)
    service = app.state.tables
    first_click_read = service.load(table["code"])  # The second click read the table before the first dealt.
    dealt = anne.post(path(table, "/rematch"), json={"secret": table["secret"]}).json()
    assert dealt["game_id"] != first_click_read.table.game_id
    load, reads = TableService.load, []

    def stale_once(self: TableService, code: str, secret: str | None = None, closed: bool = False) -> Any:
        reads.append(code)
        return first_click_read if len(reads) == 1 else load(self, code, secret, closed)

    monkeypatch.setattr(TableService, "load", stale_once)
    second = anne.post(path(table, "/rematch"), json={"secret": table["secret"]})
    monkeypatch.undo()
    assert second.status_code == 200 and second.json()["game_id"] == dealt["game_id"]
    # Her wish was for the game before: kept, it would deal the one after this as soon as it ended.
    assert not any(seat.rematch for seat in service.load(table["code"]).seats.values())


def sits_while_dealing(monkeypatch: Any, client: Client, table: Table, seat: str) -> None:
    """The next deal at ``table`` finds ``client`` sat down at ``seat`` after its request read the seats."""
    start_game, sat = TableStore.start_game, []

    def newcomer_first(self: TableStore, *arguments: Any) -> None:
        if not sat:
            sat.append(sit(client, table, seat).status_code)
        start_game(self, *arguments)

    monkeypatch.setattr(TableStore, "start_game", newcomer_first)


def test_a_person_who_sits_down_while_a_game_is_dealt_holds_his_seat_in_it(app: Any, monkeypatch: Any) -> None:
    # The deal stored the seats as its request had read them: the newcomer played a seat the game gave the bot,
    # and his moves failed the verifying replay.
    anne, bob, carl = person(app, "Anne"), person(app, "Bob"), person(app, "Carl")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    service = app.state.tables
    sits_while_dealing(monkeypatch, bob, table, "2")
    started = start(anne, table)  # The host's start deals again, to the seats as they now are.
    monkeypatch.undo()
    bob_id = service.load(table["code"]).seats["2"].player_id
    assert bob_id is not None and service.store.holders(started["game_id"])["2"] == bob_id
    assert anne.post(path(table, "/seats/2/bot"), json={"secret": table["secret"]}).status_code == 200
    played_to_its_end(anne, table)
    first_game = service.load(table["code"]).table.game_id
    # Between games: Anne and Bob ask; Carl sits down as the rematch is dealt. It waits for him to ask too.
    assert bob.post(path(table, "/rematch"), json={"secret": table["secret"]}).json()["state"] == "over"
    sits_while_dealing(monkeypatch, carl, table, "3")
    waiting = anne.post(path(table, "/rematch"), json={"secret": table["secret"]})
    monkeypatch.undo()
    assert waiting.status_code == 200 and waiting.json()["state"] == "over"
    assert waiting.json()["game_id"] == first_game
    dealt = carl.post(path(table, "/rematch"), json={"secret": table["secret"]}).json()
    assert dealt["game_id"] != first_game
    holders = service.store.holders(dealt["game_id"])
    assert holders["3"] == service.load(table["code"]).seats["3"].player_id is not None


def test_a_person_who_leaves_between_games_frees_his_seat_for_another_or_for_the_bot(app: Any) -> None:
    anne, bob, carl = person(app, "Anne"), person(app, "Bob"), person(app, "Carl")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    assert sit(bob, table, "2").status_code == 200
    start(anne, table)
    leave = {"secret": table["secret"]}
    assert refusal(bob.delete(path(table, "/seats/mine"), params=leave), 409, "table_playing").endswith("one.")
    refusal(sit(carl, table, "3"), 409, "table_started")
    assert anne.post(path(table, "/seats/2/bot"), json={"secret": table["secret"]}).status_code == 200
    played_to_its_end(anne, table)
    first_game = anne.get(path(table), params=leave).json()
    assert first_game["state"] == "over"
    left = bob.delete(path(table, "/seats/mine"), params=leave)
    assert left.status_code == 200 and left.json()["me"] is None and left.json()["seats"][1]["holder"] == "bot"
    # Between games the free seat may be taken; the rematch waits for every seated person, the newcomers too, and
    # starts when the last who had not asked leaves.
    assert sit(carl, table, "2").status_code == 200
    dora = person(app, "Dora")
    assert sit(dora, table, "3").status_code == 200
    for asking in (anne, carl):
        asked = asking.post(path(table, "/rematch"), json={"secret": table["secret"]}).json()
        assert asked["state"] == "over" and asked["game_id"] == first_game["game_id"]
    gone = dora.delete(path(table, "/seats/mine"), params=leave).json()
    assert gone["game_id"] != first_game["game_id"] and gone["state"] in ("playing", "over")
    again = anne.get(path(table), params=leave).json()
    # Its bots have moved: the new game waits for a person (seat 1 or 2), or is over.
    assert again["game_id"] == gone["game_id"] and game_of(anne, table)["view"]["to_move"] in (1, 2, None)
    holders = app.state.tables.store.holders(again["game_id"])
    carl_id = app.state.tables.load(table["code"]).seats["2"].player_id
    assert holders["2"] == carl_id and holders["1"] is not None and holders["3"] is None
    refusal(bob.get(path(table, "/game"), params=leave), 403, "not_seated")


@pytest.mark.parametrize(
    ("game", "options", "seats"),
    [
        ("couyon", {"level": "beginner"}, ("S", "W")),
        ("malmedy", {"level": "beginner"}, ("S", "E")),
        ("coucou", {"players": 5, "tokens": 1, "level": "easy"}, ("1", "3")),
        ("as-qui-court", {"players": 6, "tokens": 1, "level": "easy"}, ("1", "4")),
    ],
)
def test_each_person_at_a_finished_table_game_gets_the_review_from_his_own_seat(
    app: Any, game: str, options: dict[str, Any], seats: tuple[str, str]
) -> None:
    anne, bob = person(app, "Anne"), person(app, "Bob")
    table = opened(anne, game, **options)
    assert sit(bob, table, seats[1]).status_code == 200
    start(anne, table)
    early = refusal(anne.get(path(table, "/review"), params={"secret": table["secret"]}), 409, "game_not_over")
    assert early == "The review opens once the game is over."
    people = dict(zip(seats, (anne, bob), strict=True))
    for _ in range(400):
        answers = {seat: game_of(client, table) for seat, client in people.items()}
        if answers[seats[0]]["view"]["winner"] is not None:
            break
        mover = next((seat for seat, answer in answers.items() if str(answer["view"]["to_move"]) == seat), None)
        if mover is not None:
            answer = answers[mover]
            assert move(people[mover], table, answer["view"]["legal"][0], answer["move_number"]).status_code == 200
    game_id = anne.get(path(table), params={"secret": table["secret"]}).json()["game_id"]
    stored, moves = app.state.store.game(game_id)
    kind = GAMES[game]
    reviews: dict[str, Any] = {}
    decisions: dict[str, int] = {}
    for seat, client in people.items():
        response = client.get(path(table, "/review"), params={"secret": table["secret"]})
        assert response.status_code == 200, response.text
        review = response.json()
        assert (review["id"], review["mode"], review["seat"], review["revealed"]) == (game_id, "table", seat, True)
        # The seat's own review: the game's review from that seat, its score and place the seat's view's.
        assert kind.review is not None
        built = kind.review(stored.seed, moves, True, kind.parse_options(options), stored.bot_id, seat)
        assert {key: value for key, value in review.items() if key not in ("id", "game", "mode", "seat")} == built
        view = game_of(client, table)["view"]
        assert review["score"] == view["score"]
        if game in ("coucou", "as-qui-court"):
            assert review["place"] == view["place"]
            judged = sum(coup["decision"] is not None for coup in review["coups"])
        else:
            judged_seats = [
                entry["seat"]
                for deal in review["deals"]
                for entry in [*deal["bids"], *(card for trick in deal["tricks"] for card in trick["cards"])]
                if "review" in entry
            ]
            assert set(judged_seats) == {seat}
            judged = len(judged_seats)
        # A seat may have no decision at all (as qui court's dealer handed no ace, out at the first coup).
        assert judged == sum(text.startswith(f"{seat}:") for text in moves)
        decisions[seat] = judged
        assert app.state.store.review(game_id, seat, True, REVIEW_CODE) is not None
        reviews[seat] = review
    assert reviews[seats[0]] != reviews[seats[1]] and sum(decisions.values()) > 0
    # Asked again, each seat's review is the one kept; someone not seated at the table has none.
    assert bob.get(path(table, "/review"), params={"secret": table["secret"]}).json() == reviews[seats[1]]
    refusal(person(app, "Carl").get(path(table, "/review"), params={"secret": table["secret"]}), 403, "not_seated")


def test_the_socket_tells_the_end_of_a_game_with_the_table_over_and_its_results(app: Any) -> None:
    """The table message that follows the final move is the table as stored by it: over, one game in its results.
    (Here the bots' coups end the game; a person's final move, which went out with the table as his request had
    read it, is played to its end by tests/browser/test_friends.py.)"""
    anne = person(app, "Anne")
    table = opened(anne, "coucou", players=5, tokens=1, level="easy")
    start(anne, table)
    with socket_of(anne, path(table, f"/socket?secret={table['secret']}")) as socket:
        socket.send_json({"type": "hello", "since": -1})
        last_table, answer = None, None
        for _ in range(200):
            message = socket.receive_json()
            if message["type"] == "table":
                last_table = message["table"]
                if last_table["state"] == "over":
                    break
            elif message["type"] == "game":
                answer = message["answer"]
                if answer["view"]["winner"] is None and answer["view"]["legal"]:
                    move = answer["view"]["legal"][0]
                    socket.send_json({"type": "move", "move": move, "move_number": answer["move_number"]})
        assert last_table is not None and last_table["state"] == "over", last_table
        assert last_table["results"]["games"] == 1


def test_table_answers_are_held_by_the_answer_floor_for_every_bot_decision(make_app: Callable[..., Any]) -> None:
    app = make_app(answer_floor_ms=60)
    anne = person(app, "Anne")
    table = opened(anne, "couyon", level="beginner")
    began = time.monotonic()
    start(anne, table)
    first = game_of(anne, table, since=0)
    assert time.monotonic() - began >= 0.06 * first["move_number"]
    answer = first
    for _ in range(3):
        began = time.monotonic()
        played = move(anne, table, answer["view"]["legal"][0], answer["move_number"])
        assert played.status_code == 200
        answer = played.json()
        bots = len(answer["events"]) and sum(1 for event in answer["events"] if event.get("seat") not in (None, "S"))
        assert time.monotonic() - began >= 0.06 * bots


def test_a_taker_who_lets_his_chelem_go_has_the_leader_s_card_played_after_the_answer_floor(
    make_app: Callable[..., Any],
) -> None:
    # Letting the chelem go stores nothing of the taker's: the leader's bot plays, and its card goes out no
    # sooner than the floor after it began, like every bot decision (the time it took would tell of its hand).
    app = make_app(answer_floor_ms=150)
    anne = person(app, "Anne")
    for _ in range(30):
        table = opened(anne, "tarot4", level="beginner")
        start(anne, table)
        answer = game_of(anne, table)
        while answer["view"]["phase"] == "bidding" and _to_move_is(answer, "S"):
            bid = "garde-sans" if "garde-sans" in answer["view"]["legal"] else "pass"
            answer = move(anne, table, bid, answer["move_number"]).json()
        if "no-chelem" in answer["view"]["legal"]:
            break
    else:
        raise AssertionError("Anne never took a garde sans with the leader's bot to play first")
    leader, number = answer["view"]["to_move"], answer["move_number"]
    began = time.monotonic()
    let_go = move(anne, table, "no-chelem", number)
    elapsed = time.monotonic() - began
    assert let_go.status_code == 200, let_go.text
    events = let_go.json()["events"]
    # The leader may first announce a misère or a poignée (his own moves too), then he leads the first trick.
    first_card = next(index for index, event in enumerate(events) if event["type"] == "card")
    assert all(event["seat"] == leader for event in events[: first_card + 1]), events[: first_card + 1]
    assert elapsed >= 0.15 * sum(1 for event in events if event["type"] == "card")
    game_id = let_go.json()["id"]
    stored = app.state.tables.games.store.game(game_id)[1]
    assert len(stored) == let_go.json()["move_number"] and stored[number].startswith(f"{leader}:")
    assert not any(text.endswith("chelem") for text in stored)
    refusal(move(anne, table, "no-chelem", number), 409, "stale")


def test_every_game_shows_each_seat_its_own_view_and_no_other_seats_hidden_cards() -> None:
    for kind in GAMES.values():
        assert kind.seats is not None and kind.seat_result is not None
        options = kind.parse_options({"players": 6} if kind.id == "coucou" else None)
        seats = kind.seats(options)
        state = kind.new_game("seats-" + kind.id, options)
        engine = kind.engine
        for _ in range(40):
            if engine.is_over(state):
                break
            legal = engine.legal_moves(state)
            chosen = legal[len(legal) // 2]
            after = engine.play(state, chosen)
            for seat in seats:
                view = kind.view_json(after, seat)
                assert str(view.get("seat")) == str(seat)
                events = kind.events_of(state, chosen, after, seat)
                for event in events:
                    if event["type"] == "ecart" and str(event["seat"]) != str(seat):
                        assert "cards" not in event
                    if event["type"] == "exchange" and str(seat) not in (str(event["seat"]), str(event["with"])):
                        assert "cards" not in event
            hands = [set(kind.view_json(after, seat).get("hand") or ()) for seat in seats]
            assert all(not hands[i] & hands[j] for i in range(len(hands)) for j in range(i))
            state = after


def test_a_socket_whose_client_never_reads_is_closed_once_its_queue_is_full() -> None:
    import asyncio

    from couyon.server.tables.hub import SEND_QUEUE, Connection

    closed: list[tuple[int, str]] = []

    async def never_sent(text: str) -> None:
        await asyncio.sleep(3600)  # A client that reads nothing: the writer never gets past its first message.

    async def close(code: int, reason: str) -> None:
        closed.append((code, reason))

    async def scenario() -> Connection:
        connection = Connection("ABCDEF", "s", "p", never_sent, close)
        for number in range(SEND_QUEUE + 5):
            connection.send({"type": "game", "number": number})
        await asyncio.sleep(0)
        return connection

    connection = asyncio.run(scenario())
    assert connection.closing and connection.queue.qsize() == SEND_QUEUE  # Nothing beyond the bound is kept.
    assert closed == [(1008, "The socket's messages are not being read.")]


def test_every_seat_s_view_of_a_finished_game_gives_its_own_score() -> None:
    """At a table every seat reads "your score": the view's is the seat's own (it was South's at every seat)."""
    for kind in GAMES.values():
        assert kind.seats is not None and kind.seat_result is not None
        options = kind.parse_options({"players": 6, "tokens": 1} if kind.id in ("coucou", "as-qui-court") else None)
        state = kind.new_game("scores-" + kind.id, options)
        rng = random.Random(kind.id)
        while not kind.engine.is_over(state):
            state = kind.engine.play(state, rng.choice(kind.engine.legal_moves(state)))
        scores = {str(seat): kind.seat_result(state, seat)[0] for seat in kind.seats(options)}
        assert {str(seat): kind.view_json(state, seat)["score"] for seat in kind.seats(options)} == scores
        assert len(set(scores.values())) > 1, f"{kind.id}: every seat scored the same, the test proves nothing"
