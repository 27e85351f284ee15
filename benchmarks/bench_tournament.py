"""The standings and per-deal results of a big club tournament: time to compute and size of the answer (not run by pytest).

Usage: ``PYTHONPATH=src .venv/bin/python benchmarks/bench_tournament.py [--entrants 1000] [--games 5] [--deals 4]``.

A tournament of ``--games`` tarot4 games of ``--deals`` deals each (5 × 4 = 20 deals by default) and
``--entrants`` entrants. Two costs, measured apart:

1. **The lines of each game** (``GameKind.deal_results`` of its fold): computed once per game when its
   verification enters it (after its final move's answer) and kept in ``tournament_entries.lines``.
   Measured on real tarot4 games played with random legal moves from their seeds (``--sample`` of them).
2. **The standings** (``couyon.server.clubs.service.standings``: totals, matchpoints on every deal against every
   other entrant, the per-deal results) from those lines, and the size of all of it as one JSON document
   (what the results answer was before it left the per-deal rows out). The entrants' lines are drawn with
   the shape and the spread of real tarot lines: a taker among the four seats or nobody, a contract, made
   or failed, South's points.
3. **The requests' work** without HTTP, on the same tournament written to a SQLite store (entries, verified
   scores, kept lines), closed: ``ClubService.results`` (the standings and the list of deals) computed
   afresh, then again with the standings kept (no entry changed), and ``ClubService.deal`` (one deal's
   first page of lines); each answer's size, plain and gzipped (the server compresses answers).
"""

from __future__ import annotations

import argparse
import datetime as dt
import gzip
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import insert

from couyon.registry import game_named
from couyon.server.clubs.service import DEAL_PAGE, ClubService, Entrant, standings
from couyon.server.games import GameService
from couyon.store import Store
from couyon.store.clubs import Club, Tournament, tournament_entries
from couyon.store.schema import games, leaderboard_entries

CONTRACTS = ("petite", "garde", "garde_sans", "garde_contre")


def real_lines_cost(sample: int) -> tuple[float, list[dict[str, object]]]:
    """Milliseconds per game to fold a finished tarot4 game and read its deal lines; one game's lines."""
    kind = game_named("tarot4")
    engine = kind.engine
    assert kind.deal_results is not None
    costs = []
    lines: list[dict[str, object]] = []
    for index in range(sample):
        rng = random.Random(index)
        seed = f"{index:032x}"
        state = kind.new_game(seed)
        moves = []
        while not engine.is_over(state):
            move = rng.choice(list(engine.legal_moves(state)))
            moves.append(str(move))
            state = engine.play(state, move)
        start = time.perf_counter()
        folded = kind.new_game(seed)
        for text in moves:
            folded = engine.play(folded, engine.parse_move(text, {}))
        lines = kind.deal_results(folded)
        costs.append((time.perf_counter() - start) * 1000)
    return statistics.median(costs), lines


def drawn_line(rng: random.Random, deal: int) -> dict[str, object]:
    if rng.random() < 0.1:
        return {"deal": deal, "taker": None, "side": None, "contract": None, "outcome": "redeal", "points": 0}
    taker = rng.choice("SWNE")
    made = rng.random() < 0.6
    margin = rng.randrange(0, 40)
    marque = (25 + margin) * rng.choice((1, 2, 4, 6))
    points = (3 if taker == "S" else -1) * (marque if made else -marque)
    return {
        "deal": deal,
        "taker": taker,
        "side": "us" if taker == "S" else "them",
        "contract": rng.choice(CONTRACTS),
        "outcome": "made" if made else "failed",
        "points": points,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=5)
    arguments = parser.parse_args()

    per_game_ms, example = real_lines_cost(arguments.sample)
    print(f"lines of one real tarot4 game (fold + deal_results), median of {arguments.sample}: {per_game_ms:.2f} ms")
    print(f"  keys of a line: {sorted(example[0])}")
    games = arguments.entrants * arguments.games
    print(f"  for {games} games, once each at its verification: {per_game_ms * games / 1000:.1f} s in all")

    rng = random.Random(22)
    entrants = []
    for index in range(arguments.entrants):
        lines = {
            number: [drawn_line(rng, deal) for deal in range(1, arguments.deals + 1)]
            for number in range(1, arguments.games + 1)
        }
        scores = {number: sum(int(line["points"]) for line in game) for number, game in lines.items()}  # type: ignore[call-overload]
        entrants.append(Entrant(f"{index:016x}", f"Joueur {index}", scores, lines))
    times = []
    answer: dict[str, object] = {}
    for _ in range(arguments.repeat):
        start = time.perf_counter()
        answer = standings(entrants, arguments.games)
        times.append((time.perf_counter() - start) * 1000)
    body = json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()
    deals = arguments.games * arguments.deals
    print(
        f"standings of {arguments.entrants} entrants and {deals} deals: median {statistics.median(times):.0f} ms"
        f" (min {min(times):.0f}, max {max(times):.0f}, {arguments.repeat} runs)"
    )
    print(f"every deal's results at once: {size(body)} (the server gzips at level 5)")
    stored_results(entrants, arguments.games, arguments.repeat)


def size(body: bytes) -> str:
    return f"{len(body) / 1024:.1f} KiB of JSON, {len(gzip.compress(body, 5)) / 1024:.1f} KiB gzipped"


def timed(run: Callable[[], object], repeat: int) -> tuple[str, bytes]:
    """The median, min and max milliseconds of ``repeat`` runs, and the JSON of the last answer."""
    times = []
    body = b""
    for _ in range(repeat):
        start = time.perf_counter()
        body = json.dumps(run(), ensure_ascii=False, separators=(",", ":")).encode()
        times.append((time.perf_counter() - start) * 1000)
    return f"median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f}, {repeat} runs)", body


def stored_results(entrants: list[Entrant], count: int, repeat: int) -> None:
    """The results request's work on a SQLite store holding the tournament: read, rank, write the JSON."""
    now = dt.datetime.now(dt.UTC).replace(tzinfo=None) - dt.timedelta(days=2)  # Closed yesterday: shown to all.
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"sqlite:///{Path(folder) / 'bench.sqlite3'}")
        store.migrate()
        service = ClubService(GameService(store, b"bench-secret"), b"bench-secret")
        service.clubs.create_club(Club("c_bench", "Bench", "ABCDEFGHJK", "ab" * 16, now), "p_0")
        tournament = Tournament(
            "t_bench", "c_bench", "Bench", "tarot4", "", count, now, now + dt.timedelta(days=1), False, "t_bench", now
        )
        service.clubs.add_tournament(tournament)
        game_rows, entry_rows, board_rows = [], [], []
        for index, entrant in enumerate(entrants):
            for number, lines in entrant.lines.items():
                game_id = f"g_{index}_{number}"
                game_rows.append(
                    {"id": game_id, "player_id": f"p_{index}", "mode": "club", "day": None, "ranked": True}
                    | {"seed": "s", "variant": "tarot4", "bot_id": "expert/3", "created_at": now, "game": "tarot4"}
                )
                entry_rows.append(
                    {"tournament_id": "t_bench", "player_id": f"p_{index}", "number": number, "game_id": game_id}
                    | {"lines": json.dumps(lines, separators=(",", ":"))}
                )
                board_rows.append(
                    {"game_id": game_id, "board": "club", "day": None, "player_id": f"p_{index}"}
                    | {"score": entrant.scores[number], "deals": len(lines), "finished_at": now, "game": "tarot4"}
                )
        with store.engine.begin() as connection:
            for table, rows in (
                (games, game_rows),
                (tournament_entries, entry_rows),
                (leaderboard_entries, board_rows),
            ):
                connection.execute(insert(table), rows)
        kept = service._kept_standings

        def afresh() -> object:
            kept.clear()
            return service.results("t_bench", "p_0")

        cold, _ = timed(afresh, repeat)
        print(f"results request's work on SQLite ({len(entry_rows)} kept games), standings computed: {cold}")
        warm, body = timed(lambda: service.results("t_bench", "p_0"), repeat)
        print(f"  again, the standings kept: {warm}; the answer: {size(body)}")
        deal, page = timed(lambda: service.deal("t_bench", "p_0", 1, 1, 0), repeat)
        print(f"one deal's results (its first {DEAL_PAGE} lines), the standings kept: {deal}; the answer: {size(page)}")
        store.close()


if __name__ == "__main__":
    main()
