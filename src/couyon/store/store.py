"""The store: games, moves, players, daily attempts and leaderboard entries in SQLite or PostgreSQL.

Every game row keeps its game's registry id (``couyon``, ``malmedy``, …); daily attempts and
leaderboard boards are per game. The store never interprets a game id: the server asks the
registry what it means.

SQLite is the default (a file in the data folder, WAL journal so readers never wait for the
writer); PostgreSQL is chosen by URL. Every write runs in one transaction that takes the
write lock first (``BEGIN IMMEDIATE`` on SQLite), so concurrent requests queue instead of
failing on a lock upgrade; a move number already written raises ``StaleMoveError``.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Engine,
    and_,
    bindparam,
    case,
    column,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy import table as named_table
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError, IntegrityError, InternalError, OperationalError, StatementError
from sqlalchemy.pool import PoolProxiedConnection

from couyon.store.schema import (
    LEGACY_GAME,
    daily_attempts,
    deal_lines,
    games,
    hints,
    leaderboard_entries,
    moves,
    players,
    ranked_finishes,
    rate_counts,
    reviews,
    settings,
    table_seats,
    tables,
)

_MIGRATIONS = Path(__file__).with_name("migrations")
_MIGRATION_LOCK = 0x636F75  # PostgreSQL advisory lock key: one process migrates at a time.
_SQLITE_BUSY_MILLISECONDS = 5000
_GAME_ROWS_KEPT = 4096
_IN_BATCH = 500
"""Ids in one ``IN (…)`` list: under SQLite's oldest bound on a statement's parameters (999)."""
_PRUNE_CHECKED_UNTIL = "prune_checked_until"
"""The ``settings`` row: unranked games created before this time were judged by the retention rule."""
_LAST_PRUNE = "last_prune"
"""The ``settings`` row: when a process last claimed the retention rule's periodic run."""
_HEALTH_PROBE = "health_probe"
"""The ``settings`` row the health check rewrites to learn whether the database accepts writes."""


# The hottest statements (every move request reads the player's generation, every move and the hints, then writes
# its moves) go to the driver's own cursor: SQLAlchemy's Connection costs some 100 µs a statement, about ten times
# what SQLite takes to answer (docs/performance.md, "The server's own cost"). Written with ``?``; PostgreSQL's
# driver takes ``%s`` (``_HotStatements``).
_MOVES_OF_GAME = "SELECT move FROM moves WHERE game_id = ? ORDER BY number"
_RECOVERY_GENERATION = "SELECT recovery_generation FROM players WHERE id = ?"
_HINTS_OF_GAME = "SELECT count(*) FROM hints WHERE game_id = ?"
_INSERT_MOVES = "INSERT INTO moves (game_id, number, move) VALUES (?, ?, ?)"


class StaleMoveError(Exception):
    """Another request already wrote a move at one of these numbers: the game moved on."""


class _ReadScope:
    """The driver's connection the hot reads of one ``Store.reading`` block share, opened by the first of them."""

    __slots__ = ("connection",)

    def __init__(self) -> None:
        self.connection: PoolProxiedConnection | None = None

    def release(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.close()  # Back to the pool, which rolls back what the reads began.


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored: everything needed to replay it, and who owns it."""

    id: str
    player_id: str
    mode: str
    day: dt.date | None
    ranked: bool
    seed: str
    variant: str
    bot_id: str
    created_at: dt.datetime
    game: str = LEGACY_GAME
    """The registry's id of the game (``couyon.registry``)."""
    options: str = ""
    """The table options it was dealt with, as canonical JSON; "" for a game without options."""


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """A verified finished game on a board of its game (``free``, or ``daily`` with its day)."""

    game_id: str
    board: str
    day: dt.date | None
    player_id: str
    score: int
    deals: int
    finished_at: dt.datetime
    game: str = LEGACY_GAME
    level: str = ""
    """The simulated players' level (``beginner``, ``expert``…); "" for a game without levels."""


@dataclass(frozen=True, slots=True)
class Pruned:
    """What one application of the retention rule deleted."""

    games: int
    players: int
    tables_closed: int = 0
    """Friends' tables untouched since the cutoff, closed (their unfinished game deleted with them)."""
    tables_forgotten: int = 0
    """Closed tables untouched for a second retention period, deleted."""


@dataclass(frozen=True, slots=True)
class RankedFinish:
    """When a ranked game's final move was stored, and why its leaderboard entry was refused (None: not refused)."""

    finished_at: dt.datetime
    refusal: str | None


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """A leaderboard line as shown: rank, the player's current name, score, deals, finish time, and whose it is."""

    rank: int
    game_id: str
    name: str | None
    score: int
    deals: int
    finished_at: dt.datetime
    player_id: str


def _ranks_before(entry: LeaderboardEntry) -> Any:
    """Entries that rank ahead: higher score, then fewer deals, then earlier finish, then game id."""
    table = leaderboard_entries
    return or_(
        table.c.score > entry.score,
        and_(table.c.score == entry.score, table.c.deals < entry.deals),
        and_(table.c.score == entry.score, table.c.deals == entry.deals, table.c.finished_at < entry.finished_at),
        and_(
            table.c.score == entry.score,
            table.c.deals == entry.deals,
            table.c.finished_at == entry.finished_at,
            table.c.game_id < entry.game_id,
        ),
    )


def _on_board(game: str, board: str, day: dt.date | None, level: str | None = None) -> Any:
    """The entries of one board: a game's free board or day's board, of one level unless ``level`` is None."""
    table = leaderboard_entries
    on_day = table.c.day.is_(None) if day is None else table.c.day == day
    of_level = [] if level is None else [table.c.level == level]
    return and_(table.c.game == game, table.c.board == board, *of_level, on_day)


def _attempt_of(player_id: str, game: str, day: dt.date) -> Any:
    table = daily_attempts
    return select(table.c.game_id).where(table.c.player_id == player_id, table.c.game == game, table.c.day == day)


def _untouched(cutoff: dt.datetime) -> list[Any]:
    """The conditions of a friends' table nobody touched since ``cutoff``: opened before it, no move or start since
    (``moved_at``), and none of its people seen since (``seen_at``: a socket, a request, a seat taken)."""
    seen = select(table_seats.c.code).where(table_seats.c.code == tables.c.code, table_seats.c.seen_at >= cutoff)
    return [
        tables.c.created_at < cutoff,
        or_(tables.c.moved_at.is_(None), tables.c.moved_at < cutoff),
        ~seen.exists(),
    ]


def _prepare_sqlite(engine: Engine) -> None:
    """WAL, a busy timeout and explicit transactions, since pysqlite's own handling defers BEGIN."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_SQLITE_BUSY_MILLISECONDS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        # In WAL mode NORMAL survives a killed process; only a power cut may lose the last commits.
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get("couyon_write", False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def sqlite_url(data_dir: Path) -> str:
    """The default database: ``couyon.sqlite3`` in the data folder."""
    return f"sqlite:///{data_dir / 'couyon.sqlite3'}"


class Store:
    """All reads and writes of the game database; safe to share between threads and processes."""

    def __init__(self, url: str) -> None:
        self.url = url
        if url.startswith("sqlite"):
            self.engine = create_engine(url, pool_size=10, max_overflow=20)
            _prepare_sqlite(self.engine)
        else:
            # pre_ping: a connection dropped by a database restart is replaced instead of failing a request.
            self.engine = create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True, pool_timeout=10)
        self._writer = self.engine.execution_options(couyon_write=True)
        self._write_lock: AbstractContextManager[object] = nullcontext() if self.is_postgresql else threading.Lock()
        self._games: OrderedDict[str, StoredGame] = OrderedDict()
        self._games_lock = threading.Lock()
        self._read_scope: ContextVar[_ReadScope | None] = ContextVar(f"couyon_reads_{id(self)}", default=None)
        self._driver_error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        hot = (_MOVES_OF_GAME, _RECOVERY_GENERATION, _HINTS_OF_GAME, _INSERT_MOVES)
        self._hot = {statement: statement.replace("?", "%s") for statement in hot} if self.is_postgresql else {}
        """The hot statements in the driver's parameter style (SQLite's driver takes them as written)."""
        self.write_refusal: tuple[float, OperationalError | InternalError] | None = None
        """When (``time.monotonic``) and how the last write of a request was refused, unless one succeeded since."""

    @contextmanager
    def _write(self, *, probe: bool = False) -> Iterator[Connection]:
        """A write transaction; on SQLite, threads of this process queue on a lock first.

        SQLite has one writer at a time and its busy handler polls with growing sleeps, so
        twenty threads waiting on it give long tails; a process lock hands over in order and
        leaves the busy timeout to arbitrate only between processes. A refused write (read-only,
        disk full, locked, unreachable) is remembered in ``write_refusal`` until one succeeds;
        the health check's own probe writes are not, as a small write may succeed where a
        move's does not (a full disk with room left in the journal).
        """
        scope = self._read_scope.get()
        if scope is not None:
            # Never two connections at once, and a read after this write sees it (a new connection).
            scope.release()
        try:
            with self._write_lock, self._writer.begin() as connection:
                yield connection
        except (OperationalError, InternalError) as error:
            if not probe:
                self.write_refusal = (time.monotonic(), error)
            raise
        if not probe:
            self.write_refusal = None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """The reads of a request in one connection: inside the block (in this thread, or this task), the
        store's hot reads (``recovery_generation``, ``game``, ``hints``) share one, opened by the first of them
        and closed with the block, instead of taking one from the pool each (and on SQLite a transaction each:
        they read one snapshot). A write inside the block closes it first, so a request never holds two
        connections and a read after a write sees it; so does a read that fails.
        """
        if self._read_scope.get() is not None:
            yield  # Already inside a block: its connection serves.
            return
        scope = _ReadScope()
        token = self._read_scope.set(scope)
        try:
            yield
        finally:
            self._read_scope.reset(token)
            scope.release()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A connection of its own for a read that is not one of the hot ones (inside a ``reading`` block, the block's
        connection is given back first: a request never holds two)."""
        scope = self._read_scope.get()
        if scope is not None:
            scope.release()
        with self.engine.connect() as connection:
            yield connection

    def _hot_read(self, statement: str, parameters: tuple[Any, ...]) -> list[Any]:
        """The rows of one of the hot statements, on the ``reading`` block's driver connection (or one of its own)."""
        scope = self._read_scope.get()
        if scope is None:
            connection = self._driver_connection()
            try:
                return self._driver_call(connection, self._hot.get(statement, statement), parameters)
            finally:
                connection.close()
        if scope.connection is None:
            scope.connection = self._driver_connection()
            if not self.is_postgresql:
                # The block's reads see one snapshot (PostgreSQL's driver begins a transaction by itself).
                self._driver_call(scope.connection, "BEGIN", ())
        try:
            return self._driver_call(scope.connection, self._hot.get(statement, statement), parameters)
        except BaseException:
            scope.release()  # A failed statement may have broken the transaction: the next read starts anew.
            raise

    def _driver_connection(self) -> PoolProxiedConnection:
        """A connection of the pool for the driver's cursor; a refused connection raised as SQLAlchemy's error, as
        ``engine.connect()`` raises it (``raw_connection`` lets the driver's own through)."""
        try:
            return self.engine.raw_connection()
        except self._driver_error as error:
            raise DBAPIError.instance(None, None, error, self._driver_error) from error

    def _driver_call(
        self, connection: PoolProxiedConnection, statement: str, parameters: tuple[Any, ...], *, many: bool = False
    ) -> list[Any]:
        """Run ``statement`` on the driver's cursor; its error raised as SQLAlchemy's (``IntegrityError``,
        ``OperationalError``…), as every other statement's is, and a connection the database dropped thrown away."""
        cursor = connection.cursor()
        try:
            if many:
                cursor.executemany(statement, parameters)
                return []
            cursor.execute(statement, parameters)
            return list(cursor.fetchall()) if cursor.description is not None else []
        except self._driver_error as error:
            raise self._translated(error, statement, parameters, connection, cursor) from error
        finally:
            cursor.close()

    def _translated(
        self,
        error: Exception,
        statement: str,
        parameters: Any,
        connection: PoolProxiedConnection,
        cursor: Any,
    ) -> StatementError:
        """The driver's ``error`` as SQLAlchemy's (``IntegrityError``, ``OperationalError``…), as every other
        statement's is; a connection the database dropped is thrown away."""
        invalidated = self.engine.dialect.is_disconnect(error, connection.dbapi_connection, cursor)  # type: ignore[arg-type]
        if invalidated:
            connection.invalidate(error)
        return DBAPIError.instance(statement, parameters, error, self._driver_error, connection_invalidated=invalidated)

    @property
    def is_postgresql(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to ``revision`` (the newest by default); several processes may call it at once."""
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        with self._writer.connect() as connection:
            if self.is_postgresql:
                connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": _MIGRATION_LOCK})
                connection.commit()
            try:
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
                connection.commit()
            finally:
                if self.is_postgresql:
                    connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": _MIGRATION_LOCK})
                    connection.commit()

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Raise a SQLAlchemy error if the database cannot answer."""
        with self.engine.connect() as connection:
            connection.execute(select(1)).scalar_one()

    def write_probe(self, now: dt.datetime) -> None:
        """Write and commit one row (``settings``' ``health_probe``); raise the database's error if it refuses.

        A read-only database (file, mount, PostgreSQL standby or read-only transaction) refuses
        it, a locked one makes it wait for the lock's busy timeout; a full disk refuses it when
        the journal has no room left for one more page.
        """
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        value = now.isoformat()
        statement = (
            dialect_insert(settings)
            .values(name=_HEALTH_PROBE, value=value)
            .on_conflict_do_update(index_elements=["name"], set_={"value": value})
        )
        with self._write(probe=True) as connection:
            connection.execute(statement)

    def setting(self, name: str, make: Callable[[], str]) -> str:
        """The stored value of ``name``, storing ``make()`` first if there is none (first writer wins)."""
        query = select(settings.c.value).where(settings.c.name == name)
        with self.engine.connect() as connection:
            value = connection.execute(query).scalar_one_or_none()
        if value is not None:
            return str(value)
        try:
            with self._write() as connection:
                connection.execute(insert(settings).values(name=name, value=make()))
        except IntegrityError:
            pass  # Another process stored it first: use theirs.
        with self.engine.connect() as connection:
            return str(connection.execute(query).scalar_one())

    def _ensure_player(self, connection: Connection, player_id: str, now: dt.datetime) -> None:
        # ON CONFLICT DO NOTHING: two first requests of one new player may race on PostgreSQL.
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        connection.execute(
            dialect_insert(players).values(id=player_id, name=None, created_at=now).on_conflict_do_nothing()
        )

    def create_game(self, game: StoredGame, first_moves: Sequence[str]) -> None:
        """Store a new game with the bots' opening moves."""
        with self._write() as connection:
            self._insert_game(connection, game, first_moves)

    def _insert_game(self, connection: Connection, game: StoredGame, first_moves: Sequence[str]) -> None:
        self._ensure_player(connection, game.player_id, game.created_at)
        connection.execute(
            insert(games).values(
                id=game.id,
                player_id=game.player_id,
                mode=game.mode,
                day=game.day,
                ranked=game.ranked,
                seed=game.seed,
                variant=game.variant,
                bot_id=game.bot_id,
                created_at=game.created_at,
                game=game.game,
                options=game.options,
            )
        )
        if first_moves:
            connection.execute(
                insert(moves), [{"game_id": game.id, "number": n, "move": m} for n, m in enumerate(first_moves)]
            )

    def daily_attempt(self, player_id: str, day: dt.date, game: str = LEGACY_GAME) -> str | None:
        """The id of the player's ranked attempt of ``game``'s challenge of ``day``, if it was started."""
        with self.engine.connect() as connection:
            found = connection.execute(_attempt_of(player_id, game, day)).scalar_one_or_none()
        return None if found is None else str(found)

    def create_daily_attempt(self, game: StoredGame, first_moves: Sequence[str]) -> str:
        """Store ``game`` as the player's ranked attempt of its game and day, or return the attempt already there."""
        assert game.day is not None
        try:
            with self._write() as connection:
                existing = connection.execute(_attempt_of(game.player_id, game.game, game.day)).scalar_one_or_none()
                if existing is not None:
                    return str(existing)
                self._insert_game(connection, game, first_moves)
                connection.execute(
                    insert(daily_attempts).values(
                        player_id=game.player_id, game=game.game, day=game.day, game_id=game.id
                    )
                )
                return game.id
        except IntegrityError:
            # Two first requests of the day raced (possible on PostgreSQL): the other one's game counts.
            attempt = self.daily_attempt(game.player_id, game.day, game.game)
            if attempt is None:
                raise
            return attempt

    def game(self, game_id: str) -> tuple[StoredGame, list[str]] | None:
        """The game and its moves in order, or None if there is no such game."""
        game = self._games.get(game_id)
        if game is None:
            with self._read() as connection:
                row = connection.execute(select(games).where(games.c.id == game_id)).first()
            if row is None:
                return None
            game = StoredGame(**row._asdict())
            self._remember_game(game)
        return game, [move for (move,) in self._hot_read(_MOVES_OF_GAME, (game_id,))]

    def games_of(self, game_ids: Sequence[str]) -> dict[str, tuple[StoredGame, list[str]]]:
        """``game`` of each of these games that exists, by game id, in two queries (a rebuild reads thousands)."""
        found: dict[str, tuple[StoredGame, list[str]]] = {}
        with self._read() as connection:
            for row in connection.execute(select(games).where(games.c.id.in_(game_ids))):
                found[row.id] = (StoredGame(**row._asdict()), [])
            in_order = select(moves.c.game_id, moves.c.move).where(moves.c.game_id.in_(game_ids))
            for game_id, move in connection.execute(in_order.order_by(moves.c.game_id, moves.c.number)):
                found[game_id][1].append(move)
        return found

    def _remember_game(self, game: StoredGame) -> None:
        # A games row never changes once written, so keeping it saves a query on every move.
        with self._games_lock:
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > _GAME_ROWS_KEPT:
                self._games.popitem(last=False)

    def append_moves(
        self, game_id: str, first_number: int, new_moves: Sequence[str], finish: RankedFinish | None = None
    ) -> None:
        """Write moves ``first_number`` onward (and, for a ranked game's final move, its finish) in one transaction."""
        rows = tuple((game_id, first_number + i, move) for i, move in enumerate(new_moves))
        try:
            if finish is None:
                self._append_only(rows)
                return
            with self._write() as connection:
                if rows:  # None when a game's bots ended it before the human's first move: its finish alone.
                    connection.execute(insert(moves), [{"game_id": g, "number": n, "move": m} for g, n, m in rows])
                if finish is not None:
                    connection.execute(
                        insert(ranked_finishes).values(
                            game_id=game_id, finished_at=finish.finished_at, refusal=finish.refusal
                        )
                    )
        except IntegrityError as error:
            raise StaleMoveError(f"move {first_number} of game {game_id} is already written") from error

    def _append_only(self, rows: tuple[tuple[str, int, str], ...]) -> None:
        """Insert move rows in one transaction on the driver's cursor (the move request's write, ``_INSERT_MOVES``),
        with what ``_write`` gives every write: the process's lock on SQLite, and the refusal remembered."""
        scope = self._read_scope.get()
        if scope is not None:
            scope.release()
        try:
            with self._write_lock:
                connection = self._driver_connection()
                try:
                    if not self.is_postgresql:
                        self._driver_call(connection, "BEGIN IMMEDIATE", ())
                    self._driver_call(connection, self._hot.get(_INSERT_MOVES, _INSERT_MOVES), rows, many=True)
                    try:
                        connection.commit()
                    except self._driver_error as error:  # The database went away between the insert and its commit.
                        raise self._translated(error, "COMMIT", (), connection, None) from error
                except BaseException:
                    if connection.is_valid:
                        with suppress(self._driver_error):  # The error that stopped the write is the one to tell.
                            connection.rollback()
                    raise
                finally:
                    connection.close()
        except (OperationalError, InternalError) as error:
            self.write_refusal = (time.monotonic(), error)
            raise
        self.write_refusal = None

    def ranked_finish(self, game_id: str) -> RankedFinish | None:
        """The finish of a ranked game whose final move was stored, if it has one."""
        query = select(ranked_finishes.c.finished_at, ranked_finishes.c.refusal).where(
            ranked_finishes.c.game_id == game_id
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else RankedFinish(row.finished_at, row.refusal)

    def enter(self, entry: LeaderboardEntry) -> None:
        """Insert a verified leaderboard entry; a second insert of the same game is a no-op (two verifiers raced)."""
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        with self._write() as connection:
            connection.execute(
                dialect_insert(leaderboard_entries)
                .values(
                    game_id=entry.game_id,
                    board=entry.board,
                    day=entry.day,
                    player_id=entry.player_id,
                    score=entry.score,
                    deals=entry.deals,
                    finished_at=entry.finished_at,
                    game=entry.game,
                    level=entry.level,
                )
                .on_conflict_do_nothing(index_elements=["game_id"])
            )

    def add_hint(self, game_id: str, number: int) -> int:
        """Note that the player asked for a hint at move ``number`` (once per move); how many moves had one."""
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        with self._write() as connection:
            connection.execute(dialect_insert(hints).values(game_id=game_id, number=number).on_conflict_do_nothing())
            return int(
                connection.execute(
                    select(func.count()).select_from(hints).where(hints.c.game_id == game_id)
                ).scalar_one()
            )

    def hints(self, game_id: str) -> int:
        """How many of the game's moves the player asked a hint for."""
        return int(self._hot_read(_HINTS_OF_GAME, (game_id,))[0][0])

    def review(self, game_id: str, seat: str, revealed: bool, version: str) -> bytes | None:
        """The stored body of the game's review from ``seat`` (its label), ``revealed`` or not, built by ``version``;
        None if there is none."""
        query = select(reviews.c.body).where(
            reviews.c.game_id == game_id,
            reviews.c.seat == seat,
            reviews.c.revealed.is_(revealed),
            reviews.c.version == version,
        )
        with self.engine.connect() as connection:
            body = connection.execute(query).scalar_one_or_none()
        return None if body is None else bytes(body)

    def keep_review(self, game_id: str, seat: str, revealed: bool, version: str, body: bytes) -> None:
        """Store the game's review from ``seat``, in place of one another version built."""
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        row = {"game_id": game_id, "seat": seat, "revealed": revealed, "version": version, "body": body}
        with self._write() as connection:
            connection.execute(
                dialect_insert(reviews)
                .values(**row)
                .on_conflict_do_update(
                    index_elements=["game_id", "seat", "revealed"], set_={"version": version, "body": body}
                )
            )

    def deal_lines(self, game_ids: Sequence[str], version: str) -> dict[str, str]:
        """The kept deal lines (JSON) of those of these games that ``version``'s code folded (``keep_deal_lines``)."""
        found: dict[str, str] = {}
        with self._read() as connection:
            for start in range(0, len(game_ids), _IN_BATCH):
                query = select(deal_lines.c.game_id, deal_lines.c.lines).where(
                    deal_lines.c.game_id.in_(game_ids[start : start + _IN_BATCH]), deal_lines.c.version == version
                )
                found.update((str(row.game_id), str(row.lines)) for row in connection.execute(query))
        return found

    def keep_deal_lines(self, lines: Mapping[str, str], version: str) -> None:
        """Keep games' deal lines (JSON) folded by ``version``'s code, in place of another version's, in one write."""
        if not lines:
            return
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        rows = [{"game_id": game_id, "version": version, "lines": text} for game_id, text in lines.items()]
        statement = dialect_insert(deal_lines)
        with self._write() as connection:
            connection.execute(
                statement.on_conflict_do_update(
                    index_elements=["game_id"],
                    set_={"version": statement.excluded.version, "lines": statement.excluded.lines},
                ),
                rows,
            )

    def refuse(self, game_id: str, reason: str) -> None:
        """Record why a ranked game's verifying replay refused it, so it is not replayed again."""
        with self._write() as connection:
            connection.execute(
                update(ranked_finishes).where(ranked_finishes.c.game_id == game_id).values(refusal=reason[:200])
            )

    def entry(self, game_id: str) -> tuple[LeaderboardEntry, int] | None:
        """The game's leaderboard entry and its rank on its board, if it entered one."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(leaderboard_entries).where(leaderboard_entries.c.game_id == game_id)
            ).first()
            if row is None:
                return None
            entry = LeaderboardEntry(**row._asdict())
            ahead = connection.execute(
                select(func.count())
                .select_from(leaderboard_entries)
                .where(_on_board(entry.game, entry.board, entry.day, entry.level), _ranks_before(entry))
            ).scalar_one()
        return entry, int(ahead) + 1

    def leaderboard(
        self,
        board: str,
        day: dt.date | None,
        limit: int,
        game: str = LEGACY_GAME,
        level: str | None = None,
        *,
        since: dt.datetime | None = None,
    ) -> list[RankedEntry]:
        """The best ``limit`` entries of ``game``'s board (of one ``level`` unless None; only the games finished
        at or after ``since``, naive UTC, unless None): score descending, then fewest deals, then earliest finish."""
        table = leaderboard_entries
        recent = [] if since is None else [table.c.finished_at >= since]
        query = (
            select(
                table.c.game_id, players.c.name, table.c.score, table.c.deals, table.c.finished_at, table.c.player_id
            )
            .select_from(table.outerjoin(players, players.c.id == table.c.player_id))
            .where(_on_board(game, board, day, level), *recent)
            .order_by(table.c.score.desc(), table.c.deals, table.c.finished_at, table.c.game_id)
            .limit(limit)
        )
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            RankedEntry(rank, row.game_id, row.name, row.score, row.deals, row.finished_at, row.player_id)
            for rank, row in enumerate(rows, start=1)
        ]

    def daily_entries(self, day: dt.date, game: str = LEGACY_GAME) -> list[LeaderboardEntry]:
        """Every entry of ``game``'s daily board of ``day``, best first (the leaderboard's order)."""
        table = leaderboard_entries
        query = (
            select(table)
            .where(_on_board(game, "daily", day))
            .order_by(table.c.score.desc(), table.c.deals, table.c.finished_at, table.c.game_id)
        )
        with self.engine.connect() as connection:
            return [LeaderboardEntry(**row._asdict()) for row in connection.execute(query)]

    def player_entries(self, player_id: str, game: str = LEGACY_GAME) -> list[LeaderboardEntry]:
        """Every leaderboard entry of the player in ``game``, free and daily, oldest first (not a club tournament's:
        its board ``club`` is the tournament's, and its games may be of one deal, docs/clubs.md)."""
        table = leaderboard_entries
        query = (
            select(table)
            .where(table.c.player_id == player_id, table.c.game == game, table.c.board.in_(("free", "daily")))
            .order_by(table.c.finished_at, table.c.game_id)
        )
        with self.engine.connect() as connection:
            return [LeaderboardEntry(**row._asdict()) for row in connection.execute(query)]

    def daily_places(self, player_id: str, game: str = LEGACY_GAME) -> list[tuple[LeaderboardEntry, int, int]]:
        """The player's daily entries in ``game``, oldest day first, each with its rank and its day's entries."""
        table = leaderboard_entries
        order = (table.c.score.desc(), table.c.deals, table.c.finished_at, table.c.game_id)
        days = select(table.c.day).where(table.c.player_id == player_id, table.c.game == game, table.c.board == "daily")
        ranked = (
            select(
                table,
                func.row_number().over(partition_by=table.c.day, order_by=order).label("rank"),
                func.count().over(partition_by=table.c.day).label("field"),
            )
            .where(table.c.game == game, table.c.board == "daily", table.c.day.in_(days))
            .subquery()
        )
        query = select(ranked).where(ranked.c.player_id == player_id).order_by(ranked.c.day)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        places = []
        for row in rows:
            fields = row._asdict()
            rank, field = int(fields.pop("rank")), int(fields.pop("field"))
            places.append((LeaderboardEntry(**fields), rank, field))
        return places

    def player_name(self, player_id: str) -> str | None:
        with self.engine.connect() as connection:
            name = connection.execute(select(players.c.name).where(players.c.id == player_id)).scalar_one_or_none()
        return None if name is None else str(name)

    def set_player_name(self, player_id: str, name: str, now: dt.datetime) -> None:
        """Store the player's name with its skeleton (what it looks like, ``couyon.server.names.skeleton``)."""
        from couyon.server.names import skeleton  # The name rules are the server's; the store keeps their result.

        looks_like = skeleton(name)[:128]
        with self._write() as connection:
            self._ensure_player(connection, player_id, now)
            connection.execute(
                update(players).where(players.c.id == player_id).values(name=name, name_skeleton=looks_like)
            )

    def recovery_generation(self, player_id: str) -> int:
        """How many new recovery codes the player has made (0 for a player not stored)."""
        found = self._hot_read(_RECOVERY_GENERATION, (player_id,))
        return int(found[0][0] or 0) if found else 0

    def new_recovery_generation(self, player_id: str, now: dt.datetime) -> int:
        """Count one more new recovery code of the player (stored first if need be); the new generation."""
        with self._write() as connection:
            self._ensure_player(connection, player_id, now)
            return int(
                connection.execute(
                    update(players)
                    .where(players.c.id == player_id)
                    .values(recovery_generation=players.c.recovery_generation + 1)
                    .returning(players.c.recovery_generation)
                ).scalar_one()
            )

    def game_count(self, player_id: str) -> int:
        """How many games of any kind the player has stored."""
        query = select(func.count()).select_from(games).where(games.c.player_id == player_id)
        with self.engine.connect() as connection:
            return int(connection.execute(query).scalar_one())

    def name_skeleton_taken(self, skeleton: str, player_id: str) -> bool:
        """Whether a player other than ``player_id`` who is on a leaderboard has a name with this skeleton."""
        on_a_board = select(leaderboard_entries.c.game_id).where(leaderboard_entries.c.player_id == players.c.id)
        query = (
            select(players.c.id)
            .where(players.c.name_skeleton == skeleton[:128], players.c.id != player_id, on_a_board.exists())
            .limit(1)
        )
        with self.engine.connect() as connection:
            return connection.execute(query).first() is not None

    # -- rate limits -----------------------------------------------------------------------------

    def add_rate_counts(self, increments: Mapping[str, int], window: int) -> dict[str, int]:
        """Add each key's count of requests in ``window`` (a minute number) to the shared totals; the new totals.

        A key whose row holds an older window starts again from this count.
        """
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        totals: dict[str, int] = {}
        with self._write() as connection:
            for key, count in sorted(increments.items()):  # One order everywhere: no deadlock between processes.
                upsert = dialect_insert(rate_counts).values(key=key[:200], minute=window, count=count)
                added = rate_counts.c.count + count
                statement = upsert.on_conflict_do_update(
                    index_elements=["key"],
                    set_={
                        "count": case((rate_counts.c.minute == upsert.excluded.minute, added), else_=count),
                        "minute": upsert.excluded.minute,
                    },
                ).returning(rate_counts.c.count)
                totals[key] = int(connection.execute(statement).scalar_one())
        return totals

    def forget_rate_counts(self, before_window: int) -> int:
        """Delete the counts of windows before ``before_window``; how many rows went."""
        with self._write() as connection:
            deleted = connection.execute(rate_counts.delete().where(rate_counts.c.minute < before_window))
        return max(0, deleted.rowcount)

    # -- retention -------------------------------------------------------------------------------

    def prune(
        self,
        cutoff: dt.datetime,
        is_finished: Callable[[StoredGame, list[str]], bool],
        batch: int = 500,
        forget_closed_before: dt.datetime | None = None,
    ) -> Pruned:
        """Delete what was created before ``cutoff`` (naive UTC) and is worth nothing: the retention rule.

        - a ranked game without a finish (``ranked_finishes``, written with its final move) or a
          leaderboard entry: it was left unfinished;
        - an unranked game whose stored moves do not end it (``is_finished``, a replay): each
          is judged once, when it passes the cutoff (``settings``' ``prune_checked_until`` keeps
          how far that went), so a finished one is never replayed again;
        - a player with no game, no daily attempt and no leaderboard entry (left after the
          above, or one who only chose a name), unless they made a new recovery code: a new row
          for their id would start again at generation 0, where their ended codes were good.

        - a friends' table untouched since ``cutoff`` (no move, no start, none of its people seen: see
          ``_untouched``) is closed, and its game goes with it if unfinished; its finished games stay, as every
          finished game does. A table's current game is never judged by the game rules above: it lives as long as
          its table is in use, however old it is. A closed table untouched since ``forget_closed_before`` is
          deleted (its code then is no table's).

        A game goes with its moves, daily attempt, finish, hints and reviews. Each batch is one short write
        transaction, so players' moves go on in between.
        """
        tables_closed = self._close_untouched_tables(cutoff, batch)
        tables_forgotten = 0
        if forget_closed_before is not None:
            with self._write() as connection:
                tables_forgotten = max(
                    0,
                    connection.execute(
                        tables.delete().where(tables.c.state == "closed", *_untouched(forget_closed_before))
                    ).rowcount,
                )
        games_deleted = 0
        entered = select(leaderboard_entries.c.game_id).where(leaderboard_entries.c.game_id == games.c.id)
        finished = select(ranked_finishes.c.game_id).where(ranked_finishes.c.game_id == games.c.id)
        # A club tournament's game (migration 0013) stays: its entry would go with it and free a second try.
        entries = named_table("tournament_entries", column("game_id"))
        in_tournament = select(entries.c.game_id).where(entries.c.game_id == games.c.id)
        unfinished_ranked = (
            select(games.c.id)
            .where(
                games.c.created_at < cutoff,
                games.c.ranked.is_(True),
                ~finished.exists(),
                ~entered.exists(),
                ~in_tournament.exists(),
            )
            .limit(batch)
        )
        while True:
            with self.engine.connect() as connection:
                doomed = list(connection.execute(unfinished_ranked).scalars())
            games_deleted += self._delete_games(doomed)
            if len(doomed) < batch:
                break

        checked_until = self.setting(_PRUNE_CHECKED_UNTIL, lambda: dt.datetime(1970, 1, 1).isoformat())
        after = (dt.datetime.fromisoformat(checked_until), "")
        # A table's current game (a closed table's is finished: its unfinished one went with the closing).
        at_table = select(tables.c.code).where(tables.c.game_id == games.c.id)
        while True:
            unranked = (
                select(games)
                .where(
                    games.c.ranked.is_(False),
                    games.c.created_at < cutoff,
                    or_(
                        games.c.created_at > after[0],
                        and_(games.c.created_at == after[0], games.c.id > after[1]),
                    ),
                    ~entered.exists(),
                    ~at_table.exists(),
                )
                .order_by(games.c.created_at, games.c.id)
                .limit(batch)
            )
            with self.engine.connect() as connection:
                rows = [StoredGame(**row._asdict()) for row in connection.execute(unranked)]
                move_list = select(moves.c.move).where(moves.c.game_id == bindparam("game_id")).order_by(moves.c.number)
                played = {game.id: list(connection.execute(move_list, {"game_id": game.id}).scalars()) for game in rows}
            games_deleted += self._delete_games([game.id for game in rows if not is_finished(game, played[game.id])])
            if rows:
                after = (rows[-1].created_at, rows[-1].id)
            if len(rows) < batch:
                break
        with self._write() as connection:
            connection.execute(
                update(settings).where(settings.c.name == _PRUNE_CHECKED_UNTIL).values(value=cutoff.isoformat())
            )

        players_deleted = 0
        owned = [
            select(games.c.id).where(games.c.player_id == players.c.id),
            select(daily_attempts.c.game_id).where(daily_attempts.c.player_id == players.c.id),
            select(leaderboard_entries.c.game_id).where(leaderboard_entries.c.player_id == players.c.id),
            select(table_seats.c.code).where(table_seats.c.player_id == players.c.id),
            select(tables.c.code).where(tables.c.host_id == players.c.id),
        ]
        idle = (
            select(players.c.id)
            .where(
                players.c.created_at < cutoff,
                players.c.recovery_generation == 0,
                *(~query.exists() for query in owned),
            )
            .limit(batch)
        )
        while True:
            with self.engine.connect() as connection:
                doomed = list(connection.execute(idle).scalars())
            if doomed:
                with self._write() as connection:
                    # Checked again inside the transaction: a game may have been created meanwhile.
                    deleted = connection.execute(
                        players.delete().where(players.c.id.in_(doomed), *(~query.exists() for query in owned))
                    )
                    players_deleted += max(0, deleted.rowcount)
            if len(doomed) < batch:
                break
        return Pruned(games_deleted, players_deleted, tables_closed, tables_forgotten)

    def _close_untouched_tables(self, cutoff: dt.datetime, batch: int) -> int:
        """Close the friends' tables untouched since ``cutoff``, each with its unfinished game; how many closed.

        Each table is closed in one transaction that checks again that it is untouched (a player may have come
        back meanwhile), so a table in use is never closed, nor its game deleted."""
        closed = 0
        candidates = (
            select(tables.c.code).where(tables.c.state != "closed", *_untouched(cutoff)).order_by(tables.c.code)
        )
        after = ""
        while True:
            with self.engine.connect() as connection:
                codes = list(connection.execute(candidates.where(tables.c.code > after).limit(batch)).scalars())
            for code in codes:
                with self._write() as connection:
                    row = connection.execute(
                        select(tables.c.state, tables.c.game_id).where(tables.c.code == code)
                    ).first()
                    if row is None or row.state == "closed":
                        continue
                    # "playing" is an unfinished game: the final move turns its table "over" in its transaction.
                    unfinished = [row.game_id] if row.state == "playing" and row.game_id is not None else []
                    values: dict[str, object] = {"state": "closed"} | ({"game_id": None} if unfinished else {})
                    # Untouched still, and as read: a move or a start that committed meanwhile keeps the table open
                    # (PostgreSQL checks the row again once that writer is done).
                    done = connection.execute(
                        update(tables)
                        .where(
                            tables.c.code == code,
                            tables.c.state == row.state,
                            tables.c.game_id.is_(None) if row.game_id is None else tables.c.game_id == row.game_id,
                            *_untouched(cutoff),
                        )
                        .values(values)
                    )
                    if done.rowcount != 1:
                        continue
                    self._delete_game_rows(connection, unfinished)
                closed += 1
                self._forget_cached(unfinished)
            if len(codes) < batch:
                return closed
            after = codes[-1]

    def _delete_games(self, game_ids: Sequence[str]) -> int:
        """Delete these games with everything that hangs off them, in one transaction; how many were deleted."""
        if not game_ids:
            return 0
        with self._write() as connection:
            deleted = self._delete_game_rows(connection, game_ids)
        self._forget_cached(game_ids)
        return deleted

    @staticmethod
    def _delete_game_rows(connection: Connection, game_ids: Sequence[str]) -> int:
        """Delete these games' rows (those of migrations 0012 and 0013 go by ``ON DELETE CASCADE``)."""
        if not game_ids:
            return 0
        for table in (moves, daily_attempts, ranked_finishes, leaderboard_entries, hints, reviews, deal_lines):
            connection.execute(table.delete().where(table.c.game_id.in_(game_ids)))
        return max(0, connection.execute(games.delete().where(games.c.id.in_(game_ids))).rowcount)

    def _forget_cached(self, game_ids: Sequence[str]) -> None:
        with self._games_lock:
            for game_id in game_ids:
                self._games.pop(game_id, None)

    def claim_prune(self, now: dt.datetime, interval: dt.timedelta) -> bool:
        """Whether this process should run the retention rule now: True for one caller per ``interval``.

        Every process sharing the database asks; the first whose compare-and-set of ``settings``'
        ``last_prune`` succeeds runs it.
        """
        dialect_insert = postgresql_insert if self.is_postgresql else sqlite_insert
        with self._write() as connection:
            connection.execute(
                dialect_insert(settings)
                .values(name=_LAST_PRUNE, value="")
                .on_conflict_do_nothing(index_elements=["name"])
            )
            claimed = connection.execute(
                update(settings)
                .where(settings.c.name == _LAST_PRUNE, settings.c.value <= (now - interval).isoformat())
                .values(value=now.isoformat())
            )
        return claimed.rowcount == 1
