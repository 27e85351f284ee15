"""The usual player: a point count for the bid, an écart that makes voids and keeps kings, the usual play.

Bidding: the classic count of the hand (``habits.hand_count``: bouts, trumps, honours,
long suits, voids), scaled to an 18-card hand, against the usual thresholds 40 / 56 / 71 /
81 for petite, garde, garde sans, garde contre; a count below the bid already made is a
pass. At five it calls a king it does not hold, where it holds the queen or the most
cards. The écart empties short kingless suits, then puts the best cards of the shortest
suits aside (points in the écart are the attack's), trumps only as forced. In play it
announces every misère it may (each pays it 10 from every other seat), shows the largest
poignée it may, never announces a chelem, and plays by ``habits.habit_card``: follow
cheaply, load a trick its camp wins for sure, hunt the Petit with the master trump, save
its own Petit as soon as it is safe.
"""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.tarot.bots.habits import contract_for_count, habit_call, habit_card, habit_ecart, hand_count
from couyon.games.tarot.bots.knowledge import knowledge_of, possible_holdings
from couyon.games.tarot.bots.rules import ecart_choice, legal_mask, misere_move, poignee_moves
from couyon.games.tarot.cards import CARDS, mask_of
from couyon.games.tarot.game import CALL, CARD, ECART, PASS, Move, Phase
from couyon.games.tarot.view import TarotView


class BaselineTarotBot:
    name = "baseline"
    version = 1

    def choose(self, seat_view: TarotView, rng: Stream) -> Move:
        seat = seat_view.seat
        phase = seat_view.phase
        if phase is Phase.BIDDING:
            contract = contract_for_count(hand_count(mask_of(seat_view.hand), seat_view.players))
            allowed = {move.action for move in seat_view.legal_moves}
            return Move(seat, contract.value if contract is not None and contract.value in allowed else PASS)
        if phase is Phase.CALL:
            callable_cards = [move.cards[0] for move in seat_view.legal_moves]
            return Move(seat, CALL, (CARDS[habit_call(mask_of(seat_view.hand), callable_cards)],))
        if phase is Phase.ECART:
            eligible, size, max_trumps = ecart_choice(seat_view)
            chosen = habit_ecart(mask_of(seat_view.hand), mask_of(eligible), size, max_trumps)
            return Move(seat, ECART, tuple(CARDS[card] for card in chosen))
        announcement = misere_move(seat_view)
        if announcement is not None:
            return announcement
        poignees = poignee_moves(seat_view)
        if poignees:
            return poignees[-1]
        return Move(seat, CARD, (CARDS[self.card_for(seat_view)],))

    @staticmethod
    def card_for(seat_view: TarotView) -> int:
        """The card the usual play picks among the legal ones of ``seat_view``."""
        legal = legal_mask(seat_view)
        if not legal & (legal - 1):
            return legal.bit_length() - 1
        knowledge = knowledge_of(seat_view)
        seats = seat_view.seats
        return habit_card(
            seat_view.players,
            knowledge.me,
            legal,
            seats.index(seat_view.trick.leader),
            seat_view.trick.cards,
            knowledge.camp,
            possible_holdings(knowledge),
            knowledge.taker,
            knowledge.attack,
        )
