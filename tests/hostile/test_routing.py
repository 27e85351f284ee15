"""Routing probed on a real ``couyon serve``: no address of the site redirects (Starlette's redirects are built from
the Host header, which the client writes), an API path the server does not know is the JSON 404, and HEAD is
answered wherever GET is, with GET's status and headers and no body, under the same rate limits."""

from __future__ import annotations

import http.cookiejar
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from couyon.loadgen import ServerProcess
from couyon.server.app import WEB_DIR

EVIL = {"host": "evil.example"}
METHODS = ("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS")
PAST_DAY = "2026-11-01"
FILLED = {"game_id": "g_nothing", "day": PAST_DAY, "game": "1", "deal": "1"}
"""What a path's placeholders are filled with (a club's, a tournament's or a challenge's id: ``nothing``)."""


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """Routing does not depend on the database: one backend is enough."""
    return sqlite_url


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with ServerProcess(tmp_path_factory.mktemp("routing")) as running:
        yield running


@pytest.fixture(scope="module")
def player(server: ServerProcess) -> tuple[dict[str, str], str]:
    """A player's cookies and the id of one of their games."""
    created = httpx.post(f"{server.url}/api/games", json={"mode": "free"})
    assert created.status_code == 201, created.text
    return dict(created.cookies), created.json()["id"]


def api_paths(server: ServerProcess) -> dict[str, set[str]]:
    """Every API path the server documents (``{placeholders}`` filled in), with its methods in upper case."""
    schema = httpx.get(f"{server.url}/api/openapi.json").json()
    paths = {"/api/openapi.json": {"GET"}}
    for template, operations in schema["paths"].items():
        path = re.sub(r"\{(\w+)\}", lambda match: FILLED.get(match.group(1), "nothing"), template)
        assert "{" not in path, template
        paths[path] = {method.upper() for method in operations}
    return paths


def assert_no_redirect(response: httpx.Response) -> None:
    assert not 300 <= response.status_code < 400, (response.request.method, response.request.url, response.headers)
    assert "location" not in response.headers, (response.request.method, response.request.url)


def probe() -> httpx.Client:
    """One client for a test's many probes (a new client per request cost most of their time), keeping no cookie:
    each request goes alone, as from a client never seen."""
    return httpx.Client(cookies=NoCookies())


class NoCookies(http.cookiejar.CookieJar):
    """A cookie jar that keeps nothing."""

    def set_cookie(self, cookie: http.cookiejar.Cookie) -> None:
        return None

    def extract_cookies(self, response: Any, request: Any) -> None:
        return None


def test_no_api_path_redirects_and_an_unknown_one_is_the_json_404(server: ServerProcess) -> None:
    paths = api_paths(server)
    assert "/api/games" in paths and "/api/player/recovery" in paths
    with probe() as client:
        requests = [
            (method, wrong)
            for path in paths
            for wrong in (path + "/", path + "//", path.replace("/api/", "/api//"), "/" + path)
            for method in METHODS
        ]
        for method, wrong in requests:
            body = {"json": {"code": "x" * 45}} if method in ("POST", "PUT", "PATCH") else {}
            response = client.request(method, f"{server.url}{wrong}", headers=EVIL, **body)
            assert_no_redirect(response)
            if not wrong.startswith("/api/"):
                continue  # "//api/…" is a path of the page's files (their 404, or 405 for a POST)
            assert response.status_code == 404, (method, wrong, response.status_code)
            if method != "HEAD":
                assert response.json()["error"]["code"] == "not_found", (method, wrong)
    # The two of the probe: a trailing slash no longer sends the browser (and a recovery code) to the Host's address.
    listed = httpx.get(f"{server.url}/api/games/", headers=EVIL)
    assert listed.status_code == 404 and listed.json()["error"]["code"] == "not_found"
    recovered = httpx.post(f"{server.url}/api/player/recovery/", headers=EVIL, json={"code": "x" * 45})
    assert recovered.status_code == 404 and recovered.json()["error"]["code"] == "not_found"


def test_no_page_address_redirects_and_the_page_is_still_served(server: ServerProcess) -> None:
    files = [path.relative_to(WEB_DIR).as_posix() for path in WEB_DIR.rglob("*") if path.is_file()]
    folders = [path.relative_to(WEB_DIR).as_posix() for path in WEB_DIR.rglob("*") if path.is_dir()]
    assert "index.html" in files and "css/app.css" in files and "rules" in folders
    with probe() as client:
        for file in files:
            for method in ("GET", "HEAD"):
                served = client.request(method, f"{server.url}/{file}", headers=EVIL)
                assert served.status_code == 200, (method, file, served.status_code)
                assert_no_redirect(served)
        for folder in ["", *folders]:
            for address in (f"/{folder}", f"/{folder}/", f"//{folder}", f"//evil.example/{folder}", f"/\\{folder}"):
                for method in ("GET", "HEAD", "POST"):
                    assert_no_redirect(client.request(method, f"{server.url}{address}", headers=EVIL))
    home = httpx.get(f"{server.url}/", headers=EVIL)
    assert home.status_code == 200 and "text/html" in home.headers["content-type"]


def test_a_folder_with_an_index_redirects_to_its_own_path_never_to_the_host(
    make_client: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Starlette's folder redirect (``/rules`` to ``/rules/`` once a folder has an index.html) writes the Host
    header's address into Location; the page's files answer with the path alone."""
    import couyon.server.app

    page = tmp_path / "web"
    (page / "guide").mkdir(parents=True)
    (page / "index.html").write_text("<p>home</p>")
    (page / "guide" / "index.html").write_text("<p>guide</p>")
    monkeypatch.setattr(couyon.server.app, "WEB_DIR", page)
    client = make_client()
    for host, sent, location in (
        ("evil.example", "/guide", "/guide/"),
        ("evil.example", "//guide", "/guide/"),  # Not "//guide/": a browser reads that as the site "guide".
        ("127.0.0.1", "/guide", "/guide/"),
    ):
        moved = client.get(f"http://127.0.0.1{sent}", headers={"host": host}, follow_redirects=False)
        assert moved.status_code == 307 and moved.headers["location"] == location, (sent, moved.headers)
    assert client.get("/guide/", headers=EVIL).text == "<p>guide</p>"


# -- HEAD wherever GET ----------------------------------------------------------------------------------------


def get_targets(server: ServerProcess, game_id: str) -> list[str]:
    """Every GET address of the API, with a real game and a day that is over."""
    targets = []
    for path, methods in api_paths(server).items():
        if "GET" in methods:
            targets.append(path.replace("g_nothing", game_id))
    # The queries that change an answer's shape: another game, another board.
    targets += ["/api/leaderboard?board=daily", "/api/daily?game=malmedy", f"/api/daily/results?day={PAST_DAY}"]
    return targets


def comparable(response: httpx.Response) -> dict[str, str]:
    """The headers a HEAD must share with its GET: all but the date."""
    return {name: value for name, value in response.headers.items() if name != "date"}


def test_head_answers_wherever_get_does_with_its_headers_and_no_body(
    server: ServerProcess, player: tuple[dict[str, str], str]
) -> None:
    cookies, game_id = player
    targets = get_targets(server, game_id)
    assert len(targets) >= 13, targets
    with httpx.Client(base_url=server.url, cookies=cookies) as client:
        for target in targets:
            for encoding in ("identity", "gzip"):
                headers = {"accept-encoding": encoding}
                got = client.get(target, headers=headers)
                head = client.head(target, headers=headers)
                assert head.status_code == got.status_code, (target, head.status_code, got.status_code)
                assert head.content == b"", target
                assert comparable(head) == comparable(got), (target, encoding)
        # Another player's or a made-up game: the same 404 as GET, without a body.
        assert client.head("/api/games/g_nothing").status_code == 404
        # A path that takes no GET takes no HEAD: 405, whose Allow names HEAD where GET is allowed.
        refused = client.head("/api/games")
        assert refused.status_code == 405 and refused.headers["allow"] == "POST"
        player_path = client.delete("/api/player")
        assert player_path.status_code == 405 and player_path.headers["allow"] == "GET, HEAD, PUT"


def test_head_counts_against_the_reads_limit_as_get_does(tmp_path: Path) -> None:
    with ServerProcess(tmp_path / "limited", environment={"COUYON_RATE_READS_PER_MINUTE": "4"}) as server:
        created = httpx.post(f"{server.url}/api/games", json={"mode": "free"})
        path = f"{server.url}/api/games/{created.json()['id']}"
        statuses = [httpx.head(path, cookies=created.cookies).status_code for _ in range(3)]
        statuses.append(httpx.get(path, cookies=created.cookies).status_code)
        limited_head = httpx.head(path, cookies=created.cookies)
        limited_get = httpx.get(path, cookies=created.cookies)
        assert statuses == [200, 200, 200, 200]
        assert limited_head.status_code == limited_get.status_code == 429
        assert re.fullmatch(r"[0-9]+", limited_head.headers["retry-after"])
        # The health check stays outside every limit, for HEAD too.
        assert {httpx.head(f"{server.url}/api/health").status_code for _ in range(6)} == {200}
