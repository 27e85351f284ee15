"""Simulated players: a bot turns one seat's view and a seeded generator into a move.

Bots see ``SeatView``s, never full states, and draw randomness only from the
generator they are handed, which ``bot_rng`` derives from the game seed, the seat and
the move number: replaying a game from its seed and the human's moves gives back
every bot move exactly.
"""

from __future__ import annotations

from typing import Any, Protocol

from couyon.common.bots import Named
from couyon.common.bots import bot_id as bot_id
from couyon.common.stream import Stream
from couyon.games.couyon.cards import Seat
from couyon.games.couyon.game import GameState, Move
from couyon.games.couyon.view import view


class Bot(Named, Protocol):
    """A simulated player; ``name`` and ``version`` go into game records."""

    def choose(self, seat_view: Any, rng: Stream) -> Move:
        """The move for ``seat_view.seat``, which must be to move; the view is its game's (``SeatView``, ``MalmedyView``)."""
        ...


def bot_rng(seed: str, seat: Seat, move_number: int) -> Stream:
    """The generator of the bot at ``seat`` for move ``move_number`` of the game ``seed``."""
    return Stream(seed, f"bot:{seat}:{move_number}")


def bot_move(state: GameState, bot: Bot) -> Move:
    """The move ``bot`` makes for the seat to move in ``state``."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over: no seat is to move")
    return bot.choose(view(state, seat), bot_rng(state.seed, seat, state.move_count))
