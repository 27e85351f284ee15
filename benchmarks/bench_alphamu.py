"""CPU per decision of expert/4 (αμ) and expert/3 (PIMC) seated against each other, in one process (not run by pytest).

Usage: ``python benchmarks/bench_alphamu.py [GAMES]``. Plays GAMES games (default 20), expert/4
holding NS in the even ones and WE in the odd ones, and prints per bot, for every decision
and for the searched cards alone, the count, median, p99 and maximum of this process's CPU
time in ms (``bench_bots.py``'s percentile and kinds of decision).
"""

from __future__ import annotations

import sys
import time
from collections import defaultdict

from bench_bots import kind_of, percentile

from couyon.games.couyon.bots import bot_rng
from couyon.games.couyon.bots.registry import bot_by_id
from couyon.games.couyon.game import new_game, play
from couyon.games.couyon.view import view

BOTS = ("expert/4", "expert/3")


def main(argv: list[str]) -> int:
    games = int(argv[0]) if argv else 20
    timings: dict[tuple[str, str], list[float]] = defaultdict(list)
    for number in range(games):
        names = BOTS if number % 2 == 0 else BOTS[::-1]
        state = new_game(f"bench-alphamu:{number}")
        while state.winner is None:
            seat = state.to_move
            assert seat is not None
            seat_view = view(state, seat)
            name = names[seat % 2]
            started = time.process_time()
            move = bot_by_id(name).choose(seat_view, bot_rng(state.seed, seat, state.move_count))
            elapsed = (time.process_time() - started) * 1000.0
            timings[name, "all"].append(elapsed)
            timings[name, kind_of(seat_view)].append(elapsed)
            state = play(state, move)
    for (name, kind), values in sorted(timings.items()):
        ordered = sorted(values)
        print(
            f"{name:>9} {kind:>9}: {len(ordered):6d} decisions  median {percentile(ordered, 0.5):7.3f} ms"
            f"  p99 {percentile(ordered, 0.99):7.3f} ms  max {ordered[-1]:7.3f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
