"""The couyon de Malmedy's card rules (``../shared/spec/malmedy.md``): trumps, what may be played, who wins a trick,
and how a played deal is scored.

The queen of clubs is always a trump, and the queen of spades once a mite is announced:
each belongs to the trump suit for every purpose (ruling 4 and 5). Rules code therefore
works with a *trump mask* (the trump suit, the queen of clubs and a mite queen of spades)
and a *strength* that orders the trumps A, Q♠ (mite), Q♣, K, (Q), J, 10, 9.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from couyon.games.couyon.cards import CARDS, RANKS_PER_SUIT, SUIT_MASKS, Card, Team
from couyon.games.couyon.rules import Outcome

QUEEN_OF_CLUBS = Card.parse("QC")
QUEEN_OF_SPADES = Card.parse("QS")
"""The *mite*: a trump once its holder announces it."""
HAND_SIZE = 5
STARTING_LINES = 13
FIRST_PACKET = 3
BLIND_SIZE = 4


def trump_mask(trump: int, mite: bool) -> int:
    """Every card that counts as a trump: the trump suit, the queen of clubs, and the queen of spades after a mite."""
    return SUIT_MASKS[trump] | 1 << QUEEN_OF_CLUBS | (1 << QUEEN_OF_SPADES if mite else 0)


_NATURAL_STRENGTH = tuple(4 * (card % RANKS_PER_SUIT) for card in range(len(CARDS)))
"""Strength of a card in its own suit: 9 → 0, 10 → 4, J → 8, Q → 12, K → 16, A → 20."""


def strength(card: int, trump: int, mite: bool) -> int:
    """The card's strength among the cards of its effective suit: Q♠ (mite) 18 and Q♣ 17 sit between K 16 and A 20."""
    if card == QUEEN_OF_SPADES and mite:
        return 18
    if card == QUEEN_OF_CLUBS:
        return 17
    return _NATURAL_STRENGTH[card]


def effective_suit(card: int, trump: int, mite: bool) -> int:
    """The suit a card belongs to for every purpose: the trump suit for the queen of clubs and a mite queen of spades."""
    return trump if trump_mask(trump, mite) >> card & 1 else card // RANKS_PER_SUIT


def legal_cards(hand: int, trick: Sequence[int], trump: int, mite: bool) -> int:
    """The cards of ``hand`` that may go onto ``trick`` (ruling 7, free play).

    Lead anything. Holding the led suit, play one of it or any trump, with no
    obligation to beat; void in it, play anything. A trump lead asks for trump.
    """
    if not trick:
        return hand
    trumps = trump_mask(trump, mite)
    led = effective_suit(trick[0], trump, mite)
    if led == trump:
        return hand & trumps or hand
    following = hand & SUIT_MASKS[led] & ~trumps
    return following | hand & trumps if following else hand


def trick_winner(trick: Sequence[int], trump: int, mite: bool) -> int:
    """The position in ``trick`` of its winner: the strongest trump, else the strongest card of the led suit (ruling 8)."""
    trumps = trump_mask(trump, mite)
    led = effective_suit(trick[0], trump, mite)
    best, best_key = 0, -1
    for position, card in enumerate(trick):
        if trumps >> card & 1:
            key = 100 + strength(card, trump, mite)
        elif card // RANKS_PER_SUIT == led:
            key = strength(card, trump, mite)
        else:
            continue
        if key > best_key:
            best, best_key = position, key
    return best


def lines_erased(capot: bool, mite: bool, contra: int) -> int:
    """Lines the deal's winner erases (ruling 10): 1, plus capot, plus a mite, plus a contra and a recontra."""
    return 1 + capot + mite + contra


@dataclass(frozen=True, slots=True)
class MalmedyScore:
    """What a played deal does to the chalk."""

    outcome: Outcome
    winner: Team
    capot: Team | None
    lines: tuple[int, int]


def score_deal(
    lines: tuple[int, int],
    choosing_team: Team,
    points: tuple[int, int],
    tricks: tuple[int, int],
    mite: bool,
    contra: int,
) -> MalmedyScore:
    """Score a played deal (rulings 9 and 10).

    The choosing team makes it with strictly more card points, else fails. The deal's
    winner erases ``lines_erased`` lines (never below zero); a failing choosing team
    also adds one line, the couille, and only one.
    """
    made = points[choosing_team] > points[1 - choosing_team]
    winner = choosing_team if made else choosing_team.other
    capot = winner if tricks[winner] == HAND_SIZE else None
    new_lines = list(lines)
    new_lines[winner] = max(0, lines[winner] - lines_erased(capot is not None, mite, contra))
    if not made:
        new_lines[choosing_team] += 1
    return MalmedyScore(Outcome.MADE if made else Outcome.FAILED, winner, capot, (new_lines[0], new_lines[1]))
