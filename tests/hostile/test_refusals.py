"""Hostile requests each get a clear refusal in the API's error shape: oversized or undecodable bodies, wrong
types, unknown fields, forged, missing or tampered cookies, someone else's or a made-up game id, names with
markup or control characters. (tests/server/test_app.py has one example of most kinds; these are the many.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.server.helpers import Answer, new_game

from couyon.server.identity import COOKIE_NAME, signed_cookie

JSON = {"content-type": "application/json"}


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """Parsing and refusing happen before storage: one backend is enough here."""
    return sqlite_url


def assert_refused(response: Any, status: int, code: str) -> None:
    """The status, the code, and one short sentence without a traceback."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    message = body["error"]["message"]
    assert 10 < len(message) < 200 and message.endswith((".", "'")), message
    assert "Traceback" not in message and "File " not in message


@pytest.fixture
def owner(make_client: Any) -> tuple[Any, Answer]:
    client = make_client()
    return client, new_game(client)


def padded_chunks(size: int) -> Iterator[bytes]:
    """A body sent in chunks without a Content-Length, growing past the limit before its JSON."""
    for _ in range(size // 1000):
        yield b" " * 1000
    yield b'{"mode": "free"}'


BODY_TARGETS = ["POST /api/games", "POST moves", "PUT /api/player"]


def send(client: Any, target: str, game: Answer, **request: Any) -> Any:
    method, _, path = target.partition(" ")
    url = f"/api/games/{game['id']}/moves" if path == "moves" else path
    return client.request(method, url, **request)


@pytest.mark.parametrize("target", BODY_TARGETS)
def test_oversized_bodies_are_refused(owner: tuple[Any, Answer], target: str) -> None:
    client, game = owner
    declared = send(client, target, game, content=b'{"name": "' + b"x" * 50_000 + b'"}', headers=JSON)
    assert_refused(declared, 413, "too_large")
    lying = send(client, target, game, content=b"{}", headers={**JSON, "content-length": "12abc"})
    assert_refused(lying, 413, "too_large")
    # Chunked, without a Content-Length: refused as soon as it outgrows the limit.
    assert_refused(send(client, target, game, content=padded_chunks(20_000), headers=JSON), 413, "too_large")


@pytest.mark.parametrize("target", BODY_TARGETS)
def test_a_key_given_twice_is_refused_as_ambiguous(owner: tuple[Any, Answer], target: str) -> None:
    client, game = owner
    twice = b'{"mode": "free", "mode": "daily", "name": "A", "name": "B", "move": "S:pass", "move": "S:take"}'
    refused = send(client, target, game, content=twice, headers=JSON)
    assert_refused(refused, 400, "malformed")
    assert "twice" in refused.json()["error"]["message"]


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"{",
        b"null",
        b'"free"',
        b"[]",
        b"[" * 3000,
        b'{"mode": "fr\xffee"}',
        b"mode=free",
    ],
    ids=["empty", "truncated", "null", "string", "array", "nested 3000 deep", "bad UTF-8", "form"],
)
@pytest.mark.parametrize("target", BODY_TARGETS)
def test_undecodable_bodies_are_400(owner: tuple[Any, Answer], target: str, body: bytes) -> None:
    client, game = owner
    assert_refused(send(client, target, game, content=body, headers=JSON), 400, "malformed")


@pytest.mark.parametrize(
    ("target", "body"),
    [
        ("POST /api/games", {"mode": ["free"]}),
        ("POST /api/games", {"mode": "free", "ranked": "true"}),
        ("POST /api/games", {"mode": "free", "ranked": 1}),
        ("POST /api/games", {"mode": None}),
        ("POST /api/games", {}),
        ("POST moves", {"move": "take", "move_number": 1.5}),
        ("POST moves", {"move": "take", "move_number": True}),
        ("POST moves", {"move": "take", "move_number": -1}),
        ("POST moves", {"move": "take", "move_number": 10**30}),
        ("POST moves", {"move": ["take"], "move_number": 0}),
        ("POST moves", {"move": "", "move_number": 0}),
        ("POST moves", {"move": "x" * 121, "move_number": 0}),
        ("POST moves", {"move": {"card": "AH"}, "move_number": 0}),
        ("PUT /api/player", {"name": 42}),
        ("PUT /api/player", {"name": None}),
        ("PUT /api/player", {"name": ["Marie"]}),
    ],
)
def test_wrong_types_are_422(owner: tuple[Any, Answer], target: str, body: Any) -> None:
    client, game = owner
    assert_refused(send(client, target, game, json=body), 422, "invalid_fields")


@pytest.mark.parametrize(
    ("target", "body"),
    [
        ("POST /api/games", {"mode": "free", "player_id": "p_someone"}),
        ("POST /api/games", {"mode": "free", "seed": "chosen"}),
        ("POST /api/games", {"mode": "daily", "day": "2026-11-28"}),
        ("POST moves", {"move": "take", "move_number": 0, "seat": "W"}),
        ("POST moves", {"move": "take", "move_number": 0, "game_id": "g_other"}),
        ("PUT /api/player", {"name": "Marie", "id": "p_someone"}),
    ],
)
def test_unknown_fields_are_422(owner: tuple[Any, Answer], target: str, body: Any) -> None:
    client, game = owner
    assert_refused(send(client, target, game, json=body), 422, "invalid_fields")


@pytest.mark.parametrize("move", ["W:take", "N:AH", "S:pass", "E:pass", "take ", "9h", "1OH", "AH\x00"])
def test_a_move_for_another_seat_or_in_another_spelling_is_refused(owner: tuple[Any, Answer], move: str) -> None:
    client, game = owner
    body = {"move": move, "move_number": game["view"]["move_number"]}
    assert_refused(client.post(f"/api/games/{game['id']}/moves", json=body), 422, "invalid_move")
    assert client.get(f"/api/games/{game['id']}").json()["view"] == game["view"]


def forged_cookies(real: str) -> list[str]:
    player_id, _, signature = real.rpartition(".")
    other_id = "p_" + "A" * len(player_id[2:])
    return [
        "",
        "garbage",
        player_id,
        f"{player_id}.",
        f".{signature}",
        f"{player_id}.{signature[:-1]}",
        f"{player_id}x.{signature}",
        f"{other_id}.{signature}",
        signed_cookie(b"another-secret", player_id),
        signed_cookie(b"another-secret", other_id),
        f"{player_id}.{signature}" + "=" * 300,
        f"{player_id.upper()}.{signature}",
    ]


def test_forged_tampered_or_missing_cookies_own_nothing(make_client: Any, owner: tuple[Any, Answer]) -> None:
    client, game = owner
    real = client.cookies[COOKIE_NAME]
    stranger = make_client()
    for index, value in enumerate([None, *forged_cookies(real)]):
        headers = {} if value is None else {"cookie": f"{COOKIE_NAME}={value}"}
        for response in (
            stranger.get(f"/api/games/{game['id']}", headers=headers),
            stranger.post(
                f"/api/games/{game['id']}/moves",
                json={"move": game["view"]["legal"][0], "move_number": game["view"]["move_number"]},
                headers=headers,
            ),
            stranger.get(f"/api/games/{game['id']}/record", headers=headers),
        ):
            assert_refused(response, 404, "unknown_game")
        assert stranger.get("/api/player", headers=headers).json() == {"name": None}
        # A new game with a forged cookie belongs to a fresh player, never to the id in the forgery.
        created = stranger.post("/api/games", json={"mode": "free"}, headers=headers)
        assert created.status_code == 201, (index, created.text)
        issued = created.cookies[COOKIE_NAME]
        assert issued != value and issued.rpartition(".")[0] != real.rpartition(".")[0]
    assert client.get(f"/api/games/{game['id']}").json()["view"] == game["view"]


def test_a_non_ascii_cookie_owns_nothing(make_client: Any, owner: tuple[Any, Answer]) -> None:
    _client, game = owner
    raw = f"{COOKIE_NAME}=p_é.x".encode()
    assert_refused(make_client().get(f"/api/games/{game['id']}", headers=[(b"cookie", raw)]), 404, "unknown_game")


@pytest.mark.parametrize(
    "game_id",
    [
        "g_doesnotexist",
        "..%2F..%2Fsettings",
        "g_%00",
        "g_' OR '1'='1",
        "g_" + "x" * 5000,
        "g_é",
        "%FF%FE",
    ],
)
def test_made_up_game_ids_are_unknown(owner: tuple[Any, Answer], game_id: str) -> None:
    client, _game = owner
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 404, response.text
    assert response.json()["error"]["code"] in ("unknown_game", "not_found")


def test_someone_elses_game_answers_exactly_like_no_game(make_client: Any, owner: tuple[Any, Answer]) -> None:
    """A stranger cannot even learn that a game id exists."""
    _client, game = owner
    stranger = make_client()
    new_game(stranger)
    move = {"move": game["view"]["legal"][0], "move_number": game["view"]["move_number"]}
    for suffix, method, body in (("", "GET", None), ("/moves", "POST", move), ("/record", "GET", None)):
        theirs = stranger.request(method, f"/api/games/{game['id']}{suffix}", json=body)
        nobodys = stranger.request(method, f"/api/games/g_AAAAAAAAAAAAAAAA{suffix}", json=body)
        assert theirs.status_code == 404
        assert (theirs.status_code, theirs.content) == (nobodys.status_code, nobodys.content)


@pytest.mark.parametrize(
    "name",
    [
        "<script>alert(1)</script>",
        "<b>Marie</b>",
        "Marie&amp;",
        '"Marie"',
        "Marie\x00",
        "Marie\n",
        "Ma\trie",
        "Marie\x1b[31m",
        "Marie\u202e",
        "Ma\u200brie",
        "Ma\u200drie",
        "\ufeffMarie",
        "Marie\u0085",
        "Marie 😀",
        "{{7*7}}",
        "${jndi:x}",
        "x" * 25,
        " ",
        "",
    ],
)
def test_names_with_markup_or_control_characters_are_refused(make_client: Any, name: str) -> None:
    client = make_client()
    assert client.put("/api/player", json={"name": "Marie"}).status_code == 200
    response = client.put("/api/player", json={"name": name})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] in ("invalid_name", "invalid_fields")
    assert client.get("/api/player").json() == {"name": "Marie"}


@pytest.mark.parametrize("name", ["Élise", "Jean-Luc", "O'Neil", "anne_marie.2", "Ŝtefano", "Marie  Ourthe"])
def test_ordinary_names_are_accepted(make_client: Any, name: str) -> None:
    response = make_client().put("/api/player", json={"name": name})
    assert response.status_code == 200 and response.json() == {"name": name}


@pytest.mark.parametrize(
    ("target", "body"),
    [
        ("PUT /api/player", b'{"name": "Marie\\ud800"}'),
        ("POST moves", b'{"move": "\\udc80", "move_number": 0}'),
    ],
)
def test_lone_surrogates_are_refused(owner: tuple[Any, Answer], target: str, body: bytes) -> None:
    """JSON may escape half a UTF-16 pair, which no UTF-8 text (or database) can hold."""
    client, game = owner
    assert_refused(send(client, target, game, content=body, headers=JSON), 422, "invalid_fields")


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_move_posted_as_a_cross_site_form_is_refused(owner: tuple[Any, Answer], content_type: str) -> None:
    """A form on another site can send these types without a preflight; only JSON moves are read."""
    client, game = owner
    body = f'{{"move": "{game["view"]["legal"][0]}", "move_number": {game["view"]["move_number"]}}}'
    response = client.post(f"/api/games/{game['id']}/moves", content=body, headers={"content-type": content_type})
    assert_refused(response, 400, "malformed")
    assert client.get(f"/api/games/{game['id']}").json()["view"] == game["view"]


@pytest.mark.parametrize(
    "path",
    [
        "/../../../../etc/passwd",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/..%2f..%2f..%2fetc%2fpasswd",
        "/js/..%2f..%2f..%2fserver%2fconfig.py",
        "/%2e%2e/server/config.py",
        "/js/%2e%2e/%2e%2e/server/config.py",
    ],
)
def test_static_files_do_not_leave_the_web_folder(make_client: Any, path: str) -> None:
    response = make_client().get(path)
    assert response.status_code in (400, 404), response.status_code
    assert b"root:" not in response.content and b"COUYON_" not in response.content
