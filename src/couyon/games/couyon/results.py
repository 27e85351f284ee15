"""A couyon game's lines of the day's results: how each deal went from South's side (the traveller's input)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from couyon.common.kind import Json
from couyon.common.results import deal_traveller
from couyon.games.couyon.cards import Seat, Team
from couyon.games.couyon.game import GameState

traveller = deal_traveller


def deal_results(state: GameState, taker_of: Callable[[Any], Seat | None] = lambda deal: deal.taker) -> list[Json]:
    """How each finished deal went, from South's side: the traveller's line.

    ``taker`` is the seat that took (``taker_of`` reads it from a deal's summary: Malmedy's is the one that
    chose trump), None when nobody did; ``side`` is ``us`` for South and North, ``them`` for West and East;
    ``outcome`` is the record's (``made``, ``failed``, ``tie`` or ``redeal``).
    """
    results: list[Json] = []
    for deal in state.finished_deals:
        taker = taker_of(deal)
        side = None if taker is None else "us" if taker.team == Team.NS else "them"
        outcome = None if deal.outcome is None else str(deal.outcome)
        results.append(
            {"deal": deal.number, "taker": None if taker is None else str(taker), "side": side, "outcome": outcome}
        )
    return results
