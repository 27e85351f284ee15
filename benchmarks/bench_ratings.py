"""Benchmark of the ratings (issue 35): the cost of one update and of a rebuild of 100,000 games.

Not a test: it prints numbers (docs/ratings.md keeps the measured ones, with the command that made them).

1. ``model``: ``--games`` (default 100,000) Plackett-Luce updates (``model.update``) of five-seat games among
   ``--people`` people (two people and three bots a game, random finishing places from a seeded generator), in
   memory: the arithmetic of a rebuild, per game and in all.
2. ``store``: ``--stored`` real coucou table games (five players, one token, two people and three bots) played
   through the tables' service on a fresh SQLite file, each rated live as it ends: the live update's cost per game
   (its store transaction included).
3. ``rebuild``: those games copied row for row (seed, moves, seats, bot moves, ``rating_games``) under new ids, each
   at two people drawn from 1000, until ``--rebuild`` games are stored (default 10,000), then ``couyon ratings
   rebuild`` run on the file as a command: its wall time, its CPU time, per game, its memory. Copying costs seconds;
   playing 100,000 games would take hours, and the rebuild folds a copy exactly as it folds the game it copies.
4. ``challenge``: the challenge performance's read (``RatingService.challenge``) of a person with ``--days`` daily
   challenges of couyon (default 30) in fields of ``--field`` verified games (default 20): one day played for real
   (random bots), its games and their kept deal lines copied to the days before (``--no-kept-lines``: without them, as
   games entered before migration 0017, folded at the first read); the first read, the next, another process's first.

    .venv/bin/python benchmarks/bench_ratings.py                       # 100,000 updates, 200 games, 10,000 rebuilt
    .venv/bin/python benchmarks/bench_ratings.py --rebuild 100000      # the rebuild of 100,000 games
    .venv/bin/python benchmarks/bench_ratings.py --days 40 --field 200 # a long daily history in a large field
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from sqlalchemy import insert, select

from couyon.registry import REVIEW_CODE
from couyon.server.games import GameService, kind_of
from couyon.server.ratings.model import NEW, REFERENCE, Place, Rating, people_key, update
from couyon.server.ratings.service import RatingService
from couyon.server.results import DayResults
from couyon.server.tables.service import TableService
from couyon.store import Store, sqlite_url
from couyon.store.ratings import RatingStore, rating_games
from couyon.store.schema import deal_lines, game_seats, leaderboard_entries, moves, seat_bot_moves
from couyon.store.schema import games as games_table
from couyon.store.tables import TableStore

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


def stored(count: int, rebuilt: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        url = sqlite_url(Path(folder))
        store = Store(url)
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
        print(
            f"store: live update p50 {1000 * statistics.median(spent):.2f} ms,"
            f" mean {1000 * statistics.fmean(spent):.2f} ms over {len(spent)} games"
        )
        copied(store, rebuilt, rng)
        store.close()
        command = [str(Path(sys.executable).with_name("couyon")), "ratings", "rebuild", "--database-url", url]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        answer = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    print(
        f"rebuild: couyon ratings rebuild of {answer['games']} games: {seconds:.1f} s wall ({answer['seconds']:.1f} s"
        f" inside), {cpu:.1f} s CPU, {1000 * seconds / answer['games']:.3f} ms a game,"
        f" at most {after.ru_maxrss / 1024:.0f} MB resident"
    )


def copied(store: Store, wanted: int, rng: random.Random) -> None:
    """Grow the rated games to ``wanted`` by copying the played ones row for row (their seed, moves and bot moves)
    under new ids, each at two people drawn from 1000 (and the same seats the bots held), rated a minute apart after
    the played ones: stored games a rebuild folds as it folds real ones, without playing them."""
    rated = RatingStore(store).rated_games()
    ids = [row.game_id for row in rated]
    kept, seats, bots = store.games_of(ids), TableStore(store).holders_of(ids), TableStore(store).bot_numbers_of(ids)
    templates = [(kept[row.game_id], seats[row.game_id], bots.get(row.game_id, set()), row) for row in rated]
    people = [f"person-{number}" for number in range(1000)]
    last = rated[-1]
    rows: dict[str, list[dict[str, object]]] = {"games": [], "moves": [], "seats": [], "bots": [], "rated": []}
    for number in range(last.number + 1, wanted + 1):
        (game, game_moves), holders_of, bot_numbers, template = templates[number % len(templates)]
        game_id = f"copy-{number}"
        pair = iter(rng.sample(people, 2))
        holders = {seat: None if player is None else next(pair) for seat, player in holders_of.items()}
        at = last.rated_at + dt.timedelta(minutes=number - last.number)
        found = [Place(seat, player, 1.0, 0, False, False) for seat, player in holders.items()]
        rows["games"].append(
            {**asdict(game), "id": game_id, "player_id": holders.get("1") or game.player_id, "created_at": at}
        )
        rows["moves"].extend(
            {"game_id": game_id, "number": index, "move": move} for index, move in enumerate(game_moves)
        )
        rows["seats"].extend(
            {"game_id": game_id, "seat": seat, "player_id": player} for seat, player in holders.items()
        )
        rows["bots"].extend({"game_id": game_id, "number": bot} for bot in bot_numbers)
        rows["rated"].append(
            {"number": number, "game_id": game_id, "game": template.game, "people": people_key(found), "rated_at": at}
        )
    with store.engine.begin() as connection:
        for table, key in (
            (games_table, "games"),
            (moves, "moves"),
            (game_seats, "seats"),
            (seat_bot_moves, "bots"),
            (rating_games, "rated"),
        ):
            if rows[key]:
                connection.execute(insert(table), rows[key])


def challenge(days: int, field: int, keep_lines: bool = True) -> None:
    """The challenge performance's read (``RatingService.challenge``) of a person who played ``days`` daily challenges
    of couyon, each in a field of ``field`` verified games: one real day played (random bots), copied to the days
    before it with the deal lines each entry kept (``deal_lines``; not with ``keep_lines`` false: games entered
    before migration 0017, folded at their first read); timed cold, warm (the days' matchpoints in memory) and by
    another process (a new ``DayResults``: nothing in memory)."""
    day = dt.date(2026, 11, 29)
    now = dt.datetime(2026, 11, 29, 9, tzinfo=dt.UTC)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(sqlite_url(Path(folder)))
        store.migrate()
        games = GameService(store, b"bench", lambda: now, {"couyon": "random/1"})
        people = [f"person-{number}" for number in range(field)]
        rng = random.Random(35)
        for person in people:
            answer, _new = games.create(person, "daily", True)
            kind = kind_of(answer.game)
            while not kind.engine.is_over(answer.state):
                move = str(rng.choice(kind.engine.legal_moves(answer.state))).split(":", 1)[1]
                loaded = store.game(answer.game.id)
                assert loaded is not None
                answer = games.move(person, answer.game.id, move, len(loaded[1]))
            games.verify_finished(answer.game.id)
        with store.engine.connect() as connection:
            entries = [row._asdict() for row in connection.execute(select(leaderboard_entries))]
        played = store.games_of([entry["game_id"] for entry in entries])
        kept = store.deal_lines([entry["game_id"] for entry in entries], REVIEW_CODE) if keep_lines else {}
        rows: dict[str, list[dict[str, object]]] = {"games": [], "moves": [], "entries": [], "lines": []}
        for back in range(1, days):
            for entry in entries:
                game, game_moves = played[entry["game_id"]]
                game_id = f"{game.id[:30]}-{back}"
                rows["games"].append({**asdict(game), "id": game_id, "day": day - dt.timedelta(days=back)})
                rows["moves"].extend(
                    {"game_id": game_id, "number": index, "move": move} for index, move in enumerate(game_moves)
                )
                rows["entries"].append({**entry, "game_id": game_id, "day": day - dt.timedelta(days=back)})
                if entry["game_id"] in kept:  # As the game's entry on its board kept them.
                    rows["lines"].append({"game_id": game_id, "version": REVIEW_CODE, "lines": kept[entry["game_id"]]})
        with store.engine.begin() as connection:
            tables = ((games_table, "games"), (moves, "moves"), (leaderboard_entries, "entries"), (deal_lines, "lines"))
            for table, key in tables:
                if rows[key]:
                    connection.execute(insert(table), rows[key])
        now = now + dt.timedelta(days=1)  # Every day is over.
        ratings = RatingService(games, None, DayResults(games))
        for reading in ("cold", "warm", "another process's first"):
            if reading == "another process's first":  # Nothing in memory: the days' lines kept in the store.
                ratings = RatingService(games, None, DayResults(games))
            started = time.perf_counter()
            answer_json = ratings.challenge(people[0])
            seconds = time.perf_counter() - started
            [counted] = answer_json.values()  # Couyon's family.
            print(
                f"challenge: {reading} read over {days} days of {field} games: {1000 * seconds:.0f} ms"
                f" ({counted['deals']} deals counted)"
            )
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="in-memory updates (default 100,000)")
    parser.add_argument("--people", type=int, default=1000, help="people among whom they are played (default 1000)")
    parser.add_argument("--stored", type=int, default=200, help="real table games on SQLite (default 200)")
    parser.add_argument(
        "--rebuild", type=int, default=10_000, help="stored games the rebuild is timed on (default 10,000; 100000)"
    )
    parser.add_argument("--days", type=int, default=30, help="daily challenges of the person read (default 30)")
    parser.add_argument("--field", type=int, default=20, help="verified games a day (default 20)")
    parser.add_argument("--no-kept-lines", action="store_true", help="challenge: copy the games without their lines")
    args = parser.parse_args()
    model(args.games, args.people)
    stored(args.stored, args.rebuild)
    challenge(args.days, args.field, not args.no_kept_lines)


if __name__ == "__main__":
    main()
