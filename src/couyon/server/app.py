"""The ASGI app: the JSON API of docs/api.md under /api, the web table's static files at /.

Handlers are thin: read the player's cookie, apply rate limits, call ``GameService``, and
serialise its answer. Everything that becomes an HTTP error goes through ``errors``.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime as dt
import gc
import json
import logging
import random
import re
import secrets
import threading
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import BackgroundTasks, FastAPI, Query, Request, Response
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import RedirectResponse
from starlette.routing import Match, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from couyon import __version__
from couyon.common.records import first_repeated_key, quoted
from couyon.registry import DEFAULT_GAME, GAMES
from couyon.server.clubs.api import clubs_router
from couyon.server.clubs.service import ClubService
from couyon.server.config import Settings
from couyon.server.encoding import json_response
from couyon.server.errors import (
    DATABASE_CAUSES,
    SECURITY_HEADERS,
    ApiError,
    ErrorBody,
    database_cause,
    error_response,
    install_error_handlers,
)
from couyon.server.errors import documented as _responses
from couyon.server.games import (
    Clock,
    FoldCache,
    GameAnswer,
    GameAnswerModel,
    GameService,
    ReplayProcess,
    kind_of,
    table_bots,
    utc_now,
)
from couyon.server.identity import (
    COOKIE_MAX_AGE,
    COOKIE_NAME,
    SECURE_COOKIE_NAME,
    cookie_player,
    new_player_id,
    player_of_recovery_code,
    rate_key,
    recovery_code,
    signed_cookie,
)
from couyon.server.limits import AddressGate, RateLimiter, RequestLimits, trusted_proxies
from couyon.server.logs import configure_logging
from couyon.server.names import refuse_lookalike, valid_name
from couyon.server.pacing import AnswerFloor
from couyon.server.puzzles.api import puzzles_router
from couyon.server.puzzles.service import PuzzleService
from couyon.server.ratings.api import ratings_router
from couyon.server.ratings.service import RatingService
from couyon.server.results import DayResults
from couyon.server.tables.api import include_tables
from couyon.store import Store, StoredGame
from couyon.store.store import Pruned

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
access_log = logging.getLogger("couyon.access")
log = logging.getLogger("couyon.server")
HSTS = b"max-age=31536000"
"""Strict-Transport-Security of HTTPS answers: one year; no includeSubDomains (other hosts of the domain are not ours)."""


def _iso_day(value: object) -> object:
    """Only ``YYYY-MM-DD`` names a day (the schema's ``format: date``); pydantic alone reads "0" as a Unix time."""
    if isinstance(value, str) and not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
        raise ValueError("a day is written YYYY-MM-DD")
    return value


Day = Annotated[dt.date, BeforeValidator(_iso_day)]


def _past_day(text: str | None) -> dt.date | None:
    """The request's archive day; 422 for a date that does not exist (2026-02-30)."""
    if text is None:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise ApiError(422, "invalid_fields", f"{text} is not a day of the calendar.") from None


# How a request names its game: the registry checks the name (an unknown one is 422 invalid_fields).
_GAME_DESCRIPTION = f"The game, by its id in GET /api/catalog; {DEFAULT_GAME} when left out"
_GAME_ENUM: dict[str, Any] = {"enum": list(GAMES)}
GameQuery = Annotated[str, Query(max_length=32, description=_GAME_DESCRIPTION, json_schema_extra=_GAME_ENUM)]


class _Strict(BaseModel):
    # Unknown fields and type coercions ("3" for 3) are refused: the page always sends exact JSON.
    model_config = ConfigDict(extra="forbid", strict=True)


class NewGameRequest(_Strict):
    mode: Literal["free", "daily"]
    ranked: bool = True
    game: str = Field(DEFAULT_GAME, max_length=32, description=_GAME_DESCRIPTION, json_schema_extra=_GAME_ENUM)
    options: dict[str, int | str] | None = Field(
        None,
        max_length=8,
        description="A free game's table options, as GET /api/catalog lists them for the game "
        '(e.g. {"players": 12, "tokens": 3, "level": "normal"}); each one left out takes its default. '
        'The level of the simulated players is the option "level" (couyon, Malmedy and tarot: "beginner" or '
        '"expert"; coucou: "easy", "normal" or "expert"); each level has its own free leaderboard. '
        "A daily game always uses the game's daily options.",
    )
    day: str | None = Field(
        None,
        pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        description="The archive: a day that is over (YYYY-MM-DD, Europe/Brussels) whose challenge is dealt again, "
        "with mode daily and ranked false",
    )


class MoveRequest(_Strict):
    # 120 characters hold the longest action of every game (a tarot poignée of 15 trumps).
    move: str = Field(
        min_length=1,
        max_length=120,
        description='An action of view.legal: "take", "pass", "trump-H", "mite", "contra", "recontra", a card '
        'such as "AH" or "10C", or another game\'s action',
    )
    move_number: int = Field(ge=0, le=100_000, description="view.move_number of the view the player acted on")


class NameRequest(_Strict):
    name: str = Field(max_length=100)


class HintRequest(_Strict):
    move_number: int = Field(ge=0, le=100_000, description="view.move_number of the view the player asks about")


class RecoveryRequest(_Strict):
    # A code is 45 characters: 64 leave room for spaces around a pasted one.
    code: str = Field(max_length=64, description="A recovery code of GET /api/player/recovery, from any device")


class DayResultsModel(BaseModel):
    """The day's results (docs/api.md): the field's scores and deals, the player's place, the traveller once over."""

    game: str
    day: str
    over: bool
    players: int
    scores: list[dict[str, int]]
    deals: list[dict[str, int]]
    you: dict[str, int | None] | None
    traveller: list[dict[str, Any]] | None


class PlayerStatsModel(BaseModel):
    """A player's statistics in one game (docs/api.md): ranked games, wins, average score, daily streaks."""

    game: str
    today: str
    games: dict[str, float | None]
    daily: dict[str, Any]


class CatalogModel(BaseModel):
    """Every game the server hosts, in the order the home page shows them (the default game first)."""

    default: str
    games: list[dict[str, Any]]


class HttpEdge:
    """Outermost middleware: body size and time limits, security headers and one JSON access-log line per request.

    The body must be whole ``body_timeout`` seconds after the headers (when the app is first
    called): a client dribbling it gets 408 and the connection is closed.
    """

    def __init__(self, app: ASGIApp, max_body_bytes: int, body_timeout: float = 10.0) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status_holder = [0]
        # When the answer's last byte was handed over: background tasks run after it and are not its time.
        answered = [0.0]
        is_api = scope["path"].startswith("/api/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                status_holder[0] = message["status"]
                headers = list(message.get("headers", []))
                headers.extend(SECURITY_HEADERS)
                if scope.get("scheme") == "https":
                    # Served over HTTPS (directly, or by a trusted proxy's X-Forwarded-Proto): keep to HTTPS for a year.
                    headers.append((b"strict-transport-security", HSTS))
                if is_api:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                answered[0] = time.perf_counter()
            await send(message)

        declared = dict(scope.get("headers", [])).get(b"content-length")
        too_large = declared is not None and (not declared.isdigit() or int(declared) > self.max_body_bytes)
        # The body (a few KB at most) is read here, so a chunked one that outgrows the limit gets 413 too.
        body: list[Message] = []
        received = 0
        timed_out = False
        try:
            # One deadline for the whole body (no task per message, as ``wait_for`` makes one).
            async with asyncio.timeout(self.body_timeout):
                while not too_large:
                    message = await receive()
                    body.append(message)
                    if message["type"] != "http.request":
                        break  # the client left before its body was whole
                    received += len(message.get("body", b""))
                    too_large = received > self.max_body_bytes
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            timed_out = True
        repeated = (
            None if too_large or timed_out or not is_api else _repeated_key(b"".join(m.get("body", b"") for m in body))
        )
        if timed_out:
            seconds = f"{self.body_timeout:g}"
            response = error_response(
                408, "request_timeout", f"The request body did not arrive within {seconds} seconds."
            )
            response.headers["connection"] = "close"  # The rest of the body is not waited for.
            await response(scope, receive, send_with_headers)
        elif too_large:
            response = error_response(413, "too_large", f"The request body exceeds {self.max_body_bytes} bytes.")
            await response(scope, receive, send_with_headers)
        elif repeated is not None:
            response = error_response(400, "malformed", f"The request body gives the key {quoted(repeated)} twice.")
            await response(scope, receive, send_with_headers)
        else:

            async def replayed_receive() -> Message:
                return body.pop(0) if body else await receive()

            await self.app(scope, replayed_receive, send_with_headers)
        access_log.info(
            "request",
            extra={
                "method": scope["method"],
                "path": scope["path"],
                "status": status_holder[0],
                "ms": round(((answered[0] or time.perf_counter()) - started) * 1000, 2),
                "client": (scope.get("client") or ("", 0))[0],
            },
        )


T = TypeVar("T")


class Threads:
    """Threads of the app's own for blocking work, started by the first ``run`` and stopped with the app (a test
    may start them again).

    ``loop.run_in_executor`` costs the event loop less than Starlette's ``run_in_threadpool`` (anyio's capacity
    limiter, cancel scope and queue around the same hand-over): 9% of the GIL's samples of a couyon server at
    saturation went to the latter, 3% go to this (docs/performance.md, "One server process").
    """

    def __init__(self, size: int, name: str) -> None:
        self.size = size
        self.name = name
        self._pool: ThreadPoolExecutor | None = None

    async def run(self, work: Callable[[], T]) -> T:
        """``work()`` in one of the threads, in a copy of the caller's context (as ``asyncio.to_thread``)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.size, thread_name_prefix=self.name)
        return await asyncio.get_running_loop().run_in_executor(self._pool, contextvars.copy_context().run, work)

    def stop(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False)


GAME_THREADS = 40
"""Threads for the solo table's moves and new games: as many as Starlette's pool, which the other routes use."""


class DatabaseHealth:
    """What the health check says of the database: None if it answers and accepts writes, else (cause, sentence).

    It fails when ``SELECT 1`` fails, when a probe write (``Store.write_probe``, at most every
    ``PROBE_SECONDS``, one thread at a time; the others take the last verdict) is refused, or
    when a request's write was refused for a full disk or an I/O error in the last
    ``REFUSAL_SECONDS`` with no write succeeding since: the probe's one small row may still find
    room in the journal where a move's rows do not. A change of verdict is logged with its cause.
    """

    PROBE_SECONDS = 2.0
    REFUSAL_SECONDS = 30.0
    STICKY_CAUSES = frozenset({"disk_full", "io_error"})

    def __init__(self, store: Store, clock: Clock, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.clock = clock
        self.monotonic = monotonic
        self._probing = threading.Lock()
        self._probed_at: float | None = None
        self._probe_problem: tuple[str, str] | None = None
        self._reported: str | None = "ok"

    def problem(self) -> tuple[str, str] | None:
        found: tuple[str, str] | None
        try:
            self.store.ping()
        except Exception as error:
            found = database_cause(error)
        else:
            found = self._probe() or self._refused_write()
        self._report(found)
        return None if found is None else (found[0], DATABASE_CAUSES[found[0]])

    def _refused_write(self) -> tuple[str, str] | None:
        refusal = self.store.write_refusal
        if refusal is None or self.monotonic() - refusal[0] > self.REFUSAL_SECONDS:
            return None
        found = database_cause(refusal[1])
        return found if found[0] in self.STICKY_CAUSES else None

    def _probe(self) -> tuple[str, str] | None:
        now = self.monotonic()
        if self._probed_at is not None and now - self._probed_at < self.PROBE_SECONDS:
            return self._probe_problem
        if not self._probing.acquire(blocking=False):
            return self._probe_problem  # Another thread is probing (perhaps waiting for a lock).
        try:
            try:
                self.store.write_probe(self.clock())
            except Exception as error:
                self._probe_problem = database_cause(error)
            else:
                self._probe_problem = None
            self._probed_at = self.monotonic()
            return self._probe_problem
        finally:
            self._probing.release()

    def _report(self, found: tuple[str, str] | None) -> None:
        cause = "ok" if found is None else found[0]
        if cause == self._reported:
            return
        self._reported = cause
        if found is None:
            log.warning("database healthy again")
        else:
            log.warning("database unhealthy", extra={"cause": found[0], "detail": found[1]})


def game_is_over(game: StoredGame, moves: list[str]) -> bool:
    """Whether a stored game's moves end it (a replay); one this server cannot replay counts as over, so it is kept."""
    try:
        return bool(kind_of(game).engine.is_over(FoldCache(1).fold(game, moves)))
    except (ApiError, ValueError):
        return True


class Retention:
    """The retention rule (``Store.prune``): unfinished games and players owning nothing, ``days`` after creation;
    friends' tables untouched for ``days`` are closed (with their unfinished game), and deleted ``days`` later.

    ``run_periodically`` (started with the app) applies it every ``interval_seconds`` in one of
    the processes sharing the database (``Store.claim_prune``), in a thread; ``couyon prune``
    applies it once. ``days`` 0 keeps everything.
    """

    def __init__(self, store: Store, clock: Clock, days: int, interval_seconds: int) -> None:
        self.store = store
        self.clock = clock
        self.days = days
        self.interval_seconds = interval_seconds

    @property
    def enabled(self) -> bool:
        return self.days > 0 and self.interval_seconds > 0

    def cutoff(self) -> dt.datetime:
        """Naive UTC, as stored times are."""
        return (self.clock() - dt.timedelta(days=self.days)).astimezone(dt.UTC).replace(tzinfo=None)

    def run(self) -> Pruned:
        # A friends' table untouched for ``days`` is closed; closed and untouched for ``days`` more, it is deleted.
        cutoff = self.cutoff()
        pruned = self.store.prune(cutoff, game_is_over, forget_closed_before=cutoff - dt.timedelta(days=self.days))
        self.store.forget_rate_counts(int(self.clock().timestamp() // 60) - 1)  # Minutes no limiter counts any more.
        log.info(
            "pruned",
            extra={
                "games": pruned.games,
                "players": pruned.players,
                "tables_closed": pruned.tables_closed,
                "tables_forgotten": pruned.tables_forgotten,
                "days": self.days,
            },
        )
        return pruned

    def run_if_due(self) -> Pruned | None:
        now = self.clock().astimezone(dt.UTC).replace(tzinfo=None)
        if not self.store.claim_prune(now, dt.timedelta(seconds=self.interval_seconds)):
            return None  # Another process ran it within the interval.
        return self.run()

    async def run_periodically(self) -> None:
        # The first run soon after start (processes started together do not all wait a whole interval).
        delay = random.uniform(0.5, 1.0) * min(self.interval_seconds, 60)
        while True:
            await asyncio.sleep(delay)
            try:
                await asyncio.to_thread(self.run_if_due)
            except Exception as error:  # The database may be down: the next interval tries again.
                log.warning("prune postponed", extra={"error": type(error).__name__, "cause": database_cause(error)[0]})
            delay = self.interval_seconds * random.uniform(0.9, 1.1)


class PageFiles(StaticFiles):
    """The page's files; a folder's address without its final slash redirects to the path alone.

    Starlette's ``StaticFiles`` writes the whole URL into Location, with the Host header's
    address, which the client chooses: ``Host: evil.example`` would send the browser there.
    """

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        if isinstance(response, RedirectResponse):
            # One leading slash only ("//host/" and "/\\host/" would name another site) and quoted.
            response.headers["location"] = urllib.parse.quote("/" + scope["path"].lstrip("/\\") + "/")
        return response


class HeadAsGet:
    """HEAD of an API path is answered as its GET (the same status and headers) without the body.

    FastAPI's routes take only the methods they name. The request reaches the routes and the
    rate limits as a GET, so HEAD is counted and refused as GET is; the access log keeps HEAD.
    Placed outside the compression, so the headers are those of the GET, Content-Length included.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def send_without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, send_without_body)


class WebFiles(Mount):
    """The static files' mount at ``/``, which never answers under ``/api``.

    Mounted at ``/`` it matches every path, and Starlette prefers a full match to a route that
    matches the path but not the method: ``GET /api/games`` (a POST route) and ``HEAD /api/health``
    were the page's 404 instead of the API's 405.
    """

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        path = scope.get("path", "")
        if path == "/api" or path.startswith("/api/"):
            return Match.NONE, {}
        return super().matches(scope)


def set_player_cookie(response: Response, value: str, https: bool) -> None:
    """The player cookie: HttpOnly, SameSite=Lax, for the whole site; over HTTPS Secure and ``__Host-`` named."""
    response.set_cookie(
        SECURE_COOKIE_NAME if https else COOKIE_NAME,
        value,
        max_age=COOKIE_MAX_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=https,
    )


class RenameCookie:
    """Over HTTPS, an answer to a player known by the old cookie name sets the ``__Host-`` cookie and expires the old.

    ``current_player`` leaves the cookie's value in the request's state; the player keeps their id.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_renamed(message: Message) -> None:
            value = scope.get("state", {}).get("couyon_rename_cookie")
            if message["type"] == "http.response.start" and value:
                carrier = Response()
                set_player_cookie(carrier, value, https=True)
                carrier.delete_cookie(COOKIE_NAME, path="/", secure=True, httponly=True, samesite="lax")
                cookies = [(name, content) for name, content in carrier.raw_headers if name == b"set-cookie"]
                message = {**message, "headers": [*message.get("headers", []), *cookies]}
            await send(message)

        await self.app(scope, receive, send_renamed)


class _RepeatedKey(Exception):
    pass


def _refuse_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    repeated = first_repeated_key(pairs)
    if repeated is not None:
        raise _RepeatedKey(repeated)
    return dict(pairs)


def _repeated_key(data: bytes) -> str | None:
    """A key some JSON object of ``data`` gives twice (ambiguous: which value counts?); None if none or not JSON."""
    if not data:
        return None
    try:
        json.loads(data, object_pairs_hook=_refuse_repeats)
    except _RepeatedKey as repeated:
        return str(repeated.args[0])
    except (ValueError, RecursionError):
        return None  # not JSON (or nested too deep): the route's own parsing refuses it with its message
    return None


def create_app(settings: Settings, clock: Clock = utc_now) -> FastAPI:
    """The app over ``settings``' database (migrated on start); ``clock`` is its only source of time."""
    store = Store(settings.database_url)
    if settings.database_url.startswith("sqlite"):
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    store.migrate()
    secret = (settings.secret or store.setting("server_secret", lambda: secrets.token_hex(32))).encode()
    replay = ReplayProcess()
    database_health = DatabaseHealth(store, clock)
    retention = Retention(store, clock, settings.retention_days, settings.prune_interval_seconds)
    service = GameService(store, secret, clock, table_bots(settings.table_bot), replay)
    results = DayResults(service)
    answer_floor = AnswerFloor(settings.answer_floor_ms)
    # Shared by every process of the database (rate_counts); RequestLimits applies them before the routes.
    limiters = {
        "games": RateLimiter(settings.rate_games_per_minute, kind="games", shared=store),
        "moves": RateLimiter(settings.rate_moves_per_minute, kind="moves", shared=store),
        "reads": RateLimiter(settings.reads_per_minute, kind="reads", shared=store),
    }
    # Requests that would create a player (no valid cookie): as many per address as new games per player.
    new_players = RateLimiter(settings.rate_games_per_minute, kind="new-players", address_factor=1, shared=store)
    gate = AddressGate(settings.max_requests_per_address) if settings.max_requests_per_address > 0 else None
    health_threads = Threads(1, "couyon-health")
    """The health check's own thread: never queued behind the requests filling the other threads."""
    game_threads = Threads(GAME_THREADS, "couyon-game")

    @asynccontextmanager
    async def lifespan(running: FastAPI) -> AsyncIterator[None]:
        pruning = asyncio.create_task(retention.run_periodically()) if retention.enabled else None
        yield
        if pruning is not None:
            pruning.cancel()
        running.state.table_hub.stop()
        replay.close()
        health_threads.stop()
        game_threads.stop()

    app = FastAPI(
        lifespan=lifespan,
        title="Couyon",
        version=__version__,
        description="The Couyon game server: games, the daily challenge and leaderboards (see docs/api.md).",
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        # Starlette's redirect of a path with or without a final slash names the Host header's address (which the
        # client writes) and has a browser send a POST's body again there: a path no route takes is the JSON 404.
        redirect_slashes=False,
    )
    app.state.service = service
    app.state.replay = replay
    app.state.store = store
    app.state.retention = retention
    install_error_handlers(app)

    def current_player(request: Request) -> str | None:
        found = cookie_player(secret, request.cookies)
        # A cookie issued before the player's newest recovery code is no longer that player (docs/api.md).
        if found is None or found.generation != store.recovery_generation(found.player_id):
            return None
        # The scope's scheme, as ``request.url`` would say it without building the URL (every request over HTTP).
        if found.old_name and request.scope.get("scheme") == "https":
            # Over HTTPS a cookie of the old name is renamed by this answer (``RenameCookie``): same player.
            request.state.couyon_rename_cookie = signed_cookie(secret, found.player_id, found.generation)
        return found.player_id

    def remember(response: Response, player_id: str, request: Request, generation: int = 0) -> None:
        """Set the signed player cookie on the first answer that needed a player (or a new recovery generation)."""
        value = signed_cookie(secret, player_id, generation)
        if getattr(request.state, "couyon_rename_cookie", None):
            request.state.couyon_rename_cookie = value  # ``RenameCookie`` sets it, and expires the old name.
        else:
            set_player_cookie(response, value, request.scope.get("scheme") == "https")

    @app.get("/api/health", responses=_responses(errors=(503,)))
    async def health() -> Response:
        problem = await health_threads.run(database_health.problem)
        if problem is not None:
            cause, reason = problem
            return json_response(
                {"status": "degraded", "database": cause, "reason": reason, "version": __version__}, 503
            )
        # "bot" is the default game's (what the answer said before there were several games).
        bots = service.table_bots
        return json_response(
            {"status": "ok", "database": "ok", "version": __version__, "bot": bots[DEFAULT_GAME], "bots": bots}
        )

    @app.get("/api/catalog", responses=_responses({200: {"model": CatalogModel}}, errors=(429,)))
    def catalog() -> Response:
        games = [{**kind.describe(), "table_bot": service.table_bots[kind.id]} for kind in GAMES.values()]
        return json_response({"default": DEFAULT_GAME, "games": games})

    @app.post(
        "/api/games",
        status_code=201,
        responses=_responses(
            {200: {"model": GameAnswerModel, "description": "The day's ranked attempt, resumed"}},
            {201: {"model": GameAnswerModel, "description": "A new game"}},
            {403: {"model": ErrorBody, "description": "An archive play of a day that is not over"}},
            {409: {"model": ErrorBody, "description": "An unranked daily play before the ranked attempt is finished"}},
            errors=(400, 413, 422, 429, 503),
        ),
    )
    async def create_game(body: NewGameRequest, request: Request, background: BackgroundTasks) -> Response:
        arrival = answer_floor.monotonic()

        def created_game() -> tuple[GameAnswer, Response, str | None]:
            # The cookie's check reads the database: off the event loop, in the connection of the game's reads.
            with store.reading():
                known = current_player(request)
                player_id = known or new_player_id()
                answer, created = service.create(
                    player_id, body.mode, body.ranked, body.game, body.options, _past_day(body.day)
                )
            return answer, json_response(answer.to_json(), 201 if created else 200), None if known else player_id

        # The JSON too is made before the wait, off the event loop: the floor covers all the request's work.
        answer, response, new_player = await game_threads.run(created_game)
        # The bots that moved before the human's first turn: the answer leaves at a time set by their number alone.
        await answer_floor.hold(arrival, answer.bot_moves, answer.decision_floor_ms, "create")
        if answer.leaderboard_pending:  # The bots ended it before the player's first move.
            background.add_task(service.verify_finished, answer.game.id)
        if new_player is not None:
            remember(response, new_player, request)
        return response

    @app.get(
        "/api/games/{game_id}",
        responses=_responses({200: {"model": GameAnswerModel}}, errors=(404, 409, 429, 503)),
    )
    def show_game(game_id: str, request: Request) -> Response:
        return json_response(service.show(current_player(request), game_id).to_json())

    @app.post(
        "/api/games/{game_id}/moves",
        responses=_responses({200: {"model": GameAnswerModel}}, errors=(400, 404, 409, 413, 422, 429, 503)),
    )
    async def play_move(game_id: str, body: MoveRequest, request: Request, background: BackgroundTasks) -> Response:
        arrival = answer_floor.monotonic()

        def played() -> tuple[GameAnswer, Response]:
            # One connection for the cookie's check and the game's reads, off the event loop (``Store.reading``).
            with store.reading():
                answer = service.move(current_player(request), game_id, body.move, body.move_number)
            return answer, json_response(answer.to_json())

        answer, response = await game_threads.run(played)
        await answer_floor.hold(arrival, answer.bot_moves, answer.decision_floor_ms, "move")
        if answer.leaderboard_pending:
            # The verifying replay runs once the answer is sent; a GET of the game runs it if this never does.
            background.add_task(service.verify_finished, game_id)
        return response

    @app.get(
        "/api/games/{game_id}/record",
        responses=_responses(
            {200: {"description": "The couyon-record/1 JSON of the finished game"}},
            {403: {"model": ErrorBody, "description": "A daily record before its day is over"}},
            errors=(404, 409, 429, 503),
        ),
    )
    def game_record(game_id: str, request: Request) -> Response:
        record = service.record(current_player(request), game_id)
        headers = {"Content-Disposition": f'attachment; filename="couyon-{game_id}.json"'}
        return Response(record, media_type="application/json", headers=headers)

    @app.get(
        "/api/games/{game_id}/review",
        responses=_responses(
            {200: {"description": "The review of the finished game, deal by deal (docs/api.md, 'The review')"}},
            errors=(404, 409, 429, 503),
        ),
    )
    def game_review(game_id: str, request: Request) -> Response:
        """Every deal of a finished couyon game with South's bids and cards judged by the expert (from South's
        view) and by the exact solver (on the true deal); a daily game's hidden cards only once its day is over."""
        return json_response(service.review(current_player(request), game_id))

    @app.post(
        "/api/games/{game_id}/hint",
        responses=_responses(
            {200: {"description": "The expert's move for the player now; the game is no longer ranked"}},
            {403: {"model": ErrorBody, "description": "A daily game: no hints"}},
            errors=(400, 404, 409, 413, 422, 429, 503),
        ),
    )
    def game_hint(game_id: str, body: HintRequest, request: Request) -> Response:
        return json_response(service.hint(current_player(request), game_id, body.move_number))

    def someone(request: Request) -> str:
        player_id = current_player(request)
        if player_id is None:
            raise ApiError(404, "no_player", "There is no player on this device yet: play a game or save a name first.")
        return player_id

    @app.get(
        "/api/player/recovery",
        responses=_responses({404: {"model": ErrorBody, "description": "No player on this device yet"}}, errors=(429,)),
    )
    def show_recovery_code(request: Request) -> Response:
        """The player's recovery code, and how many games the player has (the page asks before giving them up)."""
        player_id = someone(request)
        code = recovery_code(secret, player_id, store.recovery_generation(player_id))
        return json_response({"code": code, "games": store.game_count(player_id)})

    @app.post(
        "/api/player/recovery/new",
        responses=_responses(
            {404: {"model": ErrorBody, "description": "No player on this device yet"}}, errors=(429, 503)
        ),
    )
    def new_recovery_code(request: Request) -> Response:
        """A new recovery code for the player: every older code of the player stops working, and so does every
        other device's cookie of the player; this device gets a cookie of the new generation."""
        player_id = someone(request)
        generation = service.new_recovery_generation(player_id)
        response = json_response({"code": recovery_code(secret, player_id, generation)})
        remember(response, player_id, request, generation)
        return response

    @app.post(
        "/api/player/recovery",
        responses=_responses(
            {410: {"model": ErrorBody, "description": "A code the player has replaced with a new one"}},
            errors=(400, 413, 422, 429),
        ),
    )
    def recover_player(body: RecoveryRequest, request: Request) -> Response:
        # The code is never logged: it is the player (the access log keeps the path only).
        signed = player_of_recovery_code(secret, body.code)
        current = store.recovery_generation(signed[0]) if signed else 0
        # A generation the store never reached is no code of this server (a database restored from a backup).
        if signed is None or signed[1] > current:
            raise ApiError(
                422,
                "invalid_recovery_code",
                "This recovery code is not valid: copy it again, whole, from the device where you play.",
            )
        player_id, generation = signed
        if generation < current:
            raise ApiError(
                410,
                "replaced_recovery_code",
                "This recovery code was replaced by a newer one: use the player's newest code.",
            )
        response = json_response({"name": store.player_name(player_id)})
        remember(response, player_id, request, generation)
        return response

    @app.get("/api/player", responses=_responses(errors=(429,)))
    def show_player(request: Request) -> Response:
        player_id = current_player(request)
        return json_response({"name": None if player_id is None else store.player_name(player_id)})

    @app.put("/api/player", responses=_responses(errors=(400, 413, 422, 429, 503)))
    def rename_player(body: NameRequest, request: Request) -> Response:
        player_id = current_player(request)
        is_new_player = player_id is None
        player_id = player_id or new_player_id()
        # The name rules (names.py) and the look-alike check, before anything is written.
        name = valid_name(body.name)
        refuse_lookalike(store, player_id, name)
        response = json_response({"name": service.set_name(player_id, name)})
        if is_new_player:
            remember(response, player_id, request)
        return response

    @app.get("/api/daily", responses=_responses(errors=(422, 429)))
    def daily(request: Request, game: GameQuery = DEFAULT_GAME) -> Response:
        return json_response(service.daily_status(current_player(request), game))

    @app.get(
        "/api/daily/results",
        responses=_responses(
            {200: {"model": DayResultsModel}},
            {
                403: {
                    "model": ErrorBody,
                    "description": "Today's results before the player's ranked attempt is finished",
                }
            },
            errors=(422, 429),
        ),
    )
    def daily_results(request: Request, game: GameQuery = DEFAULT_GAME, day: Day | None = None) -> Response:
        """The day's results: scores and deals of the field, the player's place and, once the day is over, the traveller."""
        return json_response(results.of_day(current_player(request), game, day))

    @app.get("/api/player/stats", responses=_responses({200: {"model": PlayerStatsModel}}, errors=(422, 429)))
    def player_stats(request: Request, game: GameQuery = DEFAULT_GAME) -> Response:
        """The player's ranked games, wins, average score, daily streaks and calendar in one game."""
        return json_response(results.of_player(current_player(request), game))

    @app.get(
        "/api/daily/{day}/seed",
        responses=_responses({403: {"model": ErrorBody, "description": "The day is not over yet"}}, errors=(422, 429)),
    )
    def daily_seed(day: Day, game: GameQuery = DEFAULT_GAME) -> Response:
        return json_response({"day": day.isoformat(), "seed": service.published_seed(day, game)})

    @app.get(
        "/api/leaderboard",
        responses=_responses(
            {
                403: {
                    "model": ErrorBody,
                    "description": "Today's daily board before the player's ranked attempt is finished",
                }
            },
            errors=(422, 429),
        ),
    )
    def leaderboard(
        request: Request,
        board: Literal["free", "daily"] = "free",
        day: Day | None = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 50,
        game: GameQuery = DEFAULT_GAME,
        level: Annotated[
            str | None,
            Query(
                max_length=16,
                description="The free board of this level (the game's default level when left out); "
                "the daily board is always the expert table's",
            ),
        ] = None,
        period: Annotated[
            Literal["day", "week", "all"],
            Query(
                description="The free board's games finished today, this week (from Monday) or ever, "
                "Europe/Brussels time; a daily board is one day's and takes only all"
            ),
        ] = "all",
    ) -> Response:
        return json_response(
            service.leaderboard(board, day, limit, game, level, period=period, player_id=current_player(request))
        )

    clubs = ClubService(service, secret)
    app.include_router(clubs_router(clubs, current_player, remember, answer_floor))  # Clubs and tournaments (issue 22).
    # Ratings (issue 35): rated as each friends' table game ends; the challenge performance from closed tournaments
    # and the daily challenges of days that are over.
    ratings = RatingService(service, clubs, results)
    app.state.ratings = ratings
    app.include_router(ratings_router(ratings, current_player))
    # Puzzles (issue 34): mined by ``couyon puzzles mine``, answered once, rated by Glicko-2.
    app.include_router(puzzles_router(PuzzleService(service), current_player, remember, answer_floor))
    # Friends' tables: their routes and socket (server/tables/api.py).
    include_tables(app, service, store, secret, answer_floor, settings, ratings)
    # The page's files; never under /api, so an API path with the wrong method is 405 and an unknown one 404.
    app.router.routes.append(WebFiles("/", PageFiles(directory=WEB_DIR, html=True, check_dir=False), name="web"))
    app.add_middleware(
        RequestLimits,
        limiters=limiters,
        new_players=new_players,
        player_of=lambda cookies: rate_key(secret, cookies),
        gate=gate,
        trusted=trusted_proxies(),
    )
    app.add_middleware(RenameCookie)
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=5)
    app.add_middleware(HeadAsGet)
    app.add_middleware(HttpEdge, max_body_bytes=settings.max_body_bytes, body_timeout=settings.body_timeout_seconds)
    return app


def app_from_environment() -> FastAPI:
    """The factory ``couyon serve`` hands to uvicorn (each worker process builds its own app)."""
    settings = Settings.from_environment()
    configure_logging(settings.log_level)
    app = create_app(settings)
    # What exists now (modules, the app and its routes, some 100,000 objects) lives as long as the process:
    # frozen out of the collector's sight, a full collection, which stops every request, skips it.
    gc.collect()
    gc.freeze()
    return app
