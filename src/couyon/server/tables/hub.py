"""A process's sockets at friends' tables, and the notifications that carry "table T has move N" between processes.

The store is the one truth. A notification only says where to look: on one, the process reads the table and its
moves from the store and sends each of its sockets at that table its own seat's view and the events since the
move number that socket last saw. With SQLite (one process) a notification goes from thread to event loop in the
process (``LocalNotifier``); with PostgreSQL, over ``LISTEN``/``NOTIFY`` (``PostgresNotifier``): one listening
connection per process, and a ``NOTIFY`` sent after the move's transaction committed (docs/operations.md says why).

Every socket has a bounded send queue: a client that does not read its socket is disconnected once its queue is
full, so it cannot make the process hold its messages. The hub also runs the tables' clocks and grace periods for
the tables it has sockets at (``run_bots``): any process may, since a deadline is derived from the stored time of
the last move and the primary key on (game, move number) refuses the second of two processes that both act.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from couyon.common.kind import Json
from couyon.server.encoding import json_text
from couyon.server.errors import ApiError
from couyon.server.pacing import AnswerFloor
from couyon.server.tables.service import Loaded, TableService, Waiver

log = logging.getLogger("couyon.server")

SEND_QUEUE = 64
"""Messages a socket may have waiting to be sent; one more and it is closed (a client that never reads)."""
TICK_S = 0.1
"""How often the hub looks for a clock run out or a grace period over at its tables."""
RESYNC_S = 5.0
"""How often every table with a socket here is read again even without a notification (one lost in a reconnect)."""
CHANNEL = "couyon_tables"
POLICY = 1008
"""The WebSocket close code of a socket the server ends (RFC 6455, policy violation), with its reason."""


def error_message(error: ApiError) -> Json:
    """A refusal as a socket message: the HTTP answer's status, code and sentence."""
    return {"type": "error", "status": error.status, "code": error.code, "message": error.message}


class Notifier(Protocol):
    """Carries a table's notification to every process (this one included, or not: ``TableHub`` delivers its own)."""

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[str], None]) -> None: ...

    def publish(self, payload: str) -> None: ...

    def close(self) -> None: ...


class LocalNotifier:
    """One process (SQLite): nothing to carry, the hub delivers its own notifications."""

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[str], None]) -> None:
        pass

    def publish(self, payload: str) -> None:
        pass

    def close(self) -> None:
        pass


class PostgresNotifier:
    """``LISTEN couyon_tables`` on a connection of its own, in a thread; ``NOTIFY`` on another, after each commit.

    After a (re)connection of the listener every table with a socket here is read again: notifications sent while
    it was away are lost, the moves are not.
    """

    def __init__(self, conninfo: str) -> None:
        self.conninfo = conninfo
        self._stopped = threading.Event()
        self._send_lock = threading.Lock()
        self._sender: Any = None
        self._thread: threading.Thread | None = None
        self._target: tuple[asyncio.AbstractEventLoop, Callable[[str], None]]

    def start(self, loop: asyncio.AbstractEventLoop, deliver: Callable[[str], None]) -> None:
        """Deliver to ``loop`` from now on; one listener per notifier, started by the first call."""
        self._target = (loop, deliver)
        if self._thread is None:
            self._thread = threading.Thread(target=self._listen, name="couyon-table-listener", daemon=True)
            self._thread.start()

    def _deliver(self, payload: str) -> None:
        loop, deliver = self._target
        with contextlib.suppress(RuntimeError):  # A loop closed meanwhile: its hub is bound to another by now.
            loop.call_soon_threadsafe(deliver, payload)

    def _listen(self) -> None:
        import psycopg

        while not self._stopped.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._deliver("*")
                    while not self._stopped.is_set():
                        for notice in connection.notifies(timeout=0.5):
                            self._deliver(notice.payload)
            except Exception as error:  # The database is away: try again, then read every table again.
                if self._stopped.is_set():
                    return
                log.warning("table listener reconnects", extra={"error": type(error).__name__})
                self._stopped.wait(1.0)

    def publish(self, payload: str) -> None:
        import psycopg

        with self._send_lock:
            for attempt in range(2):
                try:
                    if self._sender is None or self._sender.closed:
                        self._sender = psycopg.connect(self.conninfo, autocommit=True)
                    self._sender.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
                    return
                except psycopg.Error as error:
                    self._sender = None
                    if attempt:
                        # The move is stored: the other processes find it at their next resync.
                        log.warning("table notification lost", extra={"error": type(error).__name__})

    def close(self) -> None:
        self._stopped.set()
        with self._send_lock:
            if self._sender is not None:
                self._sender.close()
                self._sender = None


def notifier_for(database_url: str) -> Notifier:
    """LISTEN/NOTIFY on PostgreSQL; in-process delivery on SQLite (one process)."""
    if not database_url.startswith("postgresql"):
        return LocalNotifier()
    from sqlalchemy.engine import make_url

    url = make_url(database_url).set(drivername="postgresql")
    return PostgresNotifier(url.render_as_string(hide_password=False))


class Closed(Exception):
    """The socket was closed for a reason (``args``: code, reason)."""


@dataclass(eq=False)
class Connection:
    """One socket at a table: its player, his seat (None: not seated), what it was last sent."""

    code: str
    secret: str
    player_id: str
    send_text: Callable[[str], Any]
    close: Callable[[int, str], Any]
    seat: str | None = None
    number: int = -2
    """The move number the socket's last game message ended at; -2 before its hello."""
    game_id: str | None = None
    state: Any = None
    last_table: str = ""
    queue: asyncio.Queue[str | None] = field(default_factory=lambda: asyncio.Queue(SEND_QUEUE))
    closing: bool = False

    def send(self, message: Json | str) -> None:
        """Queue a message; a socket whose queue is full is closed (its client does not read)."""
        if self.closing:
            return
        text = message if isinstance(message, str) else json_text(message)
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.closing = True
            log.warning("table socket too slow", extra={"table": self.code})
            asyncio.get_running_loop().create_task(self._close(1008, "The socket's messages are not being read."))

    async def _close(self, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await self.close(code, reason)

    def refuse(self, error: ApiError) -> None:
        """Tell the socket why its table is no more (closed, or gone) and close it: nothing will follow."""
        if self.closing:
            return
        self.closing = True
        text = json_text(error_message(error))

        async def refuse() -> None:
            with contextlib.suppress(Exception):
                await self.send_text(text)
            await self._close(POLICY, error.message[:120])

        asyncio.get_running_loop().create_task(refuse())

    async def write(self) -> None:
        """Send the queued messages in order until the socket closes."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            await self.send_text(text)


class TableHub:
    """The sockets of this process at every table, the notifications, and the tables' clocks and grace periods."""

    def __init__(self, service: TableService, floor: AnswerFloor, notifier: Notifier) -> None:
        self.service = service
        self.floor = floor
        self.notifier = notifier
        self.origin = f"{os.getpid()}.{secrets.token_hex(3)}"
        self.tables: dict[str, set[Connection]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._refreshing: set[str] = set()
        self._dirty: set[str] = set()
        self._checks: dict[str, dt.datetime] = {}
        self._read_at: dict[str, float] = {}
        self._bots_running: set[str] = set()
        self._bots_again: set[str] = set()
        self._waived: dict[str, Waiver] = {}
        """By table: the optional move a person let go, for the table's next bot run."""
        self._tasks: list[asyncio.Task[None]] = []
        service.publish = self.publish
        service.present = self.present
        self.heartbeat_s = max(0.05, min(service.grace_s / 3, 10.0))

    # -- lifetime ---------------------------------------------------------------------------------------

    def start(self) -> None:
        """Bind to the running event loop (a server process has one; a test's clients may bring others)."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self._cancel_tasks()
        self._loop = loop
        self.notifier.start(loop, self._delivered)
        self._tasks = [loop.create_task(self._tick())]

    def _cancel_tasks(self) -> None:
        for task in self._tasks:
            with contextlib.suppress(RuntimeError):  # Its loop is closed: the task went with it.
                task.get_loop().call_soon_threadsafe(task.cancel)
        self._tasks = []

    def stop(self) -> None:
        """At shutdown: no more ticks, no more notifications."""
        self._cancel_tasks()
        self.notifier.close()
        self._loop = None

    # -- notifications ------------------------------------------------------------------------------------

    def publish(self, code: str, number: int, loaded: Loaded | None = None) -> None:
        """After a commit at table ``code`` (any thread): this process reads it again (or uses ``loaded``, the table
        as the committing request holds it after its commit), the others are told."""
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # A loop closed meanwhile (a test's client): nobody to tell here.
                loop.call_soon_threadsafe(self.changed, code, loaded)
        self.notifier.publish(f"{self.origin}:{code}:{number}:")

    def _delivered(self, payload: str) -> None:
        """A notification from the listener (its own are skipped: this process read its changes already)."""
        if payload == "*":
            for code in list(self.tables):
                self.changed(code)
            return
        origin, code, _number, extra = [*payload.split(":", 3), "", "", ""][:4]
        if origin == self.origin or code not in self.tables:
            return
        if extra.startswith("m/"):
            _, seat, message = [*extra.split("/", 2), "", ""][:3]
            for connection in self.tables.get(code, ()):
                connection.send({"type": "message", "seat": seat, "message": message})
            return
        self.changed(code)

    def message(self, code: str, seat: str, message: str) -> None:
        """A preset message of ``seat``: to every socket at the table, here and in the other processes."""
        for connection in self.tables.get(code, ()):
            connection.send({"type": "message", "seat": seat, "message": message})
        self.notifier.publish(f"{self.origin}:{code}:-1:m/{seat}/{message}")

    def changed(self, code: str, loaded: Loaded | None = None) -> None:
        """Table ``code`` changed: read it again (one read at a time per table; changes meanwhile read once more)."""
        if code not in self.tables:
            return
        if code in self._refreshing:
            self._dirty.add(code)
            return
        self._refreshing.add(code)
        asyncio.get_running_loop().create_task(self._refresh(code, loaded))

    async def _refresh(self, code: str, loaded: Loaded | None = None) -> None:
        try:
            while True:
                self._dirty.discard(code)
                self._read_at[code] = time.monotonic()
                connections = list(self.tables.get(code, ()))
                if not connections:
                    return
                try:
                    if loaded is not None:
                        # The table as the committing request read it: no database to wait for, and a hop to a
                        # thread (and its GIL hand-overs) would cost more than the views and events themselves.
                        sent = self._messages_for(code, connections, loaded)
                    else:
                        sent = await asyncio.to_thread(self._messages_for, code, connections)
                    loaded = None
                except ApiError as refusal:  # Closed by the retention rule (or gone): its sockets are told.
                    for connection in connections:
                        connection.refuse(refusal)
                    return
                except Exception as error:  # The database is away: the next notification or resync tries again.
                    log.warning("table not read", extra={"table": code, "error": type(error).__name__})
                    return
                for connection, messages in sent:
                    for message in messages:
                        connection.send(message)
                if code not in self._dirty:
                    return
        finally:
            self._refreshing.discard(code)

    def _messages_for(
        self, code: str, connections: list[Connection], given: Loaded | None = None
    ) -> list[tuple[Connection, list[str]]]:
        """In a thread: each socket's table message (if it changed) and game message (if there are new moves)."""
        loaded = given or self.service.load(code)
        now = self.service.now()
        check = self.service.next_check(loaded, now)
        if check is None:
            self._checks.pop(code, None)
        else:
            self._checks[code] = check
        out: list[tuple[Connection, list[str]]] = []
        tables: dict[str | None, tuple[str, str]] = {}
        for connection in connections:
            if connection.number == -2:
                continue  # No hello yet.
            messages = []
            player = connection.player_id
            if player not in tables:
                document = self.service.table_json(loaded, player)
                tables[player] = (json_text({"type": "table", "table": document}), _changes(document))
            seated_now = connection.seat is None
            connection.seat = loaded.seat_of(player)
            text, changes = tables[player]
            if changes != connection.last_table:
                connection.last_table = changes
                messages.append(text)
            game = self._game_message(loaded, connection, seated_now)
            if game is not None:
                messages.append(game)
            out.append((connection, messages))
        return out

    def _game_message(self, loaded: Loaded, connection: Connection, seated_now: bool = False) -> str | None:
        """The game message a socket is owed: the events since its last move number. ``seated_now``: its person
        has just taken his seat, so a game already there is new to him (a newcomer between games)."""
        if connection.seat is None or loaded.game is None:
            return None
        if connection.game_id != loaded.game.id:
            # A new game (the start, a rematch): every move of it, from its first; a game found at a seat just
            # taken: as it stands (its moves were made before he sat).
            connection.game_id, connection.state = loaded.game.id, None
            connection.number = len(loaded.moves) if seated_now else 0
        elif connection.number == len(loaded.moves):
            return None
        since = connection.number
        start = connection.state if since >= 0 else None
        answer, state = self.service.answer(loaded, connection.seat, since, start)
        connection.number, connection.state = len(loaded.moves), state
        return json_text({"type": "game", "answer": answer})

    def present(self, code: str, seat: str) -> bool:
        """Whether this process holds a socket of the person at ``seat`` now (read from threads: a copy)."""
        return any(connection.seat == seat for connection in list(self.tables.get(code, ())))

    # -- sockets ------------------------------------------------------------------------------------------

    def add(self, connection: Connection) -> None:
        self.tables.setdefault(connection.code, set()).add(connection)

    def remove(self, connection: Connection) -> None:
        connection.closing = True
        connections = self.tables.get(connection.code)
        if connections is not None:
            connections.discard(connection)
            if not connections:
                del self.tables[connection.code]
                self._checks.pop(connection.code, None)
                self._read_at.pop(connection.code, None)
                self._waived.pop(connection.code, None)
        with contextlib.suppress(asyncio.QueueFull):
            connection.queue.put_nowait(None)

    async def hello(self, connection: Connection, since: int, game_id: str | None = None) -> None:
        """A (re)connected socket: its table, and its seat's game since ``since``; the seat is its person's again.
        ``game_id``: the game that move number is of, if the client names it; the table's game as it stands when a
        rematch has replaced it since (a number of the old game says nothing of the new one)."""

        def greet() -> list[str]:
            loaded = self.service.load(connection.code)
            connection.seat = loaded.seat_of(connection.player_id)
            self.service._seen(loaded, connection.player_id, back=True)
            table = self.service.table_json(loaded, connection.player_id)
            connection.last_table = _changes(table)
            messages = [json_text({"type": "table", "table": table})]
            if connection.seat is not None and loaded.game is not None:
                connection.game_id = loaded.game.id
                same_game = game_id is None or game_id == loaded.game.id
                connection.number = since if same_game and 0 <= since <= len(loaded.moves) else len(loaded.moves)
                connection.state = None
                game = self._game_message(loaded, connection)
                if game is None:
                    answer, connection.state = self.service.answer(loaded, connection.seat, len(loaded.moves))
                    game = json_text({"type": "game", "answer": answer})
                messages.append(game)
            else:
                connection.number = -1
            return messages

        for message in await asyncio.to_thread(greet):
            connection.send(message)
        self.changed(connection.code)  # Its return may change what the others see (connected, bot_now).
        await self.run_bots(connection.code)  # A table nobody was at resumes.

    # -- the bots, the clocks and the grace periods ------------------------------------------------------------------

    async def after_move(self, loaded: Loaded) -> None:
        """After a person's move (or his letting an optional move go, ``Loaded.waived_by``): the bots' answers."""
        if loaded.waived_by is not None and loaded.game is not None:
            self._waived[loaded.table.code] = (loaded.game.id, loaded.waived_by, len(loaded.moves))
        if self.service.waits_for_bots(loaded):
            await self.run_bots(loaded.table.code)

    async def run_bots(self, code: str, forced: bool = False) -> None:
        """Let the bots move at ``code`` if the game waits for them (``forced``: also a clock that ran out), their
        moves stored and published no sooner than the answer floor after they began: nobody learns from timing.

        One run per table at a time in a process: a call during a run has that run plan again before it ends (a
        person here moved while it planned or waited, so its plan may be stale or its "nothing to play" past).
        """
        if code in self._bots_running:
            self._bots_again.add(code)
            return
        self._bots_running.add(code)
        try:
            while True:
                self._bots_again.discard(code)
                began = self.floor.monotonic()
                waived = self._waived.pop(code, None)
                plan = await asyncio.to_thread(self.service.plan_bots, code, forced, waived)
                if plan is None:
                    if code in self._bots_again:
                        continue
                    return
                await self.floor.hold(began, len(plan.moves), plan.floor_ms, "table")
                if not await asyncio.to_thread(self.service.commit, plan) and code not in self._bots_again:
                    return  # Another process was first: the bots after its moves are its to play.
                forced = False
        except ApiError:
            return
        except Exception as error:
            log.warning("table bots postponed", extra={"table": code, "error": type(error).__name__})
        finally:
            self._bots_running.discard(code)

    async def _tick(self) -> None:
        last_beat = last_sync = time.monotonic()
        while True:
            await asyncio.sleep(TICK_S)
            try:
                now = self.service.now()
                for code, when in list(self._checks.items()):
                    if when <= now and code not in self._bots_running:
                        self._checks.pop(code, None)
                        asyncio.get_running_loop().create_task(self._due(code))
                moment = time.monotonic()
                if moment - last_beat >= self.heartbeat_s:
                    last_beat = moment
                    seats = sorted(
                        {(code, c.seat) for code, conns in self.tables.items() for c in conns if c.seat is not None}
                    )
                    if seats:
                        await asyncio.to_thread(self.service.store.seen, seats, now)
                if moment - last_sync >= RESYNC_S:
                    last_sync = moment
                    for code in list(self.tables):
                        if moment - self._read_at.get(code, 0.0) >= RESYNC_S:  # Quiet tables only.
                            self.changed(code)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # The database is away: the next tick tries again.
                log.warning("table tick failed", extra={"error": type(error).__name__})

    async def _due(self, code: str) -> None:
        await self.run_bots(code, forced=True)
        self.changed(code)  # Whoever is gone now shows as gone; the next check is set again.


def _changes(table: Json) -> str:
    """What a table message is sent again for: its seats, state, game and results, not each move (the game message
    says who is to move); at a table with a clock, each decision too (its deadline)."""
    kept = {key: table[key] for key in ("seats", "state", "game_id", "results", "host", "me")}
    if table["clock"]:
        kept |= {"to_move": table["to_move"], "move_number": table["move_number"]}
    return json.dumps(kept, sort_keys=True)
