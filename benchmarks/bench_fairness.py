"""Benchmark of fairness between clients: what one greedy address costs another player.

Starts ``couyon serve`` twice (SQLite in a temporary folder, one process, loopback addresses
untrusted so that each counts as a client): once **unguarded** (no per-address gate, reads not
limited: the server before issue 11's item 4) and once with the **defaults** (rate limits of
games, moves and reads, shared in the database, and four requests of one address at a time).
In each, a victim player at 127.0.0.2 plays couyon moves with ``--think`` seconds between them
and a prober at 127.0.0.3 asks ``/api/health`` every half second, while 127.0.0.1 is:

- ``quiet``: silent;
- ``players``: ``--hog-players`` players (one cookie each) playing moves back to back;
- ``readers``: ``--readers`` concurrent readers of one game, back to back.

It prints, per server and scenario, the victim's move latency and the health latency
(p50/p99/max, ms) and the greedy address's answers by status.

    .venv/bin/python benchmarks/bench_fairness.py --seconds 20
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from couyon.loadgen import ServerProcess

UNGUARDED = {"COUYON_MAX_REQUESTS_PER_ADDRESS": "0", "COUYON_RATE_READS_PER_MINUTE": "0"}
SERVER_DEFAULTS = {"COUYON_RATE_GAMES_PER_MINUTE": "30", "COUYON_RATE_MOVES_PER_MINUTE": "300"}
"""ServerProcess turns the rate limits off unless told: these are ``couyon serve``'s defaults."""


def client(url: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=url, transport=transport, timeout=60)


async def new_game(http: httpx.AsyncClient) -> dict[str, Any] | None:
    response = await http.post("/api/games", json={"mode": "free"})
    return response.json() if response.status_code == 201 else None


async def move(http: httpx.AsyncClient, game: dict[str, Any], rng: random.Random) -> httpx.Response:
    body = {"move": rng.choice(game["view"]["legal"]), "move_number": game["view"]["move_number"]}
    return await http.post(f"/api/games/{game['id']}/moves", json=body)


async def victim(url: str, until: float, think: float, latencies: list[float]) -> None:
    rng = random.Random(1)
    async with client(url, "127.0.0.2") as http:
        game = await new_game(http)
        while game is not None and time.monotonic() < until:
            start = time.perf_counter()
            response = await move(http, game, rng)
            latencies.append((time.perf_counter() - start) * 1000)
            answer = response.json()
            game = await new_game(http) if answer["view"]["winner"] is not None else answer
            await asyncio.sleep(think)


async def prober(url: str, until: float, latencies: list[float]) -> None:
    async with client(url, "127.0.0.3") as http:
        while time.monotonic() < until:
            start = time.perf_counter()
            await http.get("/api/health")
            latencies.append((time.perf_counter() - start) * 1000)
            await asyncio.sleep(0.5)


async def greedy_player(url: str, until: float, statuses: Counter[int], seed: int) -> None:
    rng = random.Random(seed)
    async with client(url, "127.0.0.1") as http:
        game = None
        while time.monotonic() < until:
            if game is None:
                response = await http.post("/api/games", json={"mode": "free"})
                statuses[response.status_code] += 1
                game = response.json() if response.status_code == 201 else None
                continue
            response = await move(http, game, rng)
            statuses[response.status_code] += 1
            if response.status_code == 200:
                answer = response.json()
                game = None if answer["view"]["winner"] is not None else answer


async def greedy_reader(http: httpx.AsyncClient, path: str, until: float, statuses: Counter[int]) -> None:
    while time.monotonic() < until:
        statuses[(await http.get(path)).status_code] += 1


async def scenario(url: str, name: str, args: argparse.Namespace) -> dict[str, Any]:
    until = time.monotonic() + args.seconds
    moves: list[float] = []
    health: list[float] = []
    statuses: Counter[int] = Counter()
    work = [victim(url, until, args.think, moves), prober(url, until, health)]
    readers: httpx.AsyncClient | None = None
    if name == "players":
        work += [greedy_player(url, until, statuses, seed) for seed in range(args.hog_players)]
    elif name == "readers":
        limits = httpx.Limits(max_connections=args.readers, max_keepalive_connections=args.readers)
        readers = httpx.AsyncClient(
            base_url=url, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.1", limits=limits), timeout=60
        )
        game = await new_game(readers)
        assert game is not None
        work += [greedy_reader(readers, f"/api/games/{game['id']}", until, statuses) for _ in range(args.readers)]
    await asyncio.gather(*work)
    if readers is not None:
        await readers.aclose()
    return {"moves": moves, "health": health, "statuses": dict(sorted(statuses.items()))}


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"n={len(values)} p50 {statistics.median(ordered):.0f} p99 {p99:.0f} max {ordered[-1]:.0f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each scenario")
    parser.add_argument("--think", type=float, default=0.3, help="the victim's pause between moves")
    parser.add_argument("--hog-players", type=int, default=16)
    parser.add_argument("--readers", type=int, default=200)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    for label, environment in (("unguarded", UNGUARDED), ("defaults", {})):
        with tempfile.TemporaryDirectory() as folder:
            # FORWARDED_ALLOW_IPS names no loopback address: every client counts as itself.
            settings = {**SERVER_DEFAULTS, **environment, "FORWARDED_ALLOW_IPS": "192.0.2.1"}
            with ServerProcess(Path(folder) / "data", environment=settings) as server:
                for name in ("quiet", "players", "readers"):
                    result = asyncio.run(scenario(server.url, name, args))
                    print(
                        f"{label:9} {name:7} victim move {summary(result['moves'])} | health {summary(result['health'])}"
                        f" | greedy address {result['statuses']} | load {os.getloadavg()[0]:.1f}",
                        flush=True,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
