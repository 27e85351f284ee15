"""Database work of one move request: statements and pool connections per request (not run by pytest).

Usage::

    .venv/bin/python benchmarks/bench_queries.py [--games N] [--game GAME] [--option NAME=VALUE ...]
        [--database-url URL]

Builds the app (``create_app``, a temporary SQLite file unless ``--database-url`` names another database, rate
limits off, no answer floor) and plays N free games through it with Starlette's test client, South's moves
random and seeded. SQLAlchemy's events count what each request asks of the database: the statements sent to
the driver (``before_cursor_execute``, a ``BEGIN`` of the SQLite store's own included) and the connections taken
from the pool (``checkout``). Prints, for the move requests and for the new games, the mean per request and how
many requests made each count. Run it with ``PYTHONPATH`` set to another ``src/`` to count what another version
asks for the same games.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

from couyon.loadgen import table_options
from couyon.server.app import create_app
from couyon.server.config import Settings


class Tally:
    """Statements and checkouts since the last ``take``; each kind of statement by its first words."""

    def __init__(self) -> None:
        self.statements = 0
        self.checkouts = 0
        self.kinds: Counter[str] = Counter()

    def statement(self, _connection: Any, _cursor: Any, sql: str, *_args: Any) -> None:
        self.statements += 1
        self.kinds[" ".join(sql.split()[:3])[:40]] += 1

    def checkout(self, *_args: Any) -> None:
        self.checkouts += 1

    def take(self) -> tuple[int, int]:
        counts = self.statements, self.checkouts
        self.statements = self.checkouts = 0
        return counts


def report(name: str, counts: list[tuple[int, int]]) -> None:
    if not counts:
        return
    statements = sum(count[0] for count in counts) / len(counts)
    checkouts = sum(count[1] for count in counts) / len(counts)
    spread = ", ".join(f"{n} x{times}" for n, times in sorted(Counter(count[0] for count in counts).items()))
    print(
        f"{name}: {len(counts)} requests, {statements:.2f} statements and {checkouts:.2f} connections per request "
        f"(statements: {spread})"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--game", default="couyon")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    options = table_options(args.option)
    if isinstance(options, str):
        parser.error(options)
    with tempfile.TemporaryDirectory(prefix="couyon-queries-") as folder:
        settings = Settings(
            data_dir=Path(folder),
            database_url=args.database_url or f"sqlite:///{folder}/couyon.sqlite3",
            secret="bench-queries",
            rate_games_per_minute=0,
            rate_moves_per_minute=0,
            answer_floor_ms=0,
            retention_days=0,
        )
        app = create_app(settings)
        tally = Tally()
        engine = app.state.store.engine
        event.listen(engine, "before_cursor_execute", tally.statement)
        event.listen(engine, "checkout", tally.checkout)
        rng = random.Random(23)
        moves: list[tuple[int, int]] = []
        creates: list[tuple[int, int]] = []
        move_kinds: Counter[str] = Counter()
        with TestClient(app, base_url="http://127.0.0.1") as client:
            for _ in range(args.games):
                tally.take()
                request: dict[str, Any] = {"mode": "free", "game": args.game}
                if options:
                    request["options"] = options
                answer = client.post("/api/games", json=request).json()
                creates.append(tally.take())
                while answer["view"]["winner"] is None:
                    tally.kinds.clear()
                    body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
                    reply = client.post(f"/api/games/{answer['id']}/moves", json=body)
                    assert reply.status_code == 200, reply.text
                    answer = reply.json()
                    moves.append(tally.take())
                    if answer["view"]["winner"] is None:  # The final move also writes the finish: not counted here.
                        move_kinds.update(tally.kinds)
        report(f"{args.game} moves", moves)
        report(f"{args.game} new games", creates)
        per_move = len(moves) - args.games
        print("statements of a move that does not end its game, per request:")
        for kind, count in move_kinds.most_common():
            print(f"  {count / max(1, per_move):5.2f}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
