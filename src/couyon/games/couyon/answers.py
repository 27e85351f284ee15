"""JSON shapes of the API (docs/api.md): South's view and the events between two views.

Only ``SeatView``s and public facts of the fold (bids, turned cards, played cards, trick
winners, deal results) are turned into JSON here; a ``GameState`` is never serialised, so
another seat's hand, the talon and the seed cannot leave the server by accident.
"""

from __future__ import annotations

from typing import Any

from couyon.games.couyon.cards import SEATS, Card, Seat
from couyon.games.couyon.game import Bid, GameState, Move, Trick
from couyon.games.couyon.record import deal_report, team_values
from couyon.games.couyon.view import standard_view

Json = dict[str, Any]


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(card) for card in cards]


def played_json(leader: Seat, cards: tuple[Card, ...]) -> list[dict[str, str]]:
    """The cards of a trick from ``leader``, each with the seat that played it."""
    return [{"seat": str(seat), "card": str(card)} for seat, card in Trick(leader, cards, None).played_by()]


def _bid(bid: Bid) -> Json:
    return {"seat": str(bid.seat), "proposal": str(bid.proposal), "take": bid.take}


def standing_json(seat_view: Any) -> Json:
    """The keys every couyon view's JSON shares after ``game``, read from a ``SeatView`` or a variant's view
    (``MalmedyView``): the seat, the move number, the phase, who is to move, the lines, the winner, the score."""
    return {
        "seat": str(seat_view.seat),
        "move_number": seat_view.move_number,
        "phase": str(seat_view.phase),
        "to_move": None if seat_view.to_move is None else str(seat_view.to_move),
        "lines": team_values(seat_view.lines),
        "winner": None if seat_view.winner is None else str(seat_view.winner),
        "score": seat_view.score,
    }


def game_over_json(after: GameState) -> Json:
    """The ``game_over`` event of a couyon game, its variants' too."""
    return {
        "type": "game_over",
        # None when a game of a set number of deals ends with no side out (docs/clubs.md).
        "winner": None if after.winner is None else str(after.winner),
        "score": after.score,
        "deals": after.finished_deals[-1].number,
    }


def view_json(state: GameState, seat: int) -> Json:
    """The ``view`` object of a game answer of the common couyon."""
    seat_view = standard_view(state, SEATS[seat])
    return {
        "game": "couyon",
        **standing_json(seat_view),
        "deal": {
            "number": seat_view.deal_number,
            "dealer": str(seat_view.dealer),
            "stake": seat_view.stake,
            "proposals": _cards(seat_view.proposals),
            "bids": [_bid(bid) for bid in seat_view.bids],
            "trump": None if seat_view.trump is None else str(seat_view.trump),
            "taker": None if seat_view.taker is None else str(seat_view.taker),
            "tricks": [{**trick_json(trick), "winner": str(trick.winner)} for trick in seat_view.tricks],
            "trick": trick_json(seat_view.trick),
            "points": team_values(seat_view.points),
        },
        "hand": _cards(seat_view.hand),
        "hand_sizes": {str(seat): seat_view.hand_sizes[seat] for seat in SEATS},
        "legal": [str(move.action) for move in seat_view.legal_moves],
        "deal_log": [deal_report(deal) for deal in seat_view.deal_log],
    }


def trick_json(trick: Trick) -> Json:
    return {"leader": str(trick.leader), "cards": played_json(trick.leader, trick.cards)}


def events_of(before: GameState, move: Move, after: GameState, seat: object = None) -> list[Json]:
    """What everyone at the table saw happen when ``move`` turned ``before`` into ``after`` (every seat sees it alike)."""
    deal = before.deal
    seat = move.seat
    card = move.card
    events: list[Json] = []
    if card is None:
        events.append({"type": "bid", "seat": str(seat), "proposal": str(deal.proposal), "take": move.action == "take"})
        if after.deal.number == deal.number and not after.over and len(after.deal.proposals) > len(deal.proposals):
            events.append({"type": "proposal", "card": str(after.deal.proposal)})
    else:
        events.append({"type": "card", "seat": str(seat), "card": str(card)})
        if len(deal.trick) == 3:
            trick = (*deal.trick, card)
            assert deal.trump is not None
            winner = SEATS[(deal.leader + before.variant.trick_winner(trick, deal.trump)) % 4]
            finished_deal = after.over or after.deal.number != deal.number
            points = after.finished_deals[-1].points if finished_deal else after.deal.points
            assert points is not None
            events.append(
                {
                    "type": "trick",
                    "winner": str(winner),
                    "cards": played_json(deal.leader, trick),
                    "points": team_values(points),
                }
            )
    if len(after.finished_deals) > len(before.finished_deals):
        events.append({"type": "deal_end", "deal": deal_report(after.finished_deals[-1])})
        if not after.over:
            new_deal = after.deal
            events.append(
                {
                    "type": "deal_start",
                    "number": new_deal.number,
                    "dealer": str(new_deal.dealer),
                    "proposal": str(new_deal.proposal),
                }
            )
    if after.over:
        events.append(game_over_json(after))
    return events


def human_action(seat: Seat, text: str) -> str:
    """The record spelling of the human's intent: ``take`` becomes ``S:take``."""
    return f"{seat}:{text}"
