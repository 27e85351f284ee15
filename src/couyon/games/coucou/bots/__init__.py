"""Coucou bots (ruling 19): easy, normal and expert, each a keep-or-change rule on what its seat's view shows.

A bot turns one ``CoucouView`` and a ``Stream`` into a move. These three are
deterministic and never draw from the stream; a bot that randomises must draw from
``bot_rng(seed, coup, seat)``, i.e. ``stream(seed, "bot:<coup>:<seat>")`` (ruling 17),
so that the server's replay recomputes every bot move.

- ``easy/1``: change on a 7 or lower, whatever the table; no information used.
- ``normal/1``: ruling 19's threshold by deck and players still in, one rank lower for
  the first to speak where the ruling says, always keep a king.
- ``expert/1``: normal, plus the information rule: keep whenever the left neighbour's
  exchange handed a higher card (he now holds the lower one, and it can no longer move).
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from couyon.common.bots import Named
from couyon.common.bots import bot_id as bot_id
from couyon.common.stream import Stream
from couyon.games.coucou.cards import KING, ranks_of
from couyon.games.coucou.game import CHANGE, KEEP, GameState, Move, Seat
from couyon.games.coucou.view import CoucouView, CoupView, view

EASY_LOWEST_KEPT = 8
"""Easy keeps an 8 or higher: it changes on 7 or lower."""

_THRESHOLDS_52 = ((2, 9), (3, 9), (4, 8), (6, 7), (8, 6), (11, 5), (16, 4), (20, 3))
_THRESHOLDS_32 = ((2, 10), (3, 10), (4, 10), (6, 9))
"""Ruling 19's table as (largest m of the column, lowest rank kept): 52 cards, then 32."""


class CoucouBot(Named, Protocol):
    """A simulated coucou player; ``name`` and ``version`` go into game records (``bots`` key)."""

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        """The move of ``seat_view.seat``, which must be to speak."""
        ...


def bot_rng(seed: str, coup: int, seat: Seat) -> Stream:
    """The generator of the bot at ``seat`` in coup ``coup`` of the game ``seed`` (ruling 17)."""
    return Stream(seed, f"bot:{coup}:{seat}")


def bot_move(state: GameState, bot: CoucouBot) -> Move:
    """The move ``bot`` makes for the seat to speak in ``state``, from that seat's view only."""
    seat = state.to_move
    if seat is None:
        raise ValueError("the game is over: no seat is to speak")
    return bot.choose(view(state, seat), bot_rng(state.seed, state.coup.number, seat))


@cache
def normal_threshold(deck_size: int, players_in: int, first_to_speak: bool) -> int:
    """Ruling 19: the lowest rank kept with ``players_in`` still in (first speaker one rank lower where it says).

    Cached: a few dozen arguments, asked at every decision."""
    table = _THRESHOLDS_52 if deck_size == 52 else _THRESHOLDS_32
    found = [threshold for largest, threshold in table if players_in <= largest]
    if players_in < 2 or not found:
        raise ValueError(f"no threshold for {players_in} players with {deck_size} cards")
    threshold = found[0]
    lower = 3 <= players_in <= 8 if deck_size == 52 else players_in == 4
    if first_to_speak and lower:
        ranks = ranks_of(deck_size)
        return ranks[ranks.index(threshold) - 1]
    return threshold


def _speaking(seat_view: CoucouView) -> CoupView:
    coup = seat_view.coup
    if coup is None or coup.card is None or seat_view.to_move != seat_view.seat:
        raise ValueError(f"seat {seat_view.seat} is not to speak")
    return coup


def _move(seat_view: CoucouView, keep: bool) -> Move:
    return Move(seat_view.seat, KEEP if keep else CHANGE)


def normal_keeps(seat_view: CoucouView) -> bool:
    """Whether the ruling-19 table keeps this seat's card: always a king, else a rank at least the threshold."""
    coup = _speaking(seat_view)
    assert coup.card is not None
    if coup.card.rank == KING:
        return True
    threshold = normal_threshold(seat_view.deck_size, coup.players_in, coup.position == 0)
    return coup.card.rank >= threshold


def handed_higher(seat_view: CoucouView) -> bool:
    """Ruling 10's information rule: the left neighbour's exchange handed this seat a higher card than it gave."""
    coup = _speaking(seat_view)
    # Before its own move a seat can only have been in its left neighbour's exchange.
    return any(swap.got.rank > swap.gave.rank for swap in coup.swaps)


class EasyBot:
    """Change on a 7 or lower, whatever the table (ruling 19, Easy)."""

    name = "easy"
    version = 1

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        coup = _speaking(seat_view)
        assert coup.card is not None
        return _move(seat_view, coup.card.rank >= EASY_LOWEST_KEPT)


class NormalBot:
    """Ruling 19's table, no information used (ruling 19, Normal)."""

    name = "normal"
    version = 1

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        return _move(seat_view, normal_keeps(seat_view))


class ExpertBot:
    """Ruling 19's table plus the information rule: keep whenever handed a higher card (ruling 19, Expert)."""

    name = "expert"
    version = 1

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        return _move(seat_view, handed_higher(seat_view) or normal_keeps(seat_view))


BOTS: dict[str, CoucouBot] = {bot_id(bot): bot for bot in (EasyBot(), NormalBot(), ExpertBot())}
"""Every coucou bot by the ``name/version`` records keep."""
TABLE_BOT_ID = "expert/1"
"""The bot at the daily challenge's table (ruling 17: Expert bots)."""
