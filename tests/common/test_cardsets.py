"""Card sets as masks (``couyon.common.cardsets``), shared by couyon's 24 cards and tarot's 78."""

from __future__ import annotations

import pytest

from couyon.common.cardsets import cards_in, mask_of, top_down
from couyon.common.stream import Stream


def random_masks(deck_size: int, count: int) -> list[int]:
    stream = Stream("cardsets", f"masks:{deck_size}")
    masks = [0, (1 << deck_size) - 1, 1, 1 << (deck_size - 1)]
    masks += [sum(1 << card for card in range(deck_size) if stream.uniform(2)) for _ in range(count)]
    return masks


@pytest.mark.parametrize("deck_size", [24, 78])
def test_the_cards_of_a_mask_in_both_orders(deck_size: int) -> None:
    for mask in random_masks(deck_size, 50):
        held = [card for card in range(deck_size) if mask >> card & 1]
        assert cards_in(mask) == held
        assert top_down(mask) == held[::-1]
        assert mask_of(held) == mask
        assert mask_of(reversed(held)) == mask


def test_a_card_given_twice_is_held_once() -> None:
    assert mask_of([3, 3, 77]) == 1 << 3 | 1 << 77
