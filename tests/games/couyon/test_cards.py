"""Cards, suits, seats and teams (record-format.md, "Seats, teams, cards")."""

from __future__ import annotations

import pytest

from couyon.games.couyon.cards import (
    CARD_CODES,
    CARDS,
    DECK_SIZE,
    FULL_DECK_MASK,
    SEATS,
    Card,
    Seat,
    Suit,
    Team,
    cards_of,
    mask_of,
)


def test_deck_is_24_cards_in_the_contract_order() -> None:
    """Contract: index 0 is 9C, 5 is AC, 6 is 9D, 23 is AS; suits C, D, H, S; ranks 9, 10, J, Q, K, A."""
    assert DECK_SIZE == len(CARDS) == len(set(CARD_CODES)) == 24
    assert [CARD_CODES[i] for i in (0, 5, 6, 23)] == ["9C", "AC", "9D", "AS"]
    assert CARD_CODES[:6] == ("9C", "10C", "JC", "QC", "KC", "AC")
    assert [str(Card.parse(code).suit) for code in ("9C", "AD", "10H", "QS")] == ["C", "D", "H", "S"]


def test_rank_order_is_the_same_in_every_suit() -> None:
    """Rule book: ace, king, queen, jack, ten, nine from strongest to weakest, trump included."""
    for suit in "CDHS":
        ranks = [Card.parse(rank + suit).rank for rank in ("9", "10", "J", "Q", "K", "A")]
        assert ranks == [0, 1, 2, 3, 4, 5]


def test_card_codes_round_trip() -> None:
    """Contract: a card is rank then suit; parsing and printing are inverse."""
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card  # repr is valid code, as python-chess does


@pytest.mark.parametrize("text", ["", "1H", "AX", "ah", "10", "H10", "AS ", None])
def test_card_parse_refuses_unknown_codes(text: str) -> None:
    """Contract: only rank-then-suit codes are cards; anything else is a clear ValueError."""
    with pytest.raises(ValueError, match="is not a card"):
        Card.parse(text)


def test_masks_and_card_lists_convert_both_ways() -> None:
    """A hand is a 24-bit mask of canonical indexes."""
    hand = (Card.parse("AS"), Card.parse("9C"), Card.parse("10H"))
    mask = mask_of(hand)
    assert cards_of(mask) == tuple(sorted(hand))
    assert cards_of(FULL_DECK_MASK) == CARDS


def test_seats_turn_clockwise_and_form_two_teams() -> None:
    """Contract: seats S, W, N, E clockwise; left of S is W; teams NS and WE."""
    assert [str(seat) for seat in SEATS] == ["S", "W", "N", "E"]
    assert [seat.left for seat in SEATS] == [Seat.W, Seat.N, Seat.E, Seat.S]
    assert [seat.partner for seat in SEATS] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert [seat.team for seat in SEATS] == [Team.NS, Team.WE, Team.NS, Team.WE]
    assert Team.NS.other is Team.WE and Team.WE.other is Team.NS


def test_seat_and_suit_parse_refuse_unknown_names() -> None:
    """Bad input is one clear sentence."""
    assert Seat.parse("E") is Seat.E and Suit.parse("H") is Suit.H
    with pytest.raises(ValueError, match="is not a seat"):
        Seat.parse("X")
    with pytest.raises(ValueError, match="is not a suit"):
        Suit.parse("♥")
