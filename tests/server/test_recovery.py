"""The recovery code: the same player on another device or after a lost cookie, without an account.

It is signed with the server secret (not guessable, not forgeable), a bad code gets one sentence
and changes nothing, and no log line ever holds a code.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import new_game

from couyon.loadgen import ServerProcess
from couyon.server.identity import COOKIE_NAME, SECURE_COOKIE_NAME
from couyon.server.limits import request_kind

BAD_CODE = {
    "error": {
        "code": "invalid_recovery_code",
        "message": "This recovery code is not valid: copy it again, whole, from the device where you play.",
    }
}

REPLACED_CODE = {
    "error": {
        "code": "replaced_recovery_code",
        "message": "This recovery code was replaced by a newer one: use the player's newest code.",
    }
}


def code_of(client: Any) -> str:
    response = client.get("/api/player/recovery")
    assert response.status_code == 200, response.text
    code: str = response.json()["code"]
    return code


def test_a_code_entered_on_another_device_is_the_same_player(make_client: Any) -> None:
    phone = make_client()
    game = new_game(phone)
    assert phone.put("/api/player", json={"name": "Marie"}).status_code == 200
    code = code_of(phone)
    assert code == code_of(phone) and 40 <= len(code) <= 50
    laptop = make_client()
    assert laptop.get(f"/api/games/{game['id']}").status_code == 404
    answer = laptop.post("/api/player/recovery", json={"code": f"  {code}\n"})
    assert answer.status_code == 200 and answer.json() == {"name": "Marie"}
    assert laptop.get(f"/api/games/{game['id']}").status_code == 200
    assert laptop.get("/api/player").json() == {"name": "Marie"}
    assert code_of(laptop) == code


def test_a_bad_code_gets_one_sentence_and_changes_nothing(make_client: Any) -> None:
    phone = make_client()
    new_game(phone)
    code = code_of(phone)
    cookie = phone.cookies.get("couyon_player")
    other_server = make_client(secret="another-secret")
    new_game(other_server)
    laptop = make_client()
    mine = new_game(laptop)
    flipped = code[:-1] + ("A" if code[-1] != "A" else "B")
    assert cookie is not None and cookie.startswith("p_")
    # A cookie's signature is no code's: the id with the first 120 bits of the cookie's HMAC is refused.
    body, _, signature = cookie.removeprefix("p_").rpartition(".")
    as_code = f"{body}.{signature[:20]}"
    for bad in (flipped, "x" + code, code.split(".")[0], "", "bonjour", as_code, code_of(other_server), "é." * 20):
        response = laptop.post("/api/player/recovery", json={"code": bad})
        assert response.status_code == 422 and response.json() == BAD_CODE, bad
    # Still the laptop's own player.
    assert laptop.get(f"/api/games/{mine['id']}").status_code == 200
    too_long = laptop.post("/api/player/recovery", json={"code": code * 5})
    assert too_long.status_code == 422 and too_long.json()["error"]["code"] == "invalid_fields"


def test_no_code_before_there_is_a_player(make_client: Any) -> None:
    response = make_client().get("/api/player/recovery")
    assert response.status_code == 404
    assert response.json()["error"] == {
        "code": "no_player",
        "message": "There is no player on this device yet: play a game or save a name first.",
    }


def test_no_log_line_holds_a_code(make_client: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    phone = make_client()
    new_game(phone)
    code = code_of(phone)
    laptop = make_client()
    assert laptop.post("/api/player/recovery", json={"code": code}).status_code == 200
    assert laptop.post("/api/player/recovery", json={"code": code + "x"}).status_code == 422
    assert laptop.post("/api/player/recovery", json={"code": code, "extra": 1}).status_code == 422
    assert caplog.records, "the requests were logged"
    signature = code.rpartition(".")[2]
    for record in caplog.records:
        assert signature not in repr(record.__dict__)


def test_a_new_code_ends_every_older_code_of_the_player(make_client: Any) -> None:
    phone = make_client()
    game = new_game(phone)
    assert phone.put("/api/player", json={"name": "Marie"}).status_code == 200
    first = code_of(phone)
    assert phone.get("/api/player/recovery").json() == {"code": first, "games": 1}
    # Someone else saw the first code and used it.
    thief = make_client()
    assert thief.post("/api/player/recovery", json={"code": first}).status_code == 200
    made = phone.post("/api/player/recovery/new")
    assert made.status_code == 200
    second = made.json()["code"]
    assert second != first and code_of(phone) == second and 40 <= len(second) <= 64
    third = phone.post("/api/player/recovery/new").json()["code"]
    assert code_of(phone) == third
    laptop = make_client()
    for old in (first, second):
        refused = laptop.post("/api/player/recovery", json={"code": old})
        assert refused.status_code == 410
        assert refused.json() == REPLACED_CODE
    # Nothing changed for the laptop; the newest code works, and the phone is still the player.
    assert laptop.get("/api/player").json() == {"name": None}
    assert laptop.post("/api/player/recovery", json={"code": third}).json() == {"name": "Marie"}
    assert laptop.get(f"/api/games/{game['id']}").status_code == 200
    assert phone.get(f"/api/games/{game['id']}").status_code == 200
    # A code is signed with its number: another number, or a number on the old form, is not a code.
    body, number, signature = third.split(".")
    for forged in (f"{body}.{int(number) + 1}.{signature}", f"{body}.0{number}.{signature}", f"{body}.{signature}"):
        response = laptop.post("/api/player/recovery", json={"code": forged})
        assert response.status_code == 422 and response.json() == BAD_CODE, forged


def test_no_new_code_before_there_is_a_player(make_client: Any) -> None:
    response = make_client().post("/api/player/recovery/new")
    assert response.status_code == 404 and response.json()["error"]["code"] == "no_player"


def test_entering_a_code_counts_against_the_moves_limit() -> None:
    # A guess at a code costs a write's budget, as a hint (an expert's search) does; showing one is a read.
    assert request_kind("POST", "/api/player/recovery") == "moves"
    assert request_kind("POST", "/api/player/recovery/new") == "moves"
    assert request_kind("POST", "/api/games/g_1/hint") == "moves"
    assert request_kind("GET", "/api/player/recovery") == "reads"


# -- a new code ends every other device's session of the player (issue 19, item 4) ------------------------


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A real ``couyon serve`` on the test's database (SQLite, then PostgreSQL)."""
    with ServerProcess(tmp_path / "server", database_url) as running:
        yield running


def test_a_new_code_ends_every_other_devices_session_of_the_player(server: ServerProcess) -> None:
    with (
        httpx.Client(base_url=server.url) as phone,
        httpx.Client(base_url=server.url) as thief,
        httpx.Client(base_url=server.url) as laptop,
    ):
        game = new_game(phone)["id"]
        assert phone.put("/api/player", json={"name": "Alice"}).status_code == 200
        leaked = code_of(phone)
        # Someone saw Alice's code and entered it: that device is Alice, with her game and her code.
        assert thief.post("/api/player/recovery", json={"code": leaked}).json() == {"name": "Alice"}
        assert thief.get(f"/api/games/{game}").status_code == 200 and code_of(thief) == leaked
        stolen_cookie = thief.cookies[COOKIE_NAME]

        made = phone.post("/api/player/recovery/new")
        assert made.status_code == 200, made.text
        newest = made.json()["code"]
        # The device that made the new code is still Alice: her name, her game, her newest code.
        assert phone.get("/api/player").json() == {"name": "Alice"}
        assert phone.get(f"/api/games/{game}").status_code == 200 and code_of(phone) == newest

        # The other device is nobody now: no name, no game, no code to read, no new code to make.
        assert thief.get("/api/player").json() == {"name": None}
        assert thief.get(f"/api/games/{game}").status_code == 404
        for refused in (thief.get("/api/player/recovery"), thief.post("/api/player/recovery/new")):
            assert refused.status_code == 404 and refused.json()["error"]["code"] == "no_player"
        # What it does next makes a player of its own, and Alice keeps her name and her newest code.
        assert thief.put("/api/player", json={"name": "Mallory"}).status_code == 200
        assert thief.cookies[COOKIE_NAME] != stolen_cookie and code_of(thief) not in (leaked, newest)
        assert phone.get("/api/player").json() == {"name": "Alice"} and code_of(phone) == newest

        # The stolen cookie itself, sent again on a device of its own, stays nobody.
        with httpx.Client(base_url=server.url, cookies={COOKIE_NAME: stolen_cookie}) as replay:
            assert replay.get("/api/player").json() == {"name": None}
            assert replay.get(f"/api/games/{game}").status_code == 404

        # The newest code brings Alice to her laptop; a code made there later ends the phone's session in turn.
        assert laptop.post("/api/player/recovery", json={"code": newest}).json() == {"name": "Alice"}
        assert laptop.get(f"/api/games/{game}").status_code == 200
        latest = laptop.post("/api/player/recovery/new").json()["code"]
        assert laptop.get("/api/player").json() == {"name": "Alice"} and code_of(laptop) == latest
        assert phone.get("/api/player").json() == {"name": None}
        assert phone.get(f"/api/games/{game}").status_code == 404
        # The phone gets Alice back with the latest code, and the laptop stays Alice.
        assert phone.post("/api/player/recovery", json={"code": latest}).json() == {"name": "Alice"}
        assert phone.get(f"/api/games/{game}").status_code == 200
        assert laptop.get(f"/api/games/{game}").status_code == 200


def set_cookies(response: Any) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for header in response.headers.get_list("set-cookie"):
        cookie: SimpleCookie = SimpleCookie()
        cookie.load(header)
        found.update(cookie)
    return found


def test_over_https_a_new_code_renames_an_old_name_cookie_into_the_new_generation(make_client: Any) -> None:
    plain = make_client()
    game = new_game(plain)["id"]
    with TestClient(plain.app, base_url="https://127.0.0.1") as secure:
        secure.cookies.set(COOKIE_NAME, plain.cookies[COOKIE_NAME])
        made = secure.post("/api/player/recovery/new")
        assert made.status_code == 200, made.text
        cookies = set_cookies(made)
        # One cookie of the new generation under the __Host- name, and the old name expired.
        assert set(cookies) == {SECURE_COOKIE_NAME, COOKIE_NAME} and cookies[COOKIE_NAME]["max-age"] == "0"
        assert len(made.headers.get_list("set-cookie")) == 2
        secure.cookies.clear()
        secure.cookies.set(SECURE_COOKIE_NAME, cookies[SECURE_COOKIE_NAME].value)
        assert secure.get(f"/api/games/{game}").status_code == 200
        assert code_of(secure) == made.json()["code"]
    # The old-name cookie the plain-HTTP browser still holds was issued before the new code.
    assert plain.get(f"/api/games/{game}").status_code == 404
