"""The rules of couyon as a configuration plus small pure functions.

A ``Variant`` names every choice a regional variant may make differently (hand size,
deal pattern, starting lines, card points, play obligations, trick winner, scoring).
``STANDARD`` is the common game of the product text; another variant is a new
``Variant`` value with its own small functions, not a fork of the engine.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from couyon.games.couyon.cards import ABOVE_MASKS, DECK_SIZE, RANKS_PER_SUIT, SUIT_MASKS, Team

CARD_POINTS = tuple((0, 0, 1, 2, 3, 4)[card % RANKS_PER_SUIT] for card in range(DECK_SIZE))
"""Points of each card: ace 4, king 3, queen 2, jack 1, ten and nine nothing."""


class Outcome(enum.Enum):
    """How a deal ended, spelled as in the record contract."""

    MADE = "made"
    FAILED = "failed"
    TIE = "tie"
    REDEAL = "redeal"

    def __str__(self) -> str:
        return self.value


def standard_legal_cards(hand: int, trick: Sequence[int], trump: int) -> int:
    """The mask of the cards of ``hand`` that may be played onto ``trick``.

    Rules (product text, "Les obligations"; rulings 3 and 4): lead anything; holding
    the led suit, play one that beats the highest card of that suit on the table if
    you can, else any of that suit; void in it, trump, overtrumping the highest trump
    on the table if you can, else undertrump; with neither, discard anything.
    Who is winning the trick, partner or not, changes nothing.
    """
    if not trick:
        return hand
    led_suit = trick[0] // RANKS_PER_SUIT
    following = hand & SUIT_MASKS[led_suit]
    if following:
        return _beating_the_table(following, trick, led_suit) or following
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        return _beating_the_table(trumps, trick, trump) or trumps
    return hand


def _beating_the_table(candidates: int, trick: Sequence[int], suit: int) -> int:
    """The candidates that beat every card of ``suit`` already on the table."""
    # ABOVE_MASKS[c] holds the cards of c's suit that beat c: and-ing them over the
    # table's cards of one suit leaves exactly the cards that beat the highest of them.
    for card in trick:
        if card // RANKS_PER_SUIT == suit:
            candidates &= ABOVE_MASKS[card]
    return candidates


def standard_trick_winner(trick: Sequence[int], trump: int) -> int:
    """The position in ``trick`` of the winning card: the highest trump, else the highest of the led suit."""
    led_suit = trick[0] // RANKS_PER_SUIT
    best = 0
    best_key = -1
    for position, card in enumerate(trick):
        suit = card // RANKS_PER_SUIT
        if suit == trump:
            key = 2 * RANKS_PER_SUIT + card % RANKS_PER_SUIT
        elif suit == led_suit:
            key = RANKS_PER_SUIT + card % RANKS_PER_SUIT
        else:
            continue
        if key > best_key:
            best, best_key = position, key
    return best


@dataclass(frozen=True, slots=True)
class DealScore:
    """What a finished deal does to the chalk: its outcome, the new lines and the next stake."""

    outcome: Outcome
    lines: tuple[int, int]
    next_stake: int


def standard_score_deal(lines: tuple[int, int], taker_team: Team, points: tuple[int, int], stake: int) -> DealScore:
    """Score a played deal (product text, "La marque à la craie"; rulings 5 and 6).

    The taker's team makes it with strictly more points and erases ``stake`` lines;
    with fewer it fails: it adds ``stake`` lines and the other team erases ``stake``.
    Equal points are a tie ("la craie dans le trou"): nobody scores and the next
    played deal counts double, never more. Lines never go below zero.
    """
    taker_points = points[taker_team]
    other_points = points[1 - taker_team]
    new_lines = list(lines)
    if taker_points > other_points:
        new_lines[taker_team] = max(0, lines[taker_team] - stake)
        return DealScore(Outcome.MADE, (new_lines[0], new_lines[1]), 1)
    if taker_points < other_points:
        new_lines[taker_team] = lines[taker_team] + stake
        new_lines[1 - taker_team] = max(0, lines[1 - taker_team] - stake)
        return DealScore(Outcome.FAILED, (new_lines[0], new_lines[1]), 1)
    return DealScore(Outcome.TIE, lines, 2)


@dataclass(frozen=True, slots=True)
class Variant:
    """Everything in which one regional game of couyon may differ from another."""

    name: str
    hand_size: int
    deal_pattern: tuple[int, ...]
    """Packet sizes dealt round the table, starting at the dealer's left."""
    starting_lines: int
    card_points: tuple[int, ...]
    legal_cards: Callable[[int, Sequence[int], int], int]
    trick_winner: Callable[[Sequence[int], int], int]
    score_deal: Callable[[tuple[int, int], Team, tuple[int, int], int], DealScore]
    actions: str = "take, pass or a card like AH or 10C"
    """How error sentences name the actions this variant's records may hold."""
    fold: Any = None
    """The variant's own deal and bidding fold (``couyon.games.malmedy.game.MALMEDY_FOLD``), or None for the
    standard fold of ``couyon.games.couyon.game``, which keeps its hot path free of any indirection."""
    deals: int | None = None
    """A game that ends once this many deals are done (a deal nobody took is one of them) if no side's lines are
    done before: a club's tournament in deals plays games of one deal (docs/clubs.md). None: the game runs until a
    side's lines are done, as every record names it (``couyon-record/1`` has no such key)."""

    @property
    def dealt_cards(self) -> int:
        return 4 * self.hand_size

    @property
    def max_proposals(self) -> int:
        """The turned card and every talon card after it can each be proposed once."""
        return DECK_SIZE - self.dealt_cards


def dealt_variant(variant: Variant, options: Mapping[str, int | str]) -> Variant:
    """The variant a game dealt with these table options is folded with: ``variant``, ended after ``deals`` deals
    when the options name them (a club tournament's game of one deal, ``Variant.deals``)."""
    deals = options.get("deals")
    return variant if deals is None else replace(variant, deals=int(deals))


STANDARD = Variant(
    name="standard",
    hand_size=4,
    deal_pattern=(2, 2),
    starting_lines=5,
    card_points=CARD_POINTS,
    legal_cards=standard_legal_cards,
    trick_winner=standard_trick_winner,
    score_deal=standard_score_deal,
)
