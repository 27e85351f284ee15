"""The floor for comparisons: a uniformly random legal move."""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.couyon.game import Move
from couyon.games.couyon.view import SeatView


class RandomBot:
    name = "random"
    version = 1

    def choose(self, seat_view: SeatView, rng: Stream) -> Move:
        return rng.choice(seat_view.legal_moves)
