"""Today's daily board is hidden as today's results are (issue 19, item 5).

``GET /api/daily/results`` hides today's scores, deals and places until the player's ranked attempt
is finished; ``GET /api/leaderboard?board=daily`` showed them all the same (the top scores, the deals,
coucou's places). The board now follows the results' rule: 403 ``results_hidden`` for today (or a day
to come) until the asking player's ranked attempt of that game is finished, open to all once the day
is over.
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from tests.server.helpers import new_game, play_to_end

from couyon.registry import GAMES

TODAY = "2026-11-29"
HIDDEN = {
    "error": {
        "code": "results_hidden",
        "message": "A day's board is shown once your ranked attempt of it is finished, or once the day is over.",
    }
}


@pytest.fixture
def database_url(sqlite_url: str) -> str:
    """Who may see a board is decided before the board is read: one backend is enough."""
    return sqlite_url


def finish_daily(client: Any, seed: int) -> dict[str, Any]:
    """Play the day's ranked couyon attempt to its end; its verified entry is on today's board."""
    finished = play_to_end(client, new_game(client, "daily"), random.Random(seed))
    shown = client.get(f"/api/games/{finished['id']}").json()  # runs the replay check that enters the board
    assert shown["leaderboard"] is not None, shown
    return shown


def test_todays_board_waits_for_the_players_finished_attempt(make_client: Any, clock: Any) -> None:
    marie, paul, nobody = make_client(), make_client(), make_client()
    mine = finish_daily(marie, 3)
    board = marie.get("/api/leaderboard?board=daily").json()
    assert [(entry["score"], entry["you"]) for entry in board["entries"]] == [(mine["view"]["score"], True)]

    # A browser without a player, and a player who has not played today: today's board is hidden.
    for asking in ("/api/leaderboard?board=daily", f"/api/leaderboard?board=daily&day={TODAY}"):
        for client in (nobody, paul):
            refused = client.get(asking)
            assert (refused.status_code, refused.json()) == (403, HIDDEN), asking
    # So is a day to come, and another game's board of today that the player has not finished.
    assert marie.get("/api/leaderboard?board=daily&day=2026-11-30").status_code == 403
    assert marie.get("/api/leaderboard?board=daily&game=malmedy").json() == HIDDEN
    # Paul's attempt under way changes nothing; finished, he sees the board, Marie's line and his own.
    attempt = new_game(paul, "daily")
    assert paul.get("/api/leaderboard?board=daily").json() == HIDDEN
    assert paul.get("/api/daily/results").status_code == 403  # the results' rule, the same
    play_to_end(paul, attempt, random.Random(4))
    paul.get(f"/api/games/{attempt['id']}")
    lines = paul.get("/api/leaderboard?board=daily").json()["entries"]
    assert len(lines) == 2 and sorted(entry["you"] for entry in lines) == [False, True]
    # The free board is everybody's, and yesterday's board too once the day is over.
    assert nobody.get("/api/leaderboard?board=free").status_code == 200
    clock.advance(dt.timedelta(days=1))
    past = nobody.get(f"/api/leaderboard?board=daily&day={TODAY}")
    assert past.status_code == 200 and len(past.json()["entries"]) == 2
    assert nobody.get("/api/leaderboard?board=daily").json() == HIDDEN  # the new today


@pytest.mark.parametrize("game", list(GAMES))
def test_todays_board_of_every_game_is_hidden_from_a_player_who_has_not_played(make_client: Any, game: str) -> None:
    client = make_client()
    new_game(client)  # a player, with a free game only
    refused = client.get(f"/api/leaderboard?board=daily&game={game}")
    assert (refused.status_code, refused.json()) == (403, HIDDEN)
    assert client.get(f"/api/leaderboard?board=daily&game={game}&day=2026-11-28").status_code == 200
