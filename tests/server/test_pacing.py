"""The answer floor: an answer holding n bot decisions leaves n × floor after its request, whatever the bots held."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.server.helpers import new_game, send_move

from couyon.registry import GAMES, game_named
from couyon.server.app import create_app
from couyon.server.config import ConfigError, Settings
from couyon.server.pacing import AnswerFloor


class FakeTime:
    """A monotonic clock that only the test moves, and a sleep that records its waits and moves the clock."""

    def __init__(self, now: float) -> None:
        self.now = now
        self.waits: list[float] = []

    def monotonic(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def test_an_answer_waits_until_its_bot_decisions_floor_after_its_arrival() -> None:
    fake = FakeTime(100.0)
    floor = AnswerFloor(80, monotonic=fake.monotonic, sleep=fake.sleep)
    fake.now = 100.05  # The bots and the database took 50 ms.
    asyncio.run(floor.hold(100.0, 3, 250, "move"))
    assert fake.waits == [pytest.approx(0.19)]
    assert fake.now == pytest.approx(100.24)


def test_no_bot_decision_or_no_floor_holds_nothing() -> None:
    fake = FakeTime(5.0)
    asyncio.run(AnswerFloor(80, monotonic=fake.monotonic, sleep=fake.sleep).hold(5.0, 0, 250, "move"))
    asyncio.run(AnswerFloor(0, monotonic=fake.monotonic, sleep=fake.sleep).hold(5.0, 4, 250, "move"))
    asyncio.run(AnswerFloor(None, monotonic=fake.monotonic, sleep=fake.sleep).hold(5.0, 4, 0, "move"))
    assert fake.waits == []


def test_an_answer_whose_work_outlasted_its_floor_leaves_at_once_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    fake = FakeTime(10.0)
    floor = AnswerFloor(80, monotonic=fake.monotonic, sleep=fake.sleep)
    fake.now = 10.3
    with caplog.at_level(logging.WARNING, logger="couyon.server"):
        asyncio.run(floor.hold(10.0, 2, 250, "move"))
    assert fake.waits == []
    [record] = [record for record in caplog.records if record.getMessage() == "answer floor overrun"]
    assert (record.__dict__["bot_moves"], record.__dict__["over_ms"]) == (2, pytest.approx(140.0))


def test_without_the_setting_each_game_holds_its_answers_by_its_own_floor() -> None:
    fake = FakeTime(100.0)
    floor = AnswerFloor(None, monotonic=fake.monotonic, sleep=fake.sleep)
    asyncio.run(floor.hold(100.0, 3, game_named("tarot4").decision_floor_ms, "move"))
    asyncio.run(floor.hold(fake.now, 19, game_named("coucou").decision_floor_ms, "move"))
    assert fake.waits == [pytest.approx(0.75), pytest.approx(0.038)]
    assert all(game.decision_floor_ms > 0 for game in GAMES.values())


def test_the_setting_replaces_every_game_s_floor() -> None:
    fake = FakeTime(100.0)
    asyncio.run(AnswerFloor(80, monotonic=fake.monotonic, sleep=fake.sleep).hold(100.0, 3, 250, "move"))
    assert fake.waits == [pytest.approx(0.24)]


def test_the_floor_is_on_by_default_and_an_operator_setting() -> None:
    assert Settings.from_environment({}).answer_floor_ms is None
    assert Settings(data_dir=Path("data"), database_url="sqlite://").answer_floor_ms is None
    assert Settings.from_environment({"COUYON_ANSWER_FLOOR_MS": "0"}).answer_floor_ms == 0
    assert Settings.from_environment({"COUYON_ANSWER_FLOOR_MS": "150"}).answer_floor_ms == 150
    with pytest.raises(ConfigError, match="COUYON_ANSWER_FLOOR_MS must be at least 0"):
        Settings.from_environment({"COUYON_ANSWER_FLOOR_MS": "-5"})


def _bot_moves_stored(app: Any, game_id: str, before: int, human: str) -> int:
    """How many of the game's stored moves after the first ``before`` are bot moves: public facts (the record)."""
    loaded = app.state.store.game(game_id)
    assert loaded is not None
    return sum(1 for text in loaded[1][before:] if not text.startswith(f"{human}:"))


def test_with_the_default_floor_no_answer_leaves_before_its_bot_decisions_floor(
    sqlite_url: str, tmp_path: Path, clock: Any
) -> None:
    # The app's settings as an operator gets them: the floor at its default.
    settings = Settings(
        data_dir=tmp_path / "data",
        database_url=sqlite_url,
        secret="test-secret",
        rate_games_per_minute=0,
        rate_moves_per_minute=0,
    )
    app = create_app(settings, clock=clock)
    assert settings.answer_floor_ms is None
    floor = game_named("tarot4").decision_floor_ms / 1000
    human = str(game_named("tarot4").human)
    rng = random.Random(7)
    held: list[int] = []
    with TestClient(app, base_url="http://127.0.0.1") as client:
        for _ in range(3):
            start = time.monotonic()
            answer = new_game(client, game="tarot4")
            elapsed = time.monotonic() - start
            bots = _bot_moves_stored(app, answer["id"], 0, human)
            assert elapsed >= bots * floor
            held.append(bots)
            for _ in range(4):
                before = answer["view"]["move_number"]
                start = time.monotonic()
                response = send_move(client, answer, rng.choice(answer["view"]["legal"]))
                elapsed = time.monotonic() - start
                assert response.status_code == 200, response.text
                answer = response.json()
                bots = _bot_moves_stored(app, answer["id"], before, human)
                assert elapsed >= bots * floor, (bots, elapsed)
                held.append(bots)
    app.state.replay.close()
    app.state.store.close()
    assert max(held) >= 2 and sum(held) >= 10


@pytest.mark.parametrize("game", ["couyon", "malmedy", "tarot5"])
def test_the_floor_counts_the_bot_moves_the_game_record_shows(make_client: Any, game: str) -> None:
    """The count the floor multiplies is the number of bot moves stored, which the player sees, not their content."""
    counted: list[tuple[int, int]] = []
    original = AnswerFloor.hold

    async def recording(self: AnswerFloor, arrival: float, bot_moves: int, game_floor_ms: int, what: str) -> None:
        assert game_floor_ms == game_named(game).decision_floor_ms
        counted.append((bot_moves, -1))
        await original(self, arrival, bot_moves, game_floor_ms, what)

    client = make_client()
    app = client.app
    human = str(game_named(game).human)
    rng = random.Random(3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(AnswerFloor, "hold", recording)
        answer = new_game(client, game=game)
        counted[-1] = (counted[-1][0], _bot_moves_stored(app, answer["id"], 0, human))
        for _ in range(25):
            if not answer["view"]["legal"]:
                break
            before = answer["view"]["move_number"]
            response = send_move(client, answer, rng.choice(answer["view"]["legal"]))
            assert response.status_code == 200, response.text
            answer = response.json()
            counted[-1] = (counted[-1][0], _bot_moves_stored(app, answer["id"], before, human))
    assert len(counted) >= 10
    assert all(held == stored for held, stored in counted), counted
    assert any(held > 0 for held, _ in counted)


def test_a_resumed_daily_attempt_is_held_for_the_bot_moves_it_computed_again(make_client: Any) -> None:
    client = make_client()
    service = client.app.state.service
    first, created = service.create("p_resumer", "daily", True, "tarot4")
    again, created_again = service.create("p_resumer", "daily", True, "tarot4")
    assert (created, created_again) == (True, False)
    assert again.game.id == first.game.id
    assert again.bot_moves == first.bot_moves == _bot_moves_stored(client.app, first.game.id, 0, "S") > 0
