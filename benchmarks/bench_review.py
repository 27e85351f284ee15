"""Cost of building the review of a whole finished game (``couyon.review``), not run by pytest.

Usage: ``python benchmarks/bench_review.py [GAMES]``. Plays GAMES games (default 40) of
couyon as the server hosts them (expert/3 in W, N and E) with South played by the expert
in even games and by random legal moves in odd ones, then builds each game's review with
every hand revealed and hidden, and prints the deals, South's decisions, the JSON's size
and the CPU time of one review (median, p99, maximum), in ms of this process's CPU.
"""

from __future__ import annotations

import json
import sys
import time

from couyon.bots import bot_move
from couyon.bots.expert import ExpertBot
from couyon.cards import Seat
from couyon.game import legal_moves, new_game, play
from couyon.review import review
from couyon.stream import Stream


def finished_game(seed: str, random_south: bool) -> list[str]:
    state = new_game(seed)
    expert = ExpertBot()
    rng = Stream(seed, "bench-south")
    moves = []
    while state.winner is None:
        if state.to_move == Seat.S and random_south:
            legal = legal_moves(state)
            move = legal[rng.uniform(len(legal))]
        else:
            move = bot_move(state, expert)
        moves.append(str(move))
        state = play(state, move)
    return moves


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))]


def main(games: int) -> None:
    for revealed in (True, False):
        times: list[float] = []
        deals: list[int] = []
        sizes: list[int] = []
        for number in range(games):
            seed = f"bench-review-{number}"
            moves = finished_game(seed, random_south=number % 2 == 1)
            started = time.process_time()
            built = review(seed, moves, revealed)
            times.append((time.process_time() - started) * 1000)
            deals.append(len(built["deals"]))
            sizes.append(len(json.dumps(built, separators=(",", ":"))))
        times.sort()
        print(
            f"revealed={revealed}: {games} games, {min(deals)}-{max(deals)} deals, "
            f"JSON {min(sizes)}-{max(sizes)} bytes; review CPU ms median {percentile(times, 0.5):.0f}, "
            f"p99 {percentile(times, 0.99):.0f}, max {times[-1]:.0f}"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
