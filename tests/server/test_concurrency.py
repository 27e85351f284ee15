"""Nothing can fork a game: the same move sent twice at once, or to two server processes, succeeds once."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from tests.server.helpers import at_once

from couyon.games.malmedy.record import verify
from couyon.loadgen import ServerProcess
from couyon.store import StaleMoveError, Store


def test_a_move_number_is_written_once(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    from tests.store.test_store import stored_game

    game = stored_game("g_race", "p_one")
    store.create_game(game, ["E:pass"])
    store.append_moves(game.id, 1, ["S:pass", "W:pass"])
    with pytest.raises(StaleMoveError):
        store.append_moves(game.id, 2, ["W:take"])
    assert store.game(game.id)[1] == ["E:pass", "S:pass", "W:pass"]
    store.close()


@contextmanager
def running_server(database_url: str, data_dir: Path) -> Iterator[str]:
    """A real ``couyon serve`` process on a free port; yields its base URL."""
    with ServerProcess(data_dir, database_url) as server:
        yield server.url


def play_with_duplicates(bases: list[str], rng: random.Random, games: int) -> int:
    """Play complete games, sending every move to each base at once; returns the moves played."""
    clients = [httpx.Client(base_url=base, timeout=30) for base in bases]
    created = clients[0].post("/api/games", json={"mode": "free"})
    assert created.status_code == 201
    for client in clients[1:]:
        client.cookies.set("couyon_player", clients[0].cookies["couyon_player"])
    played = 0
    try:
        for game_index in range(games):
            answer = (
                created.json()
                if game_index == 0
                else clients[game_index % len(clients)].post("/api/games", json={"mode": "free"}).json()
            )
            while answer["view"]["winner"] is None:
                body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
                url = f"/api/games/{answer['id']}/moves"
                targets = clients if len(clients) > 1 else clients * 2  # Two senders either way.
                responses = at_once([lambda c=client, u=url, b=body: c.post(u, json=b) for client in targets])
                statuses = sorted(response.status_code for response in responses)
                assert statuses == [200] + [409] * (len(responses) - 1), [r.text for r in responses]
                # Late by a whole request, the loser finds the game moved on (or over, after its last move).
                assert all(
                    r.json()["error"]["code"] in ("stale", "game_over") for r in responses if r.status_code == 409
                )
                answer = next(r for r in responses if r.status_code == 200).json()
                played += 1
            # Whichever process answered, the stored game replays to what the player saw.
            record = clients[-1].get(f"/api/games/{answer['id']}/record")
            report = verify(record.content)
            assert report["valid"] and report["score"] == answer["view"]["score"]
            for client in clients:
                assert client.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
    finally:
        for client in clients:
            client.close()
    return played


def test_the_same_move_sent_twice_at_once_succeeds_once(database_url: str, tmp_path: Path) -> None:
    with running_server(database_url, tmp_path / "data") as base:
        assert play_with_duplicates([base], random.Random(1), games=1) > 10


def test_two_server_processes_share_one_postgresql_database(postgres_url: str, tmp_path: Path) -> None:
    with running_server(postgres_url, tmp_path / "a") as first, running_server(postgres_url, tmp_path / "b") as second:
        assert play_with_duplicates([first, second], random.Random(2), games=3) > 30
