"""The Malmedy table's player: a measured trump choice, and determinised search with an exact solver.

Trump: the suit whose simulated outcomes (``malmedy_trump``: every first three cards,
deals of the other cards solved exactly) are worth most in lines at the current chalk.
Playing, it deals the hidden cards many times consistently with what the free play
revealed (``malmedy_knowledge``), favouring the deals in which the chooser would have
named this trump, solves each exactly for the outcome class (made or failed, capot or
not: ``malmedy_solver``) and plays the card worth most lines on average
(``malmedy_objective``: the stake with mite and contra, the lines left). The mite, the
contra and the recontra are decided the same way: the same deals solved with and
without the announcement (or the higher stake), the expected lines compared. The work
of a decision is bounded by a count of search nodes, never by a clock, so a decision
replays exactly; a forced move is played at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from couyon.common.stream import Stream
from couyon.games.couyon.cards import SUITS, mask_of
from couyon.games.couyon.game import MITE, PASS, Move
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.knowledge import Hands, MalmedyKnowledge, knowledge_of, sample_hands
from couyon.games.malmedy.bots.objective import OutcomeValues, capot_matters, outcome_values, stake_of
from couyon.games.malmedy.bots.solver import (
    Position,
    SearchAborted,
    alive_bits,
    card_outcomes,
    new_search,
    position_outcome,
)
from couyon.games.malmedy.bots.trump import best_suit, hand_index, neutral_choices
from couyon.games.malmedy.game import MalmedyView
from couyon.games.malmedy.rules import trump_mask


class Budget(NamedTuple):
    """How much one decision may search: deals solved, and search nodes over all of them."""

    min_worlds: int
    """Deals solved before the search may stop because the choice is settled."""
    max_worlds: int
    nodes: int
    """Search nodes a decision may spend (the first deal solved may pass it); the deal that would pass it is
    dropped."""
    world_nodes: int
    """Search nodes one deal may take: a deal that needs more is left out and another one drawn."""


PLAY_BUDGET = Budget(min_worlds=4, max_worlds=32, nodes=1_500, world_nodes=1_500)
ANSWER_BUDGET = Budget(min_worlds=4, max_worlds=24, nodes=1_000, world_nodes=1_000)
"""The contra and recontra answers: one solve of the position per deal."""
WORLD_COST = 80
"""What drawing and setting up one deal costs, counted in search nodes (about 0.2 ms)."""
SETTLE_EVERY = 2
"""Deals solved between two checks of whether the choice is settled."""
SETTLED_Z = 2.0
"""The leading option is settled once its mean lead over each other option exceeds this many standard errors."""
CANDIDATES = 3
"""Deals drawn per deal solved when the chooser's trump is evidence: the kept one is picked by its likelihood."""
_LIKELIHOOD_FLOOR = 0.05
"""No trump choice is taken as proof: the chooser may see it otherwise (or be a human)."""


Option = int
"""What a solved deal gives a value to: a card (0–23), the same card after announcing the mite, or raising."""
MITE_OFFSET = 100
_ALL = (1 << 24) - 1
RAISE = -1


class Solved(NamedTuple):
    """What the deals solved for one decision say."""

    totals: dict[Option, float]
    """The options still in the race, each its values summed over every deal solved."""
    deals: int
    means: dict[Option, float]
    """Every option, its mean value over the deals solved while it was in the race (for the review)."""


def raises(solved: Solved) -> bool:
    """The expert's answer to a contra or recontra: raise when the deals solved say it gains lines on average."""
    return solved.deals > 0 and solved.totals.get(RAISE, 0.0) > 0.0


@lru_cache(maxsize=1 << 17)
def choice_likelihood(dealt: int, trump: int) -> float:
    """How likely a chooser dealt these five cards names ``trump``: any three of them may have been his first,
    and he is taken to choose as this bot does at 13 lines all (``malmedy_trump.neutral_choices``)."""
    choices = neutral_choices()
    cards = [card for card in range(24) if dealt >> card & 1]
    agreeing = sum(1 for trio in combinations(cards, 3) if choices[hand_index(mask_of(trio))] == trump)
    return max(_LIKELIHOOD_FLOOR, agreeing / 10)


def race(
    solved: list[dict[Option, float]], totals: dict[Option, float], active: set[Option]
) -> tuple[set[Option], bool]:
    """The options still worth solving, and whether the choice among them is settled.

    Each solved deal gives the paired difference (the option with the best total minus
    another one). An option behind by more than ``SETTLED_Z`` standard errors, or behind by
    the same amount in every deal so far, is dropped; one worth the same as the leader in
    every deal stays but does not hold the choice open. The choice is settled once
    nothing else holds it open.
    """
    leader = max(active, key=lambda option: totals[option])
    count = len(solved)
    kept = {leader}
    settled = True
    for option in active:
        if option == leader:
            continue
        differences = [values[leader] - values[option] for values in solved]
        mean = sum(differences) / count
        spread = sum([(difference - mean) ** 2 for difference in differences]) / count
        if spread == 0.0:
            if mean == 0.0:
                kept.add(option)
            continue
        if mean * mean * count > SETTLED_Z * SETTLED_Z * spread:
            continue
        kept.add(option)
        settled = False
    return kept, settled


class MalmedyExpertBot:
    name = "expert"
    version = 1

    def __init__(self, play_budget: Budget = PLAY_BUDGET, answer_budget: Budget = ANSWER_BUDGET) -> None:
        self.play_budget = play_budget
        self.answer_budget = answer_budget

    def choose(self, seat_view: MalmedyView, rng: Stream) -> Move:
        seat = seat_view.seat
        moves = seat_view.legal_moves
        if len(moves) == 1:
            return moves[0]
        if seat_view.trump is None:
            suit = best_suit(mask_of(seat_view.hand), seat_view.lines, seat % 2)
            return Move(seat, f"trump-{SUITS[suit]}")
        if seat_view.asking is not None:
            return Move(seat, seat_view.asking if self._raises(seat_view, rng) else PASS)
        card = self.pick_card(seat_view, self.card_values(seat_view, rng))
        if card is None:
            return Move(seat, MITE)
        return next(move for move in moves if move.action == card)

    # --- drawing the hidden cards

    def _draws(self, seat_view: MalmedyView, knowledge: MalmedyKnowledge, rng: Stream) -> Callable[[], Hands]:
        """A function that draws one deal of the hidden cards, picked by the chooser's trump evidence."""
        chooser = int(seat_view.chooser)
        if chooser == knowledge.seat:
            return lambda: sample_hands(knowledge, rng)
        trump = knowledge.trump
        played = knowledge.played[chooser]

        def draw() -> Hands:
            candidates = [sample_hands(knowledge, rng) for _ in range(CANDIDATES)]
            weights = [choice_likelihood(hands[chooser] | played, trump) for hands in candidates]
            pick = rng.random() * sum(weights)
            for hands, weight in zip(candidates, weights, strict=True):
                pick -= weight
                if pick < 0.0:
                    return hands
            return candidates[-1]

        return draw

    def _solve_worlds(
        self,
        draw: Callable[[], Hands],
        budget: Budget,
        solve: Callable[[Hands, int, set[Option] | None], tuple[dict[Option, float], int]],
    ) -> Solved:
        """``solve`` (values per option still in the race, or all at first; and the nodes it searched) over deals
        drawn until the budget is spent or the choice is settled."""
        totals: dict[Option, float] = {}
        counts: dict[Option, int] = {}
        solved: list[dict[Option, float]] = []
        active: set[Option] | None = None
        spent = 0
        while len(solved) < budget.max_worlds:
            limit = min(budget.world_nodes, budget.nodes - spent) if solved else budget.world_nodes
            if limit <= 0 or spent >= 2 * budget.nodes:
                break
            hands = draw()
            try:
                values, nodes = solve(hands, limit, active)
            except SearchAborted:
                # A deal too long to solve here is left out (the next one drawn may be quicker).
                spent += limit + WORLD_COST
                continue
            for option, value in values.items():
                totals[option] = totals.get(option, 0.0) + value
                counts[option] = counts.get(option, 0) + 1
            solved.append(values)
            spent += nodes + WORLD_COST
            if active is None:
                active = set(values)
            if len(solved) >= budget.min_worlds and len(solved) % SETTLE_EVERY == 0:
                active, settled = race(solved, totals, active)
                if settled:
                    break
        if active is None:
            return Solved({}, 0, {})
        means = {option: total / counts[option] for option, total in totals.items()}
        return Solved({option: totals[option] for option in active}, len(solved), means)

    # --- playing a card (or announcing the mite)

    def card_values(self, seat_view: MalmedyView, rng: Stream) -> Solved:
        """Each card (and, when the mite may be announced, ``MITE_OFFSET`` + each card after announcing it) valued
        in lines for this seat's team over the deals solved."""
        may_mite = any(move.action == MITE for move in seat_view.legal_moves)
        knowledge = knowledge_of(seat_view)
        chooser_team = seat_view.chooser % 2
        own_team = seat_view.seat % 2
        mite = seat_view.mite is not None
        values = outcome_values(seat_view.lines, stake_of(mite, seat_view.contra), chooser_team, own_team)
        trick = seat_view.trick
        ns_lead = seat_view.points[0] - seat_view.points[1]
        won = alive_bits(seat_view.trick_counts)
        position = Position((0, 0, 0, 0), knowledge.trump, mite, int(trick.leader), trick.cards, ns_lead, 0)
        alive = won & capot_matters(values, chooser_team)
        mite_values: list[OutcomeValues] = []
        if may_mite:
            # The contra the left opponent would answer is judged by his trumps in each deal (three or more).
            mite_values = [
                outcome_values(seat_view.lines, stake_of(True, contra), chooser_team, own_team) for contra in (0, 1)
            ]
            alive |= won & (capot_matters(mite_values[0], chooser_team) | capot_matters(mite_values[1], chooser_team))
        left = (knowledge.seat + 1) % 4
        mite_trumps = trump_mask(knowledge.trump, True)

        def solve(hands: Hands, limit: int, active: set[Option] | None) -> tuple[dict[Option, float], int]:
            here = position._replace(hands=hands, alive=alive)
            plain_cards = _ALL if active is None else mask_of(option for option in active if option < MITE_OFFSET)
            mite_cards = (
                _ALL if active is None else mask_of(option - MITE_OFFSET for option in active if option >= MITE_OFFSET)
            )
            result: dict[Option, float] = {}
            nodes = 0
            if plain_cards:
                search = new_search(here, limit)
                for card, outcome in card_outcomes(here, chooser_team, search, plain_cards).items():
                    result[card] = values[outcome]
                nodes = search.nodes()
            if may_mite and mite_cards:
                with_mite = here._replace(mite=True)
                search = new_search(with_mite, max(0, limit - nodes))
                contra = 1 if (hands[left] & mite_trumps).bit_count() >= 3 else 0
                table = mite_values[contra]
                for card, outcome in card_outcomes(with_mite, chooser_team, search, mite_cards).items():
                    result[MITE_OFFSET + card] = table[outcome]
                nodes += search.nodes()
            return result, nodes

        return self._solve_worlds(self._draws(seat_view, knowledge, rng), self.play_budget, solve)

    @staticmethod
    def pick_card(seat_view: MalmedyView, solved: Solved) -> int | None:
        """The card worth most lines on average, or None to announce the mite first."""
        totals = solved.totals
        if not solved.deals:
            return MalmedyBaselineBot().card_for(seat_view)
        plain = {option: total for option, total in totals.items() if option < MITE_OFFSET}
        best_total = max(plain.values(), default=-math.inf)
        best_mite = max((total for option, total in totals.items() if option >= MITE_OFFSET), default=-math.inf)
        if best_mite > best_total + 1e-9:
            return None
        best_cards = [card for card, total in plain.items() if total >= best_total - 1e-9]
        if len(best_cards) == 1:
            return best_cards[0]
        # Equal in every deal solved: the café habits keep the margin (cheapest card, load a safe partner).
        preferred = MalmedyBaselineBot().card_for(seat_view)
        return preferred if preferred in best_cards else min(best_cards)

    # --- contra and recontra

    def _raises(self, seat_view: MalmedyView, rng: Stream) -> bool:
        """Whether answering ``contra`` (or ``recontra``) gains lines on average over the deals solved."""
        return raises(self.raise_value(seat_view, rng))

    def raise_value(self, seat_view: MalmedyView, rng: Stream) -> Solved:
        """What answering ``contra`` (or ``recontra``) gains over passing (option ``RAISE``), in lines for this
        seat's team, over the deals solved."""
        knowledge = knowledge_of(seat_view)
        chooser_team = seat_view.chooser % 2
        own_team = seat_view.seat % 2
        now = outcome_values(seat_view.lines, stake_of(True, seat_view.contra), chooser_team, own_team)
        raised = outcome_values(seat_view.lines, stake_of(True, seat_view.contra + 1), chooser_team, own_team)
        alive = alive_bits(seat_view.trick_counts) & (
            capot_matters(now, chooser_team) | capot_matters(raised, chooser_team)
        )
        trick = seat_view.trick
        ns_lead = seat_view.points[0] - seat_view.points[1]
        position = Position((0, 0, 0, 0), knowledge.trump, True, int(trick.leader), trick.cards, ns_lead, alive)

        def solve(hands: Hands, limit: int, active: set[Option] | None) -> tuple[dict[Option, float], int]:
            search = new_search(position, limit)
            outcome = position_outcome(position._replace(hands=hands), chooser_team, search)
            return {RAISE: raised[outcome] - now[outcome]}, search.nodes()

        return self._solve_worlds(self._draws(seat_view, knowledge, rng), self.answer_budget, solve)


neutral_choices()  # The trump table is read when this module is imported, not in a player's first decision.
