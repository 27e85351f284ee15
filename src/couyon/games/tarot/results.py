"""A tarot game's lines of the day's results and its traveller: couyon's keys, with the contract and South's points."""

from __future__ import annotations

from couyon.common.kind import Json
from couyon.common.results import by_number, deal_traveller, taken_lines
from couyon.games.tarot.cards import Seat
from couyon.games.tarot.game import GameState
from couyon.games.tarot.scoring import CONTRACTS

HUMAN = Seat.S


def deal_results(state: GameState) -> list[Json]:
    """How each finished deal of a tarot game went, from South's side: the day's traveller's line.

    The keys of couyon's line (``couyon.common.results.deal_traveller``): ``taker`` the seat that took,
    None when everyone passed or a petit sec annulled the deal; ``side`` ``us`` when South took,
    ``them`` when a bot's seat did; ``outcome`` ``made``, ``failed``, ``redeal`` or ``petit-sec``.
    Tarot adds ``contract`` (the bid taken, or None) and ``points``, South's score for the deal.
    """
    results: list[Json] = []
    for deal in state.finished_deals:
        result = deal.result
        taker = deal.taker if result is not None else None
        outcome = str(deal.outcome) if result is None else "made" if result.marque.made else "failed"
        results.append(
            {
                "deal": deal.number,
                "taker": None if taker is None else str(taker),
                "side": None if taker is None else "us" if taker == HUMAN else "them",
                "contract": None if taker is None else str(deal.contract),
                "outcome": outcome,
                "points": 0 if result is None else result.scores[0],
            }
        )
    return results


def traveller(field: list[list[Json]], own: list[Json]) -> list[Json]:
    """The deal-based traveller (``deal_traveller``), each line with tarot's contracts and South's average points."""
    rows = deal_traveller(field, own)
    lines_by_number = {number: lines for number, lines, _ in by_number(field, own, "deal")}
    for index, row in enumerate(rows):
        you = row.pop("you")
        rows[index] = row | _contracts(lines_by_number[row["deal"]]) | {"you": you}
    return rows


def _contracts(lines: list[Json]) -> Json:
    """Tarot's part of a traveller line: each contract taken (in bid order) and South's average points."""
    taken = taken_lines(lines)
    contracts = []
    for contract in CONTRACTS:
        these = [line for line in taken if line["contract"] == contract.value]
        if these:
            contracts.append(
                {
                    "contract": contract.value,
                    "taken_by_us": sum(line["side"] == "us" for line in these),
                    "taken_by_them": sum(line["side"] == "them" for line in these),
                    "made": sum(line["outcome"] == "made" for line in these),
                    "failed": sum(line["outcome"] == "failed" for line in these),
                }
            )
    average = round(sum(int(line["points"]) for line in lines) / len(lines), 1)
    return {"contracts": contracts, "average_points": average}
