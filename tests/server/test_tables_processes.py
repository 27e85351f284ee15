"""Friends' tables across real ``couyon serve`` processes and real WebSockets (the ``websockets`` client).

One SQLite process: two people play a whole game over sockets; one closes his socket mid-game, the bot plays his
seat once the grace period is over, and he comes back with the moves he missed; a clock that runs out has the bot
play for the seat, and every socket receives that move. Two processes on one PostgreSQL: a move made on one reaches
a socket on the other (LISTEN/NOTIFY), and so does a preset message; and a ``kill -9`` of one mid-game loses no
move: its client reconnects to the other process and the game goes on to its end.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from couyon.loadgen import ServerProcess
from couyon.registry import verify_record
from couyon.store import Store, sqlite_url
from couyon.store.tables import TableStore

ENVIRONMENT = {"COUYON_TABLE_GRACE_S": "1", "COUYON_ANSWER_FLOOR_MS": "0", "COUYON_RETENTION_DAYS": "0"}


class Person:
    """A scripted person at a table: his cookie, his socket, what his seat was last shown."""

    def __init__(self, url: str, name: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=20)
        assert self.http.put("/api/player", json={"name": name}).status_code == 200
        self.seat: str | None = None
        self.number = -1
        self.events: list[dict[str, Any]] = []
        self.table: dict[str, Any] = {}
        self.socket: Any = None
        self.sent = 0
        self.over = False

    def header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())}

    async def connect(self, url: str, code: str, secret: str) -> None:
        address = url.replace("http://", "ws://") + f"/api/tables/{code}/socket?secret={secret}"
        self.socket = await websockets.connect(address, additional_headers=self.header(), open_timeout=10)
        await self.socket.send(json.dumps({"type": "hello", "since": self.number}))

    async def play(self, moves: int | None = None) -> None:
        """Read the socket and move (the first legal move) whenever the seat is to move; until the game is over or
        ``moves`` moves were sent."""
        while not self.over:
            message = json.loads(await asyncio.wait_for(self.socket.recv(), 30))
            if message["type"] == "table":
                self.table = message["table"]
                self.seat = self.table["me"]
            elif message["type"] == "error":
                assert message["code"] == "stale", message  # A bot's move crossed ours: the next view comes.
            elif message["type"] == "game":
                answer = message["answer"]
                self.events += answer["events"]
                self.number = answer["move_number"]
                view = answer["view"]
                assert str(view["seat"]) == answer["seat"] == self.seat  # Only his own seat's view.
                if any(event["type"] == "game_over" for event in answer["events"]):
                    self.over = True
                    return
                if view["to_move"] == self.seat and view["legal"]:
                    await asyncio.sleep(0.05)  # A quick person: within the socket's 20 messages a second.
                    move = {"type": "move", "move": view["legal"][0], "move_number": self.number}
                    await self.socket.send(json.dumps(move))
                    self.sent += 1
                    if moves is not None and self.sent >= moves:
                        return


def _move_of(event: dict[str, Any]) -> str:
    """A couyon event's move as stored (``S:take``, ``W:pass``, ``N:AH``)."""
    if event["type"] == "bid":
        return f"{event['seat']}:{'take' if event['take'] else 'pass'}"
    return f"{event['seat']}:{event['card']}"


def open_table(host: Person, guest: Person, game: str, guest_seat: str, **options: Any) -> tuple[str, str]:
    table = host.http.post("/api/tables", json={"game": game, "options": options, "clock": 0}).json()
    code, secret = table["code"].replace("-", ""), table["secret"]
    assert guest.http.post(f"/api/tables/{code}/seats", json={"secret": secret, "seat": guest_seat}).status_code == 200
    return code, secret


def test_two_people_play_a_whole_game_and_one_who_leaves_gets_his_seat_back(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "one", environment=ENVIRONMENT) as server:
        anne, bob = Person(server.url, "Anne"), Person(server.url, "Bob")
        code, secret = open_table(anne, bob, "couyon", "N", level="beginner")

        async def scenario() -> None:
            await anne.connect(server.url, code, secret)
            await bob.connect(server.url, code, secret)
            assert anne.http.post(f"/api/tables/{code}/start", json={"secret": secret}).status_code == 200
            playing = asyncio.create_task(anne.play())
            await bob.play(moves=3)
            await bob.socket.close()
            missed_from = bob.number
            # Past the grace period the bot plays Bob's seat: Anne's table shows it, and the game goes on.
            for _ in range(100):
                await asyncio.sleep(0.1)
                if any(seat["seat"] == "N" and seat["bot_now"] for seat in anne.table.get("seats", ())):
                    break
            else:
                pytest.fail("the bot never took Bob's seat")
            await asyncio.sleep(1.0)
            seen = len(bob.events)
            await bob.connect(server.url, code, secret)
            await bob.play(moves=1)
            caught_up = bob.events[seen:]
            assert bob.number > missed_from and caught_up  # The moves he missed, as events, without a reload.
            assert not any(seat["seat"] == "N" and seat["bot_now"] for seat in bob.table["seats"])
            await bob.play()
            await asyncio.wait_for(playing, 60)
            await anne.socket.close()
            await bob.socket.close()

        asyncio.run(scenario())
        assert anne.over and bob.over
        # Each saw the other's moves as they were made.
        assert any(event.get("seat") == "N" for event in anne.events)
        assert any(event.get("seat") == "S" for event in bob.events)
        shown = anne.http.get(f"/api/tables/{code}", params={"secret": secret}).json()
        assert shown["state"] == "over" and shown["results"]["games"] == 1
        record = anne.http.get(f"/api/tables/{code}/record", params={"secret": secret})
        document = record.json()
        assert document["people"] == {"S": "Anne", "N": "Bob"}
        assert any(document["moves"][number].startswith("N:") for number in document["bot_moves"])
        assert verify_record(record.content)["valid"] is True
        # Each reads the review from his own seat: North's judges North's decisions.
        review = bob.http.get(f"/api/tables/{code}/review", params={"secret": secret})
        assert review.status_code == 200 and review.json()["seat"] == "N"
        judged = {
            entry["seat"]
            for deal in review.json()["deals"]
            for entry in [*deal["bids"], *(card for trick in deal["tricks"] for card in trick["cards"])]
            if "review" in entry
        }
        assert judged == {"N"}


def two_processes(tmp_path: Path, postgres_url: str) -> tuple[ServerProcess, ServerProcess]:
    """Two ``couyon serve`` processes on one PostgreSQL, started side by side (the second migrates nothing)."""
    first = ServerProcess(tmp_path / "a", postgres_url, environment=ENVIRONMENT | {"COUYON_TABLE_GRACE_S": "30"})
    second = ServerProcess(tmp_path / "b", postgres_url, environment=ENVIRONMENT | {"COUYON_TABLE_GRACE_S": "30"})
    starting = threading.Thread(target=first.start)
    starting.start()
    second.start()
    starting.join()
    return first, second


def test_a_move_crosses_processes_and_a_killed_process_loses_no_move(tmp_path: Path, postgres_url: str) -> None:
    first, second = two_processes(tmp_path, postgres_url)
    try:
        anne, bob = Person(first.url, "Anne"), Person(second.url, "Bob")
        code, secret = open_table(anne, bob, "couyon", "N", level="beginner")

        async def scenario() -> None:
            await anne.connect(first.url, code, secret)
            await bob.connect(second.url, code, secret)
            assert anne.http.post(f"/api/tables/{code}/start", json={"secret": secret}).status_code == 200
            playing = asyncio.create_task(bob.play())
            await anne.play(moves=4)
            # Bob, on the other process, saw Anne's moves.
            await asyncio.sleep(0.3)
            assert sum(1 for event in bob.events if event.get("seat") == "S") >= 3
            first.kill()
            with pytest.raises(websockets.ConnectionClosed):
                for _ in range(1000):  # What was sent before the kill, then the close.
                    await asyncio.wait_for(anne.socket.recv(), 10)
            seen_before_kill = anne.number
            anne.http = httpx.Client(base_url=second.url, cookies=anne.http.cookies, timeout=20)
            await anne.connect(second.url, code, secret)
            await anne.play(moves=anne.sent + 2)  # The game goes on from the other process.
            assert anne.number > seen_before_kill
            playing.cancel()
            await anne.socket.close()
            await bob.socket.close()

        asyncio.run(scenario())
        # Every move either person saw is stored, in the order they saw it: none was lost, none forked.
        store = Store(postgres_url)
        try:
            game_id = anne.http.get(f"/api/tables/{code}", params={"secret": secret}).json()["game_id"]
            stored = (store.game(game_id) or pytest.fail("no game"))[1]
        finally:
            store.close()
        for person in (anne, bob):
            seen = [_move_of(event) for event in person.events if event["type"] in ("card", "bid")]
            assert len(seen) >= 8 and seen == stored[: len(seen)]
    finally:
        first.kill()
        second.stop()


async def _until(person: Person, wanted: Any, seconds: float) -> dict[str, Any]:
    """The first message of ``person``'s socket that ``wanted`` accepts, keeping his table and moves up to date."""
    deadline = asyncio.get_running_loop().time() + seconds
    while True:
        left = deadline - asyncio.get_running_loop().time()
        message: dict[str, Any] = json.loads(await asyncio.wait_for(person.socket.recv(), max(0.01, left)))
        if message["type"] == "table":
            person.table = message["table"]
            person.seat = person.table["me"]
        elif message["type"] == "game":
            person.number = message["answer"]["move_number"]
            person.events += message["answer"]["events"]
        if wanted(message):
            return message


def test_a_preset_message_sent_on_one_process_reaches_a_socket_on_another(tmp_path: Path, postgres_url: str) -> None:
    first, second = two_processes(tmp_path, postgres_url)
    try:
        anne, bob = Person(first.url, "Anne"), Person(second.url, "Bob")
        code, secret = open_table(anne, bob, "couyon", "N", level="beginner")

        def message_of(seat: str, text: str) -> Any:
            return lambda message: message == {"type": "message", "seat": seat, "message": text}

        async def scenario() -> None:
            await anne.connect(first.url, code, secret)
            await bob.connect(second.url, code, secret)
            for person in (anne, bob):  # Each socket's hello answered: it is at the table on its process.
                await _until(person, lambda message: message["type"] == "table", 10)
            # On Anne's socket (process a): Bob's socket (process b) receives it, through LISTEN/NOTIFY.
            await anne.socket.send(json.dumps({"type": "message", "message": "well_played"}))
            await _until(bob, message_of("S", "well_played"), 10)
            # Over HTTP on process b: Anne's socket on process a receives it.
            sent = bob.http.post(f"/api/tables/{code}/messages", json={"secret": secret, "message": "thanks_partner"})
            assert sent.status_code == 200 and sent.json() == {"seat": "N", "message": "thanks_partner"}
            await _until(anne, message_of("N", "thanks_partner"), 10)
            await anne.socket.close()
            await bob.socket.close()

        asyncio.run(scenario())
    finally:
        first.stop()
        second.stop()


def test_a_clock_that_runs_out_has_the_bot_play_for_the_seat_and_every_socket_receives_it(tmp_path: Path) -> None:
    """The shortest clock a table has (15 s): the person to move does nothing, and the table's bot moves for him."""
    with ServerProcess(tmp_path / "one", environment=ENVIRONMENT) as server:
        anne, bob = Person(server.url, "Anne"), Person(server.url, "Bob")
        table = anne.http.post("/api/tables", json={"game": "couyon", "options": {"level": "beginner"}, "clock": 15})
        code, secret = table.json()["code"].replace("-", ""), table.json()["secret"]
        assert bob.http.post(f"/api/tables/{code}/seats", json={"secret": secret, "seat": "N"}).status_code == 200

        def a_person_to_move(message: dict[str, Any]) -> bool:
            return message["type"] == "game" and message["answer"]["view"]["to_move"] in ("S", "N")

        async def scenario() -> tuple[str, int, float]:
            await anne.connect(server.url, code, secret)
            await bob.connect(server.url, code, secret)
            assert anne.http.post(f"/api/tables/{code}/start", json={"secret": secret}).status_code == 200
            waiting = await _until(anne, a_person_to_move, 20)
            began = asyncio.get_running_loop().time()
            seat, number = waiting["answer"]["view"]["to_move"], waiting["answer"]["move_number"]
            # The table message sent with that game message shows the clock: the seat to move, the time it has left.
            assert anne.table["to_move"] == seat and 0 < anne.table["deadline_ms"] <= 15_000

            def the_bots_move(message: dict[str, Any]) -> bool:
                return message["type"] == "game" and any(
                    event.get("seat") == seat for event in message["answer"]["events"]
                )

            for person in (anne, bob):  # Nobody moves: each socket receives the move made for that seat.
                await _until(person, the_bots_move, 25)
            waited = asyncio.get_running_loop().time() - began
            await anne.socket.close()
            await bob.socket.close()
            return seat, number, waited

        seat, number, waited = asyncio.run(scenario())
        assert 13.0 <= waited <= 25.0, waited  # The clock ran out (it began at the last move, a little earlier).
        game_id = anne.http.get(f"/api/tables/{code}", params={"secret": secret}).json()["game_id"]
        store = Store(sqlite_url(tmp_path / "one"))
        try:
            assert number in TableStore(store).bot_numbers(game_id)  # A move of his seat, made by the bot.
            assert (store.game(game_id) or pytest.fail("no game"))[1][number].startswith(f"{seat}:")
        finally:
            store.close()
