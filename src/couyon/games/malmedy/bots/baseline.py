"""A rule-based Malmedy player, from the rule text's own advice and café habits.

Trump: name the suit in which the first three cards make the strongest trumps (the
queen of clubs is a trump whatever the choice). Mite: announce it with three trumps
counting the queen of spades; contra with three trumps of one's own, recontra with
four. Play (free play, no obligation to beat): lead the master trump when the team
named trump, then side aces; win a trick as cheaply as possible; when the partner's
trick is safe, load it with points ("on charge"); otherwise give the cheapest card.
"""

from __future__ import annotations

from couyon.common.stream import Stream
from couyon.games.couyon.cards import FULL_DECK_MASK, RANKS_PER_SUIT, SUIT_MASKS, SUITS, mask_of
from couyon.games.couyon.game import CONTRA, MITE, PASS, Move
from couyon.games.couyon.rules import CARD_POINTS
from couyon.games.malmedy.game import MalmedyView
from couyon.games.malmedy.rules import strength, trick_winner, trump_mask


def _cards(mask: int) -> list[int]:
    return [card for card in range(24) if mask >> card & 1]


def trump_choice_value(cards: int, suit: int) -> int:
    """How strong ``cards`` are as trumps if ``suit`` is named: three per trump plus its strength (A 20 … 9 0)."""
    trumps = cards & trump_mask(suit, False)
    return sum(12 + strength(card, suit, False) for card in _cards(trumps))


def chosen_suit(cards: int) -> int:
    """The suit that makes the strongest trumps of the chooser's first three cards (the lowest suit on a tie)."""
    return max(range(4), key=lambda suit: (trump_choice_value(cards, suit), -suit))


class MalmedyBaselineBot:
    name = "baseline"
    version = 1

    def choose(self, seat_view: MalmedyView, rng: Stream) -> Move:
        seat = seat_view.seat
        moves = seat_view.legal_moves
        hand = mask_of(seat_view.hand)
        if seat_view.trump is None:
            return Move(seat, f"trump-{SUITS[chosen_suit(hand)]}")
        trump = int(seat_view.trump)
        if seat_view.asking is not None:
            own_trumps = (hand & trump_mask(trump, True)).bit_count()
            wanted = 3 if seat_view.asking == CONTRA else 4
            return Move(seat, seat_view.asking if own_trumps >= wanted else PASS)
        if any(move.action == MITE for move in moves):
            if (hand & trump_mask(trump, True)).bit_count() >= 3:
                return Move(seat, MITE)
            moves = tuple(move for move in moves if move.action != MITE)
        if len(moves) == 1:
            return moves[0]
        card = self.card_for(seat_view)
        return next(move for move in moves if move.action == card)

    def card_for(self, seat_view: MalmedyView) -> int:
        """The card the café habits pick among the legal ones."""
        assert seat_view.trump is not None
        trump = int(seat_view.trump)
        mite = seat_view.mite is not None
        trumps = trump_mask(trump, mite)
        hand = mask_of(seat_view.hand)
        legal = mask_of(move.action for move in seat_view.legal_moves if isinstance(move.action, int))
        played = 0
        for trick in (*seat_view.tricks, seat_view.trick):
            played |= mask_of(trick.cards)
        unseen = FULL_DECK_MASK & ~hand & ~played
        cards = seat_view.trick.cards
        our_team = seat_view.seat % 2

        def key_strength(card: int) -> int:
            return strength(card, trump, mite) + (100 if trumps >> card & 1 else 0)

        def master(card: int) -> bool:
            """No unseen card of its effective suit, nor an unseen trump when it is a side card, beats it."""
            if trumps >> card & 1:
                return not any(
                    trumps >> other & 1 and key_strength(other) > key_strength(card) for other in _cards(unseen)
                )
            suit = card // RANKS_PER_SUIT
            return not any(
                key_strength(other) > key_strength(card) for other in _cards(unseen & SUIT_MASKS[suit] & ~trumps)
            )

        def cheapest(mask: int) -> int:
            return min(_cards(mask), key=lambda card: (CARD_POINTS[card], trumps >> card & 1, key_strength(card)))

        if not cards:
            masters = [card for card in _cards(legal) if master(card)]
            choosing_team = seat_view.chooser % 2 == our_team
            master_trumps = [card for card in masters if trumps >> card & 1]
            if master_trumps and (choosing_team or (hand & trumps).bit_count() >= 2):
                return max(master_trumps, key=key_strength)
            side_masters = [card for card in masters if not trumps >> card & 1]
            if side_masters:
                return max(side_masters, key=lambda card: CARD_POINTS[card])
            return cheapest(legal & ~trumps or legal)
        position = trick_winner(cards, trump, mite)
        winner_seat = (seat_view.trick.leader + position) % 4
        last_to_play = len(cards) == 3
        if winner_seat % 2 == our_team:
            if last_to_play or master(cards[position]):
                # "On charge": the partner's trick is safe, give it points.
                return max(_cards(legal), key=lambda card: (CARD_POINTS[card], not trumps >> card & 1))
            return cheapest(legal)
        winners = [card for card in _cards(legal) if trick_winner((*cards, card), trump, mite) == len(cards)]
        if not winners:
            return cheapest(legal)
        if last_to_play or any(master(card) for card in winners):
            return min(winners, key=lambda card: (not (last_to_play or master(card)), key_strength(card)))
        return max(winners, key=key_strength)
