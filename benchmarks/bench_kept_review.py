"""What reviews cost a real server, not run by pytest: a first review, a repeat, and one after a restart.

Usage: ``python benchmarks/bench_kept_review.py [GAMES] [--game malmedy|couyon|coucou] [--option NAME=VALUE]``.
Starts ``couyon serve`` (one worker, SQLite in a temporary folder, rate limits off), plays GAMES
free games of ``--game`` (default 10, Malmedy) with random legal moves for South over HTTP, then
asks each game's review once (built), ten times more (stored), and once more after the server is
restarted (stored, read by a new process). CPU is the server's whole process group (the worker
and its verifying replay process) from /proc, in clock ticks (10 ms), summed over the requests
of each kind and divided by their number. Also printed: South's moves per game (what the moves
limit lets a client finish per minute), the review's JSON and stored sizes.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import tempfile
from pathlib import Path

import httpx

from couyon.loadgen import ServerProcess, table_options

TICK = 1 / os.sysconf("SC_CLK_TCK")
REPEATS = 10


def group_cpu(group: int) -> float:
    """Seconds of CPU (user and system) of every living process of the process group ``group``."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == group:  # pgrp is the 5th field, the 3rd after the command
            total += int(fields[11]) + int(fields[12])
    return total * TICK


def play(client: httpx.Client, game: str, options: dict[str, int | str], rng: random.Random) -> tuple[str, int]:
    """A finished free game's id and how many moves South sent."""
    body: dict[str, object] = {"mode": "free", "game": game}
    if options:
        body["options"] = options
    answer = client.post("/api/games", json=body).json()
    moves = 0
    while answer["view"]["winner"] is None:
        move = {"move": rng.choice(answer["view"]["legal"]), "move_number": answer["view"]["move_number"]}
        answer = client.post(f"/api/games/{answer['id']}/moves", json=move).json()
        moves += 1
    client.get(f"/api/games/{answer['id']}")  # The verifying replay, if the final move's did not run it yet.
    return answer["id"], moves


def main(games: int, game: str, options: dict[str, int | str]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="couyon-bench-review-"))
    server = ServerProcess(folder, environment={"COUYON_RATE_READS_PER_MINUTE": "0"})
    rng = random.Random(f"bench-kept-review-{game}")
    with server, httpx.Client(base_url=server.url, timeout=120) as client:
        assert server.process is not None
        group = server.process.pid
        played: list[tuple[str, int]] = []
        started = group_cpu(group)
        for _ in range(games):
            played.append(play(client, game, options, rng))
        play_cpu = (group_cpu(group) - started) / games
        first: list[float] = []
        for game_id, _ in played:
            before = group_cpu(group)
            assert client.get(f"/api/games/{game_id}/review").status_code == 200
            first.append(group_cpu(group) - before)
        before = group_cpu(group)
        for _ in range(REPEATS):
            for game_id, _ in played:
                assert client.get(f"/api/games/{game_id}/review").status_code == 200
        repeat = (group_cpu(group) - before) / (REPEATS * games)
        sizes = [len(client.get(f"/api/games/{game_id}/review").content) for game_id, _ in played]
        cookies = dict(client.cookies)
    with sqlite3.connect(folder / "couyon.sqlite3") as database:
        stored = [row[0] for row in database.execute("SELECT length(body) FROM reviews WHERE revealed")]
    server.start()  # A new process over the same database: nothing in memory.
    with server, httpx.Client(base_url=server.url, timeout=120, cookies=cookies) as client:
        assert server.process is not None
        group = server.process.pid
        for game_id, _ in played[:1]:
            client.get(f"/api/games/{game_id}/review")  # The new process's first request warms its imports.
        before = group_cpu(group)
        for game_id, _ in played:
            assert client.get(f"/api/games/{game_id}/review").status_code == 200
        restarted = (group_cpu(group) - before) / games
    south = [moves for _, moves in played]
    print(
        f"{game} {options or ''}: {games} games, South's moves {min(south)}-{max(south)} "
        f"(median {statistics.median(south):.0f}); playing a game {play_cpu * 1000:.0f} ms of CPU; "
        f"first review median {statistics.median(first) * 1000:.0f} ms, max {max(first) * 1000:.0f} ms; "
        f"repeat {repeat * 1000:.1f} ms; after a restart {restarted * 1000:.1f} ms; "
        f"JSON {min(sizes)}-{max(sizes)} bytes, stored {min(stored)}-{max(stored)} bytes"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=10)
    parser.add_argument("--game", default="malmedy")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    arguments = parser.parse_args()
    chosen = table_options(arguments.option)
    if isinstance(chosen, str):
        parser.error(chosen)
    main(
        arguments.games, arguments.game, {name: value for name, value in chosen.items() if isinstance(value, int | str)}
    )
