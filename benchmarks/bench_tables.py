"""Benchmark of friends' tables (issue 21) over real sockets: latency, idle sockets and moves per second.

Not a test: it reports numbers (docs/tables.md keeps the measured ones, with the command that made them).

1. ``latency-1``: ``--tables`` tables of four scripted people (couyon, no bot: every seat a person) on one
   ``couyon serve`` process (SQLite). Each person moves ``--think`` seconds (from half to one and a half times it)
   after his seat is to move. A move's latency is from the mover sending it on his socket to each of the three
   other seats' sockets receiving the game message that holds it: p50 and p99 over every (move, seat).
2. ``latency-2``: the same load spread over two processes on one PostgreSQL (alternate seats on each process, so
   that most moves cross processes through LISTEN/NOTIFY). Needs ``--postgres-url`` or a local PostgreSQL
   (``initdb`` under /usr/lib/postgresql), started in a temporary folder as the tests do.
3. ``idle``: ``--idle`` sockets (one per person, four per table, each said hello) held by one process: its
   resident memory before and after, per socket.
4. ``throughput``: moves per second the process serves at tables of four people playing with no think time, and
   the solo table's (``POST /api/games/<id>/moves``, each person's move answered with the bots' moves) in the same
   run, ``--seconds`` each.

    .venv/bin/python benchmarks/bench_tables.py --tables 100 --seconds 30 --idle 2000
    .venv/bin/python benchmarks/bench_tables.py --tables 25 --seconds 15 --idle 500 --skip latency-2

The answer floor is off (``COUYON_ANSWER_FLOOR_MS=0``): tables of people have no bot decision to hold, and the solo
figure is the CPU's, not the floor's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import json
import os
import random
import resource
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets

from couyon.loadgen import ServerProcess

ENVIRONMENT = {
    "COUYON_ANSWER_FLOOR_MS": "0",
    "COUYON_RETENTION_DAYS": "0",
    "COUYON_MAX_CONNECTIONS": "6000",
    "COUYON_TABLE_GRACE_S": "600",
    "COUYON_LOG_LEVEL": "error",
}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


class Person:
    def __init__(self, cookie: str) -> None:
        self.cookie = cookie
        self.seat: str | None = None
        self.socket: Any = None
        self.number = -1


async def new_person(client: httpx.AsyncClient, url: str, name: str) -> Person:
    response = await client.put(f"{url}/api/player", json={"name": name})
    response.raise_for_status()
    cookie = "; ".join(f"{key}={value}" for key, value in response.cookies.items())
    client.cookies.clear()  # Each person is his own browser: the shared client keeps no jar.
    return Person(cookie)


async def new_table(
    client: httpx.AsyncClient, url: str, index: int, seats: str = "SWNE"
) -> tuple[str, str, list[Person]]:
    people = [await new_person(client, url, f"P{index}x{seat}") for seat in seats]
    opened = await client.post(
        f"{url}/api/tables",
        json={"game": "couyon", "options": {"level": "beginner"}, "clock": 0},
        headers={"cookie": people[0].cookie},
    )
    opened.raise_for_status()
    table = opened.json()
    code, secret = table["code"].replace("-", ""), table["secret"]
    people[0].seat = "S"
    for person, seat in zip(people[1:], seats[1:], strict=True):
        answer = await client.post(
            f"{url}/api/tables/{code}/seats", json={"secret": secret, "seat": seat}, headers={"cookie": person.cookie}
        )
        answer.raise_for_status()
        person.seat = seat
    return code, secret, people


async def connect(person: Person, url: str, code: str, secret: str) -> None:
    address = url.replace("http://", "ws://") + f"/api/tables/{code}/socket?secret={secret}"
    person.socket = await websockets.connect(
        address, additional_headers={"cookie": person.cookie}, open_timeout=60, max_queue=None
    )
    await person.socket.send(json.dumps({"type": "hello", "since": -1}))


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU so far of these processes and their children (a worker of uvicorn's), added up from
    ``/proc/<pid>/stat``: two servers' CPU for a run over two processes."""
    total = 0
    for pid in {found for parent in pids for found in (parent, *_children(parent))}:
        with contextlib.suppress(OSError), open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def play_tables(
    urls: list[str], tables: int, seconds: float, think: float, pids: list[int] | None = None
) -> dict[str, Any]:
    """Four people per table, their sockets spread over ``urls`` (seat i on urls[i % len]); latency samples."""
    sent: dict[tuple[str, int], float] = {}
    samples: list[float] = []
    moves = 0
    async with httpx.AsyncClient(timeout=60) as client:
        made = [await new_table(client, urls[0], index) for index in range(tables)]
        for code, secret, people in made:
            for position, person in enumerate(people):
                await connect(person, urls[position % len(urls)], code, secret)
            started = await client.post(
                f"{urls[0]}/api/tables/{code}/start", json={"secret": secret}, headers={"cookie": people[0].cookie}
            )
            started.raise_for_status()
    deadline = time.monotonic() + seconds

    async def person_loop(code: str, person: Person) -> None:
        nonlocal moves
        while time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(person.socket.recv(), max(0.01, deadline - time.monotonic()))
            except (TimeoutError, websockets.ConnectionClosed):
                return
            arrived = time.monotonic()
            message = json.loads(raw)
            if message["type"] != "game":
                continue
            answer = message["answer"]
            before, person.number = person.number, answer["move_number"]
            for number in range(max(0, before), person.number):
                moment = sent.get((code, number))
                if moment is not None:
                    samples.append(arrived - moment)
            view = answer["view"]
            if view["to_move"] == person.seat and view["legal"]:
                await asyncio.sleep(think * random.uniform(0.5, 1.5) if think else 0)
                sent[(code, person.number)] = time.monotonic()
                moves += 1
                await person.socket.send(
                    json.dumps({"type": "move", "move": random.choice(view["legal"]), "move_number": person.number})
                )

    began = time.monotonic()
    server_cpu, client_cpu = cpu_seconds(pids or []), time.process_time()
    await asyncio.gather(*(person_loop(code, person) for code, _, people in made for person in people))
    elapsed = time.monotonic() - began
    server_cpu, client_cpu = cpu_seconds(pids or []) - server_cpu, time.process_time() - client_cpu
    for _, _, people in made:
        for person in people:
            with contextlib.suppress(Exception):
                await person.socket.close()
    return {
        "tables": tables,
        "processes": len(urls),
        "seconds": round(elapsed, 1),
        "moves": moves,
        "moves_per_second": round(moves / elapsed, 1),
        "samples": len(samples),
        "p50_ms": round(percentile(samples, 0.5) * 1000, 1),
        "p99_ms": round(percentile(samples, 0.99) * 1000, 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu / max(1, moves), 2),
        "client_cpu_ms_per_move": round(1000 * client_cpu / max(1, moves), 2),
    }


def resident_kib(pid: int) -> int:
    """The resident memory of ``pid`` and its children (uvicorn's worker), in KiB."""
    total = 0
    for candidate in [pid, *_children(pid)]:
        with contextlib.suppress(OSError), open(f"/proc/{candidate}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
    return total


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    found += [int(child), *_children(int(child))]
    return found


async def idle_sockets(server: ServerProcess, count: int) -> dict[str, Any]:
    assert server.process is not None
    pid = server.process.pid
    tables = count // 4
    async with httpx.AsyncClient(timeout=60) as client:
        made = [await new_table(client, server.url, index) for index in range(tables)]
    await asyncio.sleep(1.0)
    before = resident_kib(pid)
    people = [(person, code, secret) for code, secret, group in made for person in group]
    for start in range(0, len(people), 200):
        await asyncio.gather(
            *(connect(person, server.url, code, secret) for person, code, secret in people[start : start + 200])
        )
    for person, _, _ in people:  # Each socket's hello answered (its table message).
        await asyncio.wait_for(person.socket.recv(), 60)
    await asyncio.sleep(2.0)
    after = resident_kib(pid)
    open_now = sum(1 for person, _, _ in people if person.socket.state.name == "OPEN")
    for person, _, _ in people:
        with contextlib.suppress(Exception):
            await person.socket.close()
    return {
        "sockets": open_now,
        "rss_before_mib": round(before / 1024, 1),
        "rss_after_mib": round(after / 1024, 1),
        "kib_per_socket": round((after - before) / max(1, open_now), 1),
    }


async def solo_moves(url: str, players: int, seconds: float) -> dict[str, Any]:
    """Solo tables: each player plays free couyon games (beginner) through POST /api/games, no think time."""
    deadline = time.monotonic() + seconds
    human = bots = 0

    async def player(client: httpx.AsyncClient, index: int) -> None:
        nonlocal human, bots
        person = await new_person(client, url, f"Solo{index}")
        headers = {"cookie": person.cookie}
        answer = None
        while time.monotonic() < deadline:
            if answer is None or answer["view"].get("winner") is not None:
                created = await client.post(
                    f"{url}/api/games", json={"mode": "free", "options": {"level": "beginner"}}, headers=headers
                )
                answer = created.json()
                continue
            view = answer["view"]
            body = {"move": random.choice(view["legal"]), "move_number": view["move_number"]}
            played = await client.post(f"{url}/api/games/{answer['id']}/moves", json=body, headers=headers)
            if played.status_code != 200:
                answer = None
                continue
            answer = played.json()
            human += 1
            bots += sum(
                1
                for event in answer["events"]
                if event.get("seat") not in (None, "S") and event["type"] in ("bid", "card")
            )

    began = time.monotonic()
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=players + 4)) as client:
        await asyncio.gather(*(player(client, index) for index in range(players)))
    elapsed = time.monotonic() - began
    return {
        "players": players,
        "seconds": round(elapsed, 1),
        "human_moves_per_second": round(human / elapsed, 1),
        "all_moves_per_second": round((human + bots) / elapsed, 1),
    }


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary folder (as the tests' conftest starts one); yields a database's URL."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        raise SystemExit("no PostgreSQL here: give --postgres-url or --skip latency-2")
    bin_dir = Path(found[-1]).parent
    base = Path(tempfile.mkdtemp(prefix="couyon-bench-pg-"))
    run_as: list[str] = []
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
        run_as = ["runuser", "-u", "postgres", "--"]
    data = base / "data"
    subprocess.run(
        [*run_as, str(bin_dir / "initdb"), "-D", str(data), "-U", "couyon", "--auth=trust", "--no-sync"],
        check=True,
        capture_output=True,
    )
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c max_connections=300"
    pg_ctl = str(bin_dir / "pg_ctl")
    subprocess.run(
        [*run_as, pg_ctl, "-D", str(data), "-l", str(base / "log"), "-w", "-o", options, "start"],
        check=True,
        capture_output=True,
    )
    try:
        subprocess.run(
            [*run_as, str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "couyon", "bench"],
            check=True,
            capture_output=True,
        )
        yield f"postgresql+psycopg://couyon@127.0.0.1:{port}/bench"
    finally:
        subprocess.run([*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(base, ignore_errors=True)


def _pid(server: ServerProcess) -> int:
    assert server.process is not None
    return server.process.pid


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0, help="seconds a person takes per decision (latency runs)")
    parser.add_argument("--idle", type=int, default=2000, help="idle sockets held by one process")
    parser.add_argument("--throughput-tables", type=int, default=25)
    parser.add_argument("--postgres-url", help="a PostgreSQL database for latency-2 (else a throwaway cluster)")
    parser.add_argument("--skip", action="append", default=[], choices=["latency-1", "latency-2", "idle", "throughput"])
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # The client holds a socket per person too.
    report: dict[str, Any] = {"load_average": os.getloadavg()[0]}
    work = Path(tempfile.mkdtemp(prefix="couyon-bench-tables-"))
    try:
        if "latency-1" not in args.skip or "idle" not in args.skip or "throughput" not in args.skip:
            with ServerProcess(work / "one", environment=ENVIRONMENT) as server:
                if "latency-1" not in args.skip:
                    report["latency-1"] = asyncio.run(
                        play_tables([server.url], args.tables, args.seconds, args.think, [_pid(server)])
                    )
                    print(json.dumps({"latency-1": report["latency-1"]}), flush=True)
                if "throughput" not in args.skip:
                    tables = asyncio.run(
                        play_tables([server.url], args.throughput_tables, args.seconds, 0.0, [_pid(server)])
                    )
                    solo = asyncio.run(solo_moves(server.url, args.throughput_tables * 4, args.seconds))
                    report["throughput"] = {"tables_of_four_people": tables, "solo": solo}
                    print(json.dumps({"throughput": report["throughput"]}), flush=True)
            if "idle" not in args.skip:
                with ServerProcess(work / "idle", environment=ENVIRONMENT) as server:
                    report["idle"] = asyncio.run(idle_sockets(server, args.idle))
                    print(json.dumps({"idle": report["idle"]}), flush=True)
        if "latency-2" not in args.skip:
            with contextlib.ExitStack() as stack:
                url = args.postgres_url or stack.enter_context(throwaway_postgres())
                first = ServerProcess(work / "a", url, environment=ENVIRONMENT)
                second = ServerProcess(work / "b", url, environment=ENVIRONMENT)
                first.start()
                second.start()
                stack.callback(first.stop)
                stack.callback(second.stop)
                report["latency-2"] = asyncio.run(
                    play_tables(
                        [first.url, second.url], args.tables, args.seconds, args.think, [_pid(first), _pid(second)]
                    )
                )
                print(json.dumps({"latency-2": report["latency-2"]}), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report["load_average_after"] = os.getloadavg()[0]
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
