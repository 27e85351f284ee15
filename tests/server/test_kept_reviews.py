"""A finished game's review is built once and stored (``reviews``), on SQLite and PostgreSQL: a client with more
finished games than any cache holds cannot have reviews built again, nor can another server process; a daily
game's review before its day is over is kept apart from the whole one, which is built once the day is over; a
review stored by other review code (``registry.REVIEW_CODE``, a hash of the games' and common code) is built again."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.server.helpers import at_once, play_to_end
from tests.server.helpers import new_game as start_game

import couyon
from couyon import __version__
from couyon.registry import GAMES, REVIEW_CODE, code_fingerprint
from couyon.store.schema import reviews

SHORT_COUCOU = {"players": 5, "tokens": 1, "level": "easy"}
"""The shortest game there is: one token each, so seat 1's game is over within a few coups."""


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every review coucou's and couyon's registry entries build, as (seed, revealed), in order."""
    built: list[tuple[str, bool]] = []
    for game in ("coucou", "couyon"):
        kind = GAMES[game]
        review = kind.review
        assert review is not None

        def counted(
            seed: str,
            moves: Sequence[str],
            revealed: bool,
            options: Any,
            bots: str,
            seat: str,
            review: Any = review,
        ) -> Any:
            built.append((seed, revealed))
            return review(seed, moves, revealed, options, bots, seat)

        monkeypatch.setitem(GAMES, game, dataclasses.replace(kind, review=counted))
    return built


def finished(client: Any, rng: random.Random, mode: str = "free", **fields: Any) -> dict[str, Any]:
    return play_to_end(client, start_game(client, mode, **fields), rng)


def test_every_review_of_more_games_than_a_cache_holds_is_built_once(
    make_client: Any, builds: list[tuple[str, bool]]
) -> None:
    client = make_client()
    rng = random.Random(19)
    games = [finished(client, rng, game="coucou", options=SHORT_COUCOU)["id"] for _ in range(66)]
    first = {game_id: client.get(f"/api/games/{game_id}/review") for game_id in games}
    assert {response.status_code for response in first.values()} == {200}
    assert len(builds) == 66
    for _ in range(2):  # Asked again in the same order: a cache of 64 would have let every one go.
        for game_id in games:
            again = client.get(f"/api/games/{game_id}/review")
            assert again.status_code == 200 and again.json() == first[game_id].json()
    assert len(builds) == 66
    # Another process over the same database (a second worker, a restarted server) builds none of them again.
    other_process = make_client(max_body_bytes=4097)
    other_process.cookies = client.cookies
    assert all(other_process.get(f"/api/games/{game_id}/review").status_code == 200 for game_id in games)
    assert len(builds) == 66
    stored = client.app.state.store.review(games[0], "1", True, REVIEW_CODE)
    assert stored is not None and client.app.state.store.review(games[0], "1", True, __version__) is None
    assert client.app.state.store.review(games[0], "2", True, REVIEW_CODE) is None  # Seat 1's only.


def test_a_review_asked_for_at_once_is_built_once(make_client: Any, builds: list[tuple[str, bool]]) -> None:
    client = make_client()
    game_id = finished(client, random.Random(3))["id"]
    answers = at_once([lambda: client.get(f"/api/games/{game_id}/review") for _ in range(4)])
    assert [answer.status_code for answer in answers] == [200] * 4
    assert all(answer.json() == answers[0].json() for answer in answers)
    assert len(builds) == 1


def test_a_dailys_hidden_review_is_kept_apart_and_the_whole_one_built_once_the_day_is_over(
    make_client: Any, clock: Any, builds: list[tuple[str, bool]]
) -> None:
    client = make_client()
    answer = finished(client, random.Random(5), "daily")
    hidden = client.get(f"/api/games/{answer['id']}/review").json()
    assert hidden["revealed"] is False and client.get(f"/api/games/{answer['id']}/review").json() == hidden
    assert [revealed for _, revealed in builds] == [False]
    # Nothing of the whole review is stored while the day lasts.
    assert client.app.state.store.review(answer["id"], "S", True, REVIEW_CODE) is None
    clock.advance(dt.timedelta(hours=15))  # Past midnight in Brussels: the day is over.
    whole = client.get(f"/api/games/{answer['id']}/review").json()
    assert whole["revealed"] is True and whole != hidden
    assert all(list(deal["hands"]) == ["S", "W", "N", "E"] for deal in whole["deals"])
    assert client.get(f"/api/games/{answer['id']}/review").json() == whole
    assert [revealed for _, revealed in builds] == [False, True]


def test_a_review_the_store_cannot_keep_is_still_answered(
    make_client: Any, builds: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy.exc import OperationalError

    client = make_client()
    game_id = finished(client, random.Random(7))["id"]

    def refused(*_: Any) -> None:
        raise OperationalError("INSERT INTO reviews", {}, Exception("database or disk is full"))

    monkeypatch.setattr(client.app.state.store, "keep_review", refused)
    answers = [client.get(f"/api/games/{game_id}/review") for _ in range(2)]
    assert [answer.status_code for answer in answers] == [200, 200], answers[0].text
    assert answers[0].json() == answers[1].json() and len(builds) == 2


def test_a_review_built_by_other_review_code_is_built_again(
    make_client: Any, builds: list[tuple[str, bool]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keyed by ``couyon.__version__``, a review stored before a change to a bot or a review was served as it was
    unless the version was bumped; keyed by the code's fingerprint, the same version with other code builds it again."""
    import couyon.server.games

    client = make_client()
    game_id = finished(client, random.Random(11))["id"]
    before = client.get(f"/api/games/{game_id}/review").json()
    assert len(builds) == 1
    other_code = f"{__version__}+{'0' * 20}"
    assert other_code != REVIEW_CODE
    monkeypatch.setattr(couyon.server.games, "REVIEW_CODE", other_code)
    assert client.get(f"/api/games/{game_id}/review").json() == before
    assert len(builds) == 2
    store = client.app.state.store
    # The one row of the game's whole review was replaced, not added to; read again, it is not built a third time.
    assert store.review(game_id, "S", True, other_code) is not None
    assert store.review(game_id, "S", True, REVIEW_CODE) is None
    assert client.get(f"/api/games/{game_id}/review").json() == before and len(builds) == 2


def package_copy(into: Path) -> Path:
    """A copy of what ``code_fingerprint`` reads of the installed package, and of a server module it does not."""
    package = Path(couyon.__file__).resolve().parent
    copy = into / "couyon"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in ("games", "common"):
        shutil.copytree(package / folder, copy / folder, ignore=skip)
    (copy / "server").mkdir()
    shutil.copy(package / "registry.py", copy / "registry.py")
    shutil.copy(package / "server" / "games.py", copy / "server" / "games.py")
    return copy


def test_the_review_code_s_fingerprint_follows_what_a_review_depends_on(tmp_path: Path) -> None:
    copy = package_copy(tmp_path)
    assert code_fingerprint(copy) == REVIEW_CODE, "the same files, wherever they are, give the same fingerprint"
    assert REVIEW_CODE.startswith(f"{__version__}+") and len(REVIEW_CODE) <= reviews.c.version.type.length
    seen = {REVIEW_CODE}
    # A bot's code, a bot's table, a review, the shared code and the registry each change it.
    for changed in (
        "games/couyon/bots/expert.py",
        "games/couyon/bots/bidding.json",
        "games/malmedy/review.py",
        "common/kind.py",
        "registry.py",
    ):
        path = copy / changed
        path.write_bytes(path.read_bytes() + b"\n")
        fingerprint = code_fingerprint(copy)
        assert fingerprint not in seen, changed
        seen.add(fingerprint)
    # A new file of a game's counts too; compiled files and the server's code do not.
    (copy / "games" / "tarot" / "tables.json").write_text("{}")
    fingerprint = code_fingerprint(copy)
    assert fingerprint not in seen
    (copy / "games" / "tarot" / "__pycache__").mkdir()
    (copy / "games" / "tarot" / "__pycache__" / "game.cpython-313.pyc").write_bytes(b"compiled")
    server = copy / "server" / "games.py"
    server.write_bytes(server.read_bytes() + b"\n")
    assert code_fingerprint(copy) == fingerprint
