"""Simple fixed-window rate limits per player id and per address, kept in each process's memory.

They bound abuse (issue: 429 with ``Retry-After``); they are not game state, so losing them
on a restart or splitting them across processes changes no game.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable

WINDOW_SECONDS = 60.0
ADDRESS_FACTOR = 10
"""An address may carry several players (a family, a school behind one router)."""


class RateLimiter:
    """Counts requests of one kind per key in the current minute."""

    def __init__(self, per_player_per_minute: int, monotonic: Callable[[], float]) -> None:
        self.per_player = per_player_per_minute
        self._monotonic = monotonic
        self._lock = threading.Lock()
        self._window_start = monotonic()
        self._counts: dict[str, int] = {}

    def retry_after(self, player_id: str | None, address: str | None) -> int | None:
        """Count one request; None if allowed, else the seconds to wait before the window ends."""
        if self.per_player <= 0:
            return None
        with self._lock:
            now = self._monotonic()
            if now - self._window_start >= WINDOW_SECONDS:
                self._window_start = now
                self._counts.clear()
            over = False
            for key, limit in ((f"p:{player_id}", self.per_player), (f"a:{address}", self.per_player * ADDRESS_FACTOR)):
                if key.endswith(":None"):
                    continue
                count = self._counts.get(key, 0) + 1
                self._counts[key] = count
                over = over or count > limit
            if not over:
                return None
            return max(1, math.ceil(WINDOW_SECONDS - (now - self._window_start)))
