"""The HTTP routes and the WebSocket of friends' tables (/work/wt/TABLES-PROTOCOL.md, docs/api.md "Friends' tables").

Handlers are thin, as in ``app.py``: the player's cookie, the limits, the ``TableService`` call in a thread, the
answer floor, the JSON. A socket message gets the same sentences as HTTP: a refused move is an ``error`` message
and the socket stays open; a malformed, oversized (over 2 KB) or too frequent (over 20 a second) message closes
the socket with code 1008 and its reason, never anything else.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from collections.abc import Callable, Mapping
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Query, Request, Response, WebSocket
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection
from starlette.websockets import WebSocketDisconnect, WebSocketState

from couyon.server.config import Settings
from couyon.server.encoding import json_response
from couyon.server.errors import ApiError, ErrorBody, documented
from couyon.server.games import GameService
from couyon.server.identity import cookie_player
from couyon.server.limits import GuardedHttpToolsProtocol, RateLimiter
from couyon.server.pacing import AnswerFloor
from couyon.server.ratings.service import RatingService
from couyon.server.tables.hub import POLICY, Connection, TableHub, error_message, notifier_for
from couyon.server.tables.service import TableService
from couyon.store import Store

log = logging.getLogger("couyon.server")

SOCKET_MESSAGE_BYTES = 2048
SOCKET_MESSAGES_PER_SECOND = 20


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class OpenTable(_Strict):
    game: str = Field(max_length=32)
    options: dict[str, int | str] | None = Field(None, max_length=8)
    clock: int = 0


class JoinTable(_Strict):
    code: str = Field(max_length=32)


class Secret(_Strict):
    secret: str = Field(max_length=64)


class TakeSeat(Secret):
    seat: str = Field(max_length=8)


class TableMove(Secret):
    move: str = Field(min_length=1, max_length=120)
    move_number: int = Field(ge=0, le=100_000)
    seat: str | None = Field(None, max_length=8)


class TableMessage(Secret):
    message: str = Field(max_length=32)


class TableSeatModel(BaseModel):
    seat: str
    name: str | None
    holder: Literal["person", "bot", "free"]
    connected: bool
    bot_now: bool
    rematch: bool
    rating: float | None = Field(
        None, description="the person's rating in this game (docs/ratings.md), shown while the table is not playing"
    )
    rating_provisional: bool | None = None


class TableModel(BaseModel):
    """A friends' table (docs/api.md, "Friends' tables"): its seats in turn order, its game and its results."""

    code: str = Field(description="ABC-DEF")
    secret: str
    link: str = Field(description="/#/tables/<CODE>/<secret>, the invitation link")
    game: str
    options: dict[str, Any]
    clock: int = Field(description="Seconds per decision; 0: no clock")
    state: Literal["waiting", "playing", "over"]
    host: str | None
    me: str | None = Field(description="The asking player's seat; null if he holds none")
    seats: list[TableSeatModel]
    game_id: str | None
    move_number: int
    to_move: str | None
    deadline_ms: int | None = Field(description="Milliseconds left to the seat to move; null without a clock")
    results: dict[str, Any] = Field(description="{games, players: [{seat, name, score, wins}]}")


class TableGameAnswerModel(BaseModel):
    """The game answer of the asking player's seat: that seat's view, the events since ``since`` as it saw them."""

    id: str
    game: str
    options: dict[str, Any]
    mode: Literal["table"]
    day: None
    ranked: bool
    hints: int
    bot: str
    table: str
    seat: str
    since: int = Field(description="The move number the events start from (the move_number they lead to if none)")
    move_number: int
    view: dict[str, Any]
    events: list[dict[str, Any]]
    leaderboard: None
    leaderboard_pending: bool


class TableMessageModel(BaseModel):
    seat: str
    message: str


def _answers(
    model: type[BaseModel] | None, description: str, *errors: int, status: int = 200
) -> dict[int | str, dict[str, Any]]:
    """A table route's OpenAPI answers: ``model`` (``status``), the refusals every table route has (no such table,
    the limits, the database) and the route's own ``errors``."""
    answer: dict[str, Any] = {"description": description} | ({"model": model} if model is not None else {})
    return documented(
        {status: answer},
        {code: {"model": ErrorBody, "description": why} for code, why in REFUSALS.items() if code in errors},
        errors=(404, 429, 503, *(code for code in errors if code not in REFUSALS)),
    )


REFUSALS: dict[int, str] = {
    403: "Not seated at this table, not the host, or not the sender's seat",
    409: "Out of turn, illegal, stale, taken, started, over, or not started",
    410: "The table was closed (untouched for the retention period)",
}
"""The table routes' refusals that the shared error shapes do not describe."""


def include_tables(
    app: FastAPI,
    games: GameService,
    store: Store,
    secret: bytes,
    floor: AnswerFloor,
    settings: Settings,
    ratings: RatingService,
) -> TableHub:
    """Add the tables' routes and socket to ``app``; the hub (started by the first request of its event loop).
    ``settings``: the database (its notifications), the grace period and the joins' limit; ``finished``: called with
    ``ratings``: rates each game once it is over, and gives the lobby each person's rating."""
    service = TableService(games, settings.table_grace_seconds, finished=ratings.rate, rated=ratings.of_people)
    hub = TableHub(service, floor, notifier_for(settings.database_url))
    # Codes cannot be enumerated: joins by code per address (one client's, not ten times it).
    joins = RateLimiter(settings.table_joins_per_minute, kind="table-joins", address_factor=1, shared=store)
    app.state.tables = service
    app.state.table_hub = hub
    # In /api/openapi.json (tests/hostile/test_schemathesis.py fuzzes them); the socket, which OpenAPI cannot
    # describe, is in docs/api.md ("Friends' tables").
    app.include_router(table_router(service, hub, store, secret, floor, joins))
    return hub


def table_router(
    service: TableService, hub: TableHub, store: Store, secret: bytes, floor: AnswerFloor, joins: RateLimiter
) -> APIRouter:
    router = APIRouter()

    def player_of(connection: HTTPConnection) -> str | None:
        found = cookie_player(secret, connection.cookies)
        if found is None or found.generation != store.recovery_generation(found.player_id):
            return None
        return found.player_id

    async def run(call: Callable[[], Any]) -> Any:
        hub.start()
        return await asyncio.to_thread(call)

    @router.post(
        "/api/tables",
        status_code=201,
        responses=_answers(
            TableModel, "The new table; its host sits at the game's human seat", 400, 413, 422, status=201
        ),
    )
    async def open_table(body: OpenTable, request: Request) -> Response:
        player = player_of(request)
        if player is None:
            raise ApiError(422, "name_required", "Give yourself a name before you sit down.")
        return json_response(await run(lambda: service.open(player, body.game, body.options, body.clock)), 201)

    @router.post(
        "/api/tables/join", responses=_answers(TableModel, "The table of the code, with its secret", 400, 410, 413, 422)
    )
    async def join_table(body: JoinTable, request: Request) -> Response:
        address = (request.client.host if request.client else None) or "unknown"
        wait = await joins.retry_after(None, address)
        if wait is not None:
            raise ApiError(429, "too_many_requests", f"Too many requests: try again in {wait} seconds.", wait)
        player = player_of(request)
        return json_response(await run(lambda: service.join(body.code, player)))

    @router.get("/api/tables/{code}", responses=_answers(TableModel, "The table", 410, 422))
    async def show_table(code: str, request: Request, secret: str = Query("", max_length=64)) -> Response:
        player = player_of(request)
        return json_response(await run(lambda: service.show(player, code, secret)))

    @router.get(
        "/api/tables/{code}/game",
        responses=_answers(TableGameAnswerModel, "The seat's game answer since move since", 403, 409, 410, 422),
    )
    async def table_game(
        code: str,
        request: Request,
        secret: str = Query("", max_length=64),
        since: int = Query(-1, ge=-1, le=100_000),
    ) -> Response:
        player = player_of(request)
        return json_response(await run(lambda: service.game_answer(player, code, secret, since)))

    @router.post(
        "/api/tables/{code}/seats",
        responses=_answers(TableModel, "The table, the player at his new seat", 400, 409, 410, 413, 422),
    )
    async def take_seat(code: str, body: TakeSeat, request: Request) -> Response:
        player = player_of(request)
        if player is None:
            raise ApiError(422, "name_required", "Give yourself a name before you sit down.")
        return json_response(await run(lambda: service.take_seat(player, code, body.secret, body.seat)))

    @router.delete(
        "/api/tables/{code}/seats/mine",
        responses=_answers(TableModel, "The table, the player's seat free", 403, 409, 410, 422),
    )
    async def leave_seat(code: str, request: Request, secret: str = Query("", max_length=64)) -> Response:
        player = player_of(request)
        if player is None:
            raise ApiError(403, "not_seated", "You hold no seat at this table.")
        table = await run(lambda: service.leave_seat(player, code, secret))
        if table["state"] == "playing":  # The others had all asked for a rematch: it starts, its bots move.
            await hub.run_bots(_code(table))
        return json_response(table)

    @router.post(
        "/api/tables/{code}/start",
        responses=_answers(TableModel, "The table playing, the bots at the free seats", 400, 403, 409, 410, 413, 422),
    )
    async def start_table(code: str, body: Secret, request: Request) -> Response:
        player = player_of(request)
        table = await run(lambda: service.start(player, code, body.secret))
        await hub.run_bots(_code(table))
        return json_response(await run(lambda: service.show(player, code, body.secret)))

    @router.post(
        "/api/tables/{code}/seats/{seat}/bot",
        responses=_answers(TableModel, "The table, the bot playing the seat", 400, 403, 409, 410, 413, 422),
    )
    async def give_to_bot(code: str, seat: str, body: Secret, request: Request) -> Response:
        player = player_of(request)
        table = await run(lambda: service.give_to_bot(player, code, body.secret, seat[:8]))
        await hub.run_bots(_code(table))
        return json_response(await run(lambda: service.show(player, code, body.secret)))

    @router.post(
        "/api/tables/{code}/rematch",
        responses=_answers(TableModel, "The table, the next game started once all asked", 400, 403, 409, 410, 413, 422),
    )
    async def rematch(code: str, body: Secret, request: Request) -> Response:
        player = player_of(request)
        table = await run(lambda: service.rematch(player, code, body.secret))
        await hub.run_bots(_code(table))
        return json_response(await run(lambda: service.show(player, code, body.secret)))

    @router.post(
        "/api/tables/{code}/moves",
        responses=_answers(
            TableGameAnswerModel, "The seat's game answer once the bots have moved", 400, 403, 409, 410, 413, 422
        ),
    )
    async def table_move(code: str, body: TableMove, request: Request) -> Response:
        player = player_of(request)
        loaded = await run(lambda: service.move(player, code, body.secret, body.move, body.move_number, body.seat))
        # The bots' answers leave no sooner than the floor after they began (``TableHub.run_bots``), to every seat.
        await hub.after_move(loaded)
        return json_response(await run(lambda: service.game_answer(player, code, body.secret, body.move_number)))

    @router.post(
        "/api/tables/{code}/messages",
        responses=_answers(TableMessageModel, "The message, sent to every seat", 400, 403, 410, 413, 422),
    )
    async def table_message(code: str, body: TableMessage, request: Request) -> Response:
        player = player_of(request)
        where = await run(lambda: service.message(player, code, body.secret, body.message, time.monotonic()))
        hub.message(where[0], where[1], body.message)
        return json_response({"seat": where[1], "message": body.message})

    @router.get(
        "/api/tables/{code}/record",
        responses=_answers(None, "The finished game's record in its game's format", 403, 409, 422),
    )
    async def table_record(code: str, request: Request, secret: str = Query("", max_length=64)) -> Response:
        player = player_of(request)
        record = await run(lambda: service.record(player, code, secret))
        headers = {"Content-Disposition": f'attachment; filename="couyon-table-{code[:8]}.json"'}
        return Response(record, media_type="application/json", headers=headers)

    @router.get(
        "/api/tables/{code}/review",
        responses=_answers(None, "The finished game's review from the player's seat", 403, 409, 410, 422),
    )
    async def table_review(code: str, request: Request, secret: str = Query("", max_length=64)) -> Response:
        player = player_of(request)
        return json_response(await run(lambda: service.review(player, code, secret)))

    @router.websocket("/api/tables/{code}/socket")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        await websocket.accept()
        hub.start()
        secret_given = websocket.query_params.get("secret", "")[:64]
        player = player_of(websocket)
        try:
            if player is None:
                raise ApiError(403, "no_player", "There is no player on this device yet: give yourself a name first.")
            loaded = await asyncio.to_thread(service.load, code, secret_given)
        except ApiError as error:
            await _refuse(websocket, error)
            return
        connection = Connection(loaded.table.code, secret_given, player, websocket.send_text, _closer(websocket))
        hub.add(connection)
        writer = asyncio.get_running_loop().create_task(_write(connection))
        try:
            await _read(websocket, connection, service, hub)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(connection)
            writer.cancel()

    return router


def _code(table: dict[str, Any]) -> str:
    return str(table["code"]).replace("-", "")


def _closer(websocket: WebSocket) -> Callable[[int, str], Any]:
    async def close(code: int, reason: str) -> None:
        if websocket.application_state != WebSocketState.DISCONNECTED:
            await websocket.close(code, reason[:120])

    return close


async def _write(connection: Connection) -> None:
    try:
        await connection.write()
    except Exception:  # The socket is gone: the reader ends too.
        connection.closing = True


async def _refuse(websocket: WebSocket, error: ApiError) -> None:
    await websocket.send_text(json.dumps(error_message(error)))
    await websocket.close(POLICY, error.message[:120])


class _Policy(Exception):
    """A message that closes its socket (``args[0]``: the reason)."""


def _parsed(message: Mapping[str, Any], arrivals: deque[float]) -> dict[str, Any]:
    """One client message as JSON; ``_Policy`` for a binary, oversized, malformed or too frequent one."""
    now = time.monotonic()
    arrivals.append(now)
    if len(arrivals) > SOCKET_MESSAGES_PER_SECOND and now - arrivals[0] < 1.0:
        raise _Policy(f"At most {SOCKET_MESSAGES_PER_SECOND} messages a second.")
    text = message.get("text")
    if text is None:
        raise _Policy("Send JSON text messages only.")
    if len(text) > SOCKET_MESSAGE_BYTES or len(text.encode()) > SOCKET_MESSAGE_BYTES:
        raise _Policy(f"A message is at most {SOCKET_MESSAGE_BYTES} bytes.")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        raise _Policy("A message is one JSON object.") from None
    if not isinstance(document, dict) or not isinstance(document.get("type"), str):
        raise _Policy('A message is one JSON object with a "type".')
    return document


def _number(document: dict[str, Any], key: str, low: int) -> int:
    value = document.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 100_000:
        raise _Policy(f'"{key}" is a whole number from {low} to 100000.')
    return value


def _short_text(document: dict[str, Any], key: str, limit: int, required: bool = True) -> str | None:
    value = document.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= limit:
        raise _Policy(f'"{key}" is a text of 1 to {limit} characters.')
    return value


async def _read(websocket: WebSocket, connection: Connection, service: TableService, hub: TableHub) -> None:
    arrivals: deque[float] = deque(maxlen=SOCKET_MESSAGES_PER_SECOND + 1)
    while not connection.closing:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        try:
            document = _parsed(message, arrivals)
            kind = document["type"]
            if kind == "hello":
                try:
                    game_id = _short_text(document, "game", 64, required=False)
                    await hub.hello(connection, _number(document, "since", -1), game_id)
                except ApiError as error:  # The table was closed (or is gone) since the socket opened.
                    connection.closing = True
                    await _refuse(websocket, error)
                    return
            elif kind == "ping":
                connection.send({"type": "pong"})
            elif kind == "move":
                move = _short_text(document, "move", 120)
                number = _number(document, "move_number", 0)
                seat = _short_text(document, "seat", 8, required=False)
                assert move is not None
                await _socket_move(connection, service, hub, move, number, seat)
            elif kind == "message":
                text = _short_text(document, "message", 32)
                assert text is not None
                try:
                    where = await asyncio.to_thread(
                        service.message,
                        connection.player_id,
                        connection.code,
                        connection.secret,
                        text,
                        time.monotonic(),
                    )
                except ApiError as error:
                    connection.send(error_message(error))
                else:
                    hub.message(where[0], where[1], text)
            else:
                raise _Policy(f"There is no message type {kind[:16]!r}: send hello, move, message or ping.")
        except _Policy as policy:
            log.info("table socket closed", extra={"table": connection.code, "reason": str(policy)})
            connection.closing = True
            await websocket.close(POLICY, str(policy)[:120])
            return


async def _socket_move(
    connection: Connection, service: TableService, hub: TableHub, move: str, number: int, seat: str | None
) -> None:
    try:
        loaded = await asyncio.to_thread(
            service.move, connection.player_id, connection.code, connection.secret, move, number, seat
        )
    except ApiError as error:
        connection.send(error_message(error))
        return
    await hub.after_move(loaded)


class SocketCountingHttpProtocol(GuardedHttpToolsProtocol):
    """The guarded HTTP protocol, with a WebSocket counted against its address until the socket closes.

    uvicorn hands an upgraded connection to the WebSocket protocol and never tells the HTTP protocol that it
    closed: its address's count would never come down. The count moves to the socket's own ``connection_lost``.
    """

    def handle_websocket_upgrade(self) -> None:
        address, self._address = self._address, None  # This protocol will not see the connection close.
        super().handle_websocket_upgrade()
        if address is None:
            return
        protocol = self.transport.get_protocol()
        counts = self._per_address
        lost = protocol.connection_lost

        def connection_lost(exc: Exception | None) -> None:
            counts[address] -= 1
            if counts[address] <= 0:
                del counts[address]
            lost(exc)

        protocol.connection_lost = connection_lost  # type: ignore[method-assign]
