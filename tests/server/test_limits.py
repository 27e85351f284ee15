"""Rate limits: a fixed one-minute window per player id, ten times larger per address."""

from __future__ import annotations

import asyncio

from couyon.server.limits import RateLimiter, address_key


class Seconds:
    """A wall clock the test moves by hand (windows are its minutes)."""

    def __init__(self) -> None:
        self.now = 6000.0

    def __call__(self) -> float:
        return self.now


def ask(limiter: RateLimiter, player_id: str | None, address: str | None) -> int | None:
    """One request counted, as the server's middleware counts it."""
    return asyncio.run(limiter.retry_after(player_id, address))


def test_over_the_player_limit_waits_for_the_window_to_end() -> None:
    seconds = Seconds()
    limiter = RateLimiter(3, seconds)
    assert [ask(limiter, "p_1", "10.0.0.1") for _ in range(3)] == [None, None, None]
    seconds.now += 20
    assert ask(limiter, "p_1", "10.0.0.1") == 40
    seconds.now += 24.5
    assert ask(limiter, "p_1", "10.0.0.1") == 16  # The seconds left (15.5) rounded up.
    assert ask(limiter, "p_2", "10.0.0.1") is None  # Another player at the same address.
    seconds.now += 15.5
    assert ask(limiter, "p_1", "10.0.0.1") is None  # A new window.


def test_the_address_limit_catches_players_without_cookies() -> None:
    limiter = RateLimiter(2, Seconds())
    answers = [ask(limiter, None, "10.0.0.9") for _ in range(21)]
    assert answers[:20] == [None] * 20 and answers[20] is not None


def test_an_ipv6_client_counts_with_its_64_whatever_address_of_it_he_takes() -> None:
    limiter = RateLimiter(2, Seconds(), address_factor=1)
    assert ask(limiter, None, "2001:db8:1:2::1") is None
    assert ask(limiter, None, "2001:db8:1:2:ffff:ffff:ffff:fffe") is None
    assert ask(limiter, None, "2001:db8:1:2:abcd::9") is not None  # The third of the same /64.
    assert ask(limiter, None, "2001:db8:1:3::1") is None  # Another subscriber's network.
    assert [ask(limiter, None, address) for address in ("10.0.0.1", "10.0.0.2", "10.0.0.1")] == [None] * 3
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1" and address_key("testclient") == "testclient"


def test_zero_turns_the_limit_off() -> None:
    limiter = RateLimiter(0, Seconds())
    assert all(ask(limiter, "p_1", "10.0.0.1") is None for _ in range(1000))
