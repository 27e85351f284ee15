"""The free leaderboard by period, the player's own line, and anonymous players told apart (issue 12, defect 7).

``GET /api/leaderboard?period=day|week|all`` keeps the free games finished today or this week
(from Monday), Europe/Brussels time, or all of them. Every line says whether it is the asking
player's (``you``) and carries a ``tag``: five digits that stay the same for a player and differ
between players, so that anonymous players can be shown apart.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from tests.server.helpers import new_game, play_to_end


def board(client: Any, period: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/leaderboard?board=free&period={period}")
    assert response.status_code == 200, response.text
    answer = response.json()
    assert answer["period"] == period
    entries: list[dict[str, Any]] = answer["entries"]
    return entries


def finish_a_game(client: Any, seed: int) -> dict[str, Any]:
    finished = play_to_end(client, new_game(client), random.Random(seed))
    shown: dict[str, Any] = client.get(f"/api/games/{finished['id']}").json()
    assert shown["leaderboard"] is not None
    return shown


def own_tag(client: Any, period: str = "all") -> str:
    mine = [entry for entry in board(client, period) if entry["you"]]
    assert len(mine) == 1, mine
    tag: str = mine[0]["tag"]
    return tag


def test_periods_follow_the_brussels_day_and_week(make_client: Any, clock: Any) -> None:
    # Sunday 29 November 2026, 10:00 in Brussels: Marie's game.
    marie = make_client()
    marie.put("/api/player", json={"name": "Marie"})
    finish_a_game(marie, 1)
    # 00:30 on Monday in Brussels, still Sunday in UTC: an anonymous player's game.
    clock.advance(dt.timedelta(hours=14, minutes=30))
    monday = make_client()
    finish_a_game(monday, 2)
    # Today is Monday in Brussels: Sunday's game is neither today's nor this week's (weeks start on Monday).
    assert [entry["you"] for entry in board(monday, "day")] == [True]
    assert [entry["you"] for entry in board(monday, "week")] == [True]
    assert len(board(monday, "all")) == 2
    # Tuesday, 00:30 in Brussels: a third player.
    clock.advance(dt.timedelta(days=1))
    tuesday = make_client()
    finish_a_game(tuesday, 3)
    today = board(tuesday, "day")
    assert [entry["you"] for entry in today] == [True]
    week = board(tuesday, "week")
    assert len(week) == 2 and sum(entry["you"] for entry in week) == 1
    assert own_tag(monday, "week") in {entry["tag"] for entry in week}
    everyone = board(marie, "all")
    assert len(everyone) == 3
    assert [entry["name"] for entry in everyone if entry["you"]] == ["Marie"]
    # Ranks count within the period.
    assert [entry["rank"] for entry in week] == [1, 2]
    # Left out, the period is all time.
    assert marie.get("/api/leaderboard?board=free").json()["entries"] == everyone


def test_own_line_and_anonymous_tags(make_client: Any) -> None:
    first, second = make_client(), make_client()
    finish_a_game(first, 4)
    finish_a_game(second, 5)
    first_tag, second_tag = own_tag(first), own_tag(second)
    assert first_tag != second_tag
    for tag in (first_tag, second_tag):
        assert len(tag) == 5 and tag.isdigit()
    # The same player keeps the same tag from game to game, and another player sees it too.
    finish_a_game(first, 6)
    lines = board(second, "all")
    assert sorted(entry["tag"] for entry in lines) == sorted([first_tag, first_tag, second_tag])
    assert [entry["tag"] for entry in lines if entry["you"]] == [second_tag]
    assert all(entry["name"] is None for entry in lines)
    # A visitor without a cookie owns no line.
    visitor = make_client()
    assert not any(entry["you"] for entry in board(visitor, "all"))
    assert "set-cookie" not in visitor.get("/api/leaderboard").headers


def test_a_bad_period_is_one_sentence(make_client: Any) -> None:
    client = make_client()
    for query in ("board=free&period=month", "board=daily&period=day"):
        response = client.get(f"/api/leaderboard?{query}")
        assert response.status_code == 422, query
        error = response.json()["error"]
        assert error["code"] == "invalid_fields" and error["message"].count(".") == 1, error
