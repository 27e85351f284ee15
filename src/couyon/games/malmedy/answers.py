"""JSON shapes of a Malmedy game (docs/api.md, "The Malmedy couyon"): a seat's view and the events.

As for the common game, only ``MalmedyView``s and public facts of the fold (the trump
named, announcements and their answers, cards played, trick winners, deal results)
become JSON: the blind, another seat's hand and the seed never do.
"""

from __future__ import annotations

from couyon.common.kind import Json
from couyon.games.couyon.answers import game_over_json, played_json, standing_json, trick_json
from couyon.games.couyon.cards import SEATS, Card
from couyon.games.couyon.game import GameState, Move
from couyon.games.couyon.record import team_values
from couyon.games.couyon.view import view
from couyon.games.malmedy.game import MalmedyDeal, MalmedyView
from couyon.games.malmedy.game import malmedy_deal_report as deal_report
from couyon.games.malmedy.rules import trick_winner


def malmedy_view_json(state: GameState, seat: int) -> Json:
    """The ``view`` object of a Malmedy game answer."""
    seat_view = view(state, SEATS[seat])
    assert isinstance(seat_view, MalmedyView)
    return {
        "game": "malmedy",
        **standing_json(seat_view),
        "deal": {
            "number": seat_view.deal_number,
            "dealer": str(seat_view.dealer),
            "chooser": str(seat_view.chooser),
            "trump": None if seat_view.trump is None else str(seat_view.trump),
            "mite": None if seat_view.mite is None else str(seat_view.mite),
            "contra": seat_view.contra,
            "asking": seat_view.asking,
            "tricks": [{**trick_json(trick), "winner": str(trick.winner)} for trick in seat_view.tricks],
            "trick": trick_json(seat_view.trick),
            "points": team_values(seat_view.points),
            "trick_counts": team_values(seat_view.trick_counts),
            "blind": 4,
        },
        "hand": [str(card) for card in seat_view.hand],
        "trumps": [str(card) for card in seat_view.trumps],
        "hand_sizes": {str(seat): seat_view.hand_sizes[seat] for seat in SEATS},
        "legal": [str(move.action) for move in seat_view.legal_moves],
        "deal_log": [deal_report(deal) for deal in seat_view.deal_log],
    }


def malmedy_events_of(before: GameState, move: Move, after: GameState, seat: object = None) -> list[Json]:
    """What everyone at the table saw happen when ``move`` turned ``before`` into ``after`` (every seat sees it alike)."""
    deal: MalmedyDeal = before.deal
    seat = move.seat
    action = move.action
    events: list[Json] = []
    if isinstance(action, Card):
        events.append({"type": "card", "seat": str(seat), "card": str(action)})
        if len(deal.trick) == 3:
            trick = (*deal.trick, action)
            assert deal.trump is not None
            winner = SEATS[(deal.leader + trick_winner(trick, deal.trump, deal.mite is not None)) % 4]
            finished_deal = after.over or after.deal.number != deal.number
            points = after.finished_deals[-1].points if finished_deal else after.deal.points
            events.append(
                {
                    "type": "trick",
                    "winner": str(winner),
                    "cards": played_json(deal.leader, trick),
                    "points": team_values(points),
                }
            )
    elif deal.trump is None:
        events.append({"type": "trump", "seat": str(seat), "suit": str(after.deal.trump)})
    elif deal.asking is not None:
        events.append({"type": "answer", "seat": str(seat), "answer": str(action)})
    else:
        events.append({"type": "mite", "seat": str(seat)})
    if len(after.finished_deals) > len(before.finished_deals):
        events.append({"type": "deal_end", "deal": deal_report(after.finished_deals[-1])})
        if not after.over:
            new_deal: MalmedyDeal = after.deal
            events.append(
                {
                    "type": "deal_start",
                    "number": new_deal.number,
                    "dealer": str(new_deal.dealer),
                    "chooser": str(new_deal.chooser),
                }
            )
    if after.over:
        events.append(game_over_json(after))
    return events
