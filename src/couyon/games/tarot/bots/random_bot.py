"""The floor for comparisons: a uniformly random legal move, and a random valid écart."""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.tarot.bots.rules import ecart_choice
from couyon.games.tarot.game import ECART, Move, Phase
from couyon.games.tarot.view import TarotView


class RandomTarotBot:
    name = "random"
    version = 1

    def choose(self, seat_view: TarotView, rng: Stream) -> Move:
        if seat_view.phase is Phase.ECART:
            eligible, size, max_trumps = ecart_choice(seat_view)
            while True:
                pool = list(eligible)
                rng.shuffle(pool)
                chosen = sorted(pool[:size])
                if sum(1 for card in chosen if card.is_trump) <= max_trumps:
                    return Move(seat_view.seat, ECART, tuple(chosen))
        return rng.choice(seat_view.legal_moves)
