"""Exact solver of the play phase with every hand known: bitmasks, alpha-beta, transposition table.

A position is four hand masks (indexed by seat), the trump suit, the seat that led the
trick in progress and the cards already on the table. Its value is the difference of
card points the team NS (seats 0 and 2) will still win minus what WE will win, both
sides playing the standard obligations (product text, "Les obligations"; rulings 3
and 4) perfectly. Searching inside a window (``alpha``, ``beta``) is fail-soft: a
value at or below ``alpha`` (or at or above ``beta``) is only a bound, which is all the
chalk objective needs (see ``outcome_classes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from couyon.games.couyon.cards import ABOVE_MASKS as _ABOVE_MASKS
from couyon.games.couyon.cards import DECK_SIZE
from couyon.games.couyon.cards import RANKS_PER_SUIT as _RANKS_PER_SUIT
from couyon.games.couyon.cards import SUIT_MASKS as _SUIT_MASKS
from couyon.games.couyon.rules import CARD_POINTS as _CARD_POINTS

# The tables the search reads are Final here: compiled (scripts/compile.py), a Final name is a C static read
# directly, where an imported or plain global is a dictionary lookup on every node.
RANKS_PER_SUIT: Final = 6
assert RANKS_PER_SUIT == _RANKS_PER_SUIT
SUIT_MASKS: Final[tuple[int, ...]] = _SUIT_MASKS
ABOVE_MASKS: Final[tuple[int, ...]] = _ABOVE_MASKS
CARD_POINTS: Final[tuple[int, ...]] = _CARD_POINTS
_SUIT_OF: Final = tuple(card // RANKS_PER_SUIT for card in range(DECK_SIZE))
_INFINITY: Final = 1000
_SUIT_CHUNK: Final = (1 << RANKS_PER_SUIT) - 1
_POINTS_OF_CHUNK: Final = tuple(
    sum(CARD_POINTS[rank] for rank in range(RANKS_PER_SUIT) if chunk >> rank & 1)
    for chunk in range(1 << RANKS_PER_SUIT)
)
"""Card points of any holding inside one suit (points depend on the rank only)."""

TranspositionTable = dict[int, tuple[int, int]]


def _trick_start(
    h0: int, h1: int, h2: int, h3: int, trump: int, leader: int, alpha: int, beta: int, table: TranspositionTable
) -> int:
    """Value of the position at the start of a trick, with bounds kept per (cards left, leader).

    The hands are ints in playing order from the leader (``h0`` the leader's), not a list: a list stores each
    changed hand as a new Python int object, where ints passed along are C values once compiled.
    """
    if (h0 & (h0 - 1)) == 0:
        # One card each: the last trick plays itself.
        return _last_trick(h0, h1, h2, h3, trump, leader)
    left = h0 | h1 | h2 | h3
    # The tricks to come can move the difference by at most the points still in the hands:
    # when that cannot reach into the window, the bound is the answer.
    at_stake = (
        _POINTS_OF_CHUNK[left & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[left >> RANKS_PER_SUIT & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[left >> 2 * RANKS_PER_SUIT & _SUIT_CHUNK]
        + _POINTS_OF_CHUNK[left >> 3 * RANKS_PER_SUIT]
    )
    if at_stake <= alpha:
        return at_stake
    if -at_stake >= beta:
        return -at_stake
    key = left << 2 | leader
    bounds = table.get(key)
    if bounds is not None:
        lower, upper = bounds
        if lower >= beta:
            return lower
        if upper <= alpha:
            return upper
        if lower == upper:
            return lower
        alpha = max(alpha, lower)
        beta = min(beta, upper)
    else:
        lower, upper = -_INFINITY, _INFINITY
    value = _play(h0, h1, h2, h3, trump, leader, 0, -1, -1, -1, -1, 0, alpha, beta, table)
    if value <= alpha:
        table[key] = (lower, value)
    elif value >= beta:
        table[key] = (value, upper)
    else:
        table[key] = (value, value)
    return value


def _next_trick(
    h0: int,
    h1: int,
    h2: int,
    h3: int,
    trump: int,
    leader: int,
    offset: int,
    alpha: int,
    beta: int,
    table: TranspositionTable,
) -> int:
    """``_trick_start`` for the seat ``offset`` places after ``leader``, of hands in playing order from ``leader``."""
    winner = (leader + offset) & 3
    if offset == 0:
        return _trick_start(h0, h1, h2, h3, trump, winner, alpha, beta, table)
    if offset == 1:
        return _trick_start(h1, h2, h3, h0, trump, winner, alpha, beta, table)
    if offset == 2:
        return _trick_start(h2, h3, h0, h1, trump, winner, alpha, beta, table)
    return _trick_start(h3, h0, h1, h2, trump, winner, alpha, beta, table)


def _last_trick(h0: int, h1: int, h2: int, h3: int, trump: int, leader: int) -> int:
    """Value for NS of the last trick, one card in each hand (in playing order from ``leader``)."""
    winner = leader
    best = h0.bit_length() - 1
    points = CARD_POINTS[best]
    # A higher card of the winning card's suit wins, and so does a trump on a plain card.
    card = h1.bit_length() - 1
    points += CARD_POINTS[card]
    if card > best if _SUIT_OF[card] == _SUIT_OF[best] else _SUIT_OF[card] == trump:
        winner, best = leader + 1, card
    card = h2.bit_length() - 1
    points += CARD_POINTS[card]
    if card > best if _SUIT_OF[card] == _SUIT_OF[best] else _SUIT_OF[card] == trump:
        winner, best = leader + 2, card
    card = h3.bit_length() - 1
    points += CARD_POINTS[card]
    if card > best if _SUIT_OF[card] == _SUIT_OF[best] else _SUIT_OF[card] == trump:
        winner = leader + 3
    return points if winner & 1 == 0 else -points


def _play(
    hand: int,
    h1: int,
    h2: int,
    h3: int,
    trump: int,
    leader: int,
    position: int,
    high_led: int,
    high_led_position: int,
    high_trump: int,
    high_trump_position: int,
    points: int,
    alpha: int,
    beta: int,
    table: TranspositionTable,
) -> int:
    """Value for NS of the trick in progress (``position`` cards played) and every trick after it.

    ``hand`` is the hand of the seat to move, ``h1``, ``h2``, ``h3`` those of the seats after it: each play
    passes them on turned by one, so after the trick's fourth card they are in playing order from the leader.
    """
    if position == 4:
        offset = high_trump_position if high_trump >= 0 else high_led_position
        gained = points if (leader + offset) & 1 == 0 else -points
        if hand == 0:
            return gained
        return gained + _next_trick(hand, h1, h2, h3, trump, leader, offset, alpha - gained, beta - gained, table)
    seat = (leader + position) & 3
    if position == 0:
        legal = hand
    else:
        led_suit = _SUIT_OF[high_led]
        following = hand & SUIT_MASKS[led_suit]
        if following:
            legal = following & ABOVE_MASKS[high_led] or following
        else:
            trumps = hand & SUIT_MASKS[trump]
            if not trumps:
                legal = hand
            elif high_trump >= 0:
                legal = trumps & ABOVE_MASKS[high_trump] or trumps
            else:
                legal = trumps
    maximizing = seat & 1 == 0
    best = -_INFINITY if maximizing else _INFINITY
    remaining = legal
    while remaining:
        card = remaining.bit_length() - 1
        bit = 1 << card
        remaining ^= bit
        suit = _SUIT_OF[card]
        new_high_led, new_high_led_position = high_led, high_led_position
        new_high_trump, new_high_trump_position = high_trump, high_trump_position
        if position == 0:
            new_high_led, new_high_led_position = card, 0
            if suit == trump:
                new_high_trump, new_high_trump_position = card, 0
        elif suit == _SUIT_OF[high_led] and card > high_led:
            new_high_led, new_high_led_position = card, position
            if suit == trump:
                new_high_trump, new_high_trump_position = card, position
        elif suit == trump and card > high_trump:
            new_high_trump, new_high_trump_position = card, position
        if position == 3:
            # The trick is complete: settle it here rather than one call deeper (the hottest path).
            offset = new_high_trump_position if new_high_trump >= 0 else new_high_led_position
            gained = points + CARD_POINTS[card]
            if (leader + offset) & 1:
                gained = -gained
            if h1:
                value = gained + _next_trick(
                    h1, h2, h3, hand ^ bit, trump, leader, offset, alpha - gained, beta - gained, table
                )
            else:
                value = gained
        else:
            value = _play(
                h1,
                h2,
                h3,
                hand ^ bit,
                trump,
                leader,
                position + 1,
                new_high_led,
                new_high_led_position,
                new_high_trump,
                new_high_trump_position,
                points + CARD_POINTS[card],
                alpha,
                beta,
                table,
            )
        if maximizing:
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        elif value < best:
            best = value
            if value < beta:
                beta = value
                if alpha >= beta:
                    break
    return best


def _table_state(trick: Sequence[int], trump: int) -> tuple[int, int, int, int, int]:
    """The highest led-suit and trump cards on the table, their positions, and the points laid."""
    high_led, high_led_position, high_trump, high_trump_position = -1, -1, -1, -1
    points = 0
    led_suit = _SUIT_OF[trick[0]] if trick else -1
    for position, card in enumerate(trick):
        points += CARD_POINTS[card]
        suit = _SUIT_OF[card]
        if suit == led_suit and card > high_led:
            high_led, high_led_position = card, position
        if suit == trump and card > high_trump:
            high_trump, high_trump_position = card, position
    return high_led, high_led_position, high_trump, high_trump_position, points


def move_values(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    alpha: int = -_INFINITY,
    beta: int = _INFINITY,
    table: TranspositionTable | None = None,
) -> dict[int, int]:
    """For each legal card of the seat to move, the NS-minus-WE points still to win after playing it.

    With the default window the values are exact; with a narrower one a value at or
    below ``alpha`` or at or above ``beta`` is a bound on the exact value.
    """
    table = {} if table is None else table
    high_led, high_led_position, high_trump, high_trump_position, laid = _table_state(trick, trump)
    position = len(trick)
    seat = (leader + position) & 3
    hand = hands[seat]
    # The hands from the next seat to play (``_play``'s order: the played one last).
    h1, h2, h3 = hands[(seat + 1) & 3], hands[(seat + 2) & 3], hands[(seat + 3) & 3]
    led_suit = _SUIT_OF[trick[0]] if trick else -1
    legal = _legal(hand, trick, trump, high_led, high_trump)
    values: dict[int, int] = {}
    remaining = legal
    while remaining:
        card = remaining.bit_length() - 1
        remaining ^= 1 << card
        # The table once this card is laid, as ``_table_state`` of the trick with it would find it.
        suit = _SUIT_OF[card]
        led_high, led_high_position = high_led, high_led_position
        trump_high, trump_high_position = high_trump, high_trump_position
        if (position == 0 or suit == led_suit) and card > high_led:
            led_high, led_high_position = card, position
        if suit == trump and card > high_trump:
            trump_high, trump_high_position = card, position
        values[card] = _play(
            h1,
            h2,
            h3,
            hand ^ (1 << card),
            trump,
            leader,
            position + 1,
            led_high,
            led_high_position,
            trump_high,
            trump_high_position,
            laid + CARD_POINTS[card],
            alpha,
            beta,
            table,
        )
    return values


def _legal(hand: int, trick: Sequence[int], trump: int, high_led: int, high_trump: int) -> int:
    if not trick:
        return hand
    following = hand & SUIT_MASKS[_SUIT_OF[trick[0]]]
    if following:
        return following & ABOVE_MASKS[high_led] or following
    trumps = hand & SUIT_MASKS[trump]
    if trumps:
        return (trumps & ABOVE_MASKS[high_trump] or trumps) if high_trump >= 0 else trumps
    return hand


def outcome_classes(
    hands: Sequence[int],
    trump: int,
    leader: int,
    trick: Sequence[int],
    points_so_far: int,
    table: TranspositionTable | None = None,
) -> dict[int, int]:
    """For each legal card, the sign (-1, 0, 1) of NS's final points minus WE's with perfect play.

    The chalk only asks whether the taker's team ends with more, as many, or fewer
    points ("La marque à la craie"), so one search in the window just around a final
    difference of zero settles each card; ``points_so_far`` is NS minus WE already won.
    """
    values = move_values(hands, trump, leader, trick, -points_so_far - 1, -points_so_far + 1, table)
    return {card: (value + points_so_far > 0) - (value + points_so_far < 0) for card, value in values.items()}
