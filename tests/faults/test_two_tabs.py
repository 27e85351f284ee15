"""Two tabs of one player act on the same view at the same moment with different moves: one wins, the other
is told the game moved on, and both then show the same game.

The same move sent twice at once, and to two server processes on one PostgreSQL database, is covered by
tests/server/test_concurrency.py.
"""

from __future__ import annotations

import random
from typing import Any

from tests.server.helpers import at_once, new_game, send_move

from couyon.games.malmedy.record import verify


def test_two_tabs_sending_different_moves_fork_nothing(make_client: Any) -> None:
    first_tab, second_tab = make_client(), make_client()
    answer = new_game(first_tab)
    second_tab.cookies.set("couyon_player", first_tab.cookies["couyon_player"])
    rng = random.Random(11)
    contested = 0
    while answer["view"]["winner"] is None:
        legal = answer["view"]["legal"]
        first_move, second_move = rng.sample(legal, 2) if len(legal) > 1 else legal * 2
        sends = ((first_tab, first_move), (second_tab, second_move))
        responses = at_once([lambda tab=tab, move=move, seen=answer: send_move(tab, seen, move) for tab, move in sends])
        statuses = sorted(response.status_code for response in responses)
        assert statuses == [200, 409], [response.text for response in responses]
        loser = next(response for response in responses if response.status_code == 409)
        assert loser.json()["error"]["code"] in ("stale", "game_over")
        answer = next(response for response in responses if response.status_code == 200).json()
        contested += first_move != second_move
        assert first_tab.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
        assert second_tab.get(f"/api/games/{answer['id']}").json()["view"] == answer["view"]
    assert contested > 0
    report = verify(first_tab.get(f"/api/games/{answer['id']}/record").content)
    assert report["valid"] and report["score"] == answer["view"]["score"]
