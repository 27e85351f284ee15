"""Complete deals for the search: the true one (the omniscient yardstick) or ones drawn from a seat's knowledge."""

from __future__ import annotations

from collections.abc import Sequence

from couyon.common.stream import Stream
from couyon.games.tarot.bots.habits import bid_likelihood, hand_count
from couyon.games.tarot.bots.knowledge import DealSampler, Knowledge
from couyon.games.tarot.bots.playout import Position
from couyon.games.tarot.cards import EXCUSE_BIT, EXCUSE_INDEX, HAND_SIZES, SUIT_MASKS, SUIT_OF, bit
from couyon.games.tarot.game import GameState
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import TarotView


def build_position(
    players: int,
    contract: Contract,
    taker: int,
    partner: int | None,
    hands: Sequence[int],
    pile_for_attack: int,
    tricks: Sequence[tuple[int, Sequence[int], int]],
    leader: int,
    trick: Sequence[int],
    primes: int,
    chelem_announced: bool,
    called: int | None,
) -> Position:
    """A ``Position`` from the deal's facts; ``tricks`` are (leader, cards, winner) with seat indexes."""
    attack = tuple(seat in (taker, partner) for seat in range(players))
    cards = pile_for_attack
    shift = 0
    won = lost = 0
    for trick_leader, trick_cards, winner in tricks:
        attack_wins = attack[winner]
        for offset, card in enumerate(trick_cards):
            if card == EXCUSE_INDEX:
                if attack[(trick_leader + offset) % players]:
                    cards |= EXCUSE_BIT
                    if not attack_wins:
                        shift -= 1
                elif attack_wins:
                    shift += 1
            elif attack_wins:
                cards |= 1 << card
        if attack_wins:
            won += 1
        else:
            lost += 1
    forbidden = 0
    if players == 5 and called is not None and not tricks and not trick:
        suit = SUIT_OF[called]
        assert suit is not None
        forbidden = SUIT_MASKS[suit] & ~bit(called)
    previous: tuple[int, ...] = tuple(tricks[-1][1]) if tricks else ()
    previous_winner = tricks[-1][2] if tricks else leader
    return Position(
        players=players,
        contract=contract,
        taker=taker,
        attack=attack,
        hands=tuple(hands),
        leader=leader,
        trick=tuple(trick),
        tricks_left=HAND_SIZES[players] - len(tricks),
        attack_cards=cards,
        excuse_shift=shift,
        attack_tricks=won,
        defence_tricks=lost,
        previous=previous,
        previous_winner=previous_winner,
        forbidden_lead=forbidden,
        primes=primes,
        chelem_announced=chelem_announced,
    )


def true_position(state: GameState) -> Position:
    """The deal in play as it is (every hand, the real partner): the yardstick's world."""
    deal = state.deal
    assert deal.taker is not None and deal.contract is not None
    pile = 0
    if deal.contract.takes_chien:
        pile = deal.ecart or 0
    elif deal.contract is Contract.GARDE_SANS:
        pile = deal.chien
    return build_position(
        state.players,
        deal.contract,
        deal.taker,
        deal.partner,
        deal.hands,
        pile,
        deal.tricks,
        deal.leader,
        deal.trick,
        sum(prime for _, _, prime in deal.poignees),
        deal.chelem_announced,
        deal.called,
    )


class ViewFacts:
    """What every world drawn for one decision shares: the view's tricks as indexes, primes, the call."""

    __slots__ = ("bids", "called", "chelem_announced", "knowledge", "leader", "primes", "sampler", "trick", "tricks")

    def __init__(self, seat_view: TarotView, knowledge: Knowledge) -> None:
        seats = seat_view.seats
        self.knowledge = knowledge
        self.sampler = DealSampler(knowledge)
        self.tricks = [
            (seats.index(trick.leader), trick.cards, seats.index(trick.winner))
            for trick in seat_view.tricks
            if trick.winner is not None
        ]
        self.leader = seats.index(seat_view.trick.leader)
        self.trick = seat_view.trick.cards
        self.primes = sum(poignee.prime for poignee in seat_view.poignees)
        self.chelem_announced = seat_view.chelem_announced
        self.called = seat_view.called
        self.bids = [(seats.index(bidder), bid) for bidder, bid in seat_view.bids if bidder != seat_view.seat]


def bid_weight(facts: ViewFacts, holders: Sequence[int]) -> float:
    """How likely the other seats' bids are with the hands they were dealt in this deal of the hidden cards."""
    knowledge = facts.knowledge
    players = knowledge.players
    weight = 1.0
    for seat, bid in facts.bids:
        dealt = holders[seat] | knowledge.played[seat]
        if seat == knowledge.taker and knowledge.contract.takes_chien:
            dealt = (dealt | holders[players]) & ~knowledge.chien
        weight *= bid_likelihood(hand_count(dealt, players), bid)
    return weight


def sampled_position(facts: ViewFacts, rng: Stream, candidates: int = 1) -> Position:
    """One deal of the hidden cards consistent with the seat's knowledge, as a ``Position``.

    With ``candidates`` > 1, that many deals are drawn and one is kept with a probability
    proportional to how well it explains the other seats' bids (``bid_weight``).
    """
    knowledge = facts.knowledge
    players = knowledge.players
    holders = facts.sampler.draw(rng)
    if candidates > 1 and facts.bids:
        drawn = [holders, *(facts.sampler.draw(rng) for _ in range(candidates - 1))]
        weights = [bid_weight(facts, option) for option in drawn]
        pick = rng.random() * sum(weights)
        for option, weight in zip(drawn, weights, strict=True):
            holders = option
            pick -= weight
            if pick < 0:
                break
    hands = holders[:players]
    pile = holders[players]
    partner = knowledge.partner
    if players == 5 and not knowledge.partner_known and facts.called is not None:
        called_bit = 1 << facts.called
        partner = next(
            (seat for seat in range(players) if seat != knowledge.taker and hands[seat] & called_bit),
            None,
        )
    contract = knowledge.contract
    pile_for_attack = 0
    if contract.takes_chien:
        # The taker knows his écart (it is out of every hand); the others drew it as the pile.
        pile_for_attack = (
            pile if knowledge.me != knowledge.taker else knowledge.out & ~_played(knowledge) & ~knowledge.hand
        )
    elif contract is Contract.GARDE_SANS:
        pile_for_attack = pile
    return build_position(
        players,
        contract,
        knowledge.taker,
        partner,
        hands,
        pile_for_attack,
        facts.tricks,
        facts.leader,
        facts.trick,
        facts.primes,
        facts.chelem_announced,
        facts.called,
    )


def _played(knowledge: Knowledge) -> int:
    union = 0
    for cards in knowledge.played:
        union |= cards
    return union
