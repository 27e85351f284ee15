"""Headers whose bytes are not ASCII, or not even UTF-8, against a real ``couyon serve`` over raw sockets.

Issue 19, item 3: a cookie whose signature held a non-ASCII character made ``hmac.compare_digest`` raise
in the rate-limit layer, and every API route answered 500 to that browser (a cookie planted from a
sibling subdomain or over plain HTTP locked it out of the whole site). Here every header the server
reads (the player cookie under both names, Host, the forwarded headers, Content-Type,
Accept-Encoding, and a few it merely passes by) gets such bytes on every route of
/api/openapi.json: no answer is a 5xx, nothing is logged as an error, and a bad cookie counts as no
cookie, so the good one beside it still names its player.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest

from couyon.loadgen import ServerProcess
from couyon.server.identity import COOKIE_NAME, SECURE_COOKIE_NAME

HOST = "127.0.0.1"

NOT_ASCII = {
    "latin-1 é": b"\xe9",
    "ff fe": b"\xff\xfe",
    "truncated UTF-8": b"\xc3(",
    "overlong slash": b"\xc0\xaf",
    "UTF-16 surrogate in UTF-8": b"\xed\xa0\x80",
    "UTF-8 é": b"\xc3\xa9",
}
"""Bytes that are not ASCII; all but the last are not UTF-8 either."""

BODIES = {
    ("POST", "/api/games"): b'{"mode": "free"}',
    ("POST", "/api/games/{game_id}/moves"): b'{"move": "pass", "move_number": 0}',
    ("POST", "/api/games/{game_id}/hint"): b'{"move_number": 0}',
    ("PUT", "/api/player"): b'{"name": "Fuzz"}',
    ("POST", "/api/player/recovery"): b'{"code": "not a code"}',
}
"""A plausible body of each route that takes one (a route left out here gets ``{}``)."""


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: bytes


def exchange(port: int, request: bytes) -> Reply:
    """Send one request on its own connection (``Connection: close``) and read the whole answer."""
    with socket.create_connection((HOST, port), timeout=30) as sock:
        sock.sendall(request)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = [(name.strip().lower(), value.strip()) for name, _, value in (line.partition(":") for line in lines[1:])]
    if ("transfer-encoding", "chunked") in headers:
        body = unchunk(body)
    if ("content-encoding", "gzip") in headers:
        body = gzip.decompress(body)
    return Reply(int(lines[0].split()[1]), headers, body)


def unchunk(data: bytes) -> bytes:
    body = b""
    while data:
        size, _, rest = data.partition(b"\r\n")
        length = int(size.split(b";")[0], 16)
        if length == 0:
            break
        body, data = body + rest[:length], rest[length + 2 :]
    return body


def request(method: str, path: str, headers: list[bytes], body: bytes | None = None) -> bytes:
    lines = [f"{method} {path} HTTP/1.1".encode(), *headers, b"Connection: close"]
    if not any(line.lower().startswith(b"host:") for line in headers):
        lines.insert(1, f"Host: {HOST}".encode())
    if body is not None:
        if not any(line.lower().startswith(b"content-type:") for line in headers):
            lines.append(b"Content-Type: application/json")
        lines.append(f"Content-Length: {len(body)}".encode())
    return b"\r\n".join(lines) + b"\r\n\r\n" + (body or b"")


def set_player_cookie(reply: Reply) -> tuple[str, str] | None:
    for name, value in reply.headers:
        if name == "set-cookie":
            cookie_name, _, rest = value.partition("=")
            if cookie_name in (COOKIE_NAME, SECURE_COOKIE_NAME) and "max-age=0" not in value.lower():
                return cookie_name, rest.partition(";")[0]
    return None


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("header-bytes") / "data") as running:
        yield running


@pytest.fixture
def player(server: ServerProcess) -> tuple[str, str]:
    """A player with a name and a game: its cookie value and the game's id."""
    with httpx.Client(base_url=server.url) as client:
        game = client.post("/api/games", json={"mode": "free"})
        assert game.status_code == 201, game.text
        assert client.put("/api/player", json={"name": "Fuzz"}).status_code == 200
        return client.cookies[COOKIE_NAME], game.json()["id"]


def routes(server: ServerProcess) -> list[tuple[str, str]]:
    """Every (method, path template) of the API's schema."""
    paths = httpx.get(f"{server.url}/api/openapi.json").json()["paths"]
    found = [(method.upper(), path) for path, methods in paths.items() for method in methods]
    assert len(found) >= 17, found  # The schema lists the API, not a stub.
    return found


def hostile_headers(valid_cookie: str) -> Iterator[tuple[str, list[bytes]]]:
    """(label, header lines): each header the server reads, then a few it passes by, with each hostile value."""
    signature_start = valid_cookie.rpartition(".")[0].encode() + b"."
    for label, bad in NOT_ASCII.items():
        for name in (COOKIE_NAME, SECURE_COOKIE_NAME):
            cookie = name.encode()
            yield f"{name} signature {label}", [b"Cookie: " + cookie + b"=" + signature_start + b"abc" + bad]
            yield f"{name} is {label}", [b"Cookie: " + cookie + b"=" + bad]
            yield f"{name} id {label}", [b"Cookie: " + cookie + b"=p_" + bad + b"." + valid_cookie[-10:].encode()]
        yield f"cookie header {label}", [b"Cookie: " + bad + b"=" + bad]
        yield f"Host {label}", [b"Host: " + bad]
        yield f"Host port {label}", [b"Host: 127.0.0.1:" + bad]
        yield f"X-Forwarded-For {label}", [b"X-Forwarded-For: " + bad]
        yield f"X-Forwarded-Proto {label}", [b"X-Forwarded-Proto: " + bad]
        yield f"Forwarded {label}", [b"Forwarded: for=" + bad + b";proto=https"]
        yield f"Content-Type {label}", [b"Content-Type: application/json" + bad]
        yield f"Content-Type charset {label}", [b"Content-Type: application/json; charset=" + bad]
        yield f"Accept-Encoding {label}", [b"Accept-Encoding: gzip, " + bad]
        yield f"Accept {label}", [b"Accept: " + bad]
        yield f"Accept-Language {label}", [b"Accept-Language: " + bad]
        yield f"Origin {label}", [b"Origin: http://" + bad]
        yield f"User-Agent {label}", [b"User-Agent: " + bad]
        # Over HTTPS as a trusted proxy says: the cookie renaming path reads the old name too.
        yield (
            f"https, {COOKIE_NAME} {label}",
            [
                b"X-Forwarded-Proto: https",
                b"Cookie: " + COOKIE_NAME.encode() + b"=" + signature_start + bad,
            ],
        )


def test_no_route_answers_500_to_header_bytes_that_are_not_ascii(
    server: ServerProcess, player: tuple[str, str]
) -> None:
    cookie, game_id = player
    values = {"game_id": game_id, "day": "2026-01-01", "game": "1", "deal": "1", "seat": "N"}
    values |= dict.fromkeys(
        ("club_id", "key", "series_id", "tournament_id", "challenge_id", "code", "puzzle_id"), "nothing"
    )
    templates = routes(server)
    answered: dict[int, int] = {}
    failures = []
    for label, lines in hostile_headers(cookie):
        # Each hostile header with the player's good cookie beside it (unless it is the cookie), and alone.
        with_player = (
            lines
            if any(line.startswith(b"Cookie:") for line in lines)
            else [
                *lines,
                f"Cookie: {COOKIE_NAME}={cookie}".encode(),
            ]
        )
        for headers in (with_player, lines):
            for method, template in templates:
                path = re.sub(r"\{(\w+)\}", lambda match: values[match.group(1)], template)
                has_body = method in ("POST", "PUT") and template != "/api/player/recovery/new"
                body = BODIES.get((method, template), b"{}") if has_body else None
                reply = exchange(server.port, request(method, path, headers, body))
                answered[reply.status] = answered.get(reply.status, 0) + 1
                if reply.status >= 500 or (reply.body and not is_json(reply.body)):
                    failures.append((label, method, path, reply.status, reply.body[:200]))
                renewed = set_player_cookie(reply)
                if renewed is not None and headers is with_player and template == "/api/player/recovery/new":
                    cookie = renewed[1]  # A new recovery code gave this device a cookie of the new generation.
    assert failures == [], failures[:20]
    assert sum(answered.values()) > 3000 and 200 in answered, answered
    log = server.log_path.read_text(errors="replace")
    assert "Traceback" not in log and '"level": "error"' not in log.lower(), log[-3000:]


def is_json(body: bytes) -> bool:
    try:
        json.loads(body)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("bad", list(NOT_ASCII.values()), ids=list(NOT_ASCII))
def test_a_bad_cookie_is_no_cookie_and_the_good_one_beside_it_still_counts(
    server: ServerProcess, player: tuple[str, str], bad: bytes
) -> None:
    cookie, game_id = player
    signature_start = cookie.rpartition(".")[0].encode() + b"."
    planted = SECURE_COOKIE_NAME.encode() + b"=" + signature_start + bad
    both = [b"Cookie: " + planted + b"; " + f"{COOKIE_NAME}={cookie}".encode()]
    named = exchange(server.port, request("GET", "/api/player", both))
    assert named.status == 200 and json.loads(named.body) == {"name": "Fuzz"}, named
    assert exchange(server.port, request("GET", f"/api/games/{game_id}", both)).status == 200
    # Alone, the bad cookie is nobody: no name, no game, and a new game gets a new player's cookie.
    alone = [b"Cookie: " + planted]
    assert json.loads(exchange(server.port, request("GET", "/api/player", alone)).body) == {"name": None}
    assert exchange(server.port, request("GET", f"/api/games/{game_id}", alone)).status == 404
    created = exchange(server.port, request("POST", "/api/games", alone, b'{"mode": "free"}'))
    assert created.status == 201 and set_player_cookie(created) is not None, created
