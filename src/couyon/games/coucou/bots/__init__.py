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

As qui court (rulings 20–24) has its own three, version 2 (``AQC_BOTS``), fitted to that deal
(``benchmarks/as_qui_court_fit.py``; docs/coucou.md gives the tables and the measured levels):

- ``easy/2``: coucou's easy rule (change on a 7 or lower); the dealer handed an ace changes it.
- ``normal/2``: keep a rank at least the fitted threshold of its position and the players still in
  (``AQC_THRESHOLDS``), always a king; no information used; the dealer handed an ace changes it.
- ``expert/2``: normal/2's table, plus the information rule, plus what a shown king tells: once a king
  has been shown in the coup, someone before holds a card he wanted rid of, and the seat keeps from the
  lower threshold ``AQC_AFTER_KING``. The dealer handed an ace changes it (an ace can only be matched).

Given a coucou view, a version-2 bot plays as its version 1 (the tables are the variant's only).
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from couyon.common.bots import Named
from couyon.common.bots import bot_id as bot_id
from couyon.common.stream import Stream
from couyon.games.coucou.cards import ACE, KING, ranks_of
from couyon.games.coucou.game import AS_QUI_COURT, CHANGE, KEEP, GameState, Move, Outcome, Seat
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


# -- as qui court (rulings 20–24): version 2, fitted to the variant's deal ----------------------------------

_RANKS = {"A": ACE, "J": 11, "Q": 12, "K": KING}


def _table(rows: str) -> dict[tuple[int, int], tuple[int, ...]]:
    """``"52 5: 5 6 6 6"`` lines as {(deck, m): the lowest rank kept at positions 0 … m − 2}."""
    table: dict[tuple[int, int], tuple[int, ...]] = {}
    for line in rows.strip().splitlines():
        head, _, ranks = line.partition(":")
        deck, players_in = (int(part) for part in head.split())
        table[(deck, players_in)] = tuple(_RANKS.get(rank, 0) or int(rank) for rank in ranks.split())
    return table


AQC_THRESHOLDS = _table(
    """
52 2: 7
52 3: 6 7
52 4: 6 6 7
52 5: 5 6 6 6
52 6: 5 5 5 6 6
52 7: 5 5 5 5 6 6
52 8: 4 4 5 5 5 5 5
52 9: 4 4 4 5 5 5 5 5
52 10: 4 4 4 4 5 5 5 5 5
52 11: 4 4 4 4 4 4 4 5 5 5
52 12: 4 4 4 4 4 4 4 4 4 4 4
52 13: 4 4 4 4 4 4 4 4 4 4 4 4
52 14: 3 3 3 4 4 4 4 4 4 4 4 4 4
52 15: 3 3 3 3 4 4 4 4 4 4 4 4 4 4
52 16: 3 3 3 3 3 3 3 4 4 4 4 4 4 4 4
52 17: 3 3 3 3 3 3 3 3 4 4 4 4 4 4 4 4
52 18: 3 3 3 3 3 3 3 3 3 3 3 4 4 4 4 4 4
52 19: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 4 4 4
52 20: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
32 2: 9
32 3: 9 9
32 4: 9 9 9
32 5: 9 9 9 9
32 6: 8 8 9 9 9
"""
)
"""As qui court, nothing seen (or handed a lower card): by (deck, players still in), the lowest rank each
position 0 … m − 2 keeps; the dealer (m − 1) has no threshold: handed an ace, he changes it."""

AQC_AFTER_KING = _table(
    """
52 2: 7
52 3: 6 7
52 4: 6 6 5
52 5: 5 6 4 4
52 6: 5 5 4 4 4
52 7: 5 5 4 4 4 4
52 8: 4 4 4 4 4 4 4
52 9: 4 4 4 4 4 4 4 4
52 10: 4 4 3 4 4 4 4 4 4
52 11: 4 4 4 3 4 3 4 4 4 4
52 12: 4 4 3 3 3 3 3 4 4 4 4
52 13: 4 4 3 3 3 3 3 3 3 3 3 3
52 14: 3 3 3 3 3 3 3 3 3 3 3 3 3
52 15: 3 3 3 3 3 3 3 3 3 3 3 3 3 3
52 16: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
52 17: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
52 18: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
52 19: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
52 20: 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3
32 2: 9
32 3: 9 9
32 4: 9 9 8
32 5: 9 9 8 8
32 6: 8 8 8 8 8
"""
)
"""As qui court, once a king has been shown earlier in the coup (expert/2 only): the lowest rank kept."""


def aqc_threshold(deck_size: int, players_in: int, position: int, after_king: bool = False) -> int:
    """The lowest rank the seat at ``position`` keeps (``after_king``: once a king was shown in this coup)."""
    table = AQC_AFTER_KING if after_king else AQC_THRESHOLDS
    try:
        return table[(deck_size, players_in)][position]
    except (KeyError, IndexError):
        raise ValueError(
            f"no as qui court threshold at position {position} of {players_in} with {deck_size} cards"
        ) from None


def _aqc_keeps(seat_view: CoucouView, use_kings: bool) -> bool:
    """The fitted table's choice at as qui court: a king kept, the dealer's ace changed, else the threshold."""
    coup = _speaking(seat_view)
    assert coup.card is not None and coup.position is not None
    if coup.card.rank == KING:
        return True
    if coup.position == coup.players_in - 1:
        return False  # the dealer speaks only handed an ace: the stock's card cannot be lower
    after_king = use_kings and any(outcome is Outcome.KING_SHOWN for outcome in coup.actions)
    return coup.card.rank >= aqc_threshold(seat_view.deck_size, coup.players_in, coup.position, after_king)


class EasyBot2:
    """As qui court's easy: change on a 7 or lower, as coucou's (the dealer's ace is below 8: he changes it)."""

    name = "easy"
    version = 2

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        return EasyBot().choose(seat_view, rng)


class NormalBot2:
    """As qui court's normal: the fitted threshold of its position, no information used."""

    name = "normal"
    version = 2

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        if seat_view.coup is None or seat_view.coup.variant is not AS_QUI_COURT:
            return NormalBot().choose(seat_view, rng)
        return _move(seat_view, _aqc_keeps(seat_view, use_kings=False))


class ExpertBot2:
    """As qui court's expert: the fitted thresholds, the information rule, and the shown kings' lower threshold."""

    name = "expert"
    version = 2

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        if seat_view.coup is None or seat_view.coup.variant is not AS_QUI_COURT:
            return ExpertBot().choose(seat_view, rng)
        return _move(seat_view, handed_higher(seat_view) or _aqc_keeps(seat_view, use_kings=True))


AQC_BOTS: dict[str, CoucouBot] = {bot_id(bot): bot for bot in (EasyBot2(), NormalBot2(), ExpertBot2())}
"""As qui court's bots by the ``name/version`` its records keep."""
AQC_TABLE_BOT_ID = "expert/2"
"""The bot at as qui court's daily table (ruling 17, by ruling 20's "everything else is coucou": Expert bots)."""
