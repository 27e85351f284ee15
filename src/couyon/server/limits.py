"""What one client may cost the server: rate limits, the per-address gate, and the connection guard.

- ``RateLimiter``: fixed one-minute windows per player id and per address, of new games,
  moves (and names) and reads, shared by the processes of one database (``rate_counts``).
- ``AddressGate``: a few requests of one address at a time per process; the others wait.
- ``RequestLimits``: the ASGI middleware applying both before a request reaches the API (429
  with ``Retry-After``, nothing written).
- ``GuardedHttpToolsProtocol``: the HTTP protocol ``couyon serve`` runs uvicorn with; it bounds
  what a connection may hold before its request reaches the app (head size, head time,
  connections per process and per address).

None of this is game state: losing the counts on a restart changes no game.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
import math
import os
import threading
import time
import weakref
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from couyon.server.errors import error_response, raw_error_response

WINDOW_SECONDS = 60.0
ADDRESS_FACTOR = 10
"""An address may carry several players (a family, a school behind one router)."""
SYNC_FRACTION = 20
"""A process adds its count of a key to the shared total each time it counted this fraction of the key's limit."""
access_log = logging.getLogger("couyon.access")
log = logging.getLogger("couyon.server")
LINGER_SECONDS = 1.0
"""How long a refused connection's further bytes are read and dropped before it is closed."""
LINGER_MAX_BYTES = 65536
"""A refused connection that sends more than this meanwhile is closed at once."""

TRUSTED_BY_DEFAULT = "127.0.0.1,::1"
"""uvicorn's default ``forwarded_allow_ips``: a proxy on this machine."""


def trusted_proxies() -> str:
    """``FORWARDED_ALLOW_IPS`` as uvicorn reads it: the proxies whose clients' addresses count, not their own."""
    return os.environ.get("FORWARDED_ALLOW_IPS", TRUSTED_BY_DEFAULT)


def address_key(address: str) -> str:
    """What a client address is counted as, by the budgets, the gate and the connection count: an IPv6 address by
    its /64, one subscriber's network (a client there may take any of its 2^64 addresses, one per request); an IPv4
    one, mapped into IPv6 or not, as it is."""
    if ":" not in address:
        return address
    try:
        ip = ipaddress.IPv6Address(address)
    except ValueError:
        return address
    if ip.ipv4_mapped is not None:  # An IPv4 client of a socket that listens on both.
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


class SharedCounts(Protocol):
    """Where the processes sharing a database add up their counts (``Store.add_rate_counts``)."""

    def add_rate_counts(self, increments: Mapping[str, int], window: int) -> dict[str, int]: ...


@dataclass(slots=True)
class _Count:
    window: int
    shared: int = 0
    """The total of every process in this window, as the database said at this process's last sync."""
    pending: int = 0
    """This process's requests not yet added to the database."""


class RateLimiter:
    """Counts requests of one kind per player id and per address (an IPv6 one by its /64) in fixed one-minute windows.

    Windows are aligned on the clock's minutes (``clock`` is ``time.time`` in the server), so
    every process counts in the same window. With ``shared`` (the store), the processes
    sharing a database hold one budget: a process adds its count of a key to the database
    (``rate_counts``) each time it has counted another twentieth of the key's limit, and
    reads back the total of all processes. Between two such syncs a process decides on the
    total it last read plus its own count, so with N processes a client may overshoot a
    limit by at most N twentieths of it; a limit of 20 or less is synced at every request
    (exact). Normal players stay far below a twentieth and cost no write at all. If the
    database cannot be reached, each process goes on with what it knows.
    """

    def __init__(
        self,
        per_player_per_minute: int,
        clock: Callable[[], float] = time.time,
        *,
        kind: str = "requests",
        address_factor: int = ADDRESS_FACTOR,
        shared: SharedCounts | None = None,
    ) -> None:
        self.per_player = per_player_per_minute
        self.kind = kind
        self.address_factor = address_factor
        self._clock = clock
        self._shared = shared
        self._lock = threading.Lock()
        self._window = -1
        self._counts: dict[str, _Count] = {}

    async def retry_after(self, player_id: str | None, address: str | None) -> int | None:
        """Count one request; None if allowed, else the seconds to wait before the window ends.

        Only a sync with the database leaves the event loop (to a thread).
        """
        if self.per_player <= 0:
            return None
        keys, due, window, now = self._count(player_id, address)
        if due:
            await asyncio.to_thread(self._sync, due, window)
        return self._verdict(keys, now)

    def _count(
        self, player_id: str | None, address: str | None
    ) -> tuple[list[tuple[str, int]], dict[str, int], int, float]:
        """Count the request against each of its keys; the keys with their limits, those due for a sync, the window."""
        now = self._clock()
        window = int(now // WINDOW_SECONDS)
        keys = [(f"{self.kind}:p:{player_id}", self.per_player)] if player_id is not None else []
        if address is not None and self.address_factor > 0:
            keys.append((f"{self.kind}:a:{address_key(address)}", self.per_player * self.address_factor))
        due: dict[str, int] = {}
        with self._lock:
            if window != self._window:
                self._window = window
                self._counts.clear()  # A new minute: every count starts again.
            for key, limit in keys:
                count = self._counts.setdefault(key, _Count(window))
                count.pending += 1
                if self._shared is not None and count.pending >= max(1, limit // SYNC_FRACTION):
                    due[key] = count.pending
        return keys, due, window, now

    def _verdict(self, keys: list[tuple[str, int]], now: float) -> int | None:
        with self._lock:
            over = False
            for key, limit in keys:
                found = self._counts.get(key)
                over = over or (found is not None and found.shared + found.pending > limit)
        if not over:
            return None
        return max(1, math.ceil(WINDOW_SECONDS - now % WINDOW_SECONDS))

    def _sync(self, due: dict[str, int], window: int) -> None:
        assert self._shared is not None
        try:
            totals = self._shared.add_rate_counts(due, window)
        except Exception as error:  # Keep counting here; the next sync adds these too.
            log.warning("rate counts not shared", extra={"error": type(error).__name__, "kind": self.kind})
            return
        with self._lock:
            for key, added in due.items():
                count = self._counts.get(key)
                if count is not None and count.window == window and key in totals:
                    count.pending -= added
                    count.shared = totals[key]


class AddressGate:
    """At most ``per_address`` requests of one client address at a time in this process; the others wait in turn.

    One client sending many requests at once (16 cookies, 200 readers) otherwise takes most of
    the process's threads and CPU while staying within its rate limits, and every other
    player waits behind it. Waiting costs no thread (it is an asyncio future); at most
    ``max_waiting`` requests of an address wait, and the next one is refused (429).
    """

    def __init__(self, per_address: int, max_waiting: int = 64) -> None:
        self.per_address = per_address
        self.max_waiting = max_waiting
        self._running: dict[str, int] = {}
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}

    def running(self, address: str) -> int:
        return self._running.get(address, 0)

    async def acquire(self, address: str) -> bool:
        """Wait for a turn; False if too many of this address's requests are already waiting."""
        if self._running.get(address, 0) < self.per_address:
            self._running[address] = self._running.get(address, 0) + 1
            return True
        waiting = self._waiting.setdefault(address, deque())
        if len(waiting) >= self.max_waiting:
            return False
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting.append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.release(address)  # The turn was handed over just as this request went away.
            elif turn in waiting:
                waiting.remove(turn)
            raise
        return True

    def release(self, address: str) -> None:
        waiting = self._waiting.get(address)
        while waiting:
            turn = waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # Handed over: the running count stays.
                return
        self._waiting.pop(address, None)
        remaining = self._running.get(address, 0) - 1
        if remaining > 0:
            self._running[address] = remaining
        else:
            self._running.pop(address, None)


def request_kind(method: str, path: str) -> str | None:
    """Which budget an API request counts against: ``games``, ``moves`` or ``reads``; None for the health check."""
    if not path.startswith("/api/") or path in ("/api/health", "/api/health/"):
        return None
    if method == "POST" and path == "/api/games":
        return "games"
    # The writes of a player: moves (at the solo table or a friends' table), hints (an expert's search each), a
    # puzzle's answer, a name, a recovery code.
    if (
        method == "POST"
        and (
            (path.startswith("/api/games/") and path.endswith(("/moves", "/hint")))
            or (path.startswith("/api/tables/") and path.endswith("/moves"))
            or (path.startswith("/api/puzzles/") and path.endswith("/answer"))
        )
    ) or (
        (method, path)
        in (("PUT", "/api/player"), ("POST", "/api/player/recovery"), ("POST", "/api/player/recovery/new"))
    ):
        return "moves"
    return "reads"


class RequestLimits:
    """ASGI middleware: the rate limits and the per-address gate, before a request reaches the API.

    ``limiters`` maps a kind of ``request_kind`` to its limiter; ``new_players`` counts the
    requests that would create a player (a new game or a name without a valid cookie) per
    address. A refused request gets 429 with ``Retry-After`` before anything is read from or
    written to the database for it. ``player_of`` reads the request's cookies; ``trusted``
    addresses (proxies) are not gated, as all their clients share their address.
    """

    def __init__(
        self,
        app: ASGIApp,
        limiters: Mapping[str, RateLimiter],
        new_players: RateLimiter,
        player_of: Callable[[Mapping[str, str]], str | None],
        gate: AddressGate | None,
        trusted: str = TRUSTED_BY_DEFAULT,
    ) -> None:
        self.app = app
        self.limiters = limiters
        self.new_players = new_players
        self.player_of = player_of
        self.gate = gate
        self.trusted = _Trusted(trusted)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = request_kind(scope.get("method", ""), scope.get("path", "")) if scope["type"] == "http" else None
        if kind is None:
            await self.app(scope, receive, send)
            return
        address = (scope.get("client") or (None, 0))[0]
        headers = dict(scope.get("headers", []))
        player_id = self.player_of(cookie_parser(headers.get(b"cookie", b"").decode("latin-1")))
        wait = await self._retry_after(kind, player_id, address)
        if wait is not None:
            response = error_response(
                429, "too_many_requests", f"Too many requests: try again in {wait} seconds.", wait
            )
            await response(scope, receive, send)
            return
        gate = self.gate
        if gate is None or address is None or address in self.trusted:
            await self.app(scope, receive, send)
            return
        key = address_key(address)
        if not await gate.acquire(key):
            message = "Too many requests at once from this address: try again in 1 seconds."
            await error_response(429, "too_many_requests", message, 1)(scope, receive, send)
            return
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                gate.release(key)

        async def send_then_release(message: Message) -> None:
            await send(message)
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                release()  # The answer is out: work after it (a verifying replay) holds no turn of the address.

        try:
            await self.app(scope, receive, send_then_release)
        finally:
            release()

    async def _retry_after(self, kind: str, player_id: str | None, address: str | None) -> int | None:
        waits = [await self.limiters[kind].retry_after(player_id, address)] if kind in self.limiters else []
        if player_id is None and kind != "reads":
            waits.append(await self.new_players.retry_after(None, address))
        found = [wait for wait in waits if wait is not None]
        return max(found) if found else None


# -- the connection guard ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """What one connection may cost the server before the app sees a request (``Settings`` gives the numbers)."""

    max_header_bytes: int = 16384
    max_headers: int = 64
    max_url_bytes: int = 4096
    header_timeout_seconds: float = 10.0
    max_connections: int = 1000
    max_connections_per_address: int = 128
    trusted: str = TRUSTED_BY_DEFAULT
    """uvicorn's ``forwarded_allow_ips``: proxies, exempt from the per-address limit (all their clients share it)."""


class _Trusted:
    """Addresses and networks of ``FORWARDED_ALLOW_IPS`` (``*``: every address)."""

    def __init__(self, spec: str | list[str]) -> None:
        items = [item.strip() for item in (spec.split(",") if isinstance(spec, str) else spec) if item.strip()]
        self.everyone = "*" in items
        self.networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        self.literals: set[str] = set()
        for item in items:
            try:
                self.networks.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                self.literals.add(item)

    def __contains__(self, address: str) -> bool:
        if self.everyone or address in self.literals:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


@functools.cache
def _limits_of_this_process() -> tuple[ConnectionLimits, _Trusted]:
    from couyon.server.config import Settings

    settings = Settings.from_environment()
    trusted = trusted_proxies()
    limits = ConnectionLimits(
        max_header_bytes=settings.max_header_bytes,
        max_headers=settings.max_headers,
        max_url_bytes=settings.max_url_bytes,
        header_timeout_seconds=settings.header_timeout_seconds,
        max_connections=settings.max_connections,
        max_connections_per_address=settings.max_connections_per_address,
        trusted=trusted,
    )
    return limits, _Trusted(trusted)


# Open connections per client address, per server (one per process under ``couyon serve``).
_PER_ADDRESS: weakref.WeakKeyDictionary[ServerState, Counter[str]] = weakref.WeakKeyDictionary()


class _Refused(Exception):
    """Raised from a parser callback to stop reading a request head that broke a limit."""


class GuardedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with limits on what a client may make it hold before a request is whole.

    uvicorn 0.5x with httptools enforces none of these: a header of any size was accumulated
    (quadratically, starving every other client), and a connection that never finished its
    headers was kept forever. Here:

    - the request line and headers may hold ``max_header_bytes`` (else 431), ``max_headers``
      lines (431) and a target of ``max_url_bytes`` (414), counted as the bytes arrive;
    - the headers must be complete ``header_timeout_seconds`` after the connection opened (or
      after the first byte of a later request on it): else 408, or a silent close when nothing
      at all was sent (a browser's unused pre-connection);
    - at most ``max_connections`` connections per process and ``max_connections_per_address``
      per client address (a trusted proxy's are not counted per address): a connection over a
      limit is answered 503 with ``Retry-After`` and closed at once.

    The body's own deadline is ``app.HttpEdge``'s (the app is running by then); idle
    keep-alive connections are closed by uvicorn's ``timeout_keep_alive``.
    """

    limits: ConnectionLimits
    trusted: _Trusted

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        if not hasattr(self, "limits"):
            self.limits, self.trusted = _limits_of_this_process()
        self._per_address = _PER_ADDRESS.setdefault(server_state, Counter())
        self._address: str | None = None  # Set once counted against its address.
        self._head_timer: asyncio.TimerHandle | None = None
        self._in_head = True  # Between two requests, or inside a request line and headers.
        self._head_began = False  # The current head's first byte arrived.
        self._began_in_this_chunk = False
        self._head_bytes = 0  # Raw bytes of the current head after the chunk it began in.
        self._head_size = 0  # Its URL and complete header lines, exactly.
        self._header_count = 0
        self._refusal: tuple[int, str, str, str] | None = None
        self._refused = False
        self._dropped = 0
        self._opened = 0.0

    # -- connections ---------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._opened = time.monotonic()
        address = self.client[0] if self.client else None
        per_address_limit = self.limits.max_connections_per_address
        if len(self.connections) > self.limits.max_connections:
            self._refuse(503, "Service Unavailable", "too_many_connections", "The server has too many connections.")
            return
        if address is not None and per_address_limit > 0 and address not in self.trusted:
            key = address_key(address)
            if self._per_address[key] >= per_address_limit:
                self._refuse(
                    503, "Service Unavailable", "too_many_connections", "This address has too many connections open."
                )
                return
            self._per_address[key] += 1
            self._address = key
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        if self._address is not None:
            self._per_address[self._address] -= 1
            if self._per_address[self._address] <= 0:
                del self._per_address[self._address]
            self._address = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            # The rest of a refused request is dropped unread, up to a point: a client still sending
            # that much is not waiting for the answer.
            self._dropped += len(data)
            if self._dropped > LINGER_MAX_BYTES:
                self.transport.close()
            return
        if self.transport.is_closing():
            return
        if self._in_head and self._head_timer is None:
            self._start_head_timer()  # The first byte of a later request on a kept-alive connection.
        self._began_in_this_chunk = False
        super().data_received(data)
        if self.transport.is_closing() or not self._in_head:
            return
        # Still inside a head: count what arrived (the chunk a head began in is left out, as the bytes
        # before it belong to the previous request; one read is at most a few hundred KiB).
        if not self._began_in_this_chunk:
            self._head_bytes += len(data)
        # Both counts are lower bounds of the head's true size, so neither refuses a head within the limit.
        if max(len(self.url) + self._head_size, self._head_bytes) > self.limits.max_header_bytes:
            self._refuse_large_head()

    # -- parser callbacks ------------------------------------------------------------------------

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_began = True
        self._began_in_this_chunk = True
        self._head_bytes = self._head_size = self._header_count = 0

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        if len(self.url) > self.limits.max_url_bytes:
            self._refusal = (414, "URI Too Long", "url_too_long", f"The URL exceeds {self.limits.max_url_bytes} bytes.")
            raise _Refused

    def on_header(self, name: bytes, value: bytes) -> None:
        self._header_count += 1
        self._head_size += len(name) + len(value) + 4
        if self._header_count > self.limits.max_headers:
            self._refusal = (
                431,
                "Request Header Fields Too Large",
                "headers_too_large",
                f"A request may carry at most {self.limits.max_headers} headers.",
            )
            raise _Refused
        if len(self.url) + self._head_size > self.limits.max_header_bytes:
            self._refusal = self._large_head_refusal()
            raise _Refused
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._head_began = False
        self._stop_head_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head = True  # What comes next is the next request's head.

    def send_400_response(self, msg: str) -> None:
        """Called by uvicorn for any parser error: a limit broken in a callback is answered as that limit."""
        refusal, self._refusal = self._refusal, None
        if refusal is not None:
            self._refuse(*refusal)
        else:
            self._refuse(400, "Bad Request", "malformed", "The request is not valid HTTP/1.1.")

    # -- refusals --------------------------------------------------------------------------------

    def _large_head_refusal(self) -> tuple[int, str, str, str]:
        message = f"The request line and headers exceed {self.limits.max_header_bytes} bytes."
        return 431, "Request Header Fields Too Large", "headers_too_large", message

    def _refuse_large_head(self) -> None:
        self._refuse(*self._large_head_refusal())

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.limits.header_timeout_seconds, self._head_timed_out)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._refused or self.transport.is_closing() or not self._in_head:
            return
        if not self._head_began:
            self.transport.close()  # Nothing of a request was sent: close, as for an idle keep-alive.
            return
        seconds = self.limits.header_timeout_seconds
        self._refuse(
            408, "Request Timeout", "request_timeout", f"The request headers did not arrive within {seconds:g} seconds."
        )

    def _refuse(self, status: int, reason: str, code: str, message: str) -> None:
        """Answer ``status`` in the API's error shape and close: the rest of this connection is not read."""
        self._stop_head_timer()
        if self._refused or self.transport.is_closing():
            return
        retry_after = 1 if status == 503 else None
        self.transport.write(raw_error_response(status, reason, code, message, retry_after))
        if status == 503 or not self.transport.can_write_eof():
            self.transport.close()  # Over the connection limits: free the descriptor at once.
        else:
            # A lingering close: closing with unread bytes would reset the connection, and the client
            # would lose the answer. Stop writing, drop what still arrives for a moment, then close.
            self._refused = True
            self.transport.write_eof()
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        access_log.info(
            "request",
            extra={
                "method": self.scope.get("method") if self.scope else None,
                "path": None,
                "status": status,
                "ms": round((time.monotonic() - self._opened) * 1000, 2),
                "client": self.client[0] if self.client else "",
                "refused": code,
            },
        )
