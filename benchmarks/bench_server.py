"""Benchmark of the game server over HTTP on loopback: many simultaneous games, moves/s and move latency.

Starts ``couyon serve`` (SQLite in a temporary folder unless ``--database-url`` says otherwise),
then runs ``--players`` concurrent players, each playing complete free games of ``--game`` (the
server's default game when none is named) with random legal moves for South, until ``--moves``
moves are played or ``--seconds`` pass. A move's latency is
measured from sending the request to reading the whole answer, so it includes the replay, the
bots' replies, the database write and the JSON. The HTTP client is a minimal keep-alive
asyncio client so that the measuring side takes little of the shared CPU.

    .venv/bin/python benchmarks/bench_server.py --players 20 --moves 4000 --seconds 120
    .venv/bin/python benchmarks/bench_server.py --players 20 --moves 3000 --seconds 90 --think 0.5 --game malmedy
    .venv/bin/python benchmarks/bench_server.py --players 20 --moves 3000 --seconds 120 --think 0.5 --game coucou \
        --option players=20

``--option NAME=VALUE`` (repeatable) sets a table option of the free games played (coucou: ``players``,
``tokens``, ``level``); a whole number is sent as a number.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

from couyon.loadgen import free_port, table_options


class Connection:
    """One keep-alive HTTP/1.1 connection of one player, carrying its cookie."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.cookie: str | None = None
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        headers = [
            f"{method} {path} HTTP/1.1",
            f"Host: {self.host}:{self.port}",
            "Accept-Encoding: gzip",
            f"Content-Length: {len(payload)}",
            "Content-Type: application/json",
        ]
        if self.cookie:
            headers.append(f"Cookie: {self.cookie}")
        self.writer.write(("\r\n".join(headers) + "\r\n\r\n").encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        gzipped = False
        while True:
            line = (await self.reader.readline()).decode().strip()
            if not line:
                break
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "content-encoding" and "gzip" in value:
                gzipped = True
            elif name == "set-cookie":
                self.cookie = value.strip().split(";", 1)[0]
        raw = await self.reader.readexactly(length)
        if gzipped:
            raw = zlib.decompress(raw, 16 + zlib.MAX_WBITS)
        return status, json.loads(raw) if raw else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class Totals:
    def __init__(self, moves: int, deadline: float) -> None:
        self.moves_left = moves
        self.deadline = deadline
        self.latencies: list[float] = []
        self.create_latencies: list[float] = []
        self.first_create_latencies: list[float] = []
        """Each player's first game: all are sent at once when the run starts, so they queue behind each other."""
        self.errors: dict[int, int] = {}
        self.refusal: str | None = None
        """The server's sentence for the first refused new game."""
        self.games_finished = 0
        self.elapsed = 0.0

    def more(self) -> bool:
        return self.moves_left > 0 and time.perf_counter() < self.deadline


async def player(
    index: int, host: str, port: int, totals: Totals, think: float, game: str | None, options: dict[str, Any]
) -> None:
    rng = random.Random(index)
    connection = Connection(host, port)
    new_game: dict[str, Any] = {"mode": "free"} if game is None else {"mode": "free", "game": game}
    if options:
        new_game["options"] = options
    try:
        first = True
        while totals.more():
            started = time.perf_counter()
            status, answer = await connection.request("POST", "/api/games", new_game)
            (totals.first_create_latencies if first else totals.create_latencies).append(time.perf_counter() - started)
            first = False
            if status != 201:
                totals.errors[status] = totals.errors.get(status, 0) + 1
                if status == 429:
                    continue
                # Asking again would be refused the same way (an unknown game, a bad option): this player stops.
                totals.refusal = totals.refusal or str((answer or {}).get("error", {}).get("message", answer))
                break
            while answer["view"]["winner"] is None and totals.more():
                if think:
                    await asyncio.sleep(rng.uniform(0, 2 * think))
                body = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
                totals.moves_left -= 1
                started = time.perf_counter()
                status, reply = await connection.request("POST", f"/api/games/{answer['id']}/moves", body)
                totals.latencies.append(time.perf_counter() - started)
                if status != 200:
                    totals.errors[status] = totals.errors.get(status, 0) + 1
                    break
                answer = reply
            else:
                if answer["view"]["winner"] is not None:
                    totals.games_finished += 1
    finally:
        connection.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(
    host: str,
    port: int,
    players: int,
    moves: int,
    seconds: float,
    think: float,
    game: str | None = None,
    options: dict[str, Any] | None = None,
) -> Totals:
    started = time.perf_counter()
    totals = Totals(moves, started + seconds)
    await asyncio.gather(*(player(index, host, port, totals, think, game, options or {}) for index in range(players)))
    totals.elapsed = time.perf_counter() - started
    return totals


def wait_for(host: str, port: int, process: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit("the server stopped during start-up")
        try:
            status, health = asyncio.run(Connection(host, port).request("GET", "/api/health"))
            if status == 200:
                return dict(health)
        except OSError:
            time.sleep(0.1)
    raise SystemExit("the server did not start within 30 s")


def server_cpu_seconds(pid: int) -> float:
    """User + system CPU time of the server and its worker processes (Linux /proc), else 0."""
    total = 0.0
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        for process in [pid, *(int(child) for child in children)]:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0
    return total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=20, help="concurrent players (default 20)")
    parser.add_argument("--moves", type=int, default=4000, help="stop after this many moves (default 4000)")
    parser.add_argument("--seconds", type=float, default=120, help="stop after this long (default 120)")
    parser.add_argument("--think", type=float, default=0.0, help="mean think time between a player's moves, s")
    parser.add_argument("--database-url", help="use this database instead of a temporary SQLite file")
    parser.add_argument("--workers", type=int, default=1, help="server processes (default 1)")
    parser.add_argument("--server", metavar="HOST:PORT", help="drive a server already running there instead")
    parser.add_argument("--game", help="the game played, by its id in /api/catalog (default: none named)")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE", help="a table option of the games played"
    )
    args = parser.parse_args()
    options = table_options(args.option)
    if isinstance(options, str):
        parser.error(options)

    if args.server:
        host, _, port_text = args.server.rpartition(":")
        _status, health = asyncio.run(Connection(host, int(port_text)).request("GET", "/api/health"))
        totals = asyncio.run(
            run(host, int(port_text), args.players, args.moves, args.seconds, args.think, args.game, options)
        )
        report(totals, health, args, 0.0, 0.0)
        return 0
    host, port = "127.0.0.1", free_port()
    with tempfile.TemporaryDirectory(prefix="couyon-bench-") as data_dir:
        environment = {
            **os.environ,
            "COUYON_DATA_DIR": data_dir,
            "COUYON_RATE_GAMES_PER_MINUTE": "0",  # One address and twenty players: limits would only measure 429s.
            "COUYON_RATE_MOVES_PER_MINUTE": "0",
            "COUYON_LOG_LEVEL": "warning",
        }
        if args.database_url:
            environment["COUYON_DATABASE_URL"] = args.database_url
        command = [sys.executable, "-m", "couyon.cli", "serve", "--port", str(port), "--workers", str(args.workers)]
        server = subprocess.Popen(command, env=environment)
        try:
            health = wait_for(host, port, server)
            cpu_before = server_cpu_seconds(server.pid)
            started = time.perf_counter()
            totals = asyncio.run(
                run(host, port, args.players, args.moves, args.seconds, args.think, args.game, options)
            )
            elapsed = time.perf_counter() - started
            server_cpu = server_cpu_seconds(server.pid) - cpu_before
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:  # Still verifying finished games: the figures are already taken.
                server.kill()
                server.wait()
    report(totals, health, args, elapsed, server_cpu)
    return 0


def report(totals: Totals, health: dict[str, Any], args: argparse.Namespace, elapsed: float, server_cpu: float) -> None:
    elapsed = elapsed or totals.elapsed
    backend = "postgresql" if args.database_url and args.database_url.startswith("postgres") else "sqlite"
    latencies = [value * 1000 for value in totals.latencies]
    creates = [value * 1000 for value in totals.create_latencies]
    bot = health.get("bots", {}).get(args.game) if args.game else health.get("bot")
    print(
        f"game {args.game or 'default'} {' '.join(args.option)}  bot {bot}  backend {backend}  workers {args.workers}  players {args.players}  "
        f"think {args.think} s  cpus {os.cpu_count()}  load average now {os.getloadavg()[0]:.1f}"
    )
    print(
        f"moves {len(latencies)}  games finished {totals.games_finished}  errors {totals.errors or 0}  "
        f"elapsed {elapsed:.1f} s  moves/s {len(latencies) / elapsed:.0f}"
    )
    if totals.refusal:
        print(f"new game refused: {totals.refusal}")
    if latencies:
        print(
            f"move latency ms: p50 {statistics.median(latencies):.1f}  p90 {percentile(latencies, 0.9):.1f}  "
            f"p99 {percentile(latencies, 0.99):.1f}  max {max(latencies):.1f}"
        )
    requests = len(latencies) + len(creates) + len(totals.first_create_latencies)
    if requests and server_cpu > 0:
        print(
            f"server CPU {server_cpu:.1f} s: {server_cpu / requests * 1000:.2f} ms per request "
            f"(the machine is shared: CPU time is what the server itself spent)"
        )
    if creates:
        print(
            f"new game latency ms, after each player's first: p50 {statistics.median(creates):.1f}  "
            f"p99 {percentile(creates, 0.99):.1f}  max {max(creates):.1f}"
        )
    if totals.first_create_latencies:
        burst = [value * 1000 for value in totals.first_create_latencies]
        print(f"first game of each player (sent all at once): p50 {statistics.median(burst):.1f}  max {max(burst):.1f}")


if __name__ == "__main__":
    sys.exit(main())
