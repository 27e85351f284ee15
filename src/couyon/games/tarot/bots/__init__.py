"""Simulated tarot players: a bot turns one seat's ``TarotView`` and a seeded generator into a move.

The same contract as couyon's bots (``couyon.games.couyon.bots``): a bot sees a view, never the state,
and draws randomness only from the generator it is handed, which ``bot_rng`` derives from
the game seed, the seat and the move number, so a game replays from its seed and the
human's moves. Records name each bot ``name/version`` (the record's ``bots`` key, see
``bots_entry``). Only the arena seats the omniscient yardstick, which reads the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from couyon.common.bots import Named
from couyon.common.bots import bot_id as bot_id
from couyon.common.stream import Stream
from couyon.games.tarot.cards import Seat
from couyon.games.tarot.game import GameState, Move, to_move
from couyon.games.tarot.view import TarotView, view


class TarotBot(Named, Protocol):
    """A simulated tarot player; ``name`` and ``version`` go into game records."""

    def choose(self, seat_view: TarotView, rng: Stream) -> Move:
        """The move of ``seat_view.seat``, which must be the seat to move."""
        ...


def bot_rng(seed: str, seat: Seat, move_number: int) -> Stream:
    """The generator of the tarot bot at ``seat`` for move ``move_number`` of the game ``seed``.

    The label differs from couyon's (``bot:…``) so that a tarot game and a couyon game of
    the same seed never share their bots' draws.
    """
    return Stream(seed, f"tarot-bot:{seat}:{move_number}")


def bot_move(state: GameState, bot: TarotBot) -> Move:
    """The move ``bot`` makes for the seat to move in ``state``."""
    seat = to_move(state)
    if seat is None:
        raise ValueError("the game is over: no seat is to move")
    return bot.choose(view(state, seat), bot_rng(state.seed, seat, state.move_count))


def bots_entry(bots: Mapping[Seat, TarotBot]) -> dict[str, str]:
    """The record's ``bots`` key: each bot-held seat's ``name/version``."""
    return {str(seat): bot_id(bot) for seat, bot in bots.items()}
