"""Server configuration, read from ``COUYON_*`` environment variables (all listed in the README)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from couyon.store import sqlite_url


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


def _integer(environment: Mapping[str, str], name: str, default: int, minimum: int = 0) -> int:
    raw = environment.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, not {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, not {value}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app needs to start; ``from_environment`` documents the defaults."""

    data_dir: Path
    database_url: str
    secret: str | None = None
    """Signs cookies and derives the daily seeds; generated once and stored in the database if unset."""
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    log_level: str = "info"
    rate_games_per_minute: int = 30
    """New games per player id per minute (ten times that per address); 0 turns the limit off."""
    rate_moves_per_minute: int = 300
    """Moves and name changes per player id per minute (ten times that per address); 0 turns it off."""
    max_body_bytes: int = 4096
    max_header_bytes: int = 16384
    """The request line and headers together; a larger head gets 431 (414 for the URL alone, below)."""
    max_headers: int = 64
    """Header lines per request; more get 431."""
    max_url_bytes: int = 4096
    """The request target (path and query); a longer one gets 414."""
    header_timeout_seconds: int = 10
    """From a connection's opening (or a request's first byte) to the end of its headers; then 408 and closed."""
    body_timeout_seconds: int = 10
    """From the end of the headers to the end of the body; then 408 and closed."""
    keepalive_seconds: int = 5
    """An idle keep-alive connection is closed after this long."""
    max_connections: int = 1000
    """Open connections per server process; more are answered 503 and closed at once."""
    max_connections_per_address: int = 128
    """Open connections per client address per process (trusted proxies are exempt); 0 turns it off."""
    table_bot: str | None = None
    """COUYON_TABLE_BOT: the bot of new games (``expert/1``: the default game's; ``couyon=…,malmedy=…``: per game);
    None keeps the registry's. ``couyon.server.games.table_bots`` reads it."""

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environment is None else environment
        data_dir = Path(env.get("COUYON_DATA_DIR") or "data").resolve()
        return cls(
            data_dir=data_dir,
            database_url=env.get("COUYON_DATABASE_URL") or sqlite_url(data_dir),
            secret=env.get("COUYON_SECRET") or None,
            host=env.get("COUYON_HOST") or "127.0.0.1",
            port=_integer(env, "COUYON_PORT", 8000, minimum=1),
            workers=_integer(env, "COUYON_WORKERS", 1, minimum=1),
            log_level=(env.get("COUYON_LOG_LEVEL") or "info").lower(),
            rate_games_per_minute=_integer(env, "COUYON_RATE_GAMES_PER_MINUTE", 30),
            rate_moves_per_minute=_integer(env, "COUYON_RATE_MOVES_PER_MINUTE", 300),
            max_body_bytes=_integer(env, "COUYON_MAX_BODY_BYTES", 4096, minimum=256),
            max_header_bytes=_integer(env, "COUYON_MAX_HEADER_BYTES", 16384, minimum=1024),
            max_headers=_integer(env, "COUYON_MAX_HEADERS", 64, minimum=8),
            max_url_bytes=_integer(env, "COUYON_MAX_URL_BYTES", 4096, minimum=256),
            header_timeout_seconds=_integer(env, "COUYON_HEADER_TIMEOUT_SECONDS", 10, minimum=1),
            body_timeout_seconds=_integer(env, "COUYON_BODY_TIMEOUT_SECONDS", 10, minimum=1),
            keepalive_seconds=_integer(env, "COUYON_KEEPALIVE_SECONDS", 5, minimum=1),
            max_connections=_integer(env, "COUYON_MAX_CONNECTIONS", 1000, minimum=1),
            max_connections_per_address=_integer(env, "COUYON_MAX_CONNECTIONS_PER_ADDRESS", 128),
            table_bot=env.get("COUYON_TABLE_BOT") or None,
        )
