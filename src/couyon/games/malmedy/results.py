"""A Malmedy game's lines of the day's results: couyon's, with the seat that chose trump as the taker."""

from __future__ import annotations

from couyon.common.kind import Json
from couyon.common.results import deal_traveller
from couyon.games.couyon import results
from couyon.games.couyon.game import GameState

traveller = deal_traveller


def deal_results(state: GameState) -> list[Json]:
    """How each finished deal went from South's side; the taker is the chooser of trump."""
    return results.deal_results(state, lambda deal: deal.chooser)
