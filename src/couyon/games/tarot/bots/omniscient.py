"""The yardstick: the expert's search with every card in sight.

It measures what perfect information is worth, so it reads the whole ``GameState``
through ``choose_with_state`` instead of a seat's view: it is never seated at a real table
(it is not in ``registry.TAROT_BOTS_BY_ID``) and only the arena calls it. It bids the
contract whose true deal, played out by the habits, scores best for it (petite and garde
after its best écart; garde sans; garde contre), calls at five the card whose holder makes
that deal score best, discards the écart that scores best on the true deal, and plays the
card whose true deal played out by the habits scores best for its camp. Announcements as
the baseline.
"""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.tarot.bots.baseline import BaselineTarotBot
from couyon.games.tarot.bots.bidding import BidSimulation, ecart_candidates, mask_of_cards
from couyon.games.tarot.bots.playout import marque_of, playout
from couyon.games.tarot.bots.worlds import build_position, true_position
from couyon.games.tarot.cards import CARDS, CHIEN_SIZES, SEATS_OF
from couyon.games.tarot.game import CALL, CARD, ECART, PASS, GameState, Move, Phase, legal_moves, to_move
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import view


class OmniscientTarotBot:
    name = "omniscient"
    version = 1

    def __init__(self) -> None:
        self._baseline = BaselineTarotBot()

    def choose_with_state(self, state: GameState, rng: Stream) -> Move:
        """The move of the seat to move, chosen with every card of the deal in sight."""
        seat = to_move(state)
        if seat is None:
            raise ValueError("the game is over: no seat is to move")
        deal = state.deal
        players = state.players
        me = SEATS_OF[players].index(seat)
        moves = [move for move in legal_moves(state) if move.seat == seat]
        if deal.phase is Phase.BIDDING:
            allowed = [Contract(move.action) for move in moves if move.action != PASS]
            if not allowed:
                return Move(seat, PASS)
            hands = list(deal.hands)
            values = BidSimulation.known(players, me, hands, deal.chien).values(allowed)
            best = max(allowed, key=lambda contract: values[contract])
            return Move(seat, best.value if values[best] > 0 else PASS)
        if deal.phase is Phase.CALL:
            return self._call(state, me, moves)
        if deal.phase is Phase.ECART:
            return Move(seat, ECART, tuple(CARDS[card] for card in self._ecart(state, me)))
        cards = [move for move in moves if move.action == CARD]
        if len(cards) != len(moves) or len(cards) == 1:
            return self._baseline.choose(view(state, seat), rng)
        scores = card_marques(state, [move.cards[0] for move in cards])
        top = max(scores.values())
        return next(move for move in cards if scores[move.cards[0]] == top)

    def _call(self, state: GameState, me: int, moves: list[Move]) -> Move:
        deal = state.deal
        assert deal.contract is not None
        players = state.players
        values: dict[int, float] = {}
        for move in moves:
            called = move.cards[0]
            partner = next((seat for seat in range(players) if seat != me and deal.hands[seat] >> called & 1), None)
            share = players - 1 if partner is None else 2
            hands = list(deal.hands)
            pile = deal.chien if deal.contract is Contract.GARDE_SANS else 0
            if deal.contract.takes_chien:
                full = hands[me] | deal.chien
                ecart = mask_of_cards(ecart_candidates(full, CHIEN_SIZES[players])[0])
                hands[me] = full & ~ecart
                pile = ecart
            position = build_position(
                players, deal.contract, me, partner, hands, pile, (), (me + 1) % players, (), 0, False, called
            )
            values[called] = share * marque_of(deal.contract, playout(position), 0, False)
        best = max(values.values())
        return next(move for move in moves if move.action == CALL and values[move.cards[0]] == best)

    def _ecart(self, state: GameState, me: int) -> tuple[int, ...]:
        deal = state.deal
        players = state.players
        best: tuple[int, ...] = ()
        best_value = 0.0
        for cards in ecart_candidates(deal.hands[me], CHIEN_SIZES[players]):
            value = ecart_marque(state, cards)
            if not best or value > best_value:
                best, best_value = cards, value
        return best


def card_marques(state: GameState, cards: list[int]) -> dict[int, int]:
    """Each of ``cards`` played now by the seat to move, the true deal then played out by the habits: the deal's
    marque for that seat's camp (positive when its camp wins), without a chelem announced."""
    position = true_position(state)
    assert state.deal.to_move is not None
    sign = 1 if position.attack[state.deal.to_move] else -1
    return {
        card: sign * marque_of(position.contract, playout(position, card), position.primes, False) for card in cards
    }


def ecart_marque(state: GameState, cards: tuple[int, ...]) -> int:
    """The marque of the true deal, seen from the attack, once the taker (in the écart) discards ``cards`` and the
    deal is played out by the habits."""
    deal = state.deal
    assert deal.contract is not None and deal.taker is not None
    players = state.players
    me = deal.taker
    ecart = mask_of_cards(cards)
    hands = list(deal.hands)
    hands[me] = deal.hands[me] & ~ecart
    position = build_position(
        players, deal.contract, me, deal.partner, hands, ecart, (), (me + 1) % players, (), 0, False, deal.called
    )
    return marque_of(deal.contract, playout(position), 0, False)
