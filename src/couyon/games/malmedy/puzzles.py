"""The couyon de Malmedy's puzzles (docs/puzzles.md): couyon's miner (``couyon.games.couyon.puzzles``) on Malmedy's
fold, knowledge, sampler and exact solver.

A source game is played through by the Malmedy baseline (``MalmedyBaselineBot``) at every seat. A decision is a
card to play once the trump is named; one where the mite may still be announced is left out (the question would be
the announcement as much as the card). Each layout is solved with the mite and contra as they stand, the card's
outcome class (made or failed, capot or not) valued in lines for the seat's team as the expert values it
(``outcome_values``: the stake, the lines left, the game's end).
"""

from __future__ import annotations

from couyon.common.kind import Json
from couyon.common.stream import Stream
from couyon.games.couyon.cards import Card, Seat, mask_of
from couyon.games.couyon.game import MITE, GameState, Move, legal_moves, new_game
from couyon.games.couyon.puzzles import Decision, Hands, SolvedPuzzles, Table, themes_of
from couyon.games.malmedy.answers import malmedy_view_json
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.knowledge import knowledge_of, sample_hands
from couyon.games.malmedy.bots.objective import capot_matters, outcome_values, stake_of
from couyon.games.malmedy.bots.solver import Position, alive_bits, card_outcomes
from couyon.games.malmedy.game import MALMEDY, MalmedyDeal, MalmedyView, malmedy_view
from couyon.games.malmedy.rules import effective_suit, trick_winner, trump_mask


class MalmedyPuzzles(SolvedPuzzles):
    """Malmedy's ``PuzzleMiner``."""

    def __init__(self, game: str) -> None:
        super().__init__(game, MalmedyBaselineBot())

    def new_game(self, seed: str) -> GameState:
        return new_game(seed, MALMEDY)

    def decision(self, state: GameState, move: Move) -> Decision | None:
        moves = legal_moves(state)
        legal = tuple(legal.card for legal in moves if legal.card is not None)
        if len(legal) < 2 or any(legal.action == MITE for legal in moves):
            return None
        seat_view: MalmedyView = malmedy_view(state, move.seat)
        knowledge = knowledge_of(seat_view)
        chooser_team = seat_view.chooser % 2
        values = outcome_values(
            seat_view.lines, stake_of(seat_view.mite is not None, seat_view.contra), chooser_team, seat_view.seat % 2
        )
        trick = seat_view.trick
        position = Position(
            (0, 0, 0, 0),
            knowledge.trump,
            knowledge.mite,
            int(trick.leader),
            trick.cards,
            seat_view.points[0] - seat_view.points[1],
            alive_bits(seat_view.trick_counts) & capot_matters(values, chooser_team),
        )

        def solve(hands: Hands) -> dict[int, float]:
            return {
                card: values[outcome]
                for card, outcome in card_outcomes(position._replace(hands=hands), chooser_team).items()
            }

        def sample(rng: Stream) -> Hands:
            return sample_hands(knowledge, rng)

        return Decision(
            seat=knowledge.seat,
            hand=knowledge.hand,
            unknown=knowledge.unknown,
            hand_sizes=knowledge.hand_sizes,
            forbidden=knowledge.forbidden,
            required=knowledge.required,
            legal=legal,
            solve=solve,
            sample=sample,
        )

    def view_json(self, state: GameState, seat: Seat) -> Json:
        return malmedy_view_json(state, seat)

    def themes_of(self, state: GameState, seat: Seat, best: tuple[Card, ...]) -> tuple[str, ...]:
        seat_view: MalmedyView = malmedy_view(state, seat)
        trump = seat_view.trump
        assert trump is not None
        mite = seat_view.mite is not None
        trumps = trump_mask(trump, mite)
        played = [card for trick in seat_view.tricks for card in trick.cards]
        table = Table(
            seat=seat,
            attacking=seat.team == seat_view.chooser.team,
            hand_size=len(seat_view.hand),
            legal=tuple(move.card for move in seat_view.legal_moves if move.card is not None),
            leader=seat_view.trick.leader,
            trick=seat_view.trick.cards,
            gone=mask_of(played) | mask_of(seat_view.trick.cards),
            is_trump=lambda card: bool(trumps >> card & 1),
            suit_of=lambda card: effective_suit(card, trump, mite),
            winner=lambda cards: trick_winner(cards, trump, mite),
        )
        return themes_of(table, best)

    def seen(self, state: GameState, seat: Seat) -> int:
        deal: MalmedyDeal = state.deal
        played = [card for trick in deal.tricks for card in trick.cards]
        return deal.hands[seat] | mask_of(played) | mask_of(deal.trick)
