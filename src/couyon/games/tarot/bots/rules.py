"""The few rules a bot reads from its view rather than from the state: the écart's choice, the moves by kind."""

from __future__ import annotations

from couyon.games.tarot.cards import BOUT_MASK, CHIEN_SIZES, EXCUSE_BIT, KING_MASK, TRUMP_MASK, Card, cards_of, mask_of
from couyon.games.tarot.game import CARD, MISERE_ATOUT, MISERE_TETE, POIGNEE, Move
from couyon.games.tarot.view import TarotView


def ecart_choice(seat_view: TarotView) -> tuple[tuple[Card, ...], int, int]:
    """The taker's écart as the rules allow it (ruling 8): the cards that may go, how many, at most how many trumps."""
    hand = mask_of(seat_view.hand)
    size = CHIEN_SIZES[seat_view.players]
    others = (hand & ~(TRUMP_MASK | EXCUSE_BIT | KING_MASK)).bit_count()
    return cards_of(hand & ~(KING_MASK | BOUT_MASK)), size, max(0, size - others)


def card_moves(seat_view: TarotView) -> list[Move]:
    return [move for move in seat_view.legal_moves if move.action == CARD]


def legal_mask(seat_view: TarotView) -> int:
    """The cards this seat may play now, as a mask."""
    mask = 0
    for move in seat_view.legal_moves:
        if move.action == CARD:
            mask |= 1 << move.cards[0]
    return mask


def misere_move(seat_view: TarotView) -> Move | None:
    """A misère this seat may announce now: it pays 10 from every other seat, whatever happens."""
    for move in seat_view.legal_moves:
        if move.action in (MISERE_ATOUT, MISERE_TETE):
            return move
    return None


def poignee_moves(seat_view: TarotView) -> list[Move]:
    """The poignées this seat may show now, smallest first (the weakest trumps of each size)."""
    return sorted((move for move in seat_view.legal_moves if move.action == POIGNEE), key=lambda move: len(move.cards))
