"""Cards of coucou: a 32- or 52-card deck where only the rank counts, the ace lowest, the king highest.

A card is ``Card(rank, suit)`` with ``rank`` its face value (ace 1, 2 … 10, jack 11,
queen 12, king 13) and ``suit`` a ``Suit``. Comparing two cards as tuples orders them
by rank then suit C, D, H, S, which is exactly the dealer's choice among his three
cards (coucou-record-format.md, "The deal"); everywhere else only ``card.rank``
counts (ruling 2). The canonical deck orders are the contract's: suits C, D, H, S,
inside a suit the ranks weakest to strongest.
"""

from __future__ import annotations

import enum
from typing import NamedTuple

ACE = 1
KING = 13
RANK_CODES = {1: "A", 11: "J", 12: "Q", 13: "K"} | {value: str(value) for value in range(2, 11)}
"""The contract's spelling of each rank."""

RANKS_32: tuple[int, ...] = (ACE, 7, 8, 9, 10, 11, 12, KING)
"""The 32-card deck's ranks, weakest to strongest (coucou.fr.txt: the seven is just above the ace)."""
RANKS_52: tuple[int, ...] = tuple(range(ACE, KING + 1))
"""The 52-card deck's ranks, weakest to strongest."""

MIN_PLAYERS = 5
MAX_PLAYERS = 20
LARGEST_SMALL_TABLE = 6
"""Ruling 2: 32 cards for 5–6 players, 52 for 7–20, by the starting count."""


class Suit(enum.IntEnum):
    """A suit, numbered in the canonical deck order (it only breaks the dealer's ties)."""

    C = 0
    D = 1
    H = 2
    S = 3

    def __str__(self) -> str:
        return self.name


class Card(NamedTuple):
    """One card; ``rank`` is its face value, ace 1 (lowest) to king 13 (highest)."""

    rank: int
    suit: Suit

    def __str__(self) -> str:
        return RANK_CODES[self.rank] + self.suit.name

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def code(self) -> str:
        """The contract's spelling: rank then suit, e.g. ``AC`` or ``10H``."""
        return str(self)

    @property
    def is_king(self) -> bool:
        return self.rank == KING

    @staticmethod
    def parse(text: str) -> Card:
        """The card spelled like ``KS``, ``10H`` or ``AC`` (any rank of the 52-card deck)."""
        try:
            return CARD_BY_CODE[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a card (a rank A, 2 … 10, J, Q or K then a suit C, D, H or S)") from None


SUITS = tuple(Suit)
DECK_32: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS_32)
"""The 32-card deck in canonical order: index 0 ``AC``, 1 ``7C``, 7 ``KC``, 8 ``AD``, 31 ``KS``."""
DECK_52: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS_52)
"""The 52-card deck in canonical order: index 0 ``AC``, 1 ``2C``, 12 ``KC``, 13 ``AD``, 51 ``KS``."""
CARD_BY_CODE = {str(card): card for card in DECK_52}


def deck_size(players: int) -> int:
    """The deck used for the whole game by its starting number of players (ruling 2)."""
    return 32 if players <= LARGEST_SMALL_TABLE else 52


def deck_of(size: int) -> tuple[Card, ...]:
    """The deck of ``size`` (32 or 52) cards in canonical order."""
    if size == 32:
        return DECK_32
    if size == 52:
        return DECK_52
    raise ValueError(f"coucou is played with 32 or 52 cards, not {size}")


def ranks_of(size: int) -> tuple[int, ...]:
    """The ranks of the deck of ``size`` cards, weakest to strongest."""
    return RANKS_32 if size == 32 else RANKS_52
