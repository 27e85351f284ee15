"""What one seat can infer about the hidden cards, and sampled deals consistent with it.

The strict obligations (product text, "Les obligations"; rulings 3 and 4) make every
card played a statement about the hand it came from: a seat that did not follow is
void in the led suit; one that did not trump holds no trump; one that followed (or
trumped) without beating the table holds nothing that would have beaten it. Turned
proposals are in no hand (ruling 9). ``Knowledge`` gathers these hard constraints from
a ``SeatView``; ``sample_hands`` deals the unknown cards so that every one holds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.couyon.cards import ABOVE_MASKS, FULL_DECK_MASK, RANKS_PER_SUIT, SUIT_MASKS, mask_of
from couyon.games.couyon.view import SeatView


class Knowledge(NamedTuple):
    """One seat's picture of the deal in play: its hand, the unknown cards and each seat's exclusions."""

    seat: int
    trump: int
    hand: int
    unknown: int
    """Cards in another seat's hand or in the untouched talon."""
    hand_sizes: tuple[int, int, int, int]
    forbidden: tuple[int, int, int, int]
    """Per seat, cards the obligations prove it does not hold."""
    played: tuple[int, int, int, int]
    """Per seat, the cards it has played in this deal (with its current hand: what it was dealt)."""
    out: int
    """Cards public and out of every hand: the turned proposals and the cards played."""


def knowledge_of(seat_view: SeatView) -> Knowledge:
    """The hard constraints ``seat_view`` reveals about the other hands during the play."""
    trump = seat_view.trump
    if trump is None:
        raise ValueError("the hands can only be constrained once a trump is chosen")
    forbidden = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    tricks = [*seat_view.tricks, seat_view.trick]
    for trick in tricks:
        high_led = -1
        high_trump = -1
        led_suit = -1
        for position, card in enumerate(trick.cards):
            player = (trick.leader + position) % 4
            played[player] |= 1 << card
            suit = card // RANKS_PER_SUIT
            if position == 0:
                led_suit = suit
            elif suit != led_suit:
                forbidden[player] |= SUIT_MASKS[led_suit]
                if suit != trump:
                    forbidden[player] |= SUIT_MASKS[trump]
                elif high_trump >= 0 and card < high_trump:
                    forbidden[player] |= ABOVE_MASKS[high_trump]
            elif card < high_led:
                forbidden[player] |= ABOVE_MASKS[high_led]
            if suit == led_suit and card > high_led:
                high_led = card
            if suit == trump and card > high_trump:
                high_trump = card
    hand = mask_of(seat_view.hand)
    out = mask_of(seat_view.proposals) | played[0] | played[1] | played[2] | played[3]
    return Knowledge(
        seat=int(seat_view.seat),
        trump=int(trump),
        hand=hand,
        unknown=FULL_DECK_MASK & ~hand & ~out,
        hand_sizes=seat_view.hand_sizes,
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        played=(played[0], played[1], played[2], played[3]),
        out=out,
    )


def respects(knowledge: Knowledge, hands: tuple[int, int, int, int]) -> bool:
    """Whether ``hands`` (current hands by seat) agree with every hard constraint of ``knowledge``."""
    union = 0
    for seat in range(4):
        hand = hands[seat]
        if hand.bit_count() != knowledge.hand_sizes[seat] or hand & knowledge.forbidden[seat] or hand & union:
            return False
        union |= hand
    own = knowledge.seat
    others = union & ~hands[own]
    return hands[own] == knowledge.hand and others & ~knowledge.unknown == 0


_MAX_RANDOM_ATTEMPTS = 20


def sample_hands(knowledge: Knowledge, rng: Stream) -> tuple[int, int, int, int]:
    """Current hands for all seats drawn at random among those ``respects`` accepts.

    Seats with the least room are dealt first, each drawing uniformly from what it may
    hold; the rare dead end retries, then falls back to an exhaustive search.
    """
    # Variable-length tuples and a local mask per seat: compiled, indexing a tuple[int, int, int, int] by a variable
    # boxes it into a new tuple, and every store into the list of hands a new int object.
    sizes: tuple[int, ...] = knowledge.hand_sizes
    order, allowed = _deal_plan(knowledge)
    for _ in range(_MAX_RANDOM_ATTEMPTS):
        hands = [0, 0, 0, 0]
        hands[knowledge.seat] = knowledge.hand
        free = knowledge.unknown
        for seat in order:
            pool = cards_in(allowed[seat] & free)
            needed = sizes[seat]
            if len(pool) < needed:
                break
            dealt = 0
            for index in range(needed):
                pick = index + rng.uniform(len(pool) - index)
                pool[index], pool[pick] = pool[pick], pool[index]
                dealt |= 1 << pool[index]
            hands[seat] = dealt
            free &= ~dealt
        else:
            return (hands[0], hands[1], hands[2], hands[3])
    found = _exhaustive(knowledge, order, allowed)
    if found is None:
        raise ValueError("no deal of the hidden cards agrees with this view")
    return found


@lru_cache(maxsize=256)
def _deal_plan(knowledge: Knowledge) -> tuple[list[int], dict[int, int]]:
    """The seats to deal, those with the least room first, and what each may hold: the same for every deal of a
    decision, so computed once (the caller only reads them)."""
    sizes: tuple[int, ...] = knowledge.hand_sizes
    forbidden: tuple[int, ...] = knowledge.forbidden
    others = [seat for seat in range(4) if seat != knowledge.seat]
    allowed = {seat: knowledge.unknown & ~forbidden[seat] for seat in others}
    return sorted(others, key=lambda seat: (allowed[seat].bit_count() - sizes[seat], seat)), allowed


def _exhaustive(knowledge: Knowledge, order: list[int], allowed: dict[int, int]) -> tuple[int, int, int, int] | None:
    hands = [0, 0, 0, 0]
    hands[knowledge.seat] = knowledge.hand

    def place(index: int, free: int) -> bool:
        if index == len(order):
            return True
        seat = order[index]
        pool = cards_in(allowed[seat] & free)
        return _choose(pool, knowledge.hand_sizes[seat], 0, 0, lambda chosen: _try(seat, chosen, index, free))

    def _try(seat: int, chosen: int, index: int, free: int) -> bool:
        hands[seat] = chosen
        return place(index + 1, free & ~chosen)

    return (hands[0], hands[1], hands[2], hands[3]) if place(0, knowledge.unknown) else None


def _choose(pool: list[int], needed: int, start: int, chosen: int, accept: Callable[[int], bool]) -> bool:
    if needed == 0:
        return accept(chosen)
    for index in range(start, len(pool) - needed + 1):
        if _choose(pool, needed - 1, index + 1, chosen | 1 << pool[index], accept):
            return True
    return False
