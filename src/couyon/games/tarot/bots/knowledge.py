"""What one seat can infer about the hidden cards of a tarot deal, and deals drawn consistently with it.

The obligations of play (tarot-record-format.md, "Legal cards") make every card played a
statement about the hand it came from: a seat that did not follow the led suit is void in
it; one that played neither the suit nor a trump holds no trump; one that played a trump
below the highest trump of the trick holds no trump above that one (it would have had to
overtrump). The Excuse, always legal, says nothing. Announcements say more: a poignée puts
its cards in that hand (all its trumps when it shows the Excuse), a misère d'atout or de
tête empties the hand of trumps or faces. On petite and garde everyone saw the chien, so
its cards are in the taker's hand or in the écart, and the écart holds no king, no bout
and only the trumps shown. At five, until the called card falls, a seat that does not hold
it does not know who does; the bots assume the taker did not call his own card (a soft
assumption, dropped if no deal agrees with it).

``knowledge_of(view)`` gathers these facts; ``sample_deal`` deals the unknown cards to the
other seats and the hidden pile (the écart others have not seen, or the unseen chien) so
that every hard fact holds.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.tarot.cards import (
    BOUT_MASK,
    CHIEN_SIZES,
    EXCUSE_BIT,
    FACE_MASK,
    FIRST_TRUMP,
    FULL_DECK_MASK,
    KING_MASK,
    SUIT_MASKS,
    SUIT_OF,
    TRUMP_MASK,
    TRUMPS_ABOVE,
    Suit,
    mask_of,
)
from couyon.games.tarot.game import Misere, Phase
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import TarotView

ALLY = 1
FOE = -1
UNKNOWN = 0


class Knowledge(NamedTuple):
    """One seat's picture of the deal in play; seats are indexes into ``SEATS_OF[players]``.

    Holder ``players`` (one past the last seat) is the hidden pile: the écart for a seat
    that is not the taker on petite or garde, the unseen chien on garde sans or contre.
    """

    players: int
    me: int
    hand: int
    taker: int
    contract: Contract
    called: int | None
    partner: int | None
    """The partner if this seat knows him (None: alone, or not known yet; see ``partner_known``)."""
    partner_known: bool
    attack: bool
    """Whether this seat is in the attack (the taker, or at five the holder of the called card)."""
    camp: tuple[int, ...]
    """Each seat seen from this one: ``ALLY`` (itself included), ``FOE`` or ``UNKNOWN`` (at five)."""
    played: tuple[int, ...]
    """Each seat's cards played in this deal."""
    out: int
    """Cards no hidden holder can hold: this seat's hand, cards played, this taker's own écart."""
    required: tuple[int, ...]
    """Per holder (the seats, then the pile), the cards known to be there: poignées, écart trumps."""
    allowed: tuple[int, ...]
    """Per holder, the unknown cards it may hold (hard facts only)."""
    sizes: tuple[int, ...]
    """Per holder, how many cards it holds now (0 for this seat and for no pile)."""
    pile_attack: bool | None
    """Whether the hidden pile counts for the attack (écart, garde sans) or the defence (garde contre)."""
    soft_excluded: int
    """At five, the called card while its holder is unknown: assumed not in the taker's hand."""
    chien: int
    """The chien if this seat saw it (petite and garde), else 0."""
    ecart: int
    """This seat's own écart when it is the taker on petite or garde, else 0."""


def _trick_facts(view: TarotView, forbidden: list[int], played: list[int]) -> None:
    seats = view.seats
    for trick in (*view.tricks, view.trick):
        start = seats.index(trick.leader)
        led: Suit | None = None
        highest = -1
        for offset, card in enumerate(trick.cards):
            player = (start + offset) % len(seats)
            played[player] |= 1 << card
            suit = SUIT_OF[card]
            if suit is None:
                continue
            if led is None:
                led = suit
            elif suit is not led:
                if led is not Suit.T:
                    forbidden[player] |= SUIT_MASKS[led]
                if suit is not Suit.T:
                    forbidden[player] |= TRUMP_MASK
                elif highest >= 0 and card < highest:
                    forbidden[player] |= TRUMPS_ABOVE[highest]
            elif suit is Suit.T and highest >= 0 and card < highest:
                forbidden[player] |= TRUMPS_ABOVE[highest]
            if suit is Suit.T and card > highest:
                highest = card


def knowledge_of(view: TarotView) -> Knowledge:
    """The facts ``view`` proves about the hidden cards, during the play of a deal."""
    if view.phase is not Phase.PLAYING or view.taker is None or view.contract is None:
        raise ValueError("the hidden cards are constrained only during the play of a deal")
    players = view.players
    seats = view.seats
    me = seats.index(view.seat)
    taker = seats.index(view.taker)
    hand = mask_of(view.hand)
    contract = view.contract
    called = view.called
    forbidden = [0] * players
    played = [0] * players
    _trick_facts(view, forbidden, played)
    required = [0] * (players + 1)
    for poignee in view.poignees:
        who = seats.index(poignee.seat)
        shown = mask_of(poignee.cards)
        required[who] |= shown & ~played[who]
        if shown & EXCUSE_BIT:
            forbidden[who] |= TRUMP_MASK & ~shown
    for announcer, kind in view.miseres:
        forbidden[seats.index(announcer)] |= TRUMP_MASK if kind is Misere.ATOUT else FACE_MASK
    played_all = 0
    for cards in played:
        played_all |= cards
    out = hand | played_all
    pile_size = 0
    pile_allowed = 0
    pile_attack: bool | None = None
    chien_seen = 0
    chien = mask_of(view.chien) if view.chien is not None else 0
    own_ecart = 0
    size = CHIEN_SIZES[players]
    if contract.takes_chien:
        if me == taker:
            assert view.ecart is not None
            own_ecart = mask_of(view.ecart)
            out |= own_ecart
        else:
            pile_size = size
            pile_attack = True
            ecart_trumps = mask_of(view.ecart_trumps)
            required[players] = ecart_trumps
            pile_allowed = ~(TRUMP_MASK | KING_MASK | BOUT_MASK) & FULL_DECK_MASK
            if view.chien is not None:
                chien_seen = mask_of(view.chien) & ~out
    else:
        pile_size = size
        pile_allowed = FULL_DECK_MASK
        pile_attack = contract is Contract.GARDE_SANS
    for holder in range(players + 1):
        required[holder] &= ~out
    known = out
    for cards in required:
        known |= cards
    unknown = FULL_DECK_MASK & ~known
    # Camps: fixed at three and four; at five, known once the called card is placed.
    partner: int | None = None
    partner_known = players < 5 or view.partner_known
    if players == 5 and view.partner_known and view.partner is not None:
        partner = seats.index(view.partner)
    attack = me == taker or (called is not None and bool(hand & (1 << called))) or partner == me
    camp = [UNKNOWN] * players
    for seat in range(players):
        if seat == me:
            camp[seat] = ALLY
        elif partner_known:
            in_attack = seat in (taker, partner)
            camp[seat] = ALLY if in_attack == attack else FOE
        elif not attack and seat == taker:
            camp[seat] = FOE
    soft = 0
    if players == 5 and not partner_known and called is not None and not out & (1 << called):
        soft = 1 << called
    allowed = []
    for seat in range(players):
        if seat == me:
            allowed.append(0)
            continue
        mask = unknown & ~forbidden[seat]
        if seat != taker:
            mask &= ~chien_seen
        allowed.append(mask)
    allowed.append(unknown & pile_allowed if pile_size else 0)
    sizes = [0 if seat == me else view.hand_sizes[seat] for seat in range(players)]
    sizes.append(pile_size)
    return Knowledge(
        players=players,
        me=me,
        hand=hand,
        taker=taker,
        contract=contract,
        called=called,
        partner=partner,
        partner_known=partner_known,
        attack=attack,
        camp=tuple(camp),
        played=tuple(played),
        out=out,
        required=tuple(required),
        allowed=tuple(allowed),
        sizes=tuple(sizes),
        pile_attack=pile_attack,
        soft_excluded=soft,
        chien=chien,
        ecart=own_ecart,
    )


def possible_holdings(knowledge: Knowledge) -> list[int]:
    """Per seat, every card it may hold now (its own hand for this seat): what the habits reason with."""
    holdings = []
    for seat in range(knowledge.players):
        if seat == knowledge.me:
            holdings.append(knowledge.hand)
        else:
            holdings.append(knowledge.allowed[seat] | knowledge.required[seat])
    return holdings


_RANDOM_ATTEMPTS: Final = 12
LCG_MULTIPLIER: Final = 6364136223846793005
LCG_INCREMENT: Final = 1442695040888963407
_MASK_16: Final = (1 << 16) - 1
_M0: Final = LCG_MULTIPLIER & _MASK_16
_M1: Final = LCG_MULTIPLIER >> 16 & _MASK_16
_M2: Final = LCG_MULTIPLIER >> 32 & _MASK_16
_M3: Final = LCG_MULTIPLIER >> 48
_I0: Final = LCG_INCREMENT & _MASK_16
_I1: Final = LCG_INCREMENT >> 16 & _MASK_16
_I2: Final = LCG_INCREMENT >> 32 & _MASK_16
_I3: Final = LCG_INCREMENT >> 48


def lcg_next(s0: int, s1: int, s2: int, s3: int) -> tuple[int, int, int, int]:
    """The sampler's 64-bit generator, ``state * LCG_MULTIPLIER + LCG_INCREMENT`` modulo 2**64, on the state's
    four 16-bit limbs (lowest first): every product and sum stays a machine integer once compiled, where the
    64-bit state would be a Python big int."""
    total = s0 * _M0 + _I0
    r0 = total & _MASK_16
    total = (total >> 16) + s0 * _M1 + s1 * _M0 + _I1
    r1 = total & _MASK_16
    total = (total >> 16) + s0 * _M2 + s1 * _M1 + s2 * _M0 + _I2
    r2 = total & _MASK_16
    total = (total >> 16) + s0 * _M3 + s1 * _M2 + s2 * _M1 + s3 * _M0 + _I3
    return r0, r1, r2, total & _MASK_16


_FIRST_TRUMP: Final = FIRST_TRUMP


class DealSampler:
    """Deals of the unknown cards that agree with ``knowledge``, drawn many times for one decision.

    What does not change between draws is computed once: the cards to place, grouped by
    the holders that may take them, most constrained group first. Each draw seeds a
    64-bit linear congruential generator from the bot's stream (two draws of it), so the
    many small choices of a deal cost little and still come only from the stream.
    Cards go to a holder drawn in proportion to the room it has left; a dead end retries,
    then an exact matching finds a consistent deal. The soft assumption about the called
    card is dropped only if no deal agrees with it.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        holders = knowledge.players + 1
        self.room = [knowledge.sizes[h] - knowledge.required[h].bit_count() for h in range(holders)]
        self.cards = cards_in(FULL_DECK_MASK & ~knowledge.out & ~_union(knowledge.required))
        allowed = list(knowledge.allowed)
        self.plans: list[tuple[list[tuple[tuple[int, ...], list[int]]], dict[int, list[int]]]] = []
        if knowledge.soft_excluded:
            soft = list(allowed)
            soft[knowledge.taker] &= ~knowledge.soft_excluded
            self._plan(soft)
        self._plan(allowed)
        if not self.plans:
            raise ValueError("no deal of the hidden cards agrees with this view")

    def _plan(self, allowed: list[int]) -> None:
        holders = len(self.room)
        options = {
            card: [h for h in range(holders) if allowed[h] >> card & 1 and self.room[h] > 0] for card in self.cards
        }
        if any(not choices for choices in options.values()):
            return
        groups: dict[tuple[int, ...], list[int]] = {}
        for card in self.cards:
            groups.setdefault(tuple(options[card]), []).append(card)
        ordered = sorted(groups.items(), key=lambda item: (len(item[0]), item[0]))
        self.plans.append((ordered, options))

    def draw(self, rng: Stream) -> list[int]:
        """Every holder's cards (the seats' current hands, then the hidden pile) in one consistent deal.

        The cards go to small masks, plain cards and trumps apart (``habits``' split, machine integers compiled),
        joined into each holder's hand at the end. ``pick`` is ``((state >> 32) * total) >> 32`` on the limbs."""
        high = rng.next_u32()
        low = rng.next_u32()
        s0, s1, s2, s3 = low & _MASK_16, low >> 16, high & _MASK_16, high >> 16
        if not high and not low:
            s0 = 1
        knowledge = self.knowledge
        holders_count = len(self.room)
        for groups, options in self.plans:
            for _ in range(_RANDOM_ATTEMPTS):
                left = list(self.room)
                plains = [0] * holders_count
                trumps = [0] * holders_count
                failed = False
                for holders, cards in groups:
                    if len(holders) == 1:
                        only = holders[0]
                        if left[only] < len(cards):
                            failed = True
                            break
                        left[only] -= len(cards)
                        for card in cards:
                            if card < _FIRST_TRUMP:
                                plains[only] |= 1 << card
                            else:
                                trumps[only] |= 1 << (card - _FIRST_TRUMP)
                        continue
                    for card in cards:
                        total = 0
                        for holder in holders:
                            total += left[holder]
                        if not total:
                            failed = True
                            break
                        s0, s1, s2, s3 = lcg_next(s0, s1, s2, s3)
                        pick = (((s3 * total) << 16) + s2 * total) >> 32
                        for holder in holders:
                            pick -= left[holder]
                            if pick < 0:
                                break
                        if card < _FIRST_TRUMP:
                            plains[holder] |= 1 << card
                        else:
                            trumps[holder] |= 1 << (card - _FIRST_TRUMP)
                        left[holder] -= 1
                    if failed:
                        break
                if not failed:
                    hands = [
                        required | plains[holder] | trumps[holder] << _FIRST_TRUMP
                        for holder, required in enumerate(knowledge.required)
                    ]
                    hands[knowledge.me] = knowledge.hand
                    return hands
            order = [card for _, cards in groups for card in cards]
            found = _matched(knowledge, order, options, self.room)
            if found is not None:
                return found
        raise ValueError("no deal of the hidden cards agrees with this view")


def sample_deal(knowledge: Knowledge, rng: Stream) -> list[int]:
    """One deal of the unknown cards that agrees with ``knowledge`` (see ``DealSampler``)."""
    return DealSampler(knowledge).draw(rng)


def _union(masks: tuple[int, ...]) -> int:
    union = 0
    for mask in masks:
        union |= mask
    return union


def _matched(
    knowledge: Knowledge, order: list[int], options: dict[int, list[int]], room: list[int]
) -> list[int] | None:
    """A consistent deal by augmenting paths (cards to holders' free places), or None if there is none."""
    holding: list[list[int]] = [[] for _ in room]

    def place(card: int, seen: set[int], current: int) -> bool:
        for holder in options[card]:
            if holder == current or holder in seen:
                continue
            seen.add(holder)
            if len(holding[holder]) < room[holder]:
                holding[holder].append(card)
                return True
            for index, other in enumerate(holding[holder]):
                if place(other, seen, holder):
                    holding[holder][index] = card
                    return True
        return False

    for card in order:
        if not place(card, set(), -1):
            return None
    hands = list(knowledge.required)
    for holder, cards in enumerate(holding):
        for card in cards:
            hands[holder] |= 1 << card
    hands[knowledge.me] = knowledge.hand
    return hands
