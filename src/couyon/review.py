"""The review of a finished game of couyon: every deal, and each of South's decisions judged.

Built from the seed and the moves alone. Each of South's bids shows what the expert bot
(``ExpertBot.take_value``) thinks a take is worth against the bar it must beat at that
speaking position; each card South chose shows every legal card valued twice: by the
expert from South's view only (``ExpertBot.card_totals``: the hidden cards dealt many
times and solved), and double-dummy, by the exact solver on the true deal
(``solver.outcome_classes``, valued as the omniscient bot values it). Values are in chalk
lines for South's team (``objective.outcome_utilities``: the stake, the lines left and the
game bonus included); a decision's cost is the best value minus the value of the choice.
The decisions with the largest expert cost are marked ``costly``.

With ``revealed`` False (a daily game whose day is not over) nothing hidden from South
is in the review: only South's own hands, and no double-dummy value.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from couyon.bots.expert import ExpertBot
from couyon.bots.objective import outcome_utilities
from couyon.bots.solver import outcome_classes
from couyon.cards import RANKS_PER_SUIT, SEATS, Seat, cards_of
from couyon.game import TAKE, GameState, Move, legal_cards, new_game, play
from couyon.record import deal_report
from couyon.stream import Stream
from couyon.view import standard_view

Json = dict[str, Any]

REVIEWER = ExpertBot()
"""The expert whose judgement the review shows: the table's current expert."""
COSTLY_MARKS = 3
"""How many decisions of a game are marked as the costliest, at most."""
COSTLY_MIN = 0.1
"""The least expert cost, in lines, of a decision marked costly."""
_OUTCOMES = {1: "made", 0: "tie", -1: "failed"}
_HUMAN = Seat.S


def review(seed: str, moves: Sequence[str], revealed: bool) -> Json:
    """The review of the finished standard game ``seed`` + ``moves`` (see the module's text)."""
    state = new_game(seed)
    deals: list[Json] = []
    decisions: list[Json] = []
    for text in moves:
        move = Move.parse(text)
        deal = state.deal
        if not deals or deals[-1]["number"] != deal.number:
            deals.append(_deal_start(state, revealed))
        entry = deals[-1]
        judged = _judged(state, move, revealed) if move.seat == _HUMAN else None
        if judged is not None:
            decisions.append(judged)
        if move.card is None:
            bid: Json = {"seat": str(move.seat), "proposal": str(deal.proposal), "take": move.action == TAKE}
            entry["bids"].append(bid if judged is None else {**bid, "review": judged})
        else:
            if not deal.trick:
                entry["tricks"].append({"leader": str(deal.leader), "cards": [], "winner": None})
            trick = entry["tricks"][-1]
            played: Json = {"seat": str(move.seat), "card": str(move.card)}
            trick["cards"].append(played if judged is None else {**played, "review": judged})
        after = play(state, move)
        if move.card is not None and len(deal.trick) == 3:
            assert deal.trump is not None
            cards = (*deal.trick, move.card)
            entry["tricks"][-1]["winner"] = str(
                SEATS[(deal.leader + state.variant.trick_winner(cards, deal.trump)) % 4]
            )
        if move.action == TAKE and revealed:
            entry["par"] = _par(after)
        if len(after.finished_deals) > len(state.finished_deals):
            entry.update(deal_report(after.finished_deals[-1]))
        state = after
    _mark_costliest(decisions)
    return {
        "revealed": revealed,
        "expert": f"{REVIEWER.name}/{REVIEWER.version}",
        "winner": None if state.winner is None else str(state.winner),
        "score": state.score,
        "deals": deals,
    }


def _deal_start(state: GameState, revealed: bool) -> Json:
    deal = state.deal
    seats = SEATS if revealed else (_HUMAN,)
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        "stake": deal.stake,
        "hands": {str(seat): [str(card) for card in cards_of(deal.hands[seat])] for seat in seats},
        "par": None,
        "bids": [],
        "tricks": [],
    }


def _judged(state: GameState, move: Move, revealed: bool) -> Json:
    """South's decision ``move`` in ``state``: the expert's values of its choices (and the solver's), and the costs."""
    seat_view = standard_view(state, _HUMAN)
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
            # Double dummy: South takes this proposal and leads; the best the solver finds for NS.
            classes = outcome_classes(deal.hands, deal.proposal // RANKS_PER_SUIT, _HUMAN, (), 0)
            judged["dd_take"] = _OUTCOMES[max(classes.values())]
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
    """Each legal card's worth to South's team in lines with every hand known and perfect play after it."""
    deal = state.deal
    assert deal.taker is not None and deal.trump is not None
    utilities = outcome_utilities(state.lines, deal.stake, deal.taker % 2)
    taker_sign_of_ns = 1 if deal.taker % 2 == 0 else -1
    own_sign = taker_sign_of_ns  # South is NS: the taker's gains are South's when the taker is NS.
    classes = outcome_classes(deal.hands, deal.trump, deal.leader, deal.trick, deal.points[0] - deal.points[1])
    return {card: own_sign * utilities.of_sign(taker_sign_of_ns * sign) for card, sign in classes.items()}


def _par(state: GameState) -> str:
    """The double-dummy outcome for the taker of the deal just taken: both sides play perfectly from the first lead."""
    deal = state.deal
    assert deal.taker is not None and deal.trump is not None
    classes = outcome_classes(deal.hands, deal.trump, deal.taker, (), 0)
    taker_is_ns = deal.taker % 2 == 0
    best = max(classes.values()) if taker_is_ns else min(classes.values())
    return _OUTCOMES[best if taker_is_ns else -best]


def _mark_costliest(decisions: list[Json]) -> None:
    """Mark ``costly`` the (at most ``COSTLY_MARKS``) decisions of largest expert cost, from ``COSTLY_MIN`` lines."""
    for decision in decisions:
        decision["costly"] = False
    ranked = sorted((d for d in decisions if d["cost"] >= COSTLY_MIN), key=lambda d: -d["cost"])
    for decision in ranked[:COSTLY_MARKS]:
        decision["costly"] = True
