"""Server configuration, read from ``COUYON_*`` environment variables (all listed in the README)."""

from __future__ import annotations

import itertools
import math
import os
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from couyon.store import sqlite_url


class ConfigError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


SECRET_MIN_BYTES = 32
_MAKE_A_SECRET = """python3 -c 'import secrets; print(secrets.token_hex(32))'"""


def _estimated_bits(symbols: list[int]) -> float:
    """Length times the Shannon entropy of the symbols' frequencies: a crude upper bound of a string's guessability."""
    counts = Counter(symbols)
    return -sum(count * math.log2(count / len(symbols)) for count in counts.values())


def secret_weakness(secret: str) -> str | None:
    """Why ``secret`` is too weak to sign cookies and derive the daily seeds, or None.

    A secret recovered from one published daily seed lets anyone act as any player and see
    every future deal, so it must be long and random: at least 32 bytes; and not obviously
    guessable — at least 8 different characters, not a shorter string repeated, and enough
    variety both in its characters and in the steps between them (``abcdef…`` has many
    characters but one step). ``secrets.token_hex(16)`` or longer always passes.
    """
    size = len(secret.encode())
    if size < SECRET_MIN_BYTES:
        return f"it is {size} bytes long, and a secret needs at least {SECRET_MIN_BYTES}"
    if len(set(secret)) < 8:
        distinct = len(set(secret))
        return f"it uses only {distinct} different character{'s' if distinct > 1 else ''}"
    for period in range(1, len(secret) // 2 + 1):
        if len(secret) % period == 0 and secret == secret[:period] * (len(secret) // period):
            return "it is a shorter string repeated"
    codes = [ord(char) for char in secret]
    steps = [after - before for before, after in itertools.pairwise(codes)]
    if _estimated_bits(codes) < 80 or _estimated_bits(steps) < 64:
        return "its characters are too regular to be random"
    return None


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


def _seconds(environment: Mapping[str, str], name: str, default: float, minimum: float) -> float:
    raw = environment.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not math.isfinite(value) or value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g} seconds, not {raw}")
    return value


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the app needs to start; ``from_environment`` documents the defaults."""

    data_dir: Path
    database_url: str
    secret: str | None = None
    """Signs cookies and derives the daily seeds; generated once and stored in the database if unset.
    ``from_environment`` refuses a weak one (``secret_weakness``)."""
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    log_level: str = "info"
    rate_games_per_minute: int = 30
    """New games per player id per minute (ten times that per address); 0 turns the limit off."""
    rate_moves_per_minute: int = 300
    """Moves and name changes per player id per minute (ten times that per address); 0 turns it off."""
    rate_reads_per_minute: int | None = None
    """Reads (every other API request but the health check) per player id per minute, ten times that per
    address; None: twice ``rate_moves_per_minute``; 0 turns it off. See ``reads_per_minute``."""
    max_requests_per_address: int = 4
    """Requests of one client address handled at once per process (the others wait their turn; trusted
    proxies are not gated); 0 turns the gate off."""
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
    retention_days: int = 14
    """Unfinished games and players owning nothing are deleted this many days after their creation; 0 keeps all."""
    prune_interval_seconds: int = 3600
    """How often the server applies the retention rule (one process of those sharing the database); 0: never."""
    answer_floor_ms: int | None = None
    """COUYON_ANSWER_FLOOR_MS: an answer holding n bot decisions leaves n times this many ms after its request
    arrived, whatever the game; None (unset) uses each game's own floor (``GameKind.decision_floor_ms``, docs/server.md
    "Answer times"); 0 answers as soon as it is ready, which lets an answer's time tell of the bots' hands."""
    table_bot: str | None = None
    """COUYON_TABLE_BOT: the bot of new games (``expert/1``: the default game's; ``couyon=…,malmedy=…``: per game);
    None keeps the registry's. ``couyon.server.games.table_bots`` reads it."""
    table_grace_seconds: float = 60.0
    """COUYON_TABLE_GRACE_S: how long a person at a friends' table may be without a socket (or a request) before the
    table's bot plays his seat, until he comes back (docs/tables.md, "Clocks and grace")."""
    table_joins_per_minute: int = 20
    """COUYON_TABLE_JOINS_PER_MINUTE: joins of a friends' table by its code per address and minute, so that codes
    cannot be enumerated; 0 turns the limit off."""

    @property
    def reads_per_minute(self) -> int:
        return 2 * self.rate_moves_per_minute if self.rate_reads_per_minute is None else self.rate_reads_per_minute

    @classmethod
    def from_environment(cls, environment: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environment is None else environment
        data_dir = Path(env.get("COUYON_DATA_DIR") or "data").resolve()
        secret = env.get("COUYON_SECRET") or None
        weakness = None if secret is None else secret_weakness(secret)
        if weakness is not None:
            raise ConfigError(
                f"COUYON_SECRET is too weak to keep cookies and daily deals safe: {weakness}; "
                f"generate one with {_MAKE_A_SECRET}"
            )
        return cls(
            data_dir=data_dir,
            database_url=env.get("COUYON_DATABASE_URL") or sqlite_url(data_dir),
            secret=secret,
            host=env.get("COUYON_HOST") or "127.0.0.1",
            port=_integer(env, "COUYON_PORT", 8000, minimum=1),
            workers=_integer(env, "COUYON_WORKERS", 1, minimum=1),
            log_level=(env.get("COUYON_LOG_LEVEL") or "info").lower(),
            rate_games_per_minute=_integer(env, "COUYON_RATE_GAMES_PER_MINUTE", 30),
            rate_moves_per_minute=_integer(env, "COUYON_RATE_MOVES_PER_MINUTE", 300),
            rate_reads_per_minute=(
                _integer(env, "COUYON_RATE_READS_PER_MINUTE", 0) if env.get("COUYON_RATE_READS_PER_MINUTE") else None
            ),
            max_requests_per_address=_integer(env, "COUYON_MAX_REQUESTS_PER_ADDRESS", 4),
            max_body_bytes=_integer(env, "COUYON_MAX_BODY_BYTES", 4096, minimum=256),
            max_header_bytes=_integer(env, "COUYON_MAX_HEADER_BYTES", 16384, minimum=1024),
            max_headers=_integer(env, "COUYON_MAX_HEADERS", 64, minimum=8),
            max_url_bytes=_integer(env, "COUYON_MAX_URL_BYTES", 4096, minimum=256),
            header_timeout_seconds=_integer(env, "COUYON_HEADER_TIMEOUT_SECONDS", 10, minimum=1),
            body_timeout_seconds=_integer(env, "COUYON_BODY_TIMEOUT_SECONDS", 10, minimum=1),
            keepalive_seconds=_integer(env, "COUYON_KEEPALIVE_SECONDS", 5, minimum=1),
            max_connections=_integer(env, "COUYON_MAX_CONNECTIONS", 1000, minimum=1),
            max_connections_per_address=_integer(env, "COUYON_MAX_CONNECTIONS_PER_ADDRESS", 128),
            retention_days=_integer(env, "COUYON_RETENTION_DAYS", 14),
            prune_interval_seconds=_integer(env, "COUYON_PRUNE_INTERVAL_SECONDS", 3600),
            answer_floor_ms=None
            if not env.get("COUYON_ANSWER_FLOOR_MS")
            else _integer(env, "COUYON_ANSWER_FLOOR_MS", 0),
            table_bot=env.get("COUYON_TABLE_BOT") or None,
            table_grace_seconds=_seconds(env, "COUYON_TABLE_GRACE_S", 60.0, minimum=0.1),
            table_joins_per_minute=_integer(env, "COUYON_TABLE_JOINS_PER_MINUTE", 20),
        )
