"""The review of a finished game of couyon de Malmedy: ``review.review_of`` with the Malmedy rules.

The decisions of the seat the review is written from (South at the solo table) are judged as in
the common game's review, in chalk lines for that seat's team
(``malmedy_objective.outcome_values``: the stake with mite and contra, the lines left, the game's
end), by the Malmedy expert from that seat's view and double-dummy by the exact solver
(``malmedy_solver``) on the true deal:

- the trump choice: each suit as the expert values it from the seat's first three cards
  (``malmedy_trump.suit_values``) and solved on the four hands of five cards, the seat
  leading, without a mite (as the omniscient bot chooses);
- a card, or the mite announced before it: each legal card and the mite as
  ``MalmedyExpertBot.card_values`` values them (a card left out of its race early is
  valued over the deals solved until then; the mite is worth its best card), and
  solved (the mite without a contra, as the omniscient bot judges it);
- a contra or recontra answer: what raising gains over passing
  (``MalmedyExpertBot.raise_value``), and solved.

A decision's cost is the value of the expert's own choice minus the seat's (never below
zero). When the expert solved no deal in its budget (it then plays as the baseline),
its values are absent and the cost is 0.
"""

from __future__ import annotations

from collections.abc import Sequence

from couyon.common.kind import Options
from couyon.common.stream import Stream
from couyon.games.couyon.cards import CARDS, SUITS, Card, Seat
from couyon.games.couyon.game import MITE, DealSummary, GameState, Move, legal_moves, new_game
from couyon.games.couyon.review import HUMAN, Json, Rules, review_of
from couyon.games.couyon.rules import dealt_variant
from couyon.games.malmedy.bots.expert import MITE_OFFSET, RAISE, MalmedyExpertBot, raises
from couyon.games.malmedy.bots.objective import outcome_values, stake_of
from couyon.games.malmedy.bots.omniscient import true_position
from couyon.games.malmedy.bots.solver import MADE, MADE_CAPOT, Position, card_outcomes, position_outcome
from couyon.games.malmedy.bots.trump import best_suit, suit_values
from couyon.games.malmedy.game import MALMEDY, MalmedyDeal, MalmedySummary, malmedy_deal_report, malmedy_view
from couyon.games.malmedy.rules import trick_winner

REVIEWER = MalmedyExpertBot()
"""The Malmedy table's expert, whose judgement the review shows."""


def _outcome(outcome: int) -> str:
    return "made" if outcome in (MADE, MADE_CAPOT) else "failed"


def _rounded(values: dict[str, float]) -> dict[str, float]:
    return {option: round(value, 3) for option, value in values.items()}


class _Malmedy:
    expert = f"{REVIEWER.name}/{REVIEWER.version}"

    @staticmethod
    def new_game(seed: str, options: Options) -> GameState:
        return new_game(seed, dealt_variant(MALMEDY, options))

    @staticmethod
    def deal_facts(state: GameState) -> Json:
        return {"chooser": str(state.deal.chooser)}

    @staticmethod
    def call(state: GameState, move: Move) -> Json:
        return {"seat": str(move.seat), "call": str(move.action)}

    @staticmethod
    def judged(state: GameState, move: Move, revealed: bool) -> Json:
        deal: MalmedyDeal = state.deal
        if deal.trump is None:
            return _trump_choice(state, move, revealed)
        if deal.asking is not None:
            return _answer(state, move, revealed)
        return _play(state, move, revealed)

    @staticmethod
    def par(move: Move, after: GameState) -> str | None:
        """After the trump is named: the chooser's outcome with perfect play by all, without a mite."""
        deal: MalmedyDeal = after.deal
        if not str(move.action).startswith("trump-"):
            return None
        assert deal.trump is not None
        position = Position(deal.hands, deal.trump, False, int(deal.chooser), (), 0, 3)
        return _outcome(position_outcome(position, deal.chooser % 2))

    @staticmethod
    def trick_winner(state: GameState, cards: tuple[Card, ...]) -> int:
        deal: MalmedyDeal = state.deal
        assert deal.trump is not None
        return trick_winner(cards, deal.trump, deal.mite is not None)

    @staticmethod
    def report(summary: DealSummary | MalmedySummary) -> Json:
        """The deal_log entry, its tricks won by each team as ``tricks_won`` (``tricks`` lists the tricks)."""
        assert isinstance(summary, MalmedySummary)
        report = malmedy_deal_report(summary)
        report["tricks_won"] = report.pop("tricks")
        return report


MALMEDY_RULES: Rules = _Malmedy()


def malmedy_review(
    seed: str, moves: Sequence[str], revealed: bool, seat: Seat = HUMAN, options: Options | None = None
) -> Json:
    """The review from ``seat`` of the finished Malmedy game ``seed`` + ``moves`` (see the module's text)."""
    return review_of(MALMEDY_RULES, seed, moves, revealed, seat, options)


def _judgement(
    key: str,
    order: Sequence[str],
    expert: dict[str, float] | None,
    expert_choice: str,
    chosen: str,
    exact: dict[str, float] | None,
) -> Json:
    """A decision among the options ``order``: each one's values (``key`` names it), the expert's choice, the costs."""
    judged: Json = {"forced": False, "expert_choice": expert_choice}
    judged["cost"] = 0.0 if expert is None else round(max(0.0, expert[expert_choice] - expert[chosen]), 3)
    if exact is not None:
        judged["dd_cost"] = round(max(exact.values()) - exact[chosen], 3)
    options: list[Json] = []
    for option in order:
        values: Json = {key: option}
        if expert is not None:
            values["expert"] = expert[option]
        if exact is not None:
            values["dd"] = exact[option]
        options.append(values)
    judged["options"] = options
    return judged


def _trump_choice(state: GameState, move: Move, revealed: bool) -> Json:
    deal: MalmedyDeal = state.deal
    seat, team = move.seat, move.seat % 2
    first_three = deal.first_cards[seat]
    values = suit_values(first_three, state.lines, team)
    expert = _rounded({str(SUITS[suit]): value for suit, value in enumerate(values)})
    choice = str(SUITS[best_suit(first_three, state.lines, team)])
    exact = None
    if revealed:
        worth = outcome_values(state.lines, 1, team, team)
        exact = {
            str(SUITS[suit]): worth[position_outcome(Position(deal.hands, suit, False, int(seat), (), 0, 3), team)]
            for suit in range(4)
        }
    return _judgement(
        "suit", [str(suit) for suit in SUITS], expert, choice, str(move.action).removeprefix("trump-"), exact
    )


def _answer(state: GameState, move: Move, revealed: bool) -> Json:
    """A contra or recontra answer: the options are raising and passing, passing worth 0."""
    deal: MalmedyDeal = state.deal
    assert deal.asking is not None
    solved = REVIEWER.raise_value(malmedy_view(state, move.seat), Stream(state.seed, f"review:{state.move_count}"))
    expert = _rounded({deal.asking: solved.means[RAISE], "pass": 0.0}) if solved.deals else None
    exact = None
    if revealed:
        chooser_team = deal.chooser % 2
        now = outcome_values(state.lines, stake_of(True, deal.contra), chooser_team, move.seat % 2)
        raised = outcome_values(state.lines, stake_of(True, deal.contra + 1), chooser_team, move.seat % 2)
        outcome = position_outcome(true_position(deal), chooser_team)
        exact = {deal.asking: round(raised[outcome] - now[outcome], 3), "pass": 0.0}
    choice = deal.asking if raises(solved) else "pass"
    return _judgement("call", [deal.asking, "pass"], expert, choice, str(move.action), exact)


def _play(state: GameState, move: Move, revealed: bool) -> Json:
    """A card, or the mite announced before it: every legal card and the mite valued."""
    deal: MalmedyDeal = state.deal
    assert deal.trump is not None
    moves = legal_moves(state)
    if len(moves) == 1:
        return {"forced": True, "cost": 0.0}
    may_mite = any(option.action == MITE for option in moves)
    seat_view = malmedy_view(state, move.seat)
    solved = REVIEWER.card_values(seat_view, Stream(state.seed, f"review:{state.move_count}"))
    pick = REVIEWER.pick_card(seat_view, solved)
    choice = MITE if pick is None else str(CARDS[pick])
    expert = None
    if solved.deals:
        means = solved.means
        expert = {str(CARDS[card]): value for card, value in means.items() if card < MITE_OFFSET}
        if may_mite:
            expert[MITE] = max(value for option, value in means.items() if option >= MITE_OFFSET)
        expert = _rounded(expert)
    exact = None
    if revealed:
        chooser_team = deal.chooser % 2
        mite = deal.mite is not None
        position = true_position(deal)
        worth = outcome_values(state.lines, stake_of(mite, deal.contra), chooser_team, move.seat % 2)
        exact = {str(CARDS[card]): worth[outcome] for card, outcome in card_outcomes(position, chooser_team).items()}
        if may_mite:
            with_mite = outcome_values(state.lines, stake_of(True, 0), chooser_team, move.seat % 2)
            outcomes = card_outcomes(position._replace(mite=True), chooser_team)
            exact[MITE] = max(with_mite[outcome] for outcome in outcomes.values())
        exact = _rounded(exact)
    return _judgement(
        "card",
        [str(option.action) for option in moves[may_mite:]] + [MITE] * may_mite,
        expert,
        choice,
        str(move.action),
        exact,
    )
