"""The review of a finished game of couyon: every deal, and each decision of one seat judged.

The review is written from one seat (``seat``): South's at the solo table, each person's own at a
friends' table. Built from the seed and the moves alone. Each of the seat's bids shows what the
expert bot (``ExpertBot.take_value``) thinks a take is worth against the bar it must beat at that
speaking position; each card the seat chose shows every legal card valued twice: by the
expert from the seat's view only (``ExpertBot.card_totals``: the hidden cards dealt many
times and solved), and double-dummy, by the exact solver on the true deal
(``solver.outcome_classes``, valued as the omniscient bot values it). Values are in chalk
lines for the seat's team (``objective.outcome_utilities``: the stake, the lines left and the
game bonus included); a decision's cost is the best value minus the value of the choice.
The decisions with the largest expert cost are marked ``costly``. The ``score`` is the seat's
(ruling 8, from its team's side); ``winner`` names the winning team.

With ``revealed`` False (a daily game whose day is not over) nothing hidden from the seat
is in the review: only its own hands, and no double-dummy value.

``review_of`` walks the moves the same way for every variant; what differs (the bids,
the expert, the solver, the trick's winner) is the variant's ``Rules``: ``COUYON`` here,
``malmedy_review.MALMEDY_RULES`` for the couyon de Malmedy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from couyon.common.kind import Options
from couyon.common.review import mark_costliest
from couyon.common.stream import Stream
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.solver import outcome_classes
from couyon.games.couyon.cards import RANKS_PER_SUIT, SEATS, Card, Seat, cards_of
from couyon.games.couyon.game import TAKE, DealSummary, GameState, Move, legal_cards, new_game, play
from couyon.games.couyon.record import deal_report
from couyon.games.couyon.rules import STANDARD, dealt_variant
from couyon.games.couyon.view import standard_view

Json = dict[str, Any]

REVIEWER = ExpertBot()
"""The expert whose judgement the review shows: the table's current expert."""
COSTLY_MIN = 0.1
"""The least expert cost, in lines, of a decision marked costly."""
_OUTCOMES = {1: "made", 0: "tie", -1: "failed"}
HUMAN = Seat.S
"""The seat a review is written from unless told: the solo table's human."""


class Rules(Protocol):
    """What differs between the reviews of two variants; ``review_of`` walks the moves the same way for all."""

    expert: str
    """The reviewing bot's id."""

    def new_game(self, seed: str, options: Options) -> GameState:
        """The game before its first move, dealt with these table options (``dealt_variant``)."""
        ...

    def deal_facts(self, state: GameState) -> Json:
        """What a deal's entry tells of the deal as dealt, besides its number, dealer and hands."""

    def call(self, state: GameState, move: Move) -> Json:
        """A move that is not a card (a bid, a trump, an announcement) as its entry in ``bids``."""

    def judged(self, state: GameState, move: Move, revealed: bool) -> Json:
        """The reviewed seat's decision ``move`` (``move.seat``): the expert's values of the choices from that seat's
        view, the solver's when ``revealed``, the cost; in lines for that seat's team."""

    def par(self, move: Move, after: GameState) -> str | None:
        """The deal's double-dummy outcome once ``move`` sets what is played for (None: not this move)."""

    def trick_winner(self, state: GameState, cards: tuple[Card, ...]) -> int:
        """The position in the full trick ``cards`` of its winner."""

    def report(self, summary: Any) -> Json:
        """The finished deal's record ``deal_log`` entry, as the deal's entry ends."""


def review_of(
    rules: Rules, seed: str, moves: Sequence[str], revealed: bool, seat: Seat, options: Options | None
) -> Json:
    """The review from ``seat`` of the finished game ``seed`` + ``moves`` of ``rules``'s variant, dealt with these
    table options (see the module's text)."""
    state = rules.new_game(seed, options or {})
    deals: list[Json] = []
    decisions: list[Json] = []
    for text in moves:
        move = Move.parse(text)
        deal = state.deal
        if not deals or deals[-1]["number"] != deal.number:
            deals.append(_deal_start(rules, state, revealed, seat))
        entry = deals[-1]
        judged = rules.judged(state, move, revealed) if move.seat == seat else None
        if judged is not None:
            decisions.append(judged)
        if move.card is None:
            bid = rules.call(state, move)
            entry["bids"].append(bid if judged is None else {**bid, "review": judged})
        else:
            if not deal.trick:
                entry["tricks"].append({"leader": str(deal.leader), "cards": [], "winner": None})
            trick = entry["tricks"][-1]
            played: Json = {"seat": str(move.seat), "card": str(move.card)}
            trick["cards"].append(played if judged is None else {**played, "review": judged})
        after = play(state, move)
        if move.card is not None and len(deal.trick) == 3:
            winner = rules.trick_winner(state, (*deal.trick, move.card))
            entry["tricks"][-1]["winner"] = str(SEATS[(deal.leader + winner) % 4])
        par = rules.par(move, after) if revealed and move.card is None else None
        if par is not None:
            entry["par"] = par
        if len(after.finished_deals) > len(state.finished_deals):
            entry.update(rules.report(after.finished_deals[-1]))
        state = after
    mark_costliest(decisions, COSTLY_MIN)
    return {
        "revealed": revealed,
        "expert": rules.expert,
        "winner": None if state.winner is None else str(state.winner),
        "score": state.score_of(seat),
        "deals": deals,
    }


def _deal_start(rules: Rules, state: GameState, revealed: bool, seat: Seat) -> Json:
    deal = state.deal
    seats = SEATS if revealed else (seat,)
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        **rules.deal_facts(state),
        "hands": {str(shown): [str(card) for card in cards_of(deal.hands[shown])] for shown in seats},
        "par": None,
        "bids": [],
        "tricks": [],
    }


class _Couyon:
    """The common game's review: bids judged by the take value against the bar, cards by ``ExpertBot``."""

    expert = f"{REVIEWER.name}/{REVIEWER.version}"

    @staticmethod
    def new_game(seed: str, options: Options) -> GameState:
        return new_game(seed, dealt_variant(STANDARD, options))

    @staticmethod
    def deal_facts(state: GameState) -> Json:
        return {"stake": state.deal.stake}

    @staticmethod
    def call(state: GameState, move: Move) -> Json:
        return {"seat": str(move.seat), "proposal": str(state.deal.proposal), "take": move.action == TAKE}

    @staticmethod
    def judged(state: GameState, move: Move, revealed: bool) -> Json:
        return _judged(state, move, revealed)

    @staticmethod
    def par(move: Move, after: GameState) -> str | None:
        return _par(after) if move.action == TAKE else None

    @staticmethod
    def trick_winner(state: GameState, cards: tuple[Card, ...]) -> int:
        assert state.deal.trump is not None
        return state.variant.trick_winner(cards, state.deal.trump)

    @staticmethod
    def report(summary: DealSummary) -> Json:
        return deal_report(summary)


COUYON: Rules = _Couyon()


def review(seed: str, moves: Sequence[str], revealed: bool, seat: Seat = HUMAN, options: Options | None = None) -> Json:
    """The review from ``seat`` of the finished standard game ``seed`` + ``moves`` (see the module's text)."""
    return review_of(COUYON, seed, moves, revealed, seat, options)


def _judged(state: GameState, move: Move, revealed: bool) -> Json:
    """The decision ``move`` in ``state``: the expert's values of its choices from its seat's view (and the
    solver's), and the costs, in lines for its seat's team."""
    seat = move.seat
    seat_view = standard_view(state, seat)
    deal = state.deal
    if move.card is None:
        take, bar = REVIEWER.take_value(seat_view)
        took = move.action == TAKE
        judged: Json = {
            "take": round(take, 3),
            "pass": bar,
            "expert_choice": "take" if take > bar else "pass",
            "cost": round(max(0.0, bar - take if took else take - bar), 3),
        }
        if revealed:
            # Double dummy: the seat takes this proposal and leads; the best the solver finds for its team.
            classes = outcome_classes(deal.hands, deal.proposal // RANKS_PER_SUIT, seat, (), 0)
            judged["dd_take"] = _OUTCOMES[_best_for(classes, seat % 2)]
        return judged
    legal = legal_cards(state)
    if len(legal) == 1:
        return {"forced": True, "cost": 0.0}
    totals, weight = REVIEWER.card_totals(seat_view, Stream(state.seed, f"review:{state.move_count}"))
    expert = {card: round(totals[card] / weight, 3) for card in legal}
    judged = {"forced": False, "cost": round(max(expert.values()) - expert[move.card], 3)}
    options: list[Json] = [{"card": str(card), "expert": expert[card]} for card in legal]
    if revealed:
        exact = {card: round(value, 3) for card, value in _double_dummy(state).items()}
        judged["dd_cost"] = round(max(exact.values()) - exact[move.card], 3)
        for option, card in zip(options, legal, strict=True):
            option["dd"] = exact[card]
    judged["options"] = options
    return judged


def _double_dummy(state: GameState) -> dict[int, float]:
    """Each legal card's worth to the team of the seat to move, in lines, with every hand known and perfect play
    after it."""
    deal = state.deal
    assert deal.taker is not None and deal.trump is not None and state.to_move is not None
    utilities = outcome_utilities(state.lines, deal.stake, deal.taker % 2)
    taker_sign_of_ns = 1 if deal.taker % 2 == 0 else -1
    own_sign = 1 if state.to_move % 2 == deal.taker % 2 else -1  # The taker's gains are his team's.
    classes = outcome_classes(deal.hands, deal.trump, deal.leader, deal.trick, deal.points[0] - deal.points[1])
    return {card: own_sign * utilities.of_sign(taker_sign_of_ns * sign) for card, sign in classes.items()}


def _par(state: GameState) -> str:
    """The double-dummy outcome for the taker of the deal just taken: both sides play perfectly from the first lead."""
    deal = state.deal
    assert deal.taker is not None and deal.trump is not None
    classes = outcome_classes(deal.hands, deal.trump, deal.taker, (), 0)
    return _OUTCOMES[_best_for(classes, deal.taker % 2)]


def _best_for(classes: dict[int, int], team: int) -> int:
    """The best final sign for ``team`` (0 NS, 1 WE) among the solver's ``classes`` (signs of NS minus WE)."""
    return max(classes.values()) if team == 0 else -min(classes.values())
