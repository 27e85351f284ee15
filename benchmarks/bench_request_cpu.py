"""The server's own CPU per move request, in process, through the whole app: several ``src/`` folders side by side.

Usage::

    .venv/bin/python benchmarks/bench_request_cpu.py [--moves N] [--rounds R] [--table GAME[:NAME=VALUE,...]]
        [--bot BOT] [--against SRC ...]

Each run is a child process with ``PYTHONPATH`` set to one side's ``src/``: it builds the app (``create_app``, SQLite in
a temporary folder, no rate limits, no answer floor) and calls it as uvicorn would, one ASGI call per request, without
sockets: free games of the table, South's moves random (seeded), the bots answering, until N moves. It prints the
process's CPU time (``time.process_time``, every thread) spent in the move requests, divided by their number. What a
socket adds (uvicorn's parsing and writes, the client's share of the cores) is ``bench_server.py``'s; this one
measures what the server's code costs, and keeps measuring it on a machine shared with other work, since no other
process is part of the figure. The sides alternate, each round starting with the next; the best of each side's runs
is the figure (the least disturbed by the machine's other work), the median is printed too.

``--against SRC`` (repeatable) adds another ``src/`` folder, e.g. a commit's in plain Python::

    git archive 010520d src | tar -x -C /tmp/at-010520d
    .venv/bin/python benchmarks/bench_request_cpu.py --table couyon:level=beginner --against /tmp/at-010520d/src

``--bot random/1`` seats the random bot (``COUYON_TABLE_BOT``), to measure the server without its bots' thinking.
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


async def call(app: Any, method: str, path: str, body: Any, cookie: str | None) -> tuple[int, Any, str | None]:
    """One request through the ASGI app: its status, its JSON and the cookie it set."""
    payload = json.dumps(body).encode()
    headers = [
        (b"host", b"127.0.0.1:8000"),
        (b"content-type", b"application/json"),
        (b"accept-encoding", b"gzip"),
        (b"content-length", str(len(payload)).encode()),
    ]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
    messages = [{"type": "http.request", "body": payload, "more_body": False}]

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # The client stays connected until the answer is whole.
        raise AssertionError

    answer: dict[str, Any] = {"status": 0, "headers": [], "body": b""}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"], answer["headers"] = message["status"], message["headers"]
        elif message["type"] == "http.response.body":
            answer["body"] += message.get("body", b"")

    await app(scope, receive, send)
    headers_of = dict(answer["headers"])
    raw = answer["body"]
    if headers_of.get(b"content-encoding") == b"gzip":
        raw = gzip.decompress(raw)
    set_cookie = headers_of.get(b"set-cookie")
    return answer["status"], json.loads(raw), None if set_cookie is None else set_cookie.decode().split(";")[0]


async def child(table: str, moves: int, bot: str | None) -> float:
    """Milliseconds of CPU per move request over ``moves`` moves of free games of ``table``."""
    from couyon.server.app import create_app
    from couyon.server.config import Settings

    game, _, option_text = table.partition(":")
    options: dict[str, Any] = {}
    for item in filter(None, option_text.split(",")):
        name, _, value = item.partition("=")
        options[name] = int(value) if value.isdigit() else value
    folder = tempfile.mkdtemp(prefix="couyon-request-cpu-")
    settings = Settings(
        data_dir=Path(folder),
        database_url=f"sqlite:///{folder}/bench.db",
        rate_moves_per_minute=0,
        rate_games_per_minute=0,
        rate_reads_per_minute=0,
        max_requests_per_address=0,
        answer_floor_ms=0,
        table_bot=None if bot is None else f"{game}={bot}",
    )
    app = create_app(settings)
    rng = random.Random(1)
    cookie: str | None = None
    played, cpu = 0, 0.0
    async with app.router.lifespan_context(app):
        while played < moves:
            new_game = {"game": game, "mode": "free", **({"options": options} if options else {})}
            status, answer, set_cookie = await call(app, "POST", "/api/games", new_game, cookie)
            if status not in (200, 201):
                raise SystemExit(f"a new game was refused: {status} {answer}")
            cookie = set_cookie or cookie
            view = answer["view"]
            while view["winner"] is None and played < moves:
                move = {"move": rng.choice(view["legal"]), "move_number": view["move_number"]}
                started = time.process_time()
                status, answer, _ = await call(app, "POST", f"/api/games/{answer['id']}/moves", move, cookie)
                cpu += time.process_time() - started
                if status != 200:
                    raise SystemExit(f"a move was refused: {status} {answer}")
                view = answer["view"]
                played += 1
    return cpu / played * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--moves", type=int, default=2000, help="move requests a run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--table", default="couyon", help="GAME[:NAME=VALUE,...], e.g. couyon:level=beginner")
    parser.add_argument("--bot", help="the table's bot (COUYON_TABLE_BOT for the table's game), e.g. random/1")
    parser.add_argument("--against", type=Path, action="append", default=[], help="another src/ folder")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps({"ms": asyncio.run(child(args.table, args.moves, args.bot))}))
        return
    sides = {"this": ROOT / "src"} | {str(path.resolve().parent.name): path.resolve() for path in args.against}
    names = list(sides)
    runs: dict[str, list[float]] = {name: [] for name in names}
    command = [sys.executable, __file__, "--child", "--table", args.table, "--moves", str(args.moves)]
    if args.bot:
        command += ["--bot", args.bot]
    for round_number in range(args.rounds):
        for name in names[round_number % len(names) :] + names[: round_number % len(names)]:
            environment = dict(os.environ, PYTHONPATH=str(sides[name]), PYTHONDONTWRITEBYTECODE="1")
            result = subprocess.run(command, env=environment, capture_output=True, text=True, check=False, cwd=ROOT)
            if result.returncode != 0:
                raise SystemExit(f"{name}: the run failed:\n{result.stdout}{result.stderr[-3000:]}")
            runs[name].append(json.loads(result.stdout.strip().splitlines()[-1])["ms"])
    bot = f", bot {args.bot}" if args.bot else ""
    print(
        f"{args.table}{bot}: {args.moves} move requests a run, {args.rounds} rounds, load average now "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs"
    )
    best = {name: min(values) for name, values in runs.items()}
    for name, values in runs.items():
        listed = ", ".join(f"{value:.3f}" for value in values)
        print(f"  {name:>14}: best {best[name]:.3f} ms, median {statistics.median(values):.3f} ms ({listed})")
    for name in names[1:]:
        print(f"  {name} / this: x{best[name] / best['this']:.2f} the CPU per move request")


if __name__ == "__main__":
    main()
