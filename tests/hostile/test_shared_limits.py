"""Limits that hold for the whole server, not one process: rate limits added up in the database by every process
(two real ``couyon serve`` processes on one database), and the per-address gate that keeps one client from taking a
process's capacity (an ASGI test of its turns, and the real server with one client's requests held up)."""

from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.types import Receive, Scope, Send

from couyon.loadgen import ServerProcess
from couyon.server.limits import AddressGate, RateLimiter, RequestLimits
from couyon.store import Store


def wait_for_a_fresh_minute(margin: float = 15.0) -> None:
    """Fixed windows are the clock's minutes: start a counting test with at least ``margin`` seconds left."""
    left = 60 - time.time() % 60
    if left < margin:
        time.sleep(left + 0.1)


def ask(limiter: RateLimiter, player_id: str | None, address: str | None) -> int | None:
    """One request counted, as the server's middleware counts it."""
    return asyncio.run(limiter.retry_after(player_id, address))


def test_limiters_of_two_processes_share_one_budget(database_url: str) -> None:
    stores = [Store(database_url), Store(database_url)]
    stores[0].migrate()
    try:
        wait_for_a_fresh_minute(5)
        exact = [RateLimiter(20, kind="reads", shared=store) for store in stores]  # 20 or less: synced every time
        answers = [ask(exact[i % 2], "p_1", "192.0.2.1") for i in range(24)]
        assert answers[:20] == [None] * 20 and all(answer is not None for answer in answers[20:])
        # A larger limit is synced every twentieth of it: two processes overshoot by at most two twentieths.
        stepped = [RateLimiter(200, kind="moves", shared=store) for store in stores]
        allowed = sum(ask(stepped[i % 2], "p_2", None) is None for i in range(300))
        assert 200 <= allowed <= 220, allowed
    finally:
        for store in stores:
            store.close()


def test_a_database_that_cannot_be_reached_leaves_each_process_its_own_count(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'nowhere' / 'missing' / 'db.sqlite3'}")  # Never migrated: no table.
    limiter = RateLimiter(3, kind="games", shared=store)
    assert [ask(limiter, "p_1", None) for _ in range(4)][:3] == [None, None, None]
    assert ask(limiter, "p_1", None) is not None
    store.close()


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two couyon serve processes on one SQLite database (so one secret, stored in it)."""
    limits = {"COUYON_RATE_GAMES_PER_MINUTE": "3", "COUYON_RATE_READS_PER_MINUTE": "10"}
    with (
        ServerProcess(tmp_path / "data", environment=limits) as first,
        ServerProcess(tmp_path / "data", environment=limits) as second,
    ):
        yield [first, second]


def test_rate_limits_hold_across_two_real_server_processes(two_servers: list[ServerProcess]) -> None:
    wait_for_a_fresh_minute()
    cookies = httpx.Cookies()
    statuses = []
    for index in range(8):
        server = two_servers[index % 2]
        response = httpx.post(f"{server.url}/api/games", json={"mode": "free"}, cookies=cookies)
        cookies.update(response.cookies)
        statuses.append(response.status_code)
    # The first, without a cookie, counted against the address only; then three per player id in all, not per process.
    assert statuses == [201, 201, 201, 201, 429, 429, 429, 429], statuses
    reads = [
        httpx.get(f"{two_servers[index % 2].url}/api/leaderboard", cookies=cookies).status_code for index in range(14)
    ]
    assert reads == [200] * 10 + [429] * 4, reads
    assert httpx.get(f"{two_servers[0].url}/api/health").status_code == 200  # Never limited.


class HeldApp:
    """An ASGI app whose requests wait until released; counts how many are inside at once."""

    def __init__(self) -> None:
        self.inside: dict[str, int] = {}
        self.release = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = scope["client"][0]
        self.inside[address] = self.inside.get(address, 0) + 1
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})


def test_the_gate_lets_an_address_in_a_few_at_a_time_and_others_at_once() -> None:
    async def scenario() -> None:
        held = HeldApp()
        gate = AddressGate(2, max_waiting=3)
        limits = RequestLimits(held, {}, RateLimiter(0), lambda cookies: None, gate, trusted="192.0.2.250")

        def client(address: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=limits, client=(address, 1234))
            return httpx.AsyncClient(transport=transport, base_url="http://couyon")

        async with client("192.0.2.1") as hog, client("192.0.2.2") as other, client("192.0.2.250") as proxy:
            hogging = [asyncio.create_task(hog.get("/api/leaderboard")) for _ in range(5)]
            await asyncio.sleep(0.1)
            assert held.inside == {"192.0.2.1": 2}  # Two inside, three waiting their turn.
            refused = await hog.get("/api/leaderboard")  # A fourth waiter is one too many.
            assert refused.status_code == 429 and refused.headers["retry-after"] == "1"
            others = [asyncio.create_task(other.get("/api/leaderboard")) for _ in range(2)]
            proxied = [asyncio.create_task(proxy.get("/api/leaderboard")) for _ in range(6)]
            health = asyncio.create_task(hog.get("/api/health"))  # Never gated: it goes in at once.
            await asyncio.sleep(0.1)
            assert held.inside == {"192.0.2.1": 3, "192.0.2.2": 2, "192.0.2.250": 6}
            assert gate.running("192.0.2.1") == 2
            held.release.set()
            answers = await asyncio.gather(*hogging, *others, *proxied, health)
            assert {answer.status_code for answer in answers} == {200}
            assert held.inside == {"192.0.2.1": 6, "192.0.2.2": 2, "192.0.2.250": 6}
            assert gate.running("192.0.2.1") == 0

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_the_gate_counts_an_ipv6_client_by_its_64() -> None:
    async def scenario() -> None:
        held = HeldApp()
        gate = AddressGate(1, max_waiting=0)
        limits = RequestLimits(held, {}, RateLimiter(0), lambda cookies: None, gate, trusted="192.0.2.250")

        async def get(address: str) -> httpx.Response:
            transport = httpx.ASGITransport(app=limits, client=(address, 1234))
            async with httpx.AsyncClient(transport=transport, base_url="http://couyon") as client:
                return await client.get("/api/leaderboard")

        inside = asyncio.create_task(get("2001:db8:0:7::1"))
        await asyncio.sleep(0.1)
        refused = await get("2001:db8:0:7:ffff::2")  # Another address of the same /64: its turn is taken.
        neighbour = asyncio.create_task(get("2001:db8:0:8::1"))  # Another /64: in at once.
        await asyncio.sleep(0.1)
        assert refused.status_code == 429 and held.inside == {"2001:db8:0:7::1": 1, "2001:db8:0:8::1": 1}
        assert gate.running("2001:db8:0:7::/64") == 1
        held.release.set()
        assert {answer.status_code for answer in await asyncio.gather(inside, neighbour)} == {200}

    asyncio.run(asyncio.wait_for(scenario(), 30))


class AnswerThenWork:
    """An ASGI app that answers at once and then works on until released, as a route with a background task does."""

    def __init__(self) -> None:
        self.answered = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"done"})
        self.answered.set()
        await self.release.wait()


def test_work_after_the_answer_holds_no_turn_of_the_address() -> None:
    async def scenario() -> None:
        app = AnswerThenWork()
        gate = AddressGate(1)
        limits = RequestLimits(app, {}, RateLimiter(0), lambda cookies: None, gate, trusted="192.0.2.250")

        async def request() -> None:
            async def receive() -> dict[str, object]:
                return {"type": "http.request", "body": b"", "more_body": False}

            async def send(_message: object) -> None:
                return None

            scope = {
                "type": "http",
                "method": "GET",
                "path": "/api/leaderboard",
                "headers": [],
                "client": ("192.0.2.1", 1),
            }
            await limits(scope, receive, send)

        running = asyncio.create_task(request())
        await asyncio.wait_for(app.answered.wait(), 5)
        assert gate.running("192.0.2.1") == 0  # Answered: the turn is free while the work goes on.
        app.release.set()
        await running
        assert gate.running("192.0.2.1") == 0  # Released once, not twice.

    asyncio.run(asyncio.wait_for(scenario(), 30))


def test_one_client_cannot_take_the_real_servers_capacity(tmp_path: Path) -> None:
    """Two requests of one address at a time: while two of its writes wait for a locked database, its read waits
    its turn, and another address's read is answered at once."""
    gated = {"COUYON_MAX_REQUESTS_PER_ADDRESS": "2", "FORWARDED_ALLOW_IPS": "192.0.2.1"}
    with ServerProcess(tmp_path / "data", environment=gated) as server:
        hog = httpx.Client(base_url=server.url, timeout=30)
        victim = httpx.Client(base_url=server.url, timeout=30, transport=httpx.HTTPTransport(local_address="127.0.0.2"))
        with hog, victim:
            assert hog.post("/api/games", json={"mode": "free"}).status_code == 201
            holder = sqlite3.connect(tmp_path / "data" / "couyon.sqlite3", isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # Another program holds the write lock: writes wait for it.
            writes: list[int] = []
            threads = [
                threading.Thread(
                    target=lambda: writes.append(hog.post("/api/games", json={"mode": "free"}).status_code)
                )
                for _ in range(2)
            ]
            try:
                for thread in threads:
                    thread.start()
                time.sleep(0.5)
                with pytest.raises(httpx.ReadTimeout):
                    hog.get("/api/leaderboard", timeout=1.0)  # Its turn does not come while both writes wait.
                started = time.monotonic()
                assert victim.get("/api/leaderboard").status_code == 200
                assert time.monotonic() - started < 1.0
            finally:
                holder.execute("ROLLBACK")
                holder.close()
                for thread in threads:
                    thread.join(timeout=30)
            assert writes == [201, 201]
            assert hog.get("/api/leaderboard").status_code == 200


def test_rate_counts_of_past_minutes_are_forgotten(database_url: str) -> None:
    store = Store(database_url)
    store.migrate()
    try:
        minute = int(dt.datetime(2026, 11, 29, 9, 0, tzinfo=dt.UTC).timestamp() // 60)
        assert store.add_rate_counts({"reads:p:p_1": 3, "reads:a:192.0.2.1": 3}, minute) == {
            "reads:p:p_1": 3,
            "reads:a:192.0.2.1": 3,
        }
        assert store.add_rate_counts({"reads:p:p_1": 2}, minute) == {"reads:p:p_1": 5}
        assert store.add_rate_counts({"reads:p:p_1": 1}, minute + 1) == {"reads:p:p_1": 1}  # A new minute.
        assert store.forget_rate_counts(minute + 1) == 1  # The address's row of the first minute.
        assert store.add_rate_counts({"reads:a:192.0.2.1": 1}, minute + 1) == {"reads:a:192.0.2.1": 1}
    finally:
        store.close()
