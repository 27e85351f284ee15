"""The expert's bid and écart: deals drawn for the unseen cards, each played out by the habits.

At its turn to bid, the expert deals the 78 − h cards it cannot see to the other seats
and the chien many times; each deal drawn is weighed by how likely the bids already made
are for the hands it gives (a bidder's count against the usual thresholds, smoothed, never
below 5%). In each deal it plays itself as the taker of each contract still open: on
petite and garde it takes the chien and discards as the habits do (at five it first calls
as the habits do, and the holder of the called card is its partner), on garde sans the
chien is the attack's, on garde contre the defence's, and the deal is played out by the
habits for every seat. Its score as taker (S times n − 1, or 2 or 4 at five) averaged over
the deals is the contract's value; it bids the contract whose value beats its margin by
most (margins by contract and table size, tuned by self-play: ``BID_MARGINS``), else passes.

The écart is chosen the same way once the chien is in hand: a few candidate écarts (the
habits' own, and variants that empty another short suit or keep the points in hand) are
each played out in the same deals of the other hands, and the best mean wins.
"""

from __future__ import annotations

from collections.abc import Sequence

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.tarot.bots.habits import (
    PLAIN_MASK,
    SUIT_INDEX,
    bid_likelihood,
    habit_call,
    habit_ecart,
    hand_count,
)
from couyon.games.tarot.bots.playout import Outcome, marque_of, playout
from couyon.games.tarot.bots.worlds import build_position
from couyon.games.tarot.cards import (
    BOUT_MASK,
    CHIEN_SIZES,
    EXCUSE_BIT,
    FULL_DECK_MASK,
    HALF_POINTS,
    HAND_SIZES,
    KING_MASK,
    SUIT_MASKS,
    TRUMP_MASK,
)
from couyon.games.tarot.game import callable_mask
from couyon.games.tarot.scoring import Contract

BID_MARGINS: dict[int, tuple[float, float, float, float]] = {
    3: (-10.0, -30.0, 40.0, 0.0),
    4: (0.0, -10.0, 120.0, 170.0),
    5: (10.0, 20.0, 0.0, 0.0),
}
"""What a contract's expected score as taker must beat, by table size (petite, garde, garde sans, garde contre)."""


def draw_hidden(unknown: list[int], sizes: Sequence[int], rng: Stream) -> list[int]:
    """Deal the cards of ``unknown`` at random into holders of ``sizes`` (a partial shuffle)."""
    pool = list(unknown)
    masks = []
    start = 0
    for size in sizes:
        mask = 0
        for index in range(start, start + size):
            pick = index + rng.uniform(len(pool) - index)
            pool[index], pool[pick] = pool[pick], pool[index]
            mask |= 1 << pool[index]
        masks.append(mask)
        start += size
    return masks


def _max_trumps(full: int, size: int) -> int:
    others = (full & ~(TRUMP_MASK | EXCUSE_BIT | KING_MASK)).bit_count()
    return max(0, size - others)


def ecart_candidates(full: int, size: int) -> list[tuple[int, ...]]:
    """Écarts worth comparing for the hand ``full`` (chien included): the habits' and a few variants."""
    eligible = full & ~(KING_MASK | BOUT_MASK)
    max_trumps = _max_trumps(full, size)
    found: list[tuple[int, ...]] = []

    def add(cards: Sequence[int]) -> None:
        chosen = tuple(sorted(cards))
        if len(chosen) == size and chosen not in found:
            found.append(chosen)

    add(habit_ecart(full, eligible, size, max_trumps))
    plain = eligible & PLAIN_MASK
    if max_trumps or plain.bit_count() < size:
        return found
    # Each short suit emptied first, the rest by the habits' order.
    for suit in range(4):
        cards = plain & SUIT_MASKS[suit]
        if cards and cards.bit_count() <= size:
            rest = habit_ecart(full & ~cards, eligible & ~cards, size - cards.bit_count(), 0)
            add([*cards_in(cards), *rest])
    # The most points that may go, from the shortest suits.
    by_points = sorted(
        cards_in(plain),
        key=lambda card: (-HALF_POINTS[card], (full & SUIT_MASKS[SUIT_INDEX[card]]).bit_count(), card),
    )
    add(by_points[:size])
    # Only low cards: keep every honour in hand.
    by_low = sorted(cards_in(plain), key=lambda card: (HALF_POINTS[card], card))
    add(by_low[:size])
    return found


class BidSimulation:
    """Deals of the unseen cards for a seat about to bid, and what each contract is worth in them."""

    def __init__(
        self,
        players: int,
        me: int,
        hand: int,
        bids: Sequence[tuple[int, Contract | None]],
        rng: Stream,
        worlds: int,
    ) -> None:
        self.players = players
        self.me = me
        self.hand = hand
        others = [seat for seat in range(players) if seat != me]
        unknown = cards_in(FULL_DECK_MASK & ~hand)
        sizes = [HAND_SIZES[players]] * len(others) + [CHIEN_SIZES[players]]
        self.deals: list[tuple[list[int], int, float]] = []
        for _ in range(worlds):
            drawn = draw_hidden(unknown, sizes, rng)
            hands = [0] * players
            for seat, mask in zip(others, drawn, strict=False):
                hands[seat] = mask
            hands[me] = hand
            weight = 1.0
            for seat, bid in bids:
                if seat != me:
                    weight *= bid_likelihood(hand_count(hands[seat], players), bid)
            self.deals.append((hands, drawn[-1], weight))

    @classmethod
    def known(cls, players: int, me: int, hands: Sequence[int], chien: int) -> BidSimulation:
        """The one true deal (the omniscient yardstick's)."""
        simulation = cls.__new__(cls)
        simulation.players = players
        simulation.me = me
        simulation.hand = hands[me]
        simulation.deals = [(list(hands), chien, 1.0)]
        return simulation

    def values(self, contracts: Sequence[Contract], called: int | None = None) -> dict[Contract, float]:
        """The weighted mean score of this seat as taker of each contract, over the deals drawn; at five, calling
        ``called`` (None: the card the habits call)."""
        players = self.players
        me = self.me
        hand = self.hand
        totals = dict.fromkeys(contracts, 0.0)
        weights = 0.0
        if players == 5 and called is None:
            called = habit_call(hand, cards_in(callable_mask(hand)))
        with_chien = [contract for contract in contracts if contract.takes_chien]
        size = CHIEN_SIZES[players]
        for hands, chien, weight in self.deals:
            partner = None
            if called is not None:
                partner = next((seat for seat in range(players) if seat != me and hands[seat] >> called & 1), None)
            share = players - 1 if partner is None else 2
            weights += weight
            if with_chien:
                full = hand | chien
                ecart = mask_of_cards(habit_ecart(full, full & ~(KING_MASK | BOUT_MASK), size, _max_trumps(full, size)))
                outcome = self._play(hands, full & ~ecart, ecart, partner, called)
                for contract in with_chien:
                    totals[contract] += weight * share * marque_of(contract, outcome, 0, False)
            if Contract.GARDE_SANS in contracts:
                outcome = self._play(hands, hand, chien, partner, called)
                totals[Contract.GARDE_SANS] += weight * share * marque_of(Contract.GARDE_SANS, outcome, 0, False)
            if Contract.GARDE_CONTRE in contracts:
                outcome = self._play(hands, hand, 0, partner, called)
                totals[Contract.GARDE_CONTRE] += weight * share * marque_of(Contract.GARDE_CONTRE, outcome, 0, False)
        return {contract: total / weights for contract, total in totals.items()}

    def _play(self, hands: list[int], mine: int, pile: int, partner: int | None, called: int | None) -> Outcome:
        seated = list(hands)
        seated[self.me] = mine
        position = build_position(
            self.players,
            Contract.GARDE,
            self.me,
            partner,
            seated,
            pile,
            (),
            (self.me + 1) % self.players,
            (),
            0,
            False,
            called,
        )
        return playout(position)


def mask_of_cards(cards: Sequence[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def best_ecart(
    players: int,
    me: int,
    full: int,
    contract: Contract,
    partner_card: int | None,
    rng: Stream,
    worlds: int,
) -> tuple[int, ...]:
    """The écart whose deals played out score best for the taker (``full``: his hand with the chien)."""
    candidates = ecart_candidates(full, CHIEN_SIZES[players])
    if len(candidates) == 1:
        return candidates[0]
    totals = ecart_totals(players, me, full, contract, partner_card, rng, worlds, candidates)
    return candidates[best_index(totals)]


def best_index(totals: Sequence[float]) -> int:
    """The index of the largest total, the first of equal ones."""
    return max(range(len(totals)), key=lambda index: (totals[index], -index))


def ecart_totals(
    players: int,
    me: int,
    full: int,
    contract: Contract,
    partner_card: int | None,
    rng: Stream,
    worlds: int,
    ecarts: Sequence[Sequence[int]],
) -> list[float]:
    """Each of ``ecarts``' marque for the taker summed over ``worlds`` deals of the other hands, the same deals
    for all (drawn from ``rng`` before any écart is played out, so the deals do not depend on ``ecarts``)."""
    others = [seat for seat in range(players) if seat != me]
    unknown = cards_in(FULL_DECK_MASK & ~full)
    sizes = [HAND_SIZES[players]] * len(others)
    totals = [0.0] * len(ecarts)
    for _ in range(worlds):
        drawn = draw_hidden(unknown, sizes, rng)
        hands = [0] * players
        for seat, mask in zip(others, drawn, strict=True):
            hands[seat] = mask
        partner = None
        if partner_card is not None:
            partner = next((seat for seat in others if hands[seat] >> partner_card & 1), None)
        for index, cards in enumerate(ecarts):
            ecart = mask_of_cards(cards)
            hands[me] = full & ~ecart
            position = build_position(
                players, contract, me, partner, hands, ecart, (), (me + 1) % players, (), 0, False, partner_card
            )
            totals[index] += marque_of(contract, playout(position), 0, False)
    return totals
