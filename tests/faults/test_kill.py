"""The server SIGKILLed in the middle of many games: after a restart every game resumes where its last
acknowledged move left it, a move lost with the process can be sent again exactly once, and every game
then plays to an end whose record replays to what the player saw."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from tests.server.helpers import Answer

from couyon.common.stream import Stream
from couyon.games.couyon.cards import Seat
from couyon.games.couyon.game import Move, play
from couyon.games.malmedy.record import verify
from couyon.loadgen import ServerProcess
from couyon.server.games import kind_of
from couyon.store import Store

GAMES = 12
MOVES_BEFORE_THE_KILL = 60
"""Acknowledged moves, all games together, between the start of the concurrent play and the kill."""


@dataclass
class Player:
    """One browser: its client, the last answer it was given, and the move it is waiting on, if any."""

    client: httpx.Client
    acknowledged: Answer
    in_flight: dict[str, Any] | None = None


def play_until_the_connection_breaks(player: Player, chooser: Stream, progress: threading.Semaphore) -> None:
    while player.acknowledged["view"]["winner"] is None:
        view_now = player.acknowledged["view"]
        player.in_flight = {"move": chooser.choice(view_now["legal"]), "move_number": view_now["move_number"]}
        try:
            response = player.client.post(f"/api/games/{player.acknowledged['id']}/moves", json=player.in_flight)
        except httpx.TransportError:
            return  # The server died with the move unanswered: it stays in flight.
        assert response.status_code == 200, response.text
        player.acknowledged, player.in_flight = response.json(), None
        progress.release()


def south_view_after(store: Store, game_id: str, count: int) -> Any:
    """South's view after the first ``count`` stored moves, as the API would have answered it."""
    loaded = store.game(game_id)
    assert loaded is not None
    game, moves = loaded
    kind = kind_of(game)
    state = kind.new_game(game.seed)
    for text in moves[:count]:
        state = play(state, Move.parse(text))
    return kind.view_json(state, Seat.S)


def test_a_sigkill_mid_games_loses_no_acknowledged_move(database_url: str, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "data", database_url)
    server.start()
    clients = [httpx.Client(base_url=server.url, timeout=10) for _ in range(GAMES)]
    store = Store(database_url)
    try:
        players = []
        for client in clients:
            created = client.post("/api/games", json={"mode": "free"})
            assert created.status_code == 201
            players.append(Player(client, created.json()))
        progress = threading.Semaphore(0)
        failures: list[BaseException] = []

        def play(player: Player, index: int) -> None:
            try:
                play_until_the_connection_breaks(player, Stream("kill", str(index)), progress)
            except BaseException as error:  # An assertion in a thread must fail the test, not just the thread.
                failures.append(error)
                progress.release()

        threads = [threading.Thread(target=play, args=(player, i)) for i, player in enumerate(players)]
        for thread in threads:
            thread.start()
        for _ in range(MOVES_BEFORE_THE_KILL):
            assert progress.acquire(timeout=60), "the players stopped making progress"
        server.kill()
        for thread in threads:
            thread.join(timeout=60)
            assert not thread.is_alive()
        assert not failures, failures
        assert any(player.in_flight for player in players), "the kill should catch moves in flight"

        server.start()
        for player in players:
            game_id, seen = player.acknowledged["id"], player.acknowledged["view"]
            resumed = player.client.get(f"/api/games/{game_id}")
            assert resumed.status_code == 200
            # Every acknowledged move is stored, exactly as the player saw it.
            assert south_view_after(store, game_id, seen["move_number"]) == seen
            if resumed.json()["view"] != seen:
                # Only the unanswered move may have been written (with the bots' replies after it).
                loaded = store.game(game_id)
                assert player.in_flight is not None and loaded is not None
                assert loaded[1][seen["move_number"]] == f"S:{player.in_flight['move']}"
            if player.in_flight is not None:
                # The player sends the unanswered move again: it succeeds only if it was lost.
                again = player.client.post(f"/api/games/{game_id}/moves", json=player.in_flight)
                expected = 409 if resumed.json()["view"] != seen else 200
                assert again.status_code == expected, again.text
            player.acknowledged = player.client.get(f"/api/games/{game_id}").json()

        for index, player in enumerate(players):
            play_until_the_connection_breaks(player, Stream("after", str(index)), threading.Semaphore(0))
            final = player.acknowledged
            record = player.client.get(f"/api/games/{final['id']}/record")
            report = verify(record.content)
            assert report["valid"] and report["finished"]
            assert (report["winner"], report["score"]) == (final["view"]["winner"], final["view"]["score"])
            # The leaderboard's replay, with the bots recomputing every move, accepted the restarted game
            # (after the final move's answer, or at the latest when the game is shown).
            shown = player.client.get(f"/api/games/{final['id']}").json()
            assert shown["leaderboard"] is not None and store.entry(final["id"]) is not None
    finally:
        for client in clients:
            client.close()
        store.close()
        server.stop()


def test_games_go_on_on_the_other_process_when_one_is_killed(postgres_url: str, tmp_path: Path) -> None:
    """Two processes on one PostgreSQL database, as behind a proxy: moves alternate between them, one is
    SIGKILLed mid-games, and the players' unanswered moves sent to the survivor continue every game."""
    first = ServerProcess(tmp_path / "first", postgres_url)
    second = ServerProcess(tmp_path / "second", postgres_url)
    first.start()
    second.start()
    progress = threading.Semaphore(0)
    failures: list[BaseException] = []
    finished: list[Answer] = []

    def play(index: int) -> None:
        clients = [httpx.Client(base_url=server.url, timeout=10) for server in (first, second)]
        chooser = Stream("failover", str(index))
        try:
            created = clients[0].post("/api/games", json={"mode": "free"})
            cookie = clients[0].cookies["couyon_player"]
            clients[1].cookies.set("couyon_player", cookie)  # The same browser, whichever process answers.
            answer = created.json()
            turn = 0
            while answer["view"]["winner"] is None:
                body = {"move": chooser.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
                url = f"/api/games/{answer['id']}/moves"
                try:
                    response = clients[turn % 2].post(url, json=body)
                except httpx.TransportError:
                    # What a proxy's next upstream would get: the same move, on the survivor.
                    response = clients[1].post(url, json=body)
                    if response.status_code == 409:
                        assert response.json()["error"]["code"] == "stale"
                        response = clients[1].get(f"/api/games/{answer['id']}")
                assert response.status_code == 200, response.text
                answer = response.json()
                turn += 1
                progress.release()
            # The leaderboard's replay check runs after the final answer (perhaps on the killed process):
            # showing the game on the survivor runs it, or waits for it, if it has not run.
            shown = clients[1].get(f"/api/games/{answer['id']}")
            assert shown.status_code == 200, shown.text
            finished.append(shown.json())
        except BaseException as error:  # An assertion in a thread must fail the test.
            failures.append(error)
            progress.release()
        finally:
            for client in clients:
                client.close()

    try:
        threads = [threading.Thread(target=play, args=(index,)) for index in range(GAMES // 2)]
        for thread in threads:
            thread.start()
        for _ in range(MOVES_BEFORE_THE_KILL):
            assert progress.acquire(timeout=60)
        first.kill()
        for thread in threads:
            thread.join(timeout=120)
            assert not thread.is_alive()
        assert not failures, failures
        assert len(finished) == GAMES // 2
        store = Store(postgres_url)
        try:
            for answer in finished:
                loaded = store.game(answer["id"])
                assert loaded is not None and len(loaded[1]) == answer["view"]["move_number"]
                assert answer["leaderboard"] is not None and store.entry(answer["id"]) is not None
        finally:
            store.close()
    finally:
        first.stop()
        second.stop()
