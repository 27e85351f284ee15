"""Rate limits (couyon.server.limits): new games, moves and reads per player id and per address, and new players per
address, answer 429 with a Retry-After; the window ends; forwarded addresses count only from a trusted proxy; the
health check is never limited; and normal play never meets a limit. (Limits shared between processes, and the
per-address gate: test_shared_limits.py.)"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import new_game, play_to_end, send_move

from couyon.loadgen import ServerProcess
from couyon.server.config import Settings
from couyon.server.identity import COOKIE_NAME, new_player_id, signed_cookie
from couyon.server.limits import ADDRESS_FACTOR, WINDOW_SECONDS


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """The limits live in each process's memory, not in the database: one backend is enough."""
    return sqlite_url


def assert_limited(response: Any) -> int:
    """A 429 in the API's error shape; returns its Retry-After."""
    assert response.status_code == 429, response.text
    assert response.json()["error"]["code"] == "too_many_requests"
    wait = int(response.headers["retry-after"])
    assert 1 <= wait <= WINDOW_SECONDS
    assert f"try again in {wait} seconds" in response.json()["error"]["message"]
    return wait


def test_moves_are_limited_per_player_id(make_client: Any) -> None:
    eager, other = make_client(rate_moves_per_minute=5), make_client(rate_moves_per_minute=5)
    game, others_game = new_game(eager), new_game(other)
    for _ in range(5):
        response = send_move(eager, game, game["view"]["legal"][0])
        assert response.status_code == 200
        game = response.json()
    assert_limited(send_move(eager, game, game["view"]["legal"][0]))
    assert_limited(eager.put("/api/player", json={"name": "Marie"}))  # Names share the moves' budget.
    assert eager.get(f"/api/games/{game['id']}").json()["view"] == game["view"]  # Reading is never limited.
    # Another player behind the same address keeps its own budget.
    assert send_move(other, others_game, others_game["view"]["legal"][0]).status_code == 200


def test_new_games_are_limited_per_player_id(make_client: Any) -> None:
    eager, other = make_client(rate_games_per_minute=2), make_client(rate_games_per_minute=2)
    new_game(eager)  # Without a cookie yet: only the address counts.
    new_game(eager)
    new_game(eager)
    assert_limited(eager.post("/api/games", json={"mode": "free"}))
    new_game(other)


def player_client(make_client: Any, **settings: Any) -> Any:
    """A client holding a valid cookie of a player never seen (as a returning player would): no new player counted."""
    client = make_client(**settings)
    client.cookies.set(COOKIE_NAME, signed_cookie(b"test-secret", new_player_id()))
    return client


def test_new_games_are_limited_per_address(make_client: Any) -> None:
    first = player_client(make_client, rate_games_per_minute=2)
    for _ in range(2 * ADDRESS_FACTOR - 1):
        new_game(player_client(make_client, rate_games_per_minute=2))  # Each its own player, all behind one address.
    new_game(first)
    assert_limited(player_client(make_client, rate_games_per_minute=2).post("/api/games", json={"mode": "free"}))
    elsewhere = TestClient(first.app, base_url="http://127.0.0.1", client=("198.51.100.9", 50000))
    with elsewhere:
        assert elsewhere.post("/api/games", json={"mode": "free"}).status_code == 201


def test_new_players_are_limited_per_address(make_client: Any) -> None:
    """Requests without a cookie create a player each: as many per address per minute as new games per player."""
    for _ in range(2):
        assert make_client(rate_games_per_minute=2).post("/api/games", json={"mode": "free"}).status_code == 201
    assert_limited(make_client(rate_games_per_minute=2).post("/api/games", json={"mode": "free"}))
    assert_limited(make_client(rate_games_per_minute=2).put("/api/player", json={"name": "Marie"}))
    # A player with a cookie is not a new player.
    assert (
        player_client(make_client, rate_games_per_minute=2).post("/api/games", json={"mode": "free"}).status_code == 201
    )


def test_reads_are_limited_but_never_the_health_check(make_client: Any) -> None:
    reader = make_client(rate_reads_per_minute=5)
    game = new_game(reader)
    for _ in range(5):
        assert reader.get(f"/api/games/{game['id']}").status_code == 200
    assert_limited(reader.get(f"/api/games/{game['id']}"))
    assert_limited(reader.get("/api/leaderboard"))
    assert all(reader.get("/api/health").status_code == 200 for _ in range(20))
    assert send_move(reader, game, game["view"]["legal"][0]).status_code == 200  # Moves have their own budget.
    # By default reads get twice the moves' budget, and none when moves have none.
    assert Settings.from_environment({}).reads_per_minute == 600
    assert Settings.from_environment({"COUYON_RATE_MOVES_PER_MINUTE": "0"}).reads_per_minute == 0
    assert Settings.from_environment({"COUYON_RATE_READS_PER_MINUTE": "50"}).reads_per_minute == 50


def test_normal_play_stays_under_the_default_limits(make_client: Any) -> None:
    """Three whole games back to back, far faster than a person plays, meet no limit."""
    defaults = Settings.from_environment({})
    client = make_client(
        rate_games_per_minute=defaults.rate_games_per_minute, rate_moves_per_minute=defaults.rate_moves_per_minute
    )
    assert defaults.rate_games_per_minute > 0 and defaults.rate_moves_per_minute > 0
    rng = random.Random(5)
    for _ in range(3):
        play_to_end(client, new_game(client), rng)  # Any 429 fails play_to_end's 200 check.


def new_games_from(server: ServerProcess, forwarded_for: list[str]) -> list[int]:
    """The status of one cookie-less new game per X-Forwarded-For value, sent from 127.0.0.1."""
    return [
        httpx.post(f"{server.url}/api/games", json={"mode": "free"}, headers={"x-forwarded-for": value}).status_code
        for value in forwarded_for
    ]


def test_forwarded_addresses_count_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    # Two new games per player id, so two new players (cookie-less requests) per address and minute.
    limit = {"COUYON_RATE_GAMES_PER_MINUTE": "2"}
    with ServerProcess(tmp_path / "trusting", environment=limit) as server:
        # 127.0.0.1 is a trusted proxy by default: each forwarded client has its own budget.
        assert set(new_games_from(server, [f"203.0.113.{i}" for i in range(ADDRESS_FACTOR + 2)])) == {201}
        # A client's own X-Forwarded-For entries come first; the proxy appends the real address last, which counts.
        spoofed = new_games_from(server, [f"198.51.100.{i}, 192.0.2.77" for i in range(3)])
        assert spoofed == [201, 201, 429]
    distrust = {**limit, "FORWARDED_ALLOW_IPS": "192.0.2.1"}
    with ServerProcess(tmp_path / "distrusting", environment=distrust) as server:
        # Not from a trusted proxy, the header is ignored: every request counts against 127.0.0.1.
        statuses = new_games_from(server, [f"203.0.113.{i}" for i in range(3)])
        assert statuses == [201, 201, 429]
