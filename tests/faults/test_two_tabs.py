"""Two tabs of one player act on the same view at the same moment with different moves: one wins, the other
is told the game moved on, and both then show the same game.

The same move sent twice at once, and to two server processes on one PostgreSQL database, is covered by
tests/server/test_concurrency.py.
"""

from __future__ import annotations

import random
import threading
from typing import Any

from tests.server.helpers import Answer, new_game, send_move

from couyon.record import verify


def at_once(answer: Answer, *sends: tuple[Any, str]) -> list[Any]:
    """Each (tab, move) sent on ``answer``'s view, from threads released together."""
    barrier = threading.Barrier(len(sends))
    results: list[Any] = [None] * len(sends)

    def run(index: int) -> None:
        tab, move = sends[index]
        barrier.wait()
        results[index] = send_move(tab, answer, move)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_tabs_sending_different_moves_fork_nothing(make_client: Any) -> None:
    first_tab, second_tab = make_client(), make_client()
    answer = new_game(first_tab)
    second_tab.cookies.set("couyon_player", first_tab.cookies["couyon_player"])
    rng = random.Random(11)
    contested = 0
    while answer["view"]["winner"] is None:
        legal = answer["view"]["legal"]
        first_move, second_move = rng.sample(legal, 2) if len(legal) > 1 else legal * 2
        responses = at_once(answer, (first_tab, first_move), (second_tab, second_move))
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
