"""What one Malmedy seat can infer about the hidden cards, and deals of them consistent with it.

Free play (malmedy.md, ruling 7) makes a card played a much weaker statement than
under the common game's obligations: holding the led suit, a player may follow *or
trump*, with no obligation to beat, and void in it he may play anything. So the only
hard inference is from a card that neither follows nor is a trump: its player is void
in the led suit (on a trump lead: holds no trump). It says nothing about his trumps (a
void player may keep them), and a trump played on a plain lead says nothing about the
led suit. Each card is judged with the trump mask of the moment it was played: cards
of the first trick played before a mite was announced saw the queen of spades as a
plain spade. The announcer of a mite held the queen of spades. The blind's four cards
are unknown to everybody and count for nobody: any unseen card may be there.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.couyon.cards import FULL_DECK_MASK, mask_of
from couyon.games.malmedy.bots.solver import rules_for
from couyon.games.malmedy.game import MalmedyView
from couyon.games.malmedy.rules import QUEEN_OF_SPADES

Hands = tuple[int, int, int, int]


class MalmedyKnowledge(NamedTuple):
    """One seat's picture of the deal in play."""

    seat: int
    trump: int
    mite: bool
    hand: int
    unknown: int
    """Cards in another seat's hand or in the blind."""
    hand_sizes: tuple[int, int, int, int]
    forbidden: tuple[int, int, int, int]
    """Per seat, cards the play proves it does not hold."""
    required: tuple[int, int, int, int]
    """Per seat, unseen cards it is known to hold (the queen of spades of a mite not yet played)."""
    played: tuple[int, int, int, int]
    """Per seat, the cards it has played in this deal."""


def knowledge_of(seat_view: MalmedyView) -> MalmedyKnowledge:
    """The hard constraints ``seat_view`` reveals about the other hands during the play."""
    trump = seat_view.trump
    if trump is None:
        raise ValueError("the hands can only be constrained once a trump is chosen")
    mite_seat = seat_view.mite
    forbidden = [0, 0, 0, 0]
    played = [0, 0, 0, 0]
    for number, trick in enumerate((*seat_view.tricks, seat_view.trick)):
        if not trick.cards:
            continue
        # The announcer's first card is in the first trick: cards before it saw no mite.
        mite_from = 4 if mite_seat is None else (mite_seat - trick.leader) % 4 if number == 0 else 0
        for position, card in enumerate(trick.cards):
            player = (trick.leader + position) % 4
            played[player] |= 1 << card
            if position == 0:
                continue
            rules = rules_for(int(trump), position >= mite_from)
            led = rules.suit_of[trick.cards[0]]
            if not (rules.follow[led] | rules.trumps) >> card & 1:
                forbidden[player] |= rules.follow[led]
    hand = mask_of(seat_view.hand)
    out = played[0] | played[1] | played[2] | played[3]
    unknown = FULL_DECK_MASK & ~hand & ~out
    required = [0, 0, 0, 0]
    if mite_seat is not None and unknown >> QUEEN_OF_SPADES & 1:
        required[mite_seat] = 1 << QUEEN_OF_SPADES
    for seat in range(4):
        forbidden[seat] &= ~required[seat]
    return MalmedyKnowledge(
        seat=int(seat_view.seat),
        trump=int(trump),
        mite=mite_seat is not None,
        hand=hand,
        unknown=unknown,
        hand_sizes=seat_view.hand_sizes,
        forbidden=(forbidden[0], forbidden[1], forbidden[2], forbidden[3]),
        required=(required[0], required[1], required[2], required[3]),
        played=(played[0], played[1], played[2], played[3]),
    )


def respects(knowledge: MalmedyKnowledge, hands: Hands) -> bool:
    """Whether ``hands`` (current hands by seat) agree with every hard constraint of ``knowledge``."""
    union = 0
    for seat in range(4):
        hand = hands[seat]
        if hand.bit_count() != knowledge.hand_sizes[seat] or hand & knowledge.forbidden[seat] or hand & union:
            return False
        if hand & knowledge.required[seat] != knowledge.required[seat]:
            return False
        union |= hand
    own = knowledge.seat
    return hands[own] == knowledge.hand and union & ~hands[own] & ~knowledge.unknown == 0


_MAX_RANDOM_ATTEMPTS = 20


def sample_hands(knowledge: MalmedyKnowledge, rng: Stream) -> Hands:
    """Current hands for all seats drawn at random among those ``respects`` accepts (the rest is the blind).

    Known cards go to their holder first; then the seats with the least room are
    dealt first, each drawing uniformly from what it may hold; a dead end retries,
    then falls back to an exhaustive search.
    """
    # A local mask per seat: compiled, every store into the list of hands is a new int object.
    order, allowed, needed, given = _deal_plan(knowledge)
    for _ in range(_MAX_RANDOM_ATTEMPTS):
        hands = list(knowledge.required)
        hands[knowledge.seat] = knowledge.hand
        free = knowledge.unknown & ~given
        for seat in order:
            pool = cards_in(allowed[seat] & free)
            count = needed[seat]
            if len(pool) < count:
                break
            dealt = hands[seat]
            for index in range(count):
                pick = index + rng.uniform(len(pool) - index)
                pool[index], pool[pick] = pool[pick], pool[index]
                dealt |= 1 << pool[index]
            hands[seat] = dealt
            free &= ~dealt
        else:
            return (hands[0], hands[1], hands[2], hands[3])
    found = _exhaustive(knowledge, order, allowed, needed, knowledge.unknown & ~given)
    if found is None:
        raise ValueError("no deal of the hidden cards agrees with this view")
    return found


@lru_cache(maxsize=256)
def _deal_plan(knowledge: MalmedyKnowledge) -> tuple[list[int], dict[int, int], dict[int, int], int]:
    """The seats to deal, those with the least room first, what each may hold, how many cards each still needs, and
    the known cards: the same for every deal of a decision, so computed once (the caller only reads them)."""
    # Variable-length tuples: compiled, indexing a tuple[int, int, int, int] by a variable boxes it into a new tuple.
    required: tuple[int, ...] = knowledge.required
    forbidden: tuple[int, ...] = knowledge.forbidden
    sizes: tuple[int, ...] = knowledge.hand_sizes
    others = [seat for seat in range(4) if seat != knowledge.seat]
    given = required[0] | required[1] | required[2] | required[3]
    allowed = {seat: knowledge.unknown & ~forbidden[seat] & ~given for seat in others}
    needed = {seat: sizes[seat] - required[seat].bit_count() for seat in others}
    order = sorted(others, key=lambda seat: (allowed[seat].bit_count() - needed[seat], seat))
    return order, allowed, needed, given


def _exhaustive(
    knowledge: MalmedyKnowledge, order: list[int], allowed: dict[int, int], needed: dict[int, int], free: int
) -> Hands | None:
    hands = list(knowledge.required)
    hands[knowledge.seat] = knowledge.hand

    def place(index: int, free: int) -> bool:
        if index == len(order):
            return True
        seat = order[index]
        return _choose(cards_in(allowed[seat] & free), needed[seat], 0, 0, seat, index, free)

    def _choose(pool: list[int], count: int, start: int, chosen: int, seat: int, index: int, free: int) -> bool:
        if count == 0:
            hands[seat] = knowledge.required[seat] | chosen
            return place(index + 1, free & ~chosen)
        for at in range(start, len(pool) - count + 1):
            if _choose(pool, count - 1, at + 1, chosen | 1 << pool[at], seat, index, free):
                return True
        return False

    return (hands[0], hands[1], hands[2], hands[3]) if place(0, free) else None
