"""Card sets as integer masks, for every game whose cards are small ints (couyon's 24, tarot's 78): bit ``i`` of a
mask is card ``i``."""

from __future__ import annotations

from collections.abc import Iterable


def mask_of(cards: Iterable[int]) -> int:
    """The mask holding these cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_in(mask: int) -> list[int]:
    """The cards of a mask, lowest index first."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards


def top_down(mask: int) -> list[int]:
    """The cards of a mask, highest index first."""
    cards = []
    while mask:
        card = mask.bit_length() - 1
        cards.append(card)
        mask ^= 1 << card
    return cards
