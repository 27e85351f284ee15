"""αμ: a determinised search that chooses one card for every sampled deal at once (Cazenave and Ventos, 2019).

expert/3's search (PIMC) solves each sampled deal as if every hand were open and plays the
card with the best average: in each deal it assumes it will also guess every later card
right, so it may prefer a line that needs a guess it cannot make (strategy fusion). αμ
searches the sampled deals together. At this seat's own turns one card is chosen for all
the deals still possible (it cannot tell them apart); at an opponent's turn each deal
takes its own minimum (the opponents are played double dummy, as in PIMC); the partner,
who does not see this hand either, is played double dummy too (each deal takes its own
maximum): PIMC's view of him, kept so that depth 1 is exactly PIMC. A node's value is a
Pareto front of vectors, one outcome per deal; ``depth`` counts this seat's turns searched
so, and the position at the last of them is solved per deal by the exact solver
(``solver.outcome_classes``). At the root each card's front gives its best weighted
average of lines (the deals' weights are their bid likelihoods, as expert/3's).

Bids and forced cards are expert/3's; the deals are expert/3's draws (``ExpertBot.draws``).
"""

from __future__ import annotations

from collections.abc import Sequence

from couyon.common.cardsets import top_down
from couyon.common.stream import Stream
from couyon.games.couyon.bots.expert import ExpertBot, Hands, best_valued_card
from couyon.games.couyon.bots.knowledge import knowledge_of
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.solver import TranspositionTable, outcome_classes
from couyon.games.couyon.game import Move
from couyon.games.couyon.rules import CARD_POINTS, standard_legal_cards, standard_trick_winner
from couyon.games.couyon.view import SeatView

Vector = tuple[int, ...]
"""One outcome per deal of a node, from the searching team's side: 1 it wins the deal's chalk, 0 tie, -1 loses."""
Front = list[Vector]
"""Vectors no other one of the front beats or equals in every deal."""

_ABOVE = 2
"""Above every outcome: the neutral start of a per-deal minimum."""


def pareto(vectors: Sequence[Vector]) -> Front:
    """The vectors of ``vectors`` that no other one is at least as good as in every deal (duplicates once)."""
    kept: Front = []
    for vector in sorted(set(vectors), key=sum, reverse=True):
        if not any(all(k >= v for k, v in zip(other, vector, strict=True)) for other in kept):
            kept.append(vector)
    return kept


class AlphaMuSearch:
    """The αμ search over a fixed set of deals (current hands by seat) for the seat ``me``."""

    def __init__(self, deals: Sequence[Hands], me: int, trump: int) -> None:
        self.hands = [list(hands) for hands in deals]
        self.tables: list[TranspositionTable] = [{} for _ in deals]
        self.me = me
        self.trump = trump
        self.sign = 1 if me % 2 == 0 else -1
        """Turns NS's final points sign into this team's outcome."""

    def root_fronts(self, leader: int, trick: tuple[int, ...], points_ns: int, depth: int) -> dict[int, Front]:
        """Each legal card's front over all the deals, ``me`` to move, searching ``depth`` of its turns."""
        live = list(range(len(self.hands)))
        legal = standard_legal_cards(self.hands[0][self.me], trick, self.trump)
        if depth <= 1:
            solved = self._solve(live, leader, trick, points_ns)
            return {card: [tuple(classes[card] for classes in solved)] for card in top_down(legal)}
        fronts: dict[int, Front] = {}
        for card in top_down(legal):
            fronts[card] = self._after_own_card(live, leader, trick, points_ns, depth, card)
        return fronts

    def _solve(self, live: list[int], leader: int, trick: tuple[int, ...], points_ns: int) -> list[dict[int, int]]:
        """Per deal of ``live``, each legal card's outcome for this team with every hand open."""
        sign = self.sign
        solved = []
        for world in live:
            classes = outcome_classes(self.hands[world], self.trump, leader, trick, points_ns, self.tables[world])
            solved.append({card: sign * outcome for card, outcome in classes.items()})
        return solved

    def _after_own_card(
        self, live: list[int], leader: int, trick: tuple[int, ...], points_ns: int, depth: int, card: int
    ) -> Front:
        me = self.me
        bit = 1 << card
        for world in live:
            self.hands[world][me] ^= bit
        front = self._next(live, leader, (*trick, card), points_ns, depth - 1)
        for world in live:
            self.hands[world][me] ^= bit
        return front

    def _next(self, live: list[int], leader: int, trick: tuple[int, ...], points_ns: int, depth: int) -> Front:
        """The front once ``trick`` (the cards on the table) is laid: settle a full trick, then search on."""
        if len(trick) == 4:
            winner = (leader + standard_trick_winner(trick, self.trump)) & 3
            gained = sum(CARD_POINTS[card] for card in trick)
            points_ns += gained if winner % 2 == 0 else -gained
            if self.hands[live[0]][self.me] == 0:
                outcome = self.sign * ((points_ns > 0) - (points_ns < 0))
                return [(outcome,) * len(live)]
            leader, trick = winner, ()
        return self._search(live, leader, trick, points_ns, depth)

    def _search(self, live: list[int], leader: int, trick: tuple[int, ...], points_ns: int, depth: int) -> Front:
        seat = (leader + len(trick)) & 3
        if seat == self.me:
            if depth == 1:
                solved = self._solve(live, leader, trick, points_ns)
                return pareto([tuple(classes[card] for classes in solved) for card in solved[0]])
            legal = standard_legal_cards(self.hands[live[0]][seat], trick, self.trump)
            union: Front = []
            for card in top_down(legal):
                union.extend(self._after_own_card(live, leader, trick, points_ns, depth, card))
            return pareto(union)
        # Another seat: each deal plays its own card, the opponents' worst for us, the partner's best.
        minimising = seat % 2 != self.me % 2
        by_card: dict[int, list[int]] = {}
        for position, world in enumerate(live):
            for card in top_down(standard_legal_cards(self.hands[world][seat], trick, self.trump)):
                by_card.setdefault(card, []).append(position)
        start = _ABOVE if minimising else -_ABOVE
        combined: Front = [(start,) * len(live)]
        for card, positions in by_card.items():
            bit = 1 << card
            sub = [live[position] for position in positions]
            for world in sub:
                self.hands[world][seat] ^= bit
            child = self._next(sub, leader, (*trick, card), points_ns, depth)
            for world in sub:
                self.hands[world][seat] ^= bit
            merged: list[Vector] = []
            for vector in combined:
                for other in child:
                    values = list(vector)
                    for index, position in enumerate(positions):
                        value = other[index]
                        if value < values[position] if minimising else value > values[position]:
                            values[position] = value
                    merged.append(tuple(values))
            # A vector beaten everywhere stays beaten by a per-deal minimum (or maximum) with anything.
            combined = pareto(merged)
        return combined


class AlphaMuBot:
    """expert/3's bidding and deals, αμ's card search."""

    name = "expert"

    def __init__(self, version: int, depth: int, first_trick_worlds: int, worlds: int) -> None:
        self.version = version
        self.depth = depth
        self.first_trick_worlds = first_trick_worlds
        """Deals searched in the first trick, where each costs most (four cards a hand)."""
        self.worlds = worlds
        """Deals searched after the first trick."""
        self.expert = ExpertBot(version=3)

    def choose(self, seat_view: SeatView, rng: Stream) -> Move:
        moves = seat_view.legal_moves
        if seat_view.trump is None or len(moves) == 1:
            return self.expert.choose(seat_view, rng)
        card = self.best_card(seat_view, rng)
        return next(move for move in moves if move.action == card)

    def card_values(self, seat_view: SeatView, rng: Stream) -> dict[int, float]:
        """Each legal card's best weighted mean of lines for this team over the deals searched."""
        knowledge = knowledge_of(seat_view)
        wanted = self.worlds if seat_view.tricks else self.first_trick_worlds
        weights: dict[Hands, float] = {}
        for hands, weight in self.expert.draws(seat_view, knowledge, rng):
            if hands in weights or len(weights) < wanted:
                weights[hands] = weights.get(hands, 0.0) + weight
            if len(weights) >= wanted:
                break
        deals = list(weights)
        taker = seat_view.taker
        assert taker is not None
        utilities = outcome_utilities(seat_view.lines, seat_view.stake, taker % 2)
        own_sign = 1 if seat_view.seat % 2 == taker % 2 else -1
        # Our outcome +1 is the taker made when we took, failed when we defend.
        lines_of = {outcome: own_sign * utilities.of_sign(own_sign * outcome) for outcome in (-1, 0, 1)}
        search = AlphaMuSearch(deals, seat_view.seat, knowledge.trump)
        trick = seat_view.trick
        points_ns = seat_view.points[0] - seat_view.points[1]
        fronts = search.root_fronts(trick.leader, tuple(trick.cards), points_ns, self.depth)
        total = sum(weights.values())
        deal_weights = [weights[hands] / total for hands in deals]
        return {
            card: max(sum(w * lines_of[v] for w, v in zip(deal_weights, vector, strict=True)) for vector in front)
            for card, front in fronts.items()
        }

    def best_card(self, seat_view: SeatView, rng: Stream) -> int:
        return best_valued_card(self.card_values(seat_view, rng), seat_view)
