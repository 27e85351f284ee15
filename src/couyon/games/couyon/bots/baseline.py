"""A rule-based village player built from the advice of the product text ("Des astuces").

Bidding: count the trumps still in play; two solid trumps, or the master trump with
support, are worth a take; speaking last, after three passes, a little less will do;
turned cards are in no hand, so a king whose ace was turned is master. Play: lead
masters; when the trick is lost, give the cheapest card; when the partner's trick is
safe, load it with points; and remember that the strict obligations can force the
next player to beat the partner, so only a trick nobody can still take is safe.
"""

from __future__ import annotations

from couyon.common.cardsets import top_down
from couyon.common.stream import Stream
from couyon.games.couyon.bots.knowledge import knowledge_of
from couyon.games.couyon.cards import ABOVE_MASKS, RANKS_PER_SUIT, SUIT_MASKS, mask_of
from couyon.games.couyon.game import PASS, TAKE, Move
from couyon.games.couyon.rules import CARD_POINTS, standard_trick_winner
from couyon.games.couyon.view import SeatView


def baseline_takes(hand: int, proposal: int, out: int, speaks_last: bool) -> bool:
    """Take with two solid trumps, the master trump with support, or three trumps; a little less speaking last."""
    trump = proposal // RANKS_PER_SUIT
    available = top_down(SUIT_MASKS[trump] & ~out)
    trumps = (hand & SUIT_MASKS[trump]).bit_count()
    solid = sum(1 for card in available[:2] if hand >> card & 1)
    holds_master = bool(available) and bool(hand >> available[0] & 1)
    side_masters = 0
    for suit in range(4):
        side = top_down(SUIT_MASKS[suit] & ~out)
        if suit != trump and side and hand >> side[0] & 1:
            side_masters += 1
    if trumps >= 3 or solid >= 2:
        return True
    if holds_master and (trumps >= 2 or side_masters >= 1):
        return True
    return speaks_last and trumps >= 2 and solid >= 1


def _cheapest(cards: int, trump: int) -> int:
    """The card that gives away least: fewest points, then not a trump, then the lowest rank."""
    return min(top_down(cards), key=lambda card: (CARD_POINTS[card], card // RANKS_PER_SUIT == trump, card))


def _master_of(suit: int, unseen: int, hand: int) -> int | None:
    """The highest card of ``suit`` still in play, if this hand holds it."""
    live = top_down(SUIT_MASKS[suit] & (unseen | hand))
    return live[0] if live and hand >> live[0] & 1 else None


class BaselineBot:
    name = "baseline"
    version = 1

    def choose(self, seat_view: SeatView, rng: Stream) -> Move:
        seat = seat_view.seat
        if seat_view.trump is None:
            current = seat_view.current_proposal
            takes = baseline_takes(
                mask_of(seat_view.hand), current, mask_of(seat_view.proposals), seat == seat_view.dealer
            )
            return Move(seat, TAKE if takes else PASS)
        moves = seat_view.legal_moves
        if len(moves) == 1:
            return moves[0]
        card = self.card_for(seat_view)
        return next(move for move in moves if move.action == card)

    def card_for(self, seat_view: SeatView) -> int:
        """The card the village habits pick among the legal ones of ``seat_view``."""
        knowledge = knowledge_of(seat_view)
        trump = knowledge.trump
        hand = knowledge.hand
        legal = mask_of(move.card for move in seat_view.legal_moves if move.card is not None)
        unseen = knowledge.unknown
        trick = seat_view.trick.cards
        our_team = seat_view.seat % 2
        if not trick:
            return self._lead(
                legal, hand, unseen, trump, seat_view.taker is not None and seat_view.taker % 2 == our_team
            )
        winner_position = standard_trick_winner(trick, trump)
        winner_seat = (seat_view.trick.leader + winner_position) % 4
        winning_card = trick[winner_position]
        last_to_play = len(trick) == 3
        if winner_seat % 2 == our_team:
            if last_to_play or self._unbeatable(winning_card, trump, unseen):
                return max(top_down(legal), key=lambda card: (CARD_POINTS[card], card // RANKS_PER_SUIT != trump))
            return _cheapest(legal, trump)
        winners = [card for card in top_down(legal) if standard_trick_winner((*trick, card), trump) == len(trick)]
        if not winners:
            return _cheapest(legal, trump)
        if last_to_play:
            return min(winners, key=lambda card: (CARD_POINTS[card], card // RANKS_PER_SUIT == trump, card))
        return max(winners, key=lambda card: (card // RANKS_PER_SUIT == trump, card))

    @staticmethod
    def _unbeatable(card: int, trump: int, unseen: int) -> bool:
        """A trick won by a trump nobody can overtrump is safe; any other can still be trumped or beaten."""
        return card // RANKS_PER_SUIT == trump and not unseen & ABOVE_MASKS[card]

    @staticmethod
    def _lead(legal: int, hand: int, unseen: int, trump: int, taking_team: bool) -> int:
        trumps = hand & SUIT_MASKS[trump]
        master_trump = _master_of(trump, unseen, hand)
        if master_trump is not None and (taking_team or trumps.bit_count() >= 2):
            return master_trump
        for suit in range(4):
            if suit != trump:
                master = _master_of(suit, unseen, hand)
                if master is not None:
                    return master
        if taking_team and trumps.bit_count() >= 2:
            return trumps.bit_length() - 1
        plain = legal & ~SUIT_MASKS[trump]
        return _cheapest(plain or legal, trump)
