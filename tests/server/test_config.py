"""Configuration from the environment, and the table bot: chosen per game, kept for the game's life."""

from __future__ import annotations

import os
import random
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.server.helpers import new_game, play_to_end

from couyon.loadgen import free_port
from couyon.registry import GAMES
from couyon.server.config import ConfigError, Settings, secret_weakness
from couyon.server.games import table_bots

STRONG_SECRET = "5f0c8e51d2a94b7c3e6a10f98d4b27e6a3c5d8e0f1b2a4c6d8e0f2a4b6c8d0e2"


@pytest.mark.parametrize(
    ("secret", "why"),
    [
        ("belote", "6 bytes long"),
        ("test-secret", "11 bytes long"),
        ("belote" * 6, "only 5 different characters"),
        ("a" * 64, "only 1 different character;"),
        ("0123456789abcdef" * 2, "a shorter string repeated"),
        ("abcdefghijklmnopqrstuvwxyz0123456789", "too regular"),
        ("test-secret-test-secret-test-secret", "only 6 different characters"),
    ],
)
def test_a_weak_secret_is_refused_with_how_to_make_one(secret: str, why: str) -> None:
    with pytest.raises(ConfigError) as refused:
        Settings.from_environment({"COUYON_SECRET": secret})
    message = str(refused.value)
    assert message.startswith("COUYON_SECRET is too weak") and why in message, message
    assert "secrets.token_hex(32)" in message and secret not in message


def test_random_secrets_are_accepted() -> None:
    for _ in range(2000):
        assert secret_weakness(secrets.token_hex(16)) is None  # 128 random bits, the shortest the rule accepts
    assert secret_weakness(secrets.token_hex(32)) is None
    assert secret_weakness(secrets.token_urlsafe(32)) is None
    assert Settings.from_environment({"COUYON_SECRET": STRONG_SECRET}).secret == STRONG_SECRET
    assert Settings.from_environment({}).secret is None  # Generated and stored in the database.


def test_serve_refuses_a_weak_secret_in_one_sentence(tmp_path: Path) -> None:
    environment = {**os.environ, "COUYON_SECRET": "belote", "COUYON_DATA_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "couyon.cli", "serve", "--port", str(free_port())],
        env=environment,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    message = done.stderr.decode()
    assert message.startswith("couyon serve: COUYON_SECRET is too weak") and message.count("\n") == 1, message
    assert "token_hex(32)" in message and "belote" not in message and "Traceback" not in message
    assert not (tmp_path / "couyon.sqlite3").exists()  # Refused before anything was created.


def test_defaults_and_overrides(tmp_path: Path) -> None:
    defaults = Settings.from_environment({"COUYON_DATA_DIR": str(tmp_path)})
    assert defaults.database_url == f"sqlite:///{tmp_path / 'couyon.sqlite3'}"
    assert (defaults.host, defaults.port, defaults.workers, defaults.secret) == ("127.0.0.1", 8000, 1, None)
    custom = Settings.from_environment(
        {
            "COUYON_DATABASE_URL": "postgresql+psycopg://u@h/db",
            "COUYON_PORT": "9000",
            "COUYON_SECRET": STRONG_SECRET,
            "COUYON_RATE_MOVES_PER_MINUTE": "0",
            "COUYON_TABLE_BOT": "baseline/1",
        }
    )
    assert (
        custom.database_url == "postgresql+psycopg://u@h/db" and custom.port == 9000 and custom.secret == STRONG_SECRET
    )
    assert custom.rate_moves_per_minute == 0 and custom.table_bot == "baseline/1"


def test_the_tables_grace_period_and_joins_limit_are_settings() -> None:
    defaults = Settings.from_environment({})
    assert (defaults.table_grace_seconds, defaults.table_joins_per_minute) == (60.0, 20)
    custom = Settings.from_environment({"COUYON_TABLE_GRACE_S": "1.5", "COUYON_TABLE_JOINS_PER_MINUTE": "0"})
    assert (custom.table_grace_seconds, custom.table_joins_per_minute) == (1.5, 0)
    with pytest.raises(ConfigError, match="COUYON_TABLE_GRACE_S must be a number of seconds, not 'soon'"):
        Settings.from_environment({"COUYON_TABLE_GRACE_S": "soon"})
    with pytest.raises(ConfigError, match=r"COUYON_TABLE_GRACE_S must be at least 0\.1 seconds, not 0"):
        Settings.from_environment({"COUYON_TABLE_GRACE_S": "0"})
    with pytest.raises(ConfigError, match="COUYON_TABLE_JOINS_PER_MINUTE must be at least 0"):
        Settings.from_environment({"COUYON_TABLE_JOINS_PER_MINUTE": "-1"})


def test_connection_limits_have_defaults_and_settings() -> None:
    defaults = Settings.from_environment({})
    assert (defaults.max_header_bytes, defaults.max_headers, defaults.max_url_bytes) == (16384, 64, 4096)
    assert (defaults.header_timeout_seconds, defaults.body_timeout_seconds, defaults.keepalive_seconds) == (10, 10, 5)
    assert (defaults.max_connections, defaults.max_connections_per_address) == (1000, 128)
    custom = Settings.from_environment(
        {"COUYON_HEADER_TIMEOUT_SECONDS": "3", "COUYON_MAX_CONNECTIONS_PER_ADDRESS": "0", "COUYON_MAX_HEADERS": "20"}
    )
    assert (custom.header_timeout_seconds, custom.max_connections_per_address, custom.max_headers) == (3, 0, 20)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("COUYON_PORT", "eighty"),
        ("COUYON_PORT", "0"),
        ("COUYON_WORKERS", "-1"),
        ("COUYON_HEADER_TIMEOUT_SECONDS", "0"),
        ("COUYON_MAX_HEADER_BYTES", "100"),
        ("COUYON_MAX_CONNECTIONS", "0"),
    ],
)
def test_bad_values_name_the_variable(name: str, value: str) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_environment({name: value})


def test_an_unknown_table_bot_is_refused_at_start(make_client: Any) -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_client(table_bot="nobody/9")


def test_a_game_keeps_the_bot_it_started_with(make_client: Any) -> None:
    before = make_client(table_bot="random/1")
    answer = new_game(before)
    assert answer["bot"] == "random/1"
    after = make_client(table_bot="baseline/1")  # The operator switches bots; the same database.
    after.cookies.set("couyon_player", before.cookies["couyon_player"])
    assert after.get("/api/health").json()["bot"] == "baseline/1"
    assert new_game(after)["bot"] == "baseline/1"
    finished = play_to_end(after, after.get(f"/api/games/{answer['id']}").json(), random.Random(6))
    assert finished["bot"] == "random/1"
    assert finished["leaderboard_pending"] is True
    shown = after.get(f"/api/games/{answer['id']}").json()
    assert shown["leaderboard"] is not None  # The replay check used random/1, as recorded.


def test_the_table_bot_setting_names_the_default_games_bot_or_each_games() -> None:
    registry = {game.id: game.table_bot_id for game in GAMES.values()}
    assert table_bots(None) == table_bots("") == registry
    assert table_bots("baseline/1") == registry | {"couyon": "baseline/1"}
    assert table_bots("malmedy=random/1") == registry | {"malmedy": "random/1"}
    assert table_bots(" couyon=expert/2 , malmedy=random/1 ") == registry | {
        "couyon": "expert/2",
        "malmedy": "random/1",
    }
    # Each game's bots are its own: baseline/1 of Malmedy is not couyon's baseline.
    assert table_bots("malmedy=baseline/1")["malmedy"] == "baseline/1"
    for setting, problem in (
        ("tarot=random/1", "unknown game 'tarot'"),
        ("malmedy=expert/3", "unknown bot 'expert/3' for malmedy"),
        ("nobody/9", "unknown bot 'nobody/9' for couyon"),
        ("couyon=random/1,baseline/1", "names the bot of couyon twice"),
    ):
        with pytest.raises(ValueError, match=problem):
            table_bots(setting)


def test_health_names_the_bot_of_every_games_new_tables(make_client: Any) -> None:
    health = make_client(table_bot="random/1,malmedy=random/1").get("/api/health").json()
    assert health["bot"] == "random/1"
    registry = {game.id: game.table_bot_id for game in GAMES.values()}
    assert health["bots"] == registry | {"couyon": "random/1", "malmedy": "random/1"}
