"""Cards, deck order, values and the deal (tarot-record-format.md, "Cards", "Who deals", "Known answers")."""

from __future__ import annotations

import pytest
from tests.games.tarot.helpers import cards

from couyon.common.stream import Stream
from couyon.games.tarot.cards import (
    CARD_CODES,
    CARDS,
    DECK_HALF_POINTS,
    FULL_DECK_MASK,
    HAND_SIZES,
    SEATS_OF,
    Card,
    Suit,
    cards_of,
    half_points,
    mask_of,
)
from couyon.games.tarot.game import dealt_hands, first_dealer, new_game, shuffled_deck


def test_canonical_deck_order() -> None:
    """Contract: 0 is 1C, 13 is KC, 14 is 1D, 55 is KS, 56 is 1T, 76 is 21T, 77 is EX."""
    assert len(CARDS) == 78 and len(set(CARD_CODES)) == 78
    expected = {0: "1C", 9: "10C", 10: "JC", 11: "NC", 12: "QC", 13: "KC", 14: "1D", 55: "KS", 56: "1T"}
    expected |= {76: "21T", 77: "EX"}
    assert {index: CARD_CODES[index] for index in expected} == expected
    assert all(Card.parse(card.code) == card and str(card) == card.code for card in CARDS)
    assert eval(repr(CARDS[40]), {"Card": Card}) == CARDS[40]


def test_suits_trumps_and_the_excuse() -> None:
    """Contract: "trump" means 1T–21T only; EX is not a trump and has no suit."""
    assert [card.suit for card in cards("1C KD 10H NS 1T 21T")] == [Suit.C, Suit.D, Suit.H, Suit.S, Suit.T, Suit.T]
    excuse = Card.parse("EX")
    assert excuse.suit is None and not excuse.is_trump
    assert [card.rank for card in cards("1C KC 1T 21T")] == [0, 13, 0, 20]
    with pytest.raises(ValueError):
        Card.parse("1t")


def test_card_values_in_half_points() -> None:
    """Contract: bouts and kings 9, queens 7, knights 5, jacks 3, every other card 1; 182 in all (91 points)."""
    assert [card.half_points for card in cards("1T 21T EX KS QH ND JC 10C 1D 20T")] == [9, 9, 9, 9, 7, 5, 3, 1, 1, 1]
    assert DECK_HALF_POINTS == 182 == half_points(FULL_DECK_MASK)
    assert half_points(0) == 0


def test_stream_known_answers() -> None:
    """Contract, "Known answers": stream("tarot-exemple", "dealer") and the first dealers."""
    stream = Stream("tarot-exemple", "dealer")
    assert [stream.next_u32() for _ in range(3)] == [2877265072, 1496471837, 2633136245]
    assert [str(first_dealer("tarot-exemple", players)) for players in (3, 4, 5)] == ["W", "S", "NW"]


def test_shuffle_known_answers() -> None:
    """Contract, "Known answers": deal 1's shuffled positions 0–11 and 72–77."""
    deck = shuffled_deck("tarot-exemple", 1)
    assert " ".join(map(str, deck[:12])) == "4S 20T KD 1T 8D 8S 10C 7H 2D 4T 7T 5T"
    assert " ".join(map(str, deck[72:])) == "KH 7S 1D 3H JS 14T"
    assert sorted(deck) == list(CARDS)


def test_deal_known_answers() -> None:
    """Contract, "Known answers": who receives the first packets, and the chien, at 3, 4 and 5 players."""
    deck = shuffled_deck("tarot-exemple", 1)
    hands, chien = dealt_hands(deck, 4, dealer=0)  # dealer S, who receives packets 3 and 7 first
    west, south = set(cards_of(hands[1])), cards_of(hands[0])
    assert set(cards("4S 20T KD")) <= west
    assert [deck[9], deck[10], deck[11], deck[21], deck[22], deck[23]] == list(cards("4T 7T 5T 9C 11T 8T"))
    assert set(cards("4T 7T 5T 9C 11T 8T")) <= set(south)
    assert cards_of(chien) == tuple(sorted(cards("KH 7S 1D 3H JS 14T")))
    game = new_game("tarot-exemple", 5)
    assert str(SEATS_OF[5][game.deal.dealer]) == "NW"
    assert cards_of(game.deal.chien) == tuple(sorted(cards("3H JS 14T")))
    game = new_game("tarot-exemple", 3)
    east = cards_of(game.deal.hands[SEATS_OF[3].index(SEATS_OF[3][2])])
    assert set(cards("4S 20T KD")) <= set(east)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_packets_of_three_from_the_dealers_left(players: int) -> None:
    """Ruling 3 / contract: packet q (positions 3q…3q+2) goes (q mod n) + 1 places left of the dealer."""
    deck = shuffled_deck("packets", 7)
    for dealer in range(players):
        hands, chien = dealt_hands(deck, players, dealer)
        packets = players * HAND_SIZES[players] // 3
        for packet in range(packets):
            seat = (dealer + packet % players + 1) % players
            assert all(hands[seat] >> card & 1 for card in deck[3 * packet : 3 * packet + 3])
        assert [hand.bit_count() for hand in hands] == [HAND_SIZES[players]] * players
        assert cards_of(chien) == tuple(sorted(deck[3 * packets :]))


def test_cards_of_and_mask_of_round_trip() -> None:
    """``cards_of`` reads a mask in canonical order (eight cards at a time): the same as bit by bit."""
    stream = Stream("masks", "cards_of")
    for _ in range(500):
        mask = sum(1 << card for card in range(78) if stream.uniform(3) == 0)
        assert cards_of(mask) == tuple(card for card in CARDS if mask >> card & 1)
        assert mask_of(cards_of(mask)) == mask
    assert cards_of(0) == () and cards_of(FULL_DECK_MASK) == CARDS
