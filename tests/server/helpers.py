"""Playing through the API as a browser would: pick one of ``view.legal`` and send it."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from typing import Any

Answer = dict[str, Any]


def at_once(requests: list[Callable[[], Any]]) -> list[Any]:
    """Run the requests in threads released together; their answers in the same order."""
    barrier = threading.Barrier(len(requests))
    results: list[Any] = [None] * len(requests)

    def run(index: int) -> None:
        barrier.wait()
        results[index] = requests[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def new_game(client: Any, mode: str = "free", **fields: Any) -> Answer:
    response = client.post("/api/games", json={"mode": mode, **fields})
    assert response.status_code in (200, 201), response.text
    answer: Answer = response.json()
    return answer


def send_move(client: Any, answer: Answer, move: str) -> Any:
    body = {"move": move, "move_number": answer["view"]["move_number"]}
    return client.post(f"/api/games/{answer['id']}/moves", json=body)


def play_to_end(
    client: Any, answer: Answer, rng: random.Random, on_answer: Callable[[Any], None] | None = None
) -> Answer:
    """Play random legal moves for South until the game is over; ``on_answer`` sees every response."""
    while answer["view"]["phase"] != "over":
        response = send_move(client, answer, rng.choice(answer["view"]["legal"]))
        assert response.status_code == 200, response.text
        if on_answer is not None:
            on_answer(response)
        answer = response.json()
    return answer
