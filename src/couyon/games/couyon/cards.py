"""Cards, suits, ranks and seats of couyon, as small immutable value types.

A card is an ``int`` from 0 to 23 in the canonical deck order of the record contract
(suits C, D, H, S; inside a suit the ranks 9, 10, J, Q, K, A), so that a hand is a
24-bit mask and rules code can use plain integer arithmetic on it.
"""

from __future__ import annotations

import enum

from couyon.common.cardsets import mask_of as mask_of

RANK_NAMES = ("9", "10", "J", "Q", "K", "A")
"""Rank codes from weakest to strongest, the same order in every suit, trump included."""

SUIT_NAMES = ("C", "D", "H", "S")
RANKS_PER_SUIT = len(RANK_NAMES)
DECK_SIZE = len(SUIT_NAMES) * RANKS_PER_SUIT


class Suit(enum.IntEnum):
    """A suit, numbered in the canonical deck order."""

    C = 0
    D = 1
    H = 2
    S = 3

    def __str__(self) -> str:
        return self.name

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Return the suit written ``C``, ``D``, ``H`` or ``S``."""
        try:
            return cls[text]
        except KeyError:
            raise ValueError(f"{text!r} is not a suit (C, D, H or S)") from None


class Card(int):
    """A card: an int from 0 (``9C``) to 23 (``AS``) with readable accessors.

    The 24 instances are made once (see ``CARDS``); ``Card.parse`` and ``CARDS[i]``
    return them, so identity, equality and hashing are those of plain ints.
    """

    __slots__ = ()

    @property
    def suit(self) -> Suit:
        return SUITS[self // RANKS_PER_SUIT]

    @property
    def rank(self) -> int:
        """Strength inside the suit: 0 for the nine up to 5 for the ace."""
        return self % RANKS_PER_SUIT

    @property
    def code(self) -> str:
        """The contract's spelling: rank then suit, e.g. ``10H``."""
        return CARD_CODES[self]

    def __str__(self) -> str:
        return CARD_CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_CODES[self]!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Return the card spelled like ``AS``, ``10H`` or ``9C``."""
        try:
            return CARD_BY_CODE[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a card (a rank 9, 10, J, Q, K or A then a suit C, D, H or S)") from None


SUITS = tuple(Suit)
CARD_CODES = tuple(rank + suit for suit in SUIT_NAMES for rank in RANK_NAMES)
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, index) for index in range(DECK_SIZE))
CARD_BY_CODE = {code: card for code, card in zip(CARD_CODES, CARDS, strict=True)}

SUIT_OF = tuple(SUITS[card // RANKS_PER_SUIT] for card in range(DECK_SIZE))
SUIT_MASKS = tuple(((1 << RANKS_PER_SUIT) - 1) << (suit * RANKS_PER_SUIT) for suit in range(len(SUITS)))
ABOVE_MASKS = tuple(SUIT_MASKS[card // RANKS_PER_SUIT] & ~((2 << card) - 1) for card in range(DECK_SIZE))
"""For each card, the mask of the cards of its suit that beat it."""
FULL_DECK_MASK = (1 << DECK_SIZE) - 1


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    return tuple(CARDS[i] for i in range(DECK_SIZE) if mask >> i & 1)


class Seat(enum.IntEnum):
    """A seat, numbered clockwise in the order players speak and play: S, W, N, E."""

    S = 0
    W = 1
    N = 2
    E = 3

    def __str__(self) -> str:
        return SEAT_NAMES[self]  # Enum's ``name`` is a property lookup: a move's answer writes some fifty seats.

    @property
    def left(self) -> Seat:
        """The next seat clockwise, who speaks and plays after this one."""
        return SEATS[(self + 1) % 4]

    @property
    def team(self) -> Team:
        return TEAMS[self & 1]

    @property
    def partner(self) -> Seat:
        return SEATS[(self + 2) % 4]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """Return the seat written ``S``, ``W``, ``N`` or ``E``."""
        try:
            return cls[text]
        except KeyError:
            raise ValueError(f"{text!r} is not a seat (S, W, N or E)") from None


class Team(enum.IntEnum):
    """A team: South and North (the human's camp) or West and East."""

    NS = 0
    WE = 1

    def __str__(self) -> str:
        return TEAM_NAMES[self]

    @property
    def other(self) -> Team:
        return TEAMS[1 - self]


SEATS = tuple(Seat)
TEAMS = tuple(Team)
SEAT_NAMES = tuple(seat.name for seat in SEATS)
TEAM_NAMES = tuple(team.name for team in TEAMS)
