"""The strong player: determinised search over deals consistent with what the seat knows.

Bid and écart by simulated deals (``bidding.py``), card play by rollouts of deals drawn from
what the seat knows. ``expert/1`` spends the budgets measured in docs/tarot.md ("Bots");
``expert/2`` (``table_expert(2)``) bids as expert/1 and plays on a tenth of its card budget, for the server;
``expert/3`` (``table_expert()``) is expert/2 that passes a hand too weak to bid without simulating it;
``expert/4`` (``compiled_expert()``) is expert/1 on under half its card budget, with expert/3's weak passes;
``expert/5`` (``compiled_expert(5)``) is expert/1's whole budget with those weak passes.
"""

from __future__ import annotations

from typing import NamedTuple

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.tarot.bots.baseline import BaselineTarotBot
from couyon.games.tarot.bots.bidding import BID_MARGINS, BidSimulation, best_ecart
from couyon.games.tarot.bots.habits import SUIT_INDEX, hand_count
from couyon.games.tarot.bots.knowledge import Knowledge, knowledge_of
from couyon.games.tarot.bots.playout import marque_of, playout
from couyon.games.tarot.bots.race import survivors
from couyon.games.tarot.bots.rules import legal_mask
from couyon.games.tarot.bots.worlds import ViewFacts, sampled_position
from couyon.games.tarot.cards import CARDS, FULL_DECK_MASK, HALF_POINTS, mask_of
from couyon.games.tarot.game import CARD, ECART, PASS, Move, Phase
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import TarotView


def distinct_candidates(legal: int, knowledge: Knowledge) -> list[int]:
    """The legal cards that differ: of two low cards of a suit (or two middle trumps) with no card
    left elsewhere between them, only the lower is kept (they win and lose exactly the same tricks)."""
    live = FULL_DECK_MASK & ~knowledge.out
    kept: list[int] = []
    previous = -1
    for card in cards_in(legal):
        if (
            previous >= 0
            and HALF_POINTS[card] == 1
            and HALF_POINTS[previous] == 1
            and SUIT_INDEX[card] == SUIT_INDEX[previous]
            and not live & ((1 << card) - 1) & ~((2 << previous) - 1)
        ):
            previous = card
            continue
        kept.append(card)
        previous = card
    return kept


class CardSearch(NamedTuple):
    """What the card search found: the distinct candidates, each one's marques for the seat's camp deal by deal
    (a card dropped from the race: over the deals played out until then), and the cards still in the race."""

    candidates: list[int]
    values: dict[int, list[float]]
    active: list[int]

    def means(self) -> dict[int, float]:
        """Each candidate's mean marque for the seat's camp over the deals it was played out in."""
        return {card: sum(values) / len(values) for card, values in self.values.items() if values}


TABLE_PASS_BELOW: dict[int, tuple[float, float]] = {3: (22.0, 30.0), 4: (28.0, 32.0), 5: (20.0, 24.0)}
"""expert/3's counts (``habits.hand_count``) below which it passes without simulating, by table size: while
petite is open, and once it is outbid (garde and above only). Below them expert/2 about never bids (0 hands of
63, 1,655 and 711 while petite is open, 5 of the 711 at five; 0 of 199, 684 and 370 over a petite), measured by
``benchmarks/tarot_bid_cutoff.py`` (docs/tarot.md, "Bots")."""


class ExpertTarotBot:
    name = "expert"

    def __init__(
        self,
        version: int = 1,
        budget: int = 6000,
        min_worlds: int = 6,
        max_worlds: int = 64,
        z: float = 2.0,
        bid_worlds: int = 32,
        evidence_candidates: int = 3,
        ecart_worlds: int = 12,
        margins: dict[int, tuple[float, float, float, float]] | None = None,
        pass_below: dict[int, tuple[float, float]] | None = None,
    ) -> None:
        self.pass_below = pass_below
        self.evidence_candidates = evidence_candidates
        self.bid_worlds = bid_worlds
        self.ecart_worlds = ecart_worlds
        self.margins = BID_MARGINS if margins is None else margins
        self.version = version
        self.budget = budget
        self.min_worlds = min_worlds
        self.max_worlds = max_worlds
        self.z = z
        self._baseline = BaselineTarotBot()

    def choose(self, seat_view: TarotView, rng: Stream) -> Move:
        phase = seat_view.phase
        if phase is Phase.BIDDING:
            return self._bid(seat_view, rng)
        if phase is Phase.ECART:
            return self._ecart(seat_view, rng)
        if phase is not Phase.PLAYING:
            return self._baseline.choose(seat_view, rng)
        legal = legal_mask(seat_view)
        other = [move for move in seat_view.legal_moves if move.action != CARD]
        if other or not legal & (legal - 1):
            return self._baseline.choose(seat_view, rng)
        return Move(seat_view.seat, CARD, (CARDS[self.card_for(seat_view, legal, rng)],))

    def _bid(self, seat_view: TarotView, rng: Stream) -> Move:
        seat = seat_view.seat
        allowed = [Contract(move.action) for move in seat_view.legal_moves if move.action != PASS]
        if not allowed or self.too_weak(seat_view, allowed):
            return Move(seat, PASS)
        best = self.bid_choice(seat_view.players, self.bid_values(seat_view, rng, allowed))
        return Move(seat, PASS if best is None else best.value)

    def bid_choice(self, players: int, values: dict[Contract, float]) -> Contract | None:
        """The contract whose value beats its margin (``margins``) by most; None (a pass) when none beats it."""
        margins = self.margins[players]
        best = max(values, key=lambda contract: values[contract] - margins[contract.strength])
        return best if values[best] - margins[best.strength] > 0 else None

    def too_weak(self, seat_view: TarotView, allowed: list[Contract]) -> bool:
        """Whether the hand's usual count is below the count from which this bot may bid what is still open."""
        if self.pass_below is None:
            return False
        open_petite, outbid = self.pass_below[seat_view.players]
        cutoff = open_petite if Contract.PETITE in allowed else outbid
        return hand_count(mask_of(seat_view.hand), seat_view.players) < cutoff

    def bid_values(self, seat_view: TarotView, rng: Stream, contracts: list[Contract]) -> dict[Contract, float]:
        """This seat's expected score as the taker of each contract, from deals of the unseen cards played out."""
        seats = seat_view.seats
        bids = [(seats.index(bidder), bid) for bidder, bid in seat_view.bids]
        simulation = BidSimulation(
            seat_view.players, seats.index(seat_view.seat), mask_of(seat_view.hand), bids, rng, self.bid_worlds
        )
        return simulation.values(contracts)

    def _ecart(self, seat_view: TarotView, rng: Stream) -> Move:
        assert seat_view.contract is not None
        full = mask_of(seat_view.hand)
        called = seat_view.called
        partner_card = called if called is not None and not full >> called & 1 else None
        chosen = best_ecart(
            seat_view.players,
            seat_view.seats.index(seat_view.seat),
            full,
            seat_view.contract,
            partner_card,
            rng,
            self.ecart_worlds,
        )
        return Move(seat_view.seat, ECART, tuple(CARDS[card] for card in chosen))

    def card_for(self, seat_view: TarotView, legal: int, rng: Stream) -> int:
        return self.card_choice(seat_view, self.card_search(seat_view, legal, rng))

    @staticmethod
    def card_choice(seat_view: TarotView, search: CardSearch) -> int:
        """The card ``search`` makes best: the survivor of highest mean, the usual play's among equal ones."""
        if len(search.candidates) == 1:
            return search.candidates[0]
        means = search.means()
        best = max(means[card] for card in search.active)
        best_cards = [card for card in search.active if means[card] >= best - 1e-9]
        if len(best_cards) == 1:
            return best_cards[0]
        preferred = BaselineTarotBot.card_for(seat_view)
        return preferred if preferred in best_cards else best_cards[0]

    def card_search(self, seat_view: TarotView, legal: int, rng: Stream) -> CardSearch:
        """The race of ``card_for``: each distinct legal card played out in deals drawn from the seat's knowledge
        (none drawn when only one card differs), the cards not clearly worse than the leader kept on."""
        knowledge = knowledge_of(seat_view)
        candidates = distinct_candidates(legal, knowledge)
        values: dict[int, list[float]] = {card: [] for card in candidates}
        if len(candidates) == 1:
            return CardSearch(candidates, values, candidates)
        facts = ViewFacts(seat_view, knowledge)
        remaining = sum(seat_view.hand_sizes)
        sign = 1 if knowledge.attack else -1
        active = list(candidates)
        spent = 0
        worlds = 0
        while len(active) > 1 and worlds < self.max_worlds:
            if worlds >= self.min_worlds and spent + len(active) * remaining > self.budget:
                break
            position = sampled_position(facts, rng, self.evidence_candidates)
            for card in active:
                outcome = playout(position, card)
                values[card].append(
                    sign * marque_of(position.contract, outcome, position.primes, position.chelem_announced)
                )
            spent += len(active) * remaining
            worlds += 1
            if worlds >= self.min_worlds:
                active = survivors(active, values, worlds, self.z)
        return CardSearch(candidates, values, active)

    @classmethod
    def table_expert(cls, version: int = 3) -> ExpertTarotBot:
        """``expert/2``: expert/1's bids on a tenth of its card budget and a third of its écart deals, cheaper
        for the server's time per move (docs/tarot.md, "Bots"): 600 simulated cards a card decision (2 to 8
        deals), 32 deals a bid (12 overbid at five players), 4 an écart. ``expert/3``: the same, but a hand
        whose usual count is below ``TABLE_PASS_BELOW`` passes without simulating its bid."""
        pass_below = TABLE_PASS_BELOW if version == 3 else None
        return cls(
            version, budget=600, min_worlds=2, max_worlds=8, bid_worlds=32, ecart_worlds=4, pass_below=pass_below
        )

    @classmethod
    def compiled_expert(cls, version: int = 4) -> ExpertTarotBot:
        """``expert/4``: expert/1 on under half its card budget (2,800 simulated cards a card decision, still 6
        to 64 deals), passing the hands too weak to bid as expert/3 does: a candidate for the tables, not seated
        (it loses to expert/1 at three players, docs/tarot.md, "Bots"). ``expert/5``: expert/1's whole budget
        (6,000 cards) with the same weak passes, once the compiled search afforded it: the tables' bot."""
        return cls(version, budget=2800 if version == 4 else 6000, pass_below=TABLE_PASS_BELOW)
