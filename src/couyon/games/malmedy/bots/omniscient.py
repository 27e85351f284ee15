"""The Malmedy yardstick: a player that sees every hand (and the two cards still to come) and solves exactly.

Like ``omniscient.OmniscientBot`` it reads the full ``GameState`` through
``choose_with_state``, is never seated at a real table (it is in no registry entry)
and only the arena calls it. Trump: the suit whose exactly solved deal is worth most.
Mite: announced when the deal solved with it (at the higher stake) is worth more than
without. Contra and recontra: answered when the solved deal is won by its own team.
Cards: the card whose solved outcome is worth most, ties broken by the baseline.
"""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.couyon.cards import SUITS
from couyon.games.couyon.game import MITE, PASS, GameState, Move, legal_moves
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.objective import outcome_values, stake_of
from couyon.games.malmedy.bots.solver import Position, alive_bits, card_outcomes, position_outcome
from couyon.games.malmedy.game import MalmedyDeal, malmedy_view


class MalmedyOmniscientBot:
    name = "omniscient"
    version = 1

    def choose_with_state(self, state: GameState, rng: Stream) -> Move:
        """The move for the seat to move, chosen with every card of the deal in sight."""
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: no seat is to move")
        deal: MalmedyDeal = state.deal
        own_team = seat % 2
        chooser_team = deal.chooser % 2
        moves = legal_moves(state)
        if deal.trump is None:
            values = outcome_values(state.lines, 1, chooser_team, own_team)
            worth = []
            for suit in range(4):
                position = Position(deal.hands, suit, False, int(deal.leader), (), 0, 3)
                worth.append(values[position_outcome(position, chooser_team)])
            best = max(range(4), key=lambda suit: (worth[suit], -suit))
            return Move(seat, f"trump-{SUITS[best]}")
        if len(moves) == 1:
            return moves[0]
        mite = deal.mite is not None
        position = true_position(deal)
        if deal.asking is not None:
            values = outcome_values(state.lines, stake_of(True, deal.contra), chooser_team, own_team)
            outcome = position_outcome(position, chooser_team)
            return Move(seat, deal.asking if values[outcome] > 0 else PASS)
        values = outcome_values(state.lines, stake_of(mite, deal.contra), chooser_team, own_team)
        plain = {card: values[outcome] for card, outcome in card_outcomes(position, chooser_team).items()}
        best_value = max(plain.values())
        if any(move.action == MITE for move in moves):
            mite_values = outcome_values(state.lines, stake_of(True, 0), chooser_team, own_team)
            with_mite = card_outcomes(position._replace(mite=True), chooser_team)
            if max(mite_values[outcome] for outcome in with_mite.values()) > best_value:
                return Move(seat, MITE)
        best_cards = [card for card, value in plain.items() if value == best_value]
        preferred = MalmedyBaselineBot().card_for(malmedy_view(state, seat)) if len(best_cards) > 1 else best_cards[0]
        card = preferred if preferred in best_cards else min(best_cards)
        return next(move for move in moves if move.action == card)


def true_position(deal: MalmedyDeal) -> Position:
    """The deal in play as the exact solver sees it: the true hands, the trick, the mite if announced."""
    assert deal.trump is not None
    return Position(
        deal.hands,
        deal.trump,
        deal.mite is not None,
        int(deal.leader),
        deal.trick,
        deal.points[0] - deal.points[1],
        alive_bits(deal.trick_counts),
    )
