"""The answer floor: a request whose bots moved is answered no sooner than a fixed time per bot decision.

A bot's decision takes longer when it has more to think about, and what it has to think about is
its hidden hand: tarot's ``expert/3`` passes a weak hand at once and simulates 32 deals for a
strong one, a bot with one distinct legal card answers at once, a Malmedy bot holding the queen
of spades thinks longer over its first card. Timed answers would tell a player which. So an
answer that holds ``n`` bot decisions is released ``n × floor`` after the request reached its
handler (a monotonic clock), however soon the bots were done: its time depends on ``n``, which
the answer itself shows (one event per bot move), and on nothing the bots saw.

The wait is an ``asyncio.sleep`` on the event loop: it holds neither a worker thread nor a core.
An answer whose work outlasted its floor goes out at once and is logged (``answer floor overrun``):
its time leaks again, and the operator should raise ``COUYON_ANSWER_FLOOR_MS``. Each game states its own floor
per decision (``GameKind.decision_floor_ms``: tarot's simulating bids need far more than coucou's thresholds);
``COUYON_ANSWER_FLOOR_MS`` replaces it for every game.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger("couyon.server")

Sleep = Callable[[float], Awaitable[None]]


class AnswerFloor:
    """Holds answers until ``bot_moves × floor`` after their arrival: the game's own floor per decision
    (``GameKind.decision_floor_ms``), or ``floor_ms`` for every game when the operator sets one; 0 holds nothing."""

    def __init__(
        self, floor_ms: int | None, monotonic: Callable[[], float] = time.monotonic, sleep: Sleep = asyncio.sleep
    ) -> None:
        self.floor_ms = floor_ms
        self.monotonic = monotonic
        self._sleep = sleep

    def deadline(self, arrival: float, bot_moves: int, game_floor_ms: int) -> float:
        """When an answer of ``bot_moves`` bot decisions to a request that arrived at ``arrival`` may go out."""
        floor_ms = game_floor_ms if self.floor_ms is None else self.floor_ms
        return arrival + bot_moves * floor_ms / 1000

    async def hold(self, arrival: float, bot_moves: int, game_floor_ms: int, what: str) -> None:
        """Wait until the deadline of an answer of ``bot_moves`` bot decisions of a game whose own floor is
        ``game_floor_ms`` (``what``: the route, for the log)."""
        deadline = self.deadline(arrival, bot_moves, game_floor_ms)
        if deadline <= arrival:
            return
        remaining = deadline - self.monotonic()
        if remaining > 0:
            await self._sleep(remaining)
        else:
            log.warning(
                "answer floor overrun",
                extra={"route": what, "bot_moves": bot_moves, "over_ms": round(-remaining * 1000, 1)},
            )
