"""The standard rules as pure functions, on small hand-built positions (rule book, rulings 3–6)."""

from __future__ import annotations

import pytest

from couyon.games.couyon.cards import CARDS, Card, Suit, Team, cards_of, mask_of
from couyon.games.couyon.rules import (
    CARD_POINTS,
    STANDARD,
    Outcome,
    standard_legal_cards,
    standard_score_deal,
    standard_trick_winner,
)
from couyon.games.malmedy.record import variant_named


def hand(text: str) -> int:
    return mask_of(Card.parse(code) for code in text.split())


def table(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def legal(held: str, on_table: str, trump: Suit) -> set[str]:
    return {str(card) for card in cards_of(standard_legal_cards(hand(held), table(on_table), trump))}


# --- the deck and its points


def test_card_points_ace_4_king_3_queen_2_jack_1_ten_and_nine_nothing() -> None:
    """Rule book, "Les cartes et leur valeur": A 4, K 3, Q 2, J 1, 10 and 9 nothing, 40 in the deck."""
    for suit in "CDHS":
        assert [CARD_POINTS[Card.parse(rank + suit)] for rank in ("A", "K", "Q", "J", "10", "9")] == [4, 3, 2, 1, 0, 0]
    assert sum(CARD_POINTS[card] for card in CARDS) == 40
    assert STANDARD.card_points == CARD_POINTS


def test_standard_variant_deals_four_cards_in_packets_of_two_and_proposes_up_to_eight() -> None:
    """Rule book: four cards each, two then two; the 17th card and the seven talon cards can be proposed."""
    assert variant_named("standard") is STANDARD
    assert (STANDARD.hand_size, STANDARD.deal_pattern, STANDARD.dealt_cards) == (4, (2, 2), 16)
    assert STANDARD.max_proposals == 8 and STANDARD.starting_lines == 5


def test_unknown_variant_is_refused_by_name() -> None:
    """Variants are looked up by name: ``standard`` and ``malmedy`` exist."""
    assert variant_named("malmedy").name == "malmedy"
    with pytest.raises(ValueError, match="unknown variant 'six-players'; known variants: malmedy, standard"):
        variant_named("six-players")


# --- the obligations


def test_lead_any_card() -> None:
    """Rule book: the player who leads a trick may play any card."""
    assert legal("AH 9C 10S QD", "", Suit.S) == {"AH", "9C", "10S", "QD"}


def test_follow_and_beat_the_highest_card_of_the_led_suit() -> None:
    """Ruling 3: holding the led suit, play one higher than the highest of that suit on the table."""
    assert legal("AH 9H KH 9S", "QH", Suit.S) == {"AH", "KH"}


def test_follow_and_beat_cannot_keep_the_ace_when_the_king_fell() -> None:
    """Rule book: "Impossible de garder ton as pour plus tard quand le roi vient de tomber"."""
    assert legal("AH 9H JC", "10H KH", Suit.S) == {"AH"}


def test_follow_with_any_card_of_the_led_suit_when_none_beats() -> None:
    """Ruling 3: if no card of the led suit beats the highest on the table, any card of that suit."""
    assert legal("9H 10H AS", "AH", Suit.S) == {"9H", "10H"}


def test_follow_and_beat_still_applies_after_a_trump_on_a_plain_lead() -> None:
    """Ruling 3: after somebody trumped a plain lead, a player holding the led suit must still beat it."""
    assert legal("AH 9H AS", "QH 9S", Suit.S) == {"AH"}
    assert legal("9H 10H AS", "QH 9S", Suit.S) == {"9H", "10H"}


def test_follow_and_beat_when_trump_is_led() -> None:
    """Ruling 3: a trump lead is a led suit like any other: beat the highest trump if you can."""
    assert legal("AS 9S KH", "QS", Suit.S) == {"AS"}
    assert legal("9S 10S KH", "QS", Suit.S) == {"9S", "10S"}
    assert legal("KH AH 9C", "QS", Suit.S) == {"KH", "AH", "9C"}


def test_void_in_led_suit_must_trump() -> None:
    """Rule book and ruling 4: without the led suit, play a trump."""
    assert legal("9S AC QD", "KH", Suit.S) == {"9S"}


def test_trump_and_overtrump_when_a_trump_is_on_the_table() -> None:
    """Ruling 4: if a trump is already on the table, overtrump it if you can."""
    assert legal("9S KS AC", "KH QS", Suit.S) == {"KS"}


def test_overtrump_beats_the_highest_trump_on_the_table() -> None:
    """Ruling 4: the trump to beat is the highest one on the table, not the last one."""
    assert legal("JS KS AC", "KH QS 10S", Suit.S) == {"KS"}


def test_undertrump_only_when_forced() -> None:
    """Ruling 4: a player who cannot overtrump still plays a lower trump rather than discarding."""
    assert legal("9S 10S AC", "KH QS", Suit.S) == {"9S", "10S"}
    assert legal("9S KS AC", "KH QS", Suit.S) == {"KS"}


def test_discard_only_with_neither_led_suit_nor_trump() -> None:
    """Ruling 4: only a player with neither the led suit nor a trump may discard any card."""
    assert legal("AC QD 9C", "KH QS", Suit.S) == {"AC", "QD", "9C"}
    assert legal("AC QD 9S", "KH", Suit.S) == {"9S"}


def test_no_partner_exemption() -> None:
    """Ruling 4: being partnered with the current winner changes nothing; the obligations ignore seats."""
    # South leads AH and wins so far; North (partner) holds no heart: it must still trump,
    # and a player holding hearts must still try to beat the partner's ace (here it cannot).
    assert legal("9S AC", "AH 9D", Suit.S) == {"9S"}
    assert legal("9H 10H", "AH 9D", Suit.S) == {"9H", "10H"}
    # The signature has no seat at all: who is winning cannot enter the decision.
    assert STANDARD.legal_cards is standard_legal_cards


# --- the trick


def test_trick_winner_is_highest_trump() -> None:
    """Rule book: the trick goes to the highest trump if there is one."""
    assert standard_trick_winner(table("AH 9S KH 10S"), Suit.S) == 3


def test_trick_winner_is_highest_of_led_suit_without_trump() -> None:
    """Rule book: without trump, the highest card of the led suit wins; discards of other suits never win."""
    assert standard_trick_winner(table("QH AC KH AD"), Suit.S) == 2


def test_trick_winner_when_trump_is_led() -> None:
    """Rule book: an ace of trump stays the ace; nothing beats it."""
    assert standard_trick_winner(table("10S AS KS 9S"), Suit.S) == 1


def test_trick_winner_lead_wins_when_nobody_follows() -> None:
    """Rule book: the led card wins when nobody plays its suit or a trump."""
    assert standard_trick_winner(table("9H AC AD KC"), Suit.S) == 0


# --- the deal's outcome and the chalk


def test_made_taker_team_erases_stake_lines() -> None:
    """Rule book, "La marque à la craie": strictly more points, the taker's team erases one line."""
    scored = standard_score_deal((5, 5), Team.WE, (10, 11), 1)
    assert (scored.outcome, scored.lines, scored.next_stake) == (Outcome.MADE, (5, 4), 1)


def test_failed_taker_team_adds_and_other_team_erases() -> None:
    """Rule book: fewer points, the taker's team adds a line and the other erases one."""
    scored = standard_score_deal((5, 5), Team.NS, (9, 12), 1)
    assert (scored.outcome, scored.lines, scored.next_stake) == (Outcome.FAILED, (6, 4), 1)


def test_tie_nobody_scores_and_next_stake_is_two() -> None:
    """Rule book, "la craie dans le trou": equal points, nobody scores, the next deal counts double."""
    scored = standard_score_deal((3, 4), Team.NS, (10, 10), 1)
    assert (scored.outcome, scored.lines, scored.next_stake) == (Outcome.TIE, (3, 4), 2)


def test_tie_after_a_tie_stays_at_two_never_four() -> None:
    """Ruling 5: a second tie keeps the stake at 2, never 4."""
    assert standard_score_deal((3, 4), Team.WE, (0, 0), 2).next_stake == 2


def test_doubled_stake_made_erases_two_and_resets_to_one() -> None:
    """Ruling 5: the doubled deal erases two lines when made; the stake then returns to 1."""
    scored = standard_score_deal((5, 5), Team.NS, (12, 8), 2)
    assert (scored.lines, scored.next_stake) == ((3, 5), 1)


def test_doubled_stake_failed_adds_two_and_erases_two_and_resets() -> None:
    """Ruling 5: the doubled deal counts double on both sides when failed; the stake then returns to 1."""
    scored = standard_score_deal((5, 5), Team.NS, (8, 12), 2)
    assert (scored.outcome, scored.lines, scored.next_stake) == (Outcome.FAILED, (7, 3), 1)


def test_lines_go_above_five() -> None:
    """Ruling 6: a failed take adds lines even above five."""
    assert standard_score_deal((5, 5), Team.WE, (7, 0), 2).lines == (3, 7)


def test_lines_never_below_zero() -> None:
    """Ruling 6: a team that should erase more lines than it has simply reaches zero."""
    assert standard_score_deal((1, 5), Team.NS, (4, 0), 2).lines == (0, 5)
    assert standard_score_deal((5, 1), Team.NS, (0, 4), 2).lines == (7, 0)


def test_zero_points_each_is_a_tie() -> None:
    """Rule book: "égalité parfaite des points" includes a deal where neither team won a figure."""
    assert standard_score_deal((5, 5), Team.NS, (0, 0), 1).outcome is Outcome.TIE
