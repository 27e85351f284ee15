"""The retention rule (Store.prune, app.Retention, couyon prune): unfinished games and players owning nothing are
deleted some days after their creation, finished and ranked ones are kept; one process of those sharing a database
runs it periodically; and a request that is refused writes nothing."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.websockets import WebSocketDisconnect
from tests.server.helpers import new_game, play_to_end, send_move

from couyon.loadgen import ServerProcess
from couyon.store import LeaderboardEntry, RankedFinish, Store, StoredGame
from couyon.store.schema import daily_attempts, games, moves, players
from couyon.store.store import Pruned

NOW = dt.datetime(2026, 11, 29, 9, 0)
OLD = NOW - dt.timedelta(days=20)
CUTOFF = NOW - dt.timedelta(days=14)
OPENING = ["E:pass", "S:take"]


def stored(
    game_id: str, player_id: str, created_at: dt.datetime, ranked: bool = True, mode: str = "free"
) -> StoredGame:
    day = created_at.date() if mode == "daily" else None
    return StoredGame(game_id, player_id, mode, day, ranked, "seed-" + game_id, "standard", "random/1", created_at)


def count(store: Store, table: Any) -> int:
    with store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar_one())


def ids(store: Store, table: Any) -> set[str]:
    with store.engine.connect() as connection:
        return set(connection.execute(select(table.c.id)).scalars())


def test_the_retention_rule(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    try:
        store.create_game(stored("g_abandoned", "p_abandoner", OLD), OPENING)
        store.create_daily_attempt(stored("g_daily_left", "p_abandoner", OLD, mode="daily"), OPENING)
        store.create_game(stored("g_finished", "p_keeper", OLD), OPENING)
        store.append_moves("g_finished", len(OPENING), ["S:AH"], RankedFinish(OLD, None))
        store.create_game(stored("g_entered", "p_keeper", OLD), OPENING)
        store.enter(LeaderboardEntry("g_entered", "free", None, "p_keeper", 1300, 9, OLD))
        store.create_game(stored("g_recent", "p_recent", NOW - dt.timedelta(days=3)), OPENING)
        store.create_game(stored("g_unranked_open", "p_unranked", OLD, ranked=False), OPENING)
        store.create_game(stored("g_unranked_done", "p_unranked", OLD, ranked=False), [*OPENING, "S:AH"])
        store.set_player_name("p_idle_old", "Marie", OLD)  # A name, and nothing else.
        store.set_player_name("p_idle_recent", "Julie", NOW)
        judged: list[str] = []

        def is_finished(game: StoredGame, played: list[str]) -> bool:
            judged.append(game.id)
            return len(played) == 3

        assert store.prune(CUTOFF, is_finished) == Pruned(games=3, players=2)
        assert ids(store, games) == {"g_finished", "g_entered", "g_recent", "g_unranked_done"}
        assert ids(store, players) == {"p_keeper", "p_recent", "p_unranked", "p_idle_recent"}
        assert count(store, moves) == 3 + 2 + 2 + 3 and count(store, daily_attempts) == 0
        assert sorted(judged) == ["g_unranked_done", "g_unranked_open"]
        assert store.game("g_abandoned") is None and store.game("g_finished") is not None
        # A second run finds nothing, and replays no unranked game already judged.
        assert store.prune(CUTOFF, is_finished) == Pruned(games=0, players=0)
        assert sorted(judged) == ["g_unranked_done", "g_unranked_open"]
        # An unranked game crossing the cutoff later is judged then.
        store.create_game(stored("g_unranked_later", "p_unranked", CUTOFF + dt.timedelta(days=1), False), OPENING)
        assert store.prune(CUTOFF + dt.timedelta(days=2), is_finished) == Pruned(games=1, players=0)
        assert judged[-1] == "g_unranked_later"
    finally:
        store.close()


def test_a_player_who_made_a_new_recovery_code_is_kept(database_url: str) -> None:
    # Deleted, the player would come back at generation 0 with their next game: their ended codes would work again.
    store = Store(database_url)
    store.migrate()
    try:
        store.create_game(stored("g_abandoned", "p_careful", OLD), OPENING)
        assert store.new_recovery_generation("p_careful", OLD) == 1
        store.set_player_name("p_idle_old", "Marie", OLD)
        assert store.prune(CUTOFF, lambda game, played: False) == Pruned(games=1, players=1)
        assert ids(store, players) == {"p_careful"} and store.recovery_generation("p_careful") == 1
    finally:
        store.close()


def test_one_process_claims_each_periodic_run(database_url: str) -> None:
    first, second = Store(database_url), Store(database_url)
    first.migrate()
    try:
        hour = dt.timedelta(hours=1)
        assert first.claim_prune(NOW, hour) is True
        assert second.claim_prune(NOW + dt.timedelta(minutes=1), hour) is False
        assert first.claim_prune(NOW + dt.timedelta(minutes=59), hour) is False
        assert second.claim_prune(NOW + dt.timedelta(minutes=61), hour) is True
    finally:
        first.close()
        second.close()


def test_the_app_keeps_finished_games_and_deletes_abandoned_ones(make_client: Any, clock: Any) -> None:
    client = make_client(table_bot="random/1")
    finished_unranked = play_to_end(client, new_game(client, ranked=False), random.Random(3))
    finished_ranked = play_to_end(client, new_game(client), random.Random(4))
    abandoned_unranked = new_game(client, ranked=False)
    send_move(client, abandoned_unranked, abandoned_unranked["view"]["legal"][0])
    abandoned = new_game(client)
    clock.advance(dt.timedelta(days=15))
    pruned = client.app.state.retention.run()
    assert pruned == Pruned(games=2, players=0)
    for kept in (finished_unranked, finished_ranked):
        assert client.get(f"/api/games/{kept['id']}").status_code == 200
        assert client.get(f"/api/games/{kept['id']}/record").status_code == 200
    for gone in (abandoned_unranked, abandoned):
        assert client.get(f"/api/games/{gone['id']}").status_code == 404
    assert client.get("/api/leaderboard").json()["entries"][0]["score"] == finished_ranked["view"]["score"]


def test_a_refused_request_creates_no_player_and_no_game(make_client: Any) -> None:
    client = make_client()
    store = client.app.state.store
    before = (count(store, players), count(store, games))
    assert client.post("/api/games", json={"mode": "free", "game": "tarot9"}).status_code == 422
    assert client.put("/api/player", json={"name": "\u3164"}).status_code == 422
    assert client.post("/api/games", json={"mode": "sometimes"}).status_code == 422
    assert (count(store, players), count(store, games)) == before
    # One new player per address per minute: the second cookie-less request is refused, and writes nothing.
    assert make_client(rate_games_per_minute=1).post("/api/games", json={"mode": "free"}).status_code == 201
    refused = make_client(rate_games_per_minute=1).post("/api/games", json={"mode": "free"})
    assert refused.status_code == 429 and "set-cookie" not in refused.headers
    assert make_client(rate_games_per_minute=1).put("/api/player", json={"name": "Marie"}).status_code == 429
    assert (count(store, players), count(store, games)) == (before[0] + 1, before[1] + 1)


def old_abandoned_game(data_dir: Path, created_at: dt.datetime, game_id: str = "g_old") -> str:
    """A SQLite database in ``data_dir`` holding one game left unfinished at ``created_at``."""
    store = Store(f"sqlite:///{data_dir / 'couyon.sqlite3'}")
    store.migrate()
    store.create_game(stored(game_id, "p_" + game_id, created_at), OPENING)
    store.close()
    return game_id


def game_ids(data_dir: Path) -> set[str]:
    with sqlite3.connect(data_dir / "couyon.sqlite3") as connection:
        return {row[0] for row in connection.execute("SELECT id FROM games")}


def test_couyon_prune_applies_the_rule_once(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    old_abandoned_game(data_dir, now - dt.timedelta(days=20))
    old_abandoned_game(data_dir, now - dt.timedelta(days=5), "g_recent")
    environment = {key: value for key, value in os.environ.items() if not key.startswith("COUYON_")}
    command = [sys.executable, "-m", "couyon.cli", "prune", "--data-dir", str(data_dir)]
    done = subprocess.run(command, env=environment, capture_output=True, timeout=60, check=True)
    report = json.loads(done.stdout)
    assert (report["games"], report["players"], report["days"]) == (1, 1, 14)
    assert game_ids(data_dir) == {"g_recent"}
    shorter = subprocess.run([*command, "--days", "2"], env=environment, capture_output=True, timeout=60, check=True)
    assert json.loads(shorter.stdout)["games"] == 1 and game_ids(data_dir) == set()


def test_the_real_server_prunes_by_itself(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None)
    old_abandoned_game(data_dir, now - dt.timedelta(days=20))
    old_abandoned_game(data_dir, now - dt.timedelta(days=1), "g_recent")
    with ServerProcess(data_dir, environment={"COUYON_PRUNE_INTERVAL_SECONDS": "1"}):
        deadline = time.monotonic() + 20
        while "g_old" in game_ids(data_dir):
            assert time.monotonic() < deadline, "the server did not prune"
            time.sleep(0.2)
        assert game_ids(data_dir) == {"g_recent"}


# -- friends' tables (issue 21): a table in use keeps its game, an untouched one is closed, then forgotten ----------


def _table(client: Any, game: str, **options: Any) -> dict[str, Any]:
    assert client.put("/api/player", json={"name": "Table" + game.title()}).status_code == 200
    opened = client.post("/api/tables", json={"game": game, "options": options or None, "clock": 0})
    assert opened.status_code == 201, opened.text
    table: dict[str, Any] = opened.json()
    started = client.post(f"/api/tables/{table['code']}/start", json={"secret": table["secret"]})
    assert started.status_code == 200 and started.json()["state"] == "playing", started.text
    return table | {"game_id": started.json()["game_id"]}


def _at(client: Any, table: dict[str, Any], tail: str = "") -> Any:
    return client.get(f"/api/tables/{table['code']}{tail}", params={"secret": table["secret"]})


def test_an_untouched_table_is_closed_with_its_unfinished_game_and_a_table_in_use_keeps_its_own(
    make_client: Any, clock: Any
) -> None:
    left, kept, done = make_client(), make_client(), make_client()
    store = left.app.state.store
    abandoned = _table(left, "couyon", level="beginner")  # Nobody comes back to it.
    in_use = _table(kept, "couyon", level="beginner")  # Its game is old, but its player keeps coming back.
    finished = _table(done, "coucou", players=5, tokens=1, level="easy")
    for _ in range(60):
        answer = _at(done, finished, "/game").json()
        if answer["view"]["winner"] is not None:
            break
        body = {"secret": finished["secret"], "move": answer["view"]["legal"][0], "move_number": answer["move_number"]}
        assert done.post(f"/api/tables/{finished['code']}/moves", json=body).status_code == 200
    assert _at(done, finished).json()["state"] == "over"
    for _ in range(2):
        clock.advance(dt.timedelta(days=10))
        assert _at(kept, in_use, "/game").status_code == 200  # Polling the game counts as being at the table.
    pruned = left.app.state.retention.run()  # Day 20: the others were untouched since day 0.
    assert (pruned.tables_closed, pruned.tables_forgotten) == (2, 0)
    assert store.game(in_use["game_id"]) is not None and _at(kept, in_use).json()["state"] == "playing"
    assert store.game(abandoned["game_id"]) is None  # Unfinished, it went with its table.
    assert store.game(finished["game_id"]) is not None  # Finished, it keeps its record.
    closed = "This table was closed after a long time with nobody at it: open a new one."
    for client, table in ((left, abandoned), (done, finished)):
        answer = _at(client, table)
        assert answer.status_code == 410 and answer.json()["error"] == {"code": "table_closed", "message": closed}
        joined = client.post("/api/tables/join", json={"code": table["code"]})
        assert joined.status_code == 410 and joined.json()["error"]["code"] == "table_closed"
        sat = client.post(f"/api/tables/{table['code']}/seats", json={"secret": table["secret"], "seat": "N"})
        assert sat.status_code == 410
    record = _at(done, finished, "/record")
    assert record.status_code == 200 and json.loads(record.text)["table"] == finished["code"]
    assert _at(left, abandoned, "/record").status_code == 404
    with (
        pytest.raises(WebSocketDisconnect) as ended,
        left.websocket_connect(
            f"/api/tables/{abandoned['code']}/socket?secret={abandoned['secret']}",
            headers={"cookie": "; ".join(f"{name}={value}" for name, value in left.cookies.items())},
        ) as socket,
    ):
        assert socket.receive_json() == {"type": "error", "status": 410, "code": "table_closed", "message": closed}
        socket.receive_json()
    assert ended.value.code == 1008
    # A second retention period later, the closed tables are deleted; the one in use, untouched since day 20, closes.
    clock.advance(dt.timedelta(days=15))
    pruned = left.app.state.retention.run()
    assert (pruned.tables_closed, pruned.tables_forgotten) == (1, 2)
    assert _at(left, abandoned).status_code == 404 and _at(kept, in_use).status_code == 410
    assert store.game(finished["game_id"]) is not None and store.game(in_use["game_id"]) is None
