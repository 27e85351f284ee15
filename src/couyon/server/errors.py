"""Every refusal of the API in one JSON shape: ``{"error": {"code": …, "message": one sentence}}``.

The handlers registered by ``install_error_handlers`` are the only place where exceptions
become HTTP statuses: 400 malformed, 403 not yet public, 404 unknown or not yours, 409 out
of turn/illegal/stale/over, 413 too large, 422 invalid fields, 429 too many requests, 503
database unavailable. Bad input never reaches a 500 and no answer carries a traceback.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DataError, InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException

log = logging.getLogger("couyon.server")

SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
        b"form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
"""Headers of every answer (``app.HttpEdge`` adds them; refusals written before the app runs carry them too)."""


class ApiError(Exception):
    """A refusal with its HTTP status, a stable machine code and one clear sentence."""

    def __init__(self, status: int, code: str, message: str, retry_after: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after


class ErrorDetail(BaseModel):
    code: str
    message: str


class ErrorBody(BaseModel):
    """The body of every error answer."""

    error: ErrorDetail


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": description}
    for status, description in (
        (400, "Malformed JSON or body"),
        (404, "Unknown, or not this player's"),
        (409, "Out of turn, illegal, stale or game over"),
        (413, "A body over the server's limit (4 KB by default)"),
        (422, "Invalid fields"),
        (429, "Too many requests (see Retry-After)"),
        (503, "Database unavailable"),
    )
}


def documented(
    *answers: dict[int | str, dict[str, Any]], errors: tuple[int, ...] = ()
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI documentation of a route's answers: the given ones plus the shared error shape."""
    responses: dict[int | str, dict[str, Any]] = {code: ERROR_RESPONSES[code] for code in errors}
    for answer in answers:
        responses.update(answer)
    return responses


def error_response(status: int, code: str, message: str, retry_after: int | None = None) -> JSONResponse:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


def raw_error_response(status: int, reason: str, code: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP/1.1 error answer in the API's shape that closes the connection.

    For refusals made before a request reaches the app (``limits.GuardedHttpToolsProtocol``):
    a head too large, too slow, or a connection over the limits.
    """
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"cache-control", b"no-store"),
        *SECURITY_HEADERS,
    ]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    head = b"".join(name + b": " + value + b"\r\n" for name, value in headers)
    return f"HTTP/1.1 {status} {reason}\r\n".encode() + head + b"\r\n" + body


_HTTP_MESSAGES = {
    # FastAPI raises a bare 400 for a body it cannot decode at all (bad UTF-8, JSON nested too deep).
    400: ("malformed", "The request body cannot be read as JSON."),
    404: ("not_found", "There is nothing at this address."),
    405: ("method_not_allowed", "This address does not accept this method."),
    413: ("too_large", "The request body is too large."),
}


def _validation_message(error: dict[str, Any]) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()) if part not in ("body", "path", "query"))
    message = str(error.get("msg", "is invalid"))
    return f"Field {where!r}: {message}." if where else f"The request body is invalid: {message}."


def _is_malformed(errors: list[dict[str, Any]]) -> bool:
    """Unreadable JSON, or a body that is missing or not an object: 400 rather than 422."""
    for error in errors:
        if error.get("type") == "json_invalid":
            return True
        if tuple(error.get("loc", ())) == ("body",):
            return True
    return False


async def _on_api_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, ApiError)
    return error_response(error.status, error.code, error.message, error.retry_after)


async def _on_validation_error(_request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = list(error.errors())
    if _is_malformed(errors):
        if errors and errors[0].get("type") == "json_invalid":
            return error_response(400, "malformed", "The request body is not valid JSON.")
        return error_response(400, "malformed", "The request body must be a JSON object.")
    return error_response(422, "invalid_fields", _validation_message(errors[0]) if errors else "Invalid fields.")


def _allowed_methods(request: Request) -> str:
    """Every method some route accepts at this path (Starlette's 405 names only the first route's); HEAD with GET
    (``app.HeadAsGet`` answers it)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        route_methods = getattr(route, "methods", None)
        path_regex = getattr(route, "path_regex", None)
        if route_methods and path_regex is not None and path_regex.match(request.url.path):
            methods.update(route_methods)
    if "GET" in methods:
        methods.add("HEAD")
    return ", ".join(sorted(methods))


async def _on_http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    code, message = _HTTP_MESSAGES.get(error.status_code, ("http_error", "The request cannot be served."))
    response = error_response(error.status_code, code, message)
    if error.status_code == 405:
        response.headers["allow"] = _allowed_methods(request) or (error.headers or {}).get("Allow", "")
    return response


DATABASE_CAUSES = {
    "read_only": "The database refuses writes: it is read-only.",
    "disk_full": "The database refuses writes: its disk is full.",
    "locked": "The database refuses writes: another connection holds its lock.",
    "io_error": "The database's disk reports an input/output error.",
    "cannot_open": "The database file cannot be opened.",
    "busy": "Every database connection of this process is in use.",
    "unavailable": "The database cannot be reached.",
}
"""Why the database failed, as ``database_cause`` names it, with the health check's sentence."""

_SQLITE_CAUSES = {
    "SQLITE_READONLY": "read_only",
    "SQLITE_FULL": "disk_full",
    "SQLITE_BUSY": "locked",
    "SQLITE_LOCKED": "locked",
    "SQLITE_IOERR": "io_error",
    "SQLITE_CANTOPEN": "cannot_open",
    "SQLITE_PERM": "read_only",
}
_POSTGRESQL_CAUSES = {
    "25006": "read_only",  # read_only_sql_transaction: a standby, or default_transaction_read_only
    "53100": "disk_full",
    "55P03": "locked",  # lock_not_available
    "40P01": "locked",  # deadlock_detected
    "55006": "locked",  # object_in_use
    "58030": "io_error",
}


def database_cause(error: BaseException) -> tuple[str, str]:
    """Why the database failed — a key of ``DATABASE_CAUSES`` — and the driver's first line (for the log).

    SQLite's error names (``SQLITE_READONLY_DBMOVED`` counts as ``SQLITE_READONLY``) and
    PostgreSQL's SQLSTATE codes say it; without either (a refused connection) it is ``unavailable``.
    """
    if isinstance(error, PoolTimeoutError):
        return "busy", str(error).splitlines()[0][:200]
    original = getattr(error, "orig", None) or error
    detail = (str(original).strip().splitlines() or [type(original).__name__])[0][:200]
    name = getattr(original, "sqlite_errorname", None)
    if isinstance(name, str):
        for prefix, cause in _SQLITE_CAUSES.items():
            if name == prefix or name.startswith(prefix + "_"):
                return cause, detail
    state = getattr(original, "sqlstate", None)
    if isinstance(state, str) and state in _POSTGRESQL_CAUSES:
        return _POSTGRESQL_CAUSES[state], detail
    return "unavailable", detail


async def _on_database_error(request: Request, error: Exception) -> JSONResponse:
    cause, detail = database_cause(error)
    log.warning(
        "database unavailable",
        extra={"path": request.url.path, "error": type(error).__name__, "cause": cause, "detail": detail},
    )
    return error_response(503, "database_unavailable", "The database is unavailable; try again shortly.", 1)


async def _on_data_error(request: Request, error: Exception) -> JSONResponse:
    # A value the database refuses to compare or store, which only a request can have brought: PostgreSQL takes no
    # NUL character in a text (an id, a code; SQLite compares it and finds nothing, 404).
    log.info("database refused a value", extra={"path": request.url.path, "detail": database_cause(error)[1]})
    return error_response(422, "invalid_text", "The request holds a character the server cannot take (a NUL).")


async def _on_unexpected(request: Request, error: Exception) -> JSONResponse:
    log.error("unexpected error", exc_info=error, extra={"path": request.url.path})
    return error_response(500, "internal", "Something went wrong on the server; the game is safe, try again.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, _on_api_error)
    app.add_exception_handler(RequestValidationError, _on_validation_error)
    app.add_exception_handler(HTTPException, _on_http_error)
    # InternalError: PostgreSQL's read-only transaction (a standby) and aborted-transaction states.
    for database_error in (OperationalError, InterfaceError, InternalError, PoolTimeoutError):
        app.add_exception_handler(database_error, _on_database_error)
    app.add_exception_handler(DataError, _on_data_error)
    app.add_exception_handler(Exception, _on_unexpected)
