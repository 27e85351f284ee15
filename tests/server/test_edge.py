"""The HTTP edge: HEAD of the health check, 405 with Allow for a known API path, 404 for an unknown one, HSTS over
HTTPS, and the ``__Host-`` player cookie over HTTPS (the old name still read and renamed, so players keep their id)."""

from __future__ import annotations

from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import new_game

from couyon.loadgen import ServerProcess
from couyon.server.identity import COOKIE_NAME, SECURE_COOKIE_NAME


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """Nothing here depends on the database: one backend is enough."""
    return sqlite_url


def set_cookies(response: Any) -> dict[str, Any]:
    """Every Set-Cookie of an answer, by name."""
    found: dict[str, Any] = {}
    for header in response.headers.get_list("set-cookie"):
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        found.update(cookie)
    return found


def test_head_of_the_health_check_answers_without_a_body(make_client: Any) -> None:
    client = make_client()
    response = client.head("/api/health")
    assert response.status_code == 200 and response.content == b""
    assert "/api/health" in client.get("/api/openapi.json").json()["paths"]  # GET only in the schema
    assert set(client.get("/api/openapi.json").json()["paths"]["/api/health"]) == {"get"}


def test_a_known_api_path_with_another_method_is_405_with_allow(make_client: Any) -> None:
    client = make_client()
    for method, path, allowed in (
        ("GET", "/api/games", "POST"),
        ("DELETE", "/api/player", "GET, HEAD, PUT"),
        ("PUT", "/api/health", "GET, HEAD"),
        ("GET", "/api/games/g_x/moves", "POST"),
    ):
        response = client.request(method, path)
        assert response.status_code == 405, (method, path, response.text)
        assert response.json()["error"]["code"] == "method_not_allowed"
        assert response.headers["allow"] == allowed
    unknown = client.get("/api/nothing-here")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    # The page's files are still served everywhere else.
    assert client.get("/").status_code == 200 and "text/html" in client.get("/").headers["content-type"]
    assert client.head("/").status_code == 200


def test_https_answers_carry_hsts_and_plain_http_answers_do_not(make_client: Any) -> None:
    plain = make_client()
    assert "strict-transport-security" not in plain.get("/api/health").headers
    secure = TestClient(plain.app, base_url="https://127.0.0.1")
    with secure:
        for path in ("/api/health", "/", "/api/nothing-here"):
            assert secure.get(path).headers["strict-transport-security"] == "max-age=31536000"


def test_the_cookie_is_host_prefixed_over_https_and_the_old_name_still_works(make_client: Any) -> None:
    plain = make_client()
    over_http = plain.post("/api/games", json={"mode": "free"})
    assert set(set_cookies(over_http)) == {COOKIE_NAME}  # Plain HTTP: unchanged.

    secure = TestClient(plain.app, base_url="https://127.0.0.1")
    with secure:
        created = secure.post("/api/games", json={"mode": "free"})
        cookie = set_cookies(created)[SECURE_COOKIE_NAME]
        assert set(set_cookies(created)) == {SECURE_COOKIE_NAME}
        assert cookie["secure"] and cookie["httponly"] and cookie["path"] == "/" and not cookie["domain"]
        assert cookie["samesite"].lower() == "lax"
        assert secure.get(f"/api/games/{created.json()['id']}").status_code == 200

    # A player who got the old name over HTTPS before the prefix keeps their identity, and is renamed.
    old = TestClient(plain.app, base_url="https://127.0.0.1")
    with old:
        old.cookies.set(COOKIE_NAME, plain.cookies[COOKIE_NAME])
        game = old.get(f"/api/games/{over_http.json()['id']}")
        assert game.status_code == 200
        renamed = set_cookies(game)
        assert renamed[SECURE_COOKIE_NAME].value == plain.cookies[COOKIE_NAME]
        assert renamed[COOKIE_NAME]["max-age"] == "0"  # The old name is expired.
        old.cookies.clear()
        old.cookies.set(SECURE_COOKIE_NAME, renamed[SECURE_COOKIE_NAME].value)
        again = old.get(f"/api/games/{over_http.json()['id']}")
        assert again.status_code == 200 and not set_cookies(again)
        # An old-name cookie planted beside it (another player's) does not override the __Host- one.
        planter = make_client()
        planted_game = new_game(planter)["id"]
        old.cookies.set(COOKIE_NAME, planter.cookies[COOKIE_NAME])
        assert old.get(f"/api/games/{planted_game}").status_code == 404
        assert old.get(f"/api/games/{over_http.json()['id']}").status_code == 200


def test_the_real_server_over_a_trusted_https_proxy(tmp_path: Path) -> None:
    """couyon serve behind a proxy on 127.0.0.1 that says X-Forwarded-Proto: https."""
    with ServerProcess(tmp_path / "data") as server:
        assert httpx.head(f"{server.url}/api/health").status_code == 200
        wrong = httpx.get(f"{server.url}/api/games")
        assert wrong.status_code == 405 and wrong.headers["allow"] == "POST"
        assert wrong.json()["error"]["code"] == "method_not_allowed"
        proxied = httpx.post(f"{server.url}/api/games", json={"mode": "free"}, headers={"x-forwarded-proto": "https"})
        assert proxied.status_code == 201
        assert proxied.headers["strict-transport-security"] == "max-age=31536000"
        assert set(set_cookies(proxied)) == {SECURE_COOKIE_NAME}
        direct = httpx.get(f"{server.url}/api/health")
        assert "strict-transport-security" not in direct.headers
