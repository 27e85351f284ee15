"""How many full random games per second the engine replays on one core (issue 2 aims at ≥ 1,000).

Usage: ``.venv/bin/python benchmarks/bench_replay.py [--games N] [--runs R] [--profile]``.
It plays N seeded random games once (choices from the contract's stream), then replays their
move texts with ``couyon.games.couyon.game.replay`` R times and prints the median rate; it also times the
whole verifier (JSON in, report out) once per run. Not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import time

from couyon.common.stream import Stream
from couyon.games.couyon.game import PASS, TAKE, Move, legal_moves, new_game, play, replay
from couyon.games.malmedy.record import verify


def random_game(seed: str) -> list[str]:
    """A whole game of uniformly random legal play (a bidder takes one time in four)."""
    chooser = Stream(seed, "benchmark")
    state = new_game(seed)
    moves: list[str] = []
    while state.to_move is not None:
        if state.deal.trump is None:
            move = Move(state.to_move, TAKE if chooser.uniform(4) == 0 else PASS)
        else:
            options = legal_moves(state)
            move = options[chooser.uniform(len(options))]
        moves.append(str(move))
        state = play(state, move)
    return moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one replay run")
    args = parser.parse_args()

    games = [(f"bench-{number}", random_game(f"bench-{number}")) for number in range(args.games)]
    records = [
        json.dumps({"format": "couyon-record/1", "variant": "standard", "seed": seed, "moves": moves}).encode()
        for seed, moves in games
    ]
    total_moves = sum(len(moves) for _, moves in games)
    print(f"{args.games} games, {total_moves} moves ({total_moves / args.games:.0f} per game)")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed, moves in games:
            replay(seed, moves)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)

    # Both clocks: wall time is what a user waits; CPU time is what one core spends, and it
    # stays meaningful when other work shares the machine.
    timings: dict[str, list[tuple[float, float]]] = {"replay (game.replay)": [], "verify (JSON in, report out)": []}
    for _ in range(args.runs):
        for label, work in (
            ("replay (game.replay)", lambda: [replay(seed, moves) for seed, moves in games]),
            ("verify (JSON in, report out)", lambda: [verify(record) for record in records]),
        ):
            wall, cpu = time.perf_counter(), time.process_time()
            work()
            timings[label].append((time.perf_counter() - wall, time.process_time() - cpu))
    for label, runs in timings.items():
        for clock, index in (("wall", 0), ("cpu", 1)):
            median = statistics.median(run[index] for run in runs)
            print(
                f"{label}, {clock} time, median of {args.runs} runs: {median:.3f} s → "
                f"{args.games / median:,.0f} games/s, {total_moves / median:,.0f} moves/s"
            )


if __name__ == "__main__":
    main()
