"""The cost of the day's results (GET /api/daily/results): the traveller folds every verified game of the day.

Run: ``.venv/bin/python benchmarks/bench_traveller.py [--players 1000]``. It fills a temporary
SQLite store with that many finished couyon games of one day (random legal moves for every seat,
entered on the day's board as the verifying replay would), then times ``DayResults.of_day`` the
day after: the first call folds every game; the next ones reuse the day's traveller. It prints
CPU and wall milliseconds of each.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import tempfile
import time
from pathlib import Path

from couyon.registry import GAMES
from couyon.server.games import GameService
from couyon.server.results import DayResults
from couyon.store import LeaderboardEntry, Store, StoredGame

DAY = dt.date(2026, 11, 29)


def fill(store: Store, service: GameService, players: int) -> None:
    kind = GAMES["couyon"]
    engine = kind.engine
    seed = service.daily_seed(DAY)
    rng = random.Random(1)
    for number in range(players):
        state = engine.new_game(seed, {})
        played = []
        while not engine.is_over(state):
            move = rng.choice(engine.legal_moves(state))
            played.append(str(move))
            state = engine.play(state, move)
        finished = dt.datetime(2026, 11, 29, 12) + dt.timedelta(seconds=number)
        game = StoredGame(f"g_{number}", f"p_{number}", "daily", DAY, True, seed, kind.variant, "random/1", finished)
        store.create_game(game, played)
        score, deals = kind.score(state) or (0, 0)
        store.enter(LeaderboardEntry(game.id, "daily", DAY, game.player_id, score, deals, finished))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=1000)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        store.migrate()
        service = GameService(store, b"bench", clock=lambda: dt.datetime(2026, 11, 30, 12, tzinfo=dt.UTC))
        fill(store, service, arguments.players)
        results = DayResults(service)
        for label in ("first call (folds every game)", "second call (the day's traveller kept)"):
            cpu, wall = time.process_time(), time.perf_counter()
            answer = results.of_day("p_0", "couyon", DAY)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            print(f"{label}: {cpu * 1000:.0f} ms CPU, {wall * 1000:.0f} ms wall, {len(answer['traveller'])} deals")
        store.close()
    print(f"{arguments.players} verified games of one day")


if __name__ == "__main__":
    main()
