"""Puzzle mining throughput: accepted puzzles per CPU minute per game, and the acceptance rates (not run by pytest).

Usage: ``python benchmarks/bench_puzzles.py [--games N] [--seed S] [--game G]``. Mines the seeded source games
``S:0`` … ``S:N-1`` (default 40, seed ``bench``) of each game with puzzles (or only ``G``) in this process, without
a store, and prints per game: source games, card decisions with a choice, candidates (the card played lost
clearly on the first look), accepted puzzles and how many of them are certain or counted exhaustively, the CPU
seconds, the accepted puzzles per CPU minute, and the acceptance rates (puzzles per decision, per candidate).
"""

from __future__ import annotations

import argparse
import json
import time

from couyon.common.puzzles import seeds
from couyon.registry import GAMES


def main() -> None:
    miners = {game.id: game.puzzles for game in GAMES.values() if game.puzzles is not None}
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--game", choices=list(miners))
    args = parser.parse_args()
    for name, miner in miners.items():
        if args.game and name != args.game:
            continue
        decisions = candidates = accepted = certain = exhaustive = 0
        started = time.process_time()
        for source in seeds(args.seed, 0, args.games):
            mined = miner.mine(source)
            decisions += mined.decisions
            candidates += mined.candidates
            accepted += len(mined.puzzles)
            certain += sum(puzzle.certain for puzzle in mined.puzzles)
            exhaustive += sum(puzzle.exhaustive for puzzle in mined.puzzles)
        seconds = time.process_time() - started
        report = {
            "game": name,
            "source_games": args.games,
            "decisions": decisions,
            "candidates": candidates,
            "puzzles": accepted,
            "certain": certain,
            "exhaustive": exhaustive,
            "cpu_seconds": round(seconds, 1),
            "puzzles_per_cpu_minute": round(60 * accepted / seconds, 1),
            "accepted_per_decision": round(accepted / decisions, 4) if decisions else None,
            "accepted_per_candidate": round(accepted / candidates, 4) if candidates else None,
        }
        print(json.dumps(report), flush=True)


if __name__ == "__main__":
    main()
