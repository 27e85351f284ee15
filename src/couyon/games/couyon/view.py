"""What one seat may know: the only shape in which a game leaves the engine toward a player.

A ``SeatView`` holds the seat's own hand, the public cards (turned proposals, cards
played) and the public history, and nothing else: no other hand, no unturned talon
card, no seed (the daily challenge's seed would reveal every deal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from couyon.games.couyon.cards import Card, Seat, Suit, Team, cards_of
from couyon.games.couyon.game import Bid, DealSummary, GameState, Move, Phase, Trick, legal_moves


@dataclass(frozen=True, slots=True)
class SeatView:
    """The game as ``seat`` sees it."""

    seat: Seat
    variant: str
    move_number: int
    phase: Phase
    to_move: Seat | None
    lines: tuple[int, int]
    winner: Team | None
    score: int | None
    deal_number: int
    dealer: Seat
    stake: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    proposals: tuple[Card, ...]
    bids: tuple[Bid, ...]
    trump: Suit | None
    taker: Seat | None
    tricks: tuple[Trick, ...]
    """Completed tricks of the current deal."""
    trick: Trick
    """The trick in progress (its ``winner`` is None)."""
    points: tuple[int, int]
    """Card points each team has won in the current deal."""
    legal_moves: tuple[Move, ...]
    """The moves this seat may make now; empty when it is not its turn."""
    deal_log: tuple[DealSummary, ...]
    """Every deal dealt so far, as the record contract reports it."""

    @property
    def current_proposal(self) -> Card:
        return self.proposals[-1]


def view(state: GameState, seat: Seat) -> Any:
    """Exactly what ``seat`` may know of ``state``: a ``SeatView``, or the variant fold's own view (Malmedy's
    ``MalmedyView``)."""
    if state.variant.fold is not None:
        return state.variant.fold.view(state, seat)
    return standard_view(state, seat)


def standard_view(state: GameState, seat: Seat) -> SeatView:
    """Exactly what ``seat`` may know of a game of the common couyon."""
    deal = state.deal
    return SeatView(
        seat=seat,
        variant=state.variant.name,
        move_number=state.move_count,
        phase=state.phase,
        to_move=state.to_move,
        lines=state.lines,
        winner=state.winner,
        score=state.score_of(seat),
        deal_number=deal.number,
        dealer=deal.dealer,
        stake=deal.stake,
        hand=cards_of(deal.hands[seat]),
        hand_sizes=(
            deal.hands[0].bit_count(),
            deal.hands[1].bit_count(),
            deal.hands[2].bit_count(),
            deal.hands[3].bit_count(),
        ),
        proposals=deal.proposals,
        bids=deal.bids,
        trump=deal.trump,
        taker=deal.taker,
        tricks=deal.tricks,
        trick=Trick(deal.leader, deal.trick, None),
        points=deal.points,
        legal_moves=legal_moves(state) if state.to_move == seat else (),
        deal_log=state.deal_log,
    )
