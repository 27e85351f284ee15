"""The 78 cards of tarot, their codes, values and masks, and the seats at 3, 4 and 5 players.

A card is an ``int`` from 0 to 77 in the contract's canonical deck order (suits C, D, H, S,
each ``1`` … ``10``, ``J``, ``N``, ``Q``, ``K``; then the trumps ``1T`` … ``21T``; then the
Excuse ``EX``), so a hand is a 78-bit mask and rules code works on plain integers
(tarot-record-format.md, "Cards").
"""

from __future__ import annotations

import enum
from collections.abc import Iterable

from couyon.common.cardsets import mask_of as mask_of

SUIT_CODES = ("C", "D", "H", "S")
RANK_CODES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K")
"""Suit ranks from weakest (the as) to strongest (the roi)."""

RANKS_PER_SUIT = len(RANK_CODES)
TRUMP_COUNT = 21
DECK_SIZE = len(SUIT_CODES) * RANKS_PER_SUIT + TRUMP_COUNT + 1
FIRST_TRUMP = len(SUIT_CODES) * RANKS_PER_SUIT
"""The index of ``1T`` (the Petit), 56."""
EXCUSE_INDEX = DECK_SIZE - 1
"""The index of ``EX``, 77."""


class Suit(enum.IntEnum):
    """The four plain suits and the trumps (``T``); the Excuse has no suit."""

    C = 0
    D = 1
    H = 2
    S = 3
    T = 4

    def __str__(self) -> str:
        return self.name


class Card(int):
    """A card: an int from 0 (``1C``) to 77 (``EX``); the 78 instances are made once (``CARDS``)."""

    __slots__ = ()

    @property
    def code(self) -> str:
        """The contract's spelling, e.g. ``10H``, ``NC``, ``21T``, ``EX``."""
        return CARD_CODES[self]

    @property
    def suit(self) -> Suit | None:
        """The card's suit, ``Suit.T`` for a trump, ``None`` for the Excuse."""
        return SUIT_OF[self]

    @property
    def rank(self) -> int:
        """Strength inside its suit: 0 (the as, or the Petit) upwards; 0 for the Excuse."""
        if self >= EXCUSE_INDEX:
            return 0
        if self >= FIRST_TRUMP:
            return self - FIRST_TRUMP
        return self % RANKS_PER_SUIT

    @property
    def is_trump(self) -> bool:
        """``1T`` to ``21T`` (the contract: the Excuse is not a trump)."""
        return FIRST_TRUMP <= self < EXCUSE_INDEX

    @property
    def half_points(self) -> int:
        """The card's value in half points: bouts and kings 9, queens 7, knights 5, jacks 3, others 1."""
        return HALF_POINTS[self]

    def __str__(self) -> str:
        return CARD_CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse({CARD_CODES[self]!r})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card spelled like ``KS``, ``10H``, ``1T`` or ``EX``."""
        try:
            return CARD_BY_CODE[text]
        except (KeyError, TypeError):
            raise ValueError(f"{text!r} is not a tarot card") from None


CARD_CODES: tuple[str, ...] = (
    *(rank + suit for suit in SUIT_CODES for rank in RANK_CODES),
    *(f"{number}T" for number in range(1, TRUMP_COUNT + 1)),
    "EX",
)
CARDS: tuple[Card, ...] = tuple(int.__new__(Card, index) for index in range(DECK_SIZE))
CARD_BY_CODE: dict[str, Card] = {code: card for code, card in zip(CARD_CODES, CARDS, strict=True)}
SUIT_OF: tuple[Suit | None, ...] = (
    *(Suit(card // RANKS_PER_SUIT) for card in range(FIRST_TRUMP)),
    *(Suit.T for _ in range(TRUMP_COUNT)),
    None,
)

PETIT = CARDS[FIRST_TRUMP]
TWENTY_ONE = CARDS[EXCUSE_INDEX - 1]
EXCUSE = CARDS[EXCUSE_INDEX]


def bit(card: int) -> int:
    return 1 << card


SUIT_MASKS: tuple[int, ...] = tuple(((1 << RANKS_PER_SUIT) - 1) << (suit * RANKS_PER_SUIT) for suit in range(4))
"""The mask of each plain suit, indexed by ``Suit`` (C, D, H, S)."""
TRUMP_MASK = ((1 << TRUMP_COUNT) - 1) << FIRST_TRUMP
EXCUSE_BIT = bit(EXCUSE_INDEX)
BOUT_MASK = bit(PETIT) | bit(TWENTY_ONE) | EXCUSE_BIT
FULL_DECK_MASK = (1 << DECK_SIZE) - 1


def _rank_mask(rank: str) -> int:
    return sum(bit(suit * RANKS_PER_SUIT + RANK_CODES.index(rank)) for suit in range(4))


JACK_MASK = _rank_mask("J")
KNIGHT_MASK = _rank_mask("N")
QUEEN_MASK = _rank_mask("Q")
KING_MASK = _rank_mask("K")
FACE_MASK = JACK_MASK | KNIGHT_MASK | QUEEN_MASK | KING_MASK
"""The cards a misère de tête forbids: every J, N, Q and K (ruling 11)."""

TRUMPS_ABOVE: tuple[int, ...] = tuple(
    TRUMP_MASK & ~((2 << card) - 1) if FIRST_TRUMP <= card < EXCUSE_INDEX else 0 for card in range(DECK_SIZE)
)
"""For each trump, the mask of the trumps that beat it (0 for any other card)."""

HALF_POINTS: tuple[int, ...] = tuple(
    9
    if bit(card) & (BOUT_MASK | KING_MASK)
    else 7
    if bit(card) & QUEEN_MASK
    else 5
    if bit(card) & KNIGHT_MASK
    else 3
    if bit(card) & JACK_MASK
    else 1
    for card in range(DECK_SIZE)
)
DECK_HALF_POINTS = sum(HALF_POINTS)
"""182 half points: the deck's 91 points."""


def half_points(mask: int) -> int:
    """The value in half points of the cards of ``mask``."""
    return (
        mask.bit_count()
        + 8 * (mask & (BOUT_MASK | KING_MASK)).bit_count()
        + 6 * (mask & QUEEN_MASK).bit_count()
        + 4 * (mask & KNIGHT_MASK).bit_count()
        + 2 * (mask & JACK_MASK).bit_count()
    )


_CARDS_OF_BYTE: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(tuple(CARDS[8 * k + i] for i in range(8) if byte >> i & 1 and 8 * k + i < DECK_SIZE) for byte in range(256))
    for k in range((DECK_SIZE + 7) // 8)
)
"""The cards of each byte of a mask, by byte position: ``cards_of`` reads a mask eight cards at a time."""


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, in canonical order."""
    cards: tuple[Card, ...] = ()
    position = 0
    while mask:
        byte = mask & 255
        if byte:
            cards += _CARDS_OF_BYTE[position][byte]
        mask >>= 8
        position += 1
    return cards


def codes(cards: Iterable[int]) -> list[str]:
    """The codes of ``cards``, in the order given."""
    return [CARD_CODES[card] for card in cards]


class Seat(enum.StrEnum):
    """A seat at the tarot table; which seats exist depends on the number of players (ruling 1)."""

    S = "S"
    W = "W"
    NW = "NW"
    N = "N"
    NE = "NE"
    E = "E"

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Seat.{self.name}"


PLAYER_COUNTS = (3, 4, 5)
SEATS_OF: dict[int, tuple[Seat, ...]] = {
    3: (Seat.S, Seat.W, Seat.E),
    4: (Seat.S, Seat.W, Seat.N, Seat.E),
    5: (Seat.S, Seat.W, Seat.NW, Seat.NE, Seat.E),
}
"""The seats in turn order for each player count; the next seat in a tuple is the left of the one before."""

HAND_SIZES = {3: 24, 4: 18, 5: 15}
CHIEN_SIZES = {3: 6, 4: 6, 5: 3}
PACKET = 3
