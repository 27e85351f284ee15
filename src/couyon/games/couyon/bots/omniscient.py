"""The yardstick: a player that sees every hand and solves the deal exactly.

It measures what perfect information is worth, so it reads the full ``GameState``
through ``choose_with_state`` instead of a seat's view; it is never seated at a real
table (it is not in ``registry.BOTS_BY_ID``) and only the arena calls it.
"""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.solver import outcome_classes
from couyon.games.couyon.cards import RANKS_PER_SUIT
from couyon.games.couyon.game import PASS, TAKE, GameState, Move, legal_moves
from couyon.games.couyon.view import standard_view


class OmniscientBot:
    name = "omniscient"
    version = 1

    def choose_with_state(self, state: GameState, rng: Stream) -> Move:
        """The move for the seat to move, chosen with every card of the deal in sight."""
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: no seat is to move")
        deal = state.deal
        own_team = seat % 2
        if deal.trump is None:
            # Take exactly when perfect play by both sides makes the contract.
            classes = outcome_classes(deal.hands, deal.proposal // RANKS_PER_SUIT, seat, (), 0)
            best = max(classes.values()) if own_team == 0 else min(classes.values())
            return Move(seat, TAKE if best * (1 if own_team == 0 else -1) > 0 else PASS)
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        taker = deal.taker
        assert taker is not None
        utilities = outcome_utilities(state.lines, deal.stake, taker % 2)
        classes = outcome_classes(deal.hands, deal.trump, deal.leader, deal.trick, deal.points[0] - deal.points[1])
        taker_sign_of_ns = 1 if taker % 2 == 0 else -1
        own_sign = 1 if own_team == taker % 2 else -1
        values = {card: own_sign * utilities.of_sign(taker_sign_of_ns * sign) for card, sign in classes.items()}
        best_value = max(values.values())
        best_cards = [card for card, value in values.items() if value == best_value]
        preferred = BaselineBot().card_for(standard_view(state, seat)) if len(best_cards) > 1 else best_cards[0]
        card = preferred if preferred in best_cards else min(best_cards)
        return next(move for move in moves if move.action == card)
