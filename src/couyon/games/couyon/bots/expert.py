"""The table's player: measured bidding odds and determinised search with an exact solver.

Bidding weighs a take by the odds measured offline for hands like this one
(``bidding.py``) against what the chalk makes of each outcome now (``objective.py``,
the doubled stake and the lines left included), with a threshold per speaking
position tuned by self-play. Playing, it deals the hidden cards many times
consistently with everything the obligations revealed (``knowledge.py``), keeps the
deals that best explain who passed and who took, solves each exactly for the chalk
outcome (``solver.py``) and plays the card with the best average; a forced card is
played at once.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

from couyon.common.stream import Stream
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.bidding import key_reader, odds_of_key, take_odds, take_probability
from couyon.games.couyon.bots.knowledge import Knowledge, knowledge_of, sample_hands
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.solver import outcome_classes
from couyon.games.couyon.cards import mask_of
from couyon.games.couyon.game import PASS, TAKE, Move
from couyon.games.couyon.view import SeatView

TAKE_THRESHOLDS = (0.3, 0.25, 0.2, 0.15)
"""Expected lines a take must beat, by speaking position in the round (first speaker to dealer)."""


class SearchBudget(NamedTuple):
    """How many deals the play search solves, and how the bidding evidence picks them."""

    min_worlds: int
    """Deals solved before the search may stop early."""
    first_trick_worlds: int
    """Deals solved at most in the first trick, where each solve (four cards a hand) costs most."""
    max_worlds: int
    """Deals solved at most per decision after the first trick."""
    resample: bool
    """Draw ``CANDIDATES_PER_WORLD`` deals per deal kept and keep them by their likelihood (versions 1 and 2),
    or draw each deal once and weigh it by its likelihood (cheaper per deal, so more deals are solved)."""
    settled_z: float | None
    """None: stop once one card has been best in every deal solved (versions 1 and 2, which stopped too
    soon when the first deals happened to agree). A number: every ``SETTLE_EVERY`` deals, stop once the
    leading card's weighted mean lead over each other card exceeds that many standard errors."""


BUDGET_BY_VERSION = {
    1: SearchBudget(6, 16, 16, resample=True, settled_z=None),
    2: SearchBudget(8, 16, 32, resample=True, settled_z=None),
    3: SearchBudget(16, 32, 128, resample=False, settled_z=2.0),
}
"""Each released version's search; records name the version, so an old game replays with its own."""
CANDIDATES_PER_WORLD = 3
"""Deals drawn per deal kept: the bidding evidence picks the kept ones among them."""
SETTLE_EVERY = 8
"""Deals solved between two checks of whether the choice is settled."""

Hands = tuple[int, int, int, int]
"""The four hands of one deal of the hidden cards, as masks indexed by seat."""

_PROBABILITY_FLOOR = 0.03
"""No bid is ever taken as proof: a player may misjudge, or be a human."""


class ExpertBot:
    name = "expert"

    def __init__(self, version: int = 3, thresholds: tuple[float, ...] = TAKE_THRESHOLDS) -> None:
        self.version = version
        self.budget = BUDGET_BY_VERSION[version]
        self.thresholds = thresholds

    def choose(self, seat_view: SeatView, rng: Stream) -> Move:
        seat = seat_view.seat
        if seat_view.trump is None:
            return Move(seat, TAKE if self._takes(seat_view) else PASS)
        moves = seat_view.legal_moves
        if len(moves) == 1:
            return moves[0]
        card = self._best_card(seat_view, rng)
        return next(move for move in moves if move.action == card)

    def _takes(self, seat_view: SeatView) -> bool:
        take, bar = self.take_value(seat_view)
        return take > bar

    def take_value(self, seat_view: SeatView) -> tuple[float, float]:
        """The lines a take of the current proposal is expected to win, and the bar it must beat at this
        speaking position (what passing is worth to the expert)."""
        proposal = seat_view.current_proposal
        position = sum(1 for bid in seat_view.bids if bid.proposal == proposal)
        odds = take_odds(mask_of(seat_view.hand), proposal, mask_of(seat_view.proposals), position)
        utilities = outcome_utilities(seat_view.lines, seat_view.stake, seat_view.seat % 2)
        return odds.expected(utilities), self.thresholds[position]

    def _best_card(self, seat_view: SeatView, rng: Stream) -> int:
        totals, _ = self.card_totals(seat_view, rng)
        return best_valued_card(totals, seat_view)

    def card_totals(self, seat_view: SeatView, rng: Stream) -> tuple[dict[int, float], float]:
        """Each legal card's value to this seat's team in lines, summed over the deals solved with their
        weights, and the sum of the weights: a card's expected value is its total over that sum."""
        knowledge = knowledge_of(seat_view)
        solve = deal_solver(seat_view)
        totals: dict[int, float] = {}
        weight_sum = 0.0
        if self.budget.settled_z is None:
            always_best: set[int] | None = None
            for solved, (hands, weight) in enumerate(self.worlds(seat_view, knowledge, rng).items(), start=1):
                values = solve.card_values(hands)
                weight_sum += weight
                for card, value in values.items():
                    totals[card] = totals.get(card, 0.0) + weight * value
                best = max(values.values())
                winners = {card for card, value in values.items() if value == best}
                always_best = winners if always_best is None else always_best & winners
                if solved >= self.budget.min_worlds and always_best:
                    break
        else:
            known: dict[Hands, dict[int, float]] = {}
            settling = _Settling(self.budget.settled_z)
            for hands, weight in self.draws(seat_view, knowledge, rng):
                if hands not in known:
                    known[hands] = solve.card_values(hands)
                for card, value in known[hands].items():
                    totals[card] = totals.get(card, 0.0) + weight * value
                settling.add(weight, known[hands])
                weight_sum += weight
                checkpoint = settling.count >= self.budget.min_worlds and settling.count % SETTLE_EVERY == 0
                if checkpoint and settling.settled(totals):
                    break
        return totals, weight_sum

    def draws(self, seat_view: SeatView, knowledge: Knowledge, rng: Stream) -> Iterator[tuple[Hands, float]]:
        """Deals of the hidden cards drawn one at a time (as the search asks for them), each with its bid likelihood."""
        evidence = [
            _BidEvidence(bid.seat, bid.take, bid.proposal, seat_view, self.thresholds)
            for bid in seat_view.bids
            if bid.seat != seat_view.seat
        ]
        count = self.budget.max_worlds if seat_view.tricks else self.budget.first_trick_worlds
        played: tuple[int, ...] = knowledge.played  # indexed in place once compiled (see ``sample_hands``)
        for _ in range(count * CANDIDATES_PER_WORLD if self.budget.resample else count):
            hands = sample_hands(knowledge, rng)
            held: tuple[int, ...] = hands
            likelihood = 1.0
            for item in evidence:
                likelihood *= item.likelihood(held[item.seat] | played[item.seat])
            yield hands, likelihood

    def worlds(self, seat_view: SeatView, knowledge: Knowledge, rng: Stream) -> dict[Hands, float]:
        """Versions 1 and 2: the deals to solve, kept among all the draws by resampling on their likelihood."""
        candidates = list(self.draws(seat_view, knowledge, rng))
        count = self.budget.max_worlds if seat_view.tricks else self.budget.first_trick_worlds
        total = sum([likelihood for _, likelihood in candidates])
        # Systematic resampling: ``count`` evenly spaced picks along the cumulative weights.
        step = total / count
        pointer = rng.random() * step
        chosen: dict[Hands, float] = {}
        cumulative = 0.0
        picks = 0
        for hands, likelihood in candidates:
            cumulative += likelihood
            while pointer < cumulative and picks < count:
                chosen[hands] = chosen.get(hands, 0.0) + 1.0
                pointer += step
                picks += 1
        return chosen


def best_valued_card(values: dict[int, float], seat_view: SeatView) -> int:
    """The card of the highest value; among cards equal to within 1e-9 (equal in every deal solved), the village
    player's habits keep the margin: the baseline's card if it is one of them, else the lowest."""
    best_value = max(values.values())
    best_cards = [card for card, value in values.items() if value >= best_value - 1e-9]
    if len(best_cards) == 1:
        return best_cards[0]
    preferred = BaselineBot().card_for(seat_view)
    return preferred if preferred in best_cards else min(best_cards)


def deal_solver(seat_view: SeatView) -> _DealSolver:
    """The exact solve of this decision for any deal of the hidden cards, valued in lines for the seat's team."""
    taker = seat_view.taker
    trump = seat_view.trump
    assert taker is not None and trump is not None
    utilities = outcome_utilities(seat_view.lines, seat_view.stake, taker % 2)
    own_sign = 1 if seat_view.seat % 2 == taker % 2 else -1
    taker_sign_of_ns = 1 if taker % 2 == 0 else -1
    points_ns = seat_view.points[0] - seat_view.points[1]
    trick = seat_view.trick
    # What each outcome is worth to this seat's team, by the sign of NS's final lead (-1, 0, 1): one deal
    # solved exactly gives each legal card's value by ``worth[sign + 1]``.
    worth = [own_sign * utilities.of_sign(taker_sign_of_ns * sign) for sign in (-1, 0, 1)]
    return _DealSolver(int(trump), trick.leader, trick.cards, points_ns, worth)


class _DealSolver:
    """One decision's exact solve of a drawn deal: what each legal card is worth to the deciding seat's team."""

    def __init__(self, trump: int, leader: int, trick: tuple[int, ...], points_ns: int, worth: list[float]) -> None:
        self.trump = trump
        self.leader = leader
        self.trick = trick
        self.points_ns = points_ns
        self.worth = worth

    def card_values(self, hands: Hands) -> dict[int, float]:
        classes = outcome_classes(hands, self.trump, self.leader, self.trick, self.points_ns)
        worth = self.worth
        return {card: worth[sign + 1] for card, sign in classes.items()}


class _Settling:
    """Whether the card with the best total leads every other card by more than ``z`` standard errors.

    Each solved deal gives the paired difference (leader's value minus the other card's), weighted by the deal's
    weight; a card that differs in no deal so far is settled. The differences are kept from one check to the next
    while the leading card stays the same (the same products, in the same order, as computed anew: the same sums).
    """

    def __init__(self, z: float) -> None:
        self.z = z
        self.solved: list[dict[int, float]] = []
        self.weights: list[float] = []
        self.leader = -1
        self.differenced = 0
        """Deals counted in ``differences`` (all of them after a check)."""
        self.differences: dict[int, list[float]] = {}
        """For each card but the leader, its difference to the leader in each deal counted so far."""
        self.weighted: dict[int, list[float]] = {}
        """The same differences times the deals' weights."""

    def add(self, weight: float, values: dict[int, float]) -> None:
        self.solved.append(values)
        self.weights.append(weight)

    @property
    def count(self) -> int:
        """Deals added so far."""
        return len(self.solved)

    def settled(self, totals: dict[int, float]) -> bool:
        leader = -1
        best = 0.0
        for card, total in totals.items():  # The first card of the highest total, as ``max`` picks it.
            if leader < 0 or total > best:
                leader, best = card, total
        if leader != self.leader:
            self.leader = leader
            self.differenced = 0
            self.differences = {card: [] for card in totals if card != leader}
            self.weighted = {card: [] for card in totals if card != leader}
        weights = self.weights
        for index in range(self.differenced, self.count):
            values = self.solved[index]
            weight = weights[index]
            lead = values[leader]
            for card, differences in self.differences.items():
                difference = lead - values[card]
                differences.append(difference)
                self.weighted[card].append(weight * difference)
        self.differenced = self.count
        total_weight = sum(weights)
        squared_weights = sum([weight * weight for weight in weights])
        if total_weight <= 0.0:
            return False
        for card, differences in self.differences.items():
            mean = sum(self.weighted[card]) / total_weight
            spread = sum([weights[i] * (differences[i] - mean) ** 2 for i in range(len(differences))]) / total_weight
            if spread == 0.0:
                continue
            if mean <= self.z * math.sqrt(spread * squared_weights) / total_weight:
                return False
        return True


class _BidEvidence:
    """One bid of another seat, turned into the likelihood of a dealt hand under a sensible bidder."""

    def __init__(
        self, seat: int, took: bool, proposal: int, seat_view: SeatView, thresholds: tuple[float, ...]
    ) -> None:
        self.seat = seat
        self.took = took
        self.proposal = proposal
        turned = seat_view.proposals.index(proposal)
        out = mask_of(seat_view.proposals[: turned + 1])
        earlier = 0
        for bid in seat_view.bids:
            if bid.seat == seat and bid.proposal == proposal:
                break
            if bid.proposal == proposal:
                earlier += 1
        self.threshold = thresholds[earlier]
        self.position = earlier
        self.reader = key_reader(proposal, out)
        self.memo: dict[int, float] = {}

    def likelihood(self, dealt: int) -> float:
        key = self.reader.key(dealt)
        found = self.memo.get(key)
        if found is None:
            probability = take_probability(odds_of_key(key, self.position), self.threshold)
            probability = min(1.0 - _PROBABILITY_FLOOR, max(_PROBABILITY_FLOOR, probability))
            found = probability if self.took else 1.0 - probability
            self.memo[key] = found
        return found
