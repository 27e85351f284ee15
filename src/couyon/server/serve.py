"""``couyon serve``: run the app on uvicorn; options override the ``COUYON_*`` environment.

The server's libraries are imported only when serving, so ``couyon verify`` starts fast.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from couyon.server.config import Settings

_SERVE_VARIABLES = {
    "host": "COUYON_HOST",
    "port": "COUYON_PORT",
    "data_dir": "COUYON_DATA_DIR",
    "database_url": "COUYON_DATABASE_URL",
    "workers": "COUYON_WORKERS",
    "log_level": "COUYON_LOG_LEVEL",
}
_RATINGS_VARIABLES = {"data_dir": "COUYON_DATA_DIR", "database_url": "COUYON_DATABASE_URL"}
_PRUNE_VARIABLES = {
    "days": "COUYON_RETENTION_DAYS",
    "data_dir": "COUYON_DATA_DIR",
    "database_url": "COUYON_DATABASE_URL",
}


def add_store_arguments(parser: argparse.ArgumentParser) -> None:
    """The two ways every command that opens the store is told which one."""
    parser.add_argument("--data-dir", help="folder of the SQLite database (COUYON_DATA_DIR, default ./data)")
    parser.add_argument("--database-url", help="SQLAlchemy URL, e.g. postgresql+psycopg://… (COUYON_DATABASE_URL)")


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", help="address to listen on (COUYON_HOST, default 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (COUYON_PORT, default 8000)")
    add_store_arguments(parser)
    parser.add_argument("--workers", type=int, help="server processes (COUYON_WORKERS, default 1)")
    parser.add_argument("--log-level", help="debug, info, warning or error (COUYON_LOG_LEVEL, default info)")


def _database_problem(url: str, data_dir: Path) -> str | None:
    """Why the database at ``url`` cannot be used, in one sentence, or None if it answers."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from couyon.store import Store

    try:
        shown = make_url(url).render_as_string(hide_password=True)
    except (SQLAlchemyError, ValueError):
        # The URL itself is not repeated: it may hold a password.
        return "the database URL is not one such as postgresql+psycopg://user:password@host/db"
    try:
        if url.startswith("sqlite"):
            data_dir.mkdir(parents=True, exist_ok=True)
        store = Store(url)
        try:
            store.ping()
        finally:
            store.close()
    except (SQLAlchemyError, OSError) as error:
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        return f"cannot use the database {shown}: {reason}"
    return None


_SPARE_FILE_DESCRIPTORS = 128
"""Besides its connections a process holds database connections, log and library files."""


def _file_descriptor_problem(max_connections: int) -> str | None:
    """Raise this process's open-file limit to what ``max_connections`` needs, or say why it cannot be."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows has no such limit to raise.
        return None
    needed = max_connections + _SPARE_FILE_DESCRIPTORS
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return None
    if hard != resource.RLIM_INFINITY and hard < needed:
        return (
            f"COUYON_MAX_CONNECTIONS={max_connections} needs {needed} open files but the limit is {hard} "
            "(raise it with ulimit -n or systemd's LimitNOFILE, or lower COUYON_MAX_CONNECTIONS)"
        )
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))  # Inherited by the worker processes.
    return None


def _checked_settings(command: str, args: argparse.Namespace, variables: Mapping[str, str]) -> Settings | None:
    """The settings, the command's options put over the environment, once the database answers; None after saying why.

    The options go into the environment so that uvicorn's worker processes read the same settings. The database
    is checked once here so that an unreachable or misspelt one is one sentence, not every worker's traceback.
    """
    from couyon.server.config import ConfigError, Settings
    from couyon.server.games import table_bots

    for option, variable in variables.items():
        value = getattr(args, option)
        if value is not None:
            os.environ[variable] = str(value)
    try:
        settings = Settings.from_environment()
        table_bots(settings.table_bot)
    except (ConfigError, ValueError) as error:
        print(f"couyon {command}: {error}", file=sys.stderr)
        return None
    problem = _database_problem(settings.database_url, settings.data_dir)
    if problem is not None:
        print(f"couyon {command}: {problem}.", file=sys.stderr)
        return None
    return settings


def run_serve(args: argparse.Namespace) -> int:
    """Start the server; worker processes read the same settings from the environment."""
    import uvicorn

    from couyon.server.logs import configure_logging
    from couyon.server.tables.api import SOCKET_MESSAGE_BYTES, SocketCountingHttpProtocol

    settings = _checked_settings("serve", args, _SERVE_VARIABLES)
    if settings is None:
        return 2
    problem = _file_descriptor_problem(settings.max_connections)
    if problem is not None:
        print(f"couyon serve: {problem}.", file=sys.stderr)
        return 2
    configure_logging(settings.log_level)
    uvicorn.run(
        "couyon.server.app:app_from_environment",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        access_log=False,  # HttpEdge writes one JSON line per request instead.
        log_config=None,
        proxy_headers=True,
        timeout_graceful_shutdown=5,
        # The connection guard (header size, count and time, connections per process and per address);
        # HttpEdge bounds the body's size and time, and uvicorn closes idle keep-alive connections.
        http=SocketCountingHttpProtocol,
        # Friends' tables' sockets (server/tables/api.py): a frame larger than a few messages is refused by the
        # protocol itself (close 1009) before it is read whole; the app closes one over 2 KB with 1008.
        ws="websockets",
        ws_max_size=8 * SOCKET_MESSAGE_BYTES,
        ws_per_message_deflate=False,
        timeout_keep_alive=settings.keepalive_seconds,
    )
    return 0


def add_ratings_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["rebuild"], help="rebuild: recompute every rating from the stored games")
    add_store_arguments(parser)


def run_ratings(args: argparse.Namespace) -> int:
    """Recompute every rating from the stored games (docs/ratings.md) and print how many games and how long."""
    import json
    import time

    from couyon.server.games import GameService
    from couyon.server.ratings.service import RatingService
    from couyon.store import Store

    settings = _checked_settings("ratings", args, _RATINGS_VARIABLES)
    if settings is None:
        return 2
    store = Store(settings.database_url)
    try:
        store.migrate()
        started = time.perf_counter()
        games = RatingService(GameService(store, b"")).rebuild()  # It deals nothing: no seed secret needed.
        seconds = time.perf_counter() - started
    finally:
        store.close()
    print(json.dumps({"games": games, "seconds": round(seconds, 3)}))
    return 0


def add_puzzles_arguments(parser: argparse.ArgumentParser, games: Sequence[str]) -> None:
    from couyon.server.puzzles.mining import DEFAULT_GAMES, DEFAULT_SEED

    parser.add_argument("action", choices=["mine"], help="mine: seeded bot games into the store (docs/puzzles.md)")
    parser.add_argument("--game", choices=list(games), help="the game to mine (default: every game with puzzles)")
    parser.add_argument(
        "--games",
        type=int,
        default=DEFAULT_GAMES,
        help=f"source games per game (default {DEFAULT_GAMES}; 2000 for the full pool)",
    )
    parser.add_argument(
        "--seed", default=DEFAULT_SEED, help=f"the source games are SEED:0, SEED:1, ... (default {DEFAULT_SEED})"
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    add_store_arguments(parser)


def run_puzzles(args: argparse.Namespace) -> int:
    """Mine seeded bot games into the store, resumably, and print one JSON line per game of what this run found."""
    import json

    from couyon.registry import GAMES
    from couyon.server.puzzles.mining import mine_into
    from couyon.store import Store
    from couyon.store.puzzles import PuzzleStore

    if args.games < 0:
        print("couyon puzzles: --games is a number of games, 0 or more.", file=sys.stderr)
        return 2
    settings = _checked_settings("puzzles", args, _RATINGS_VARIABLES)
    if settings is None:
        return 2
    chosen = [GAMES[args.game]] if args.game else [game for game in GAMES.values() if game.puzzles is not None]
    store = Store(settings.database_url)
    try:
        store.migrate()
        for game in chosen:
            run = mine_into(PuzzleStore(store), game, args.games, args.seed, not args.no_progress)
            print(json.dumps(run.to_json()), flush=True)
    finally:
        store.close()
    return 0


def add_prune_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--days",
        type=int,
        help="delete unfinished games and players owning nothing created over this many days ago "
        "(COUYON_RETENTION_DAYS, default 14; 0 deletes nothing)",
    )
    add_store_arguments(parser)


def run_prune(args: argparse.Namespace) -> int:
    """Apply the retention rule once (as the server does every COUYON_PRUNE_INTERVAL_SECONDS) and print what went."""
    import json

    from couyon.server.app import Retention
    from couyon.server.games import utc_now
    from couyon.store import Store

    settings = _checked_settings("prune", args, _PRUNE_VARIABLES)
    if settings is None:
        return 2
    if settings.retention_days == 0:
        print(json.dumps({"games": 0, "players": 0, "tables_closed": 0, "tables_forgotten": 0, "days": 0}))
        return 0
    store = Store(settings.database_url)
    try:
        store.migrate()
        retention = Retention(store, utc_now, settings.retention_days, 0)
        pruned = retention.run()
        report = {
            "games": pruned.games,
            "players": pruned.players,
            "tables_closed": pruned.tables_closed,
            "tables_forgotten": pruned.tables_forgotten,
            "days": settings.retention_days,
            "cutoff": retention.cutoff().isoformat(),
        }
    finally:
        store.close()
    print(json.dumps(report))
    return 0
