"""Measure the bots' fixed ratings (``src/couyon/server/ratings/anchors.json``) from bot-only games.

Each game's table bot is the reference (``model.REFERENCE``: μ 25, σ 25/9, by convention). Every other bot of its
levels (``GameKind.level_bots``) is rated as a person would be: it holds one seat, the reference bot every other
seat, over ``--games`` deals for each seat in turn; it starts at OpenSkill's prior (μ 25, σ 25/3, where a new person
starts) and each game updates it with the update a table game makes (``couyon.server.ratings.model.update``, whole
weights). What it ends at is its anchor.

    .venv/bin/python benchmarks/measure_anchors.py --games 6 --write
"""

from __future__ import annotations

import argparse
import json
import time

from couyon.registry import GAMES, GameKind
from couyon.server.ratings.model import ANCHORS_FILE, NEW, REFERENCE, Rating, places, update


def bots_of(kind: GameKind) -> list[str]:
    return sorted({*kind.level_bots.values(), kind.table_bot_id})


def play(kind: GameKind, seed: str, seat_bots: dict[str, str]) -> tuple[object, list[str]]:
    """A whole game of bots, each seat played by its bot id; its final state and moves."""
    options = {rule.name: rule.default for rule in kind.options}
    engine = kind.engine
    state = engine.new_game(seed, options)
    moves: list[str] = []
    while not engine.is_over(state):
        move = engine.bot_move(state, kind.bot(seat_bots[str(engine.to_move(state))]))
        state = engine.play(state, move)
        moves.append(str(move))
    return state, moves


def measure(kind: GameKind, games: int) -> dict[str, Rating]:
    """Each bot's rating, measured as a person's would be: one seat of it among the reference bot's seats."""
    assert kind.seats is not None
    options = {rule.name: rule.default for rule in kind.options}
    labels = [str(seat) for seat in kind.seats(options)]
    measured: dict[str, Rating] = {}
    for bot in bots_of(kind):
        if bot == kind.table_bot_id:
            continue
        rating = {"measured": NEW}
        for number in range(games):
            for label in labels:
                seat_bots = {other: kind.table_bot_id for other in labels} | {label: bot}
                final, moves = play(kind, f"anchors:{kind.id}:{bot}:{number}", seat_bots)
                found = places(kind, options, final, {label: "measured"}, moves, set())
                rating.update(update(REFERENCE, found, rating, 1.0))
        measured[bot] = rating["measured"]
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per bot and seat (default 10)")
    parser.add_argument("--write", action="store_true", help="write the anchors file")
    parser.add_argument("--game", action="append", help="only these games (default: every game with seats)")
    args = parser.parse_args()
    anchors: dict[str, dict[str, list[float]]] = {}
    for kind in GAMES.values():
        if kind.seats is None or kind.seat_result is None or (args.game and kind.id not in args.game):
            continue
        started = time.perf_counter()
        ratings = measure(kind, args.games)
        anchors[kind.id] = {bot: [round(r.mu, 3), round(r.sigma, 3)] for bot, r in ratings.items()}
        anchors[kind.id][kind.table_bot_id] = list(REFERENCE)
        print(kind.id, anchors[kind.id], f"{time.perf_counter() - started:.1f} s", flush=True)
    if args.write:
        document = {"games_per_bot_and_seat": args.games, "anchors": anchors}
        ANCHORS_FILE.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
