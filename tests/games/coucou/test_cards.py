"""Coucou cards (coucou-record-format.md, "Seats, direction, cards"): the two decks, their order and codes."""

from __future__ import annotations

import pytest

from couyon.games.coucou.cards import (
    DECK_32,
    DECK_52,
    KING,
    Card,
    Suit,
    deck_of,
    deck_size,
    ranks_of,
)


def test_canonical_32_card_deck_indexes_as_the_contract_lists() -> None:
    """Contract: 32 cards: index 0 AC, 1 7C, 7 KC, 8 AD, 31 KS."""
    assert len(DECK_32) == 32 and len(set(DECK_32)) == 32
    assert [str(DECK_32[i]) for i in (0, 1, 7, 8, 31)] == ["AC", "7C", "KC", "AD", "KS"]
    assert [str(card) for card in DECK_32[:8]] == ["AC", "7C", "8C", "9C", "10C", "JC", "QC", "KC"]


def test_canonical_52_card_deck_indexes_as_the_contract_lists() -> None:
    """Contract: 52 cards: index 0 AC, 1 2C, 12 KC, 13 AD, 51 KS."""
    assert len(DECK_52) == 52 and len(set(DECK_52)) == 52
    assert [str(DECK_52[i]) for i in (0, 1, 12, 13, 51)] == ["AC", "2C", "KC", "AD", "KS"]


@pytest.mark.parametrize(("players", "size"), [(5, 32), (6, 32), (7, 52), (8, 52), (20, 52)])
def test_deck_size_follows_the_starting_count(players: int, size: int) -> None:
    """Ruling 2: 32 cards for 5–6 players, 52 for 7–20."""
    assert deck_size(players) == size and len(deck_of(size)) == size


def test_ace_is_lowest_and_king_highest_in_both_decks() -> None:
    """Rule text and ruling 2: the ace is always the lowest card, the king the highest; with 32 the seven is just above the ace."""
    assert ranks_of(32) == (1, 7, 8, 9, 10, 11, 12, 13)
    assert ranks_of(52) == tuple(range(1, 14))
    for deck in (DECK_32, DECK_52):
        assert min(card.rank for card in deck) == Card.parse("AS").rank
        assert max(card.rank for card in deck) == KING == Card.parse("KC").rank


def test_codes_round_trip_and_spell_rank_then_suit() -> None:
    """Contract: a card is rank then suit: AC, 10H."""
    for card in DECK_52:
        assert Card.parse(str(card)) == card and card.code == str(card)
        assert eval(repr(card)) == card
    assert Card.parse("10H") == Card(10, Suit.H)
    for bad in ("1H", "11C", "TD", "ah", "KX", "", "10", "AC "):
        with pytest.raises(ValueError):
            Card.parse(bad)


def test_cards_compare_by_rank_then_suit_for_the_dealers_tie_break() -> None:
    """Contract: the dealer keeps the highest rank, and between equal ranks the suit that comes last in C, D, H, S."""
    assert max(Card.parse(code) for code in ("JC", "9H", "JH")) == Card.parse("JH")
    assert max(Card.parse(code) for code in ("QS", "KC", "KD")) == Card.parse("KD")
    assert sorted(Card.parse(code) for code in ("7S", "7C", "7H", "7D")) == [
        Card.parse(code) for code in ("7C", "7D", "7H", "7S")
    ]
