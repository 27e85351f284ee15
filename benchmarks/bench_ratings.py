"""Benchmark of the ratings (issue 35): the cost of one update and of a rebuild of 100,000 games.

Not a test: it prints numbers (docs/ratings.md keeps the measured ones, with the command that made them).

1. ``model``: ``--games`` (default 100,000) Plackett-Luce updates (``model.update``) of five-seat games among
   ``--people`` people (two people and three bots a game, random finishing places from a seeded generator), in
   memory: the arithmetic of a rebuild, per game and in all.
2. ``store``: ``--stored`` real coucou table games (five players, one token, two people and three bots) played
   through the tables' service on a fresh SQLite file, each rated live as it ends; then ``RatingService.rebuild``
   over them: the live update's cost per game (its store transaction included) and the rebuild's per game (each
   game's moves read and folded again, every rating written back), extrapolated to 100,000 games.

    .venv/bin/python benchmarks/bench_ratings.py --games 100000 --stored 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from couyon.server.games import GameService
from couyon.server.ratings.model import NEW, REFERENCE, Place, Rating, update
from couyon.server.ratings.service import RatingService
from couyon.server.tables.service import TableService
from couyon.store import Store, sqlite_url

OPTIONS = {"players": 5, "tokens": 1, "level": "easy"}


def model(games: int, people: int) -> None:
    rng = random.Random(35)
    ratings: dict[str, Rating] = {}
    started = time.perf_counter()
    for _ in range(games):
        pair = rng.sample(range(people), 2)
        scores = rng.sample(range(5), 5)
        found = [
            Place(str(seat), f"p{pair[seat]}" if seat < 2 else None, 1.0, scores[seat], scores[seat] == 4, False)
            for seat in range(5)
        ]
        before = {place.player_id: ratings.get(place.player_id, NEW) for place in found if place.player_id}
        ratings.update(update(REFERENCE, found, before, 1.0))
    seconds = time.perf_counter() - started
    print(f"model: {games} updates in {seconds:.2f} s, {1e6 * seconds / games:.1f} µs an update")


def played(tables: TableService, host: str, guest: str) -> None:
    table = tables.open(host, "coucou", OPTIONS, 0)
    code, secret = table["code"], table["secret"]
    tables.take_seat(guest, code, secret, "3")
    tables.start(host, code, secret)
    while True:
        plan = tables.plan_bots(code)
        if plan is not None:
            tables.commit(plan)
            continue
        loaded = tables.load(code)
        if loaded.kind.engine.is_over(loaded.state):
            return
        player = loaded.seats[str(loaded.kind.engine.to_move(loaded.state))].player_id
        action = str(loaded.kind.engine.legal_moves(loaded.state)[0]).split(":", 1)[1]
        tables.move(player, code, secret, action, len(loaded.moves))


def stored(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        store.migrate()
        games = GameService(store, b"bench")
        ratings = RatingService(games)
        spent: list[float] = []

        def rate(game_id: str) -> None:
            started = time.perf_counter()
            ratings.rate(game_id)
            spent.append(time.perf_counter() - started)

        tables = TableService(games, finished=rate)
        people = [f"person-{number}" for number in range(20)]
        for number, person in enumerate(people):
            games.set_name(person, f"Person {number}")
        rng = random.Random(35)
        for _ in range(count):
            host, guest = rng.sample(people, 2)
            played(tables, host, guest)
        started = time.perf_counter()
        rebuilt = ratings.rebuild()
        seconds = time.perf_counter() - started
        store.close()
    print(
        f"store: live update p50 {1000 * statistics.median(spent):.2f} ms, mean {1000 * statistics.fmean(spent):.2f} ms"
        f" over {len(spent)} games; rebuild of {rebuilt} games {seconds:.2f} s,"
        f" {1000 * seconds / rebuilt:.2f} ms a game, 100,000 games ~{100_000 * seconds / rebuilt / 60:.1f} min"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="in-memory updates (default 100,000)")
    parser.add_argument("--people", type=int, default=1000, help="people among whom they are played (default 1000)")
    parser.add_argument("--stored", type=int, default=200, help="real table games on SQLite (default 200)")
    args = parser.parse_args()
    model(args.games, args.people)
    stored(args.stored)


if __name__ == "__main__":
    main()
