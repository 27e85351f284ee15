"""Tarot game records (``tarot-record/1``) and the verifier's report, as tarot-record-format.md fixes them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from couyon.common.errors import CouyonError, ReplayError
from couyon.common.records import (
    RecordError,
    checked_moves,
    checked_seed,
    describe,
    extras_of,
    quoted,
    read_document,
    record_json,
    wrong_format,
)
from couyon.games.tarot.cards import PLAYER_COUNTS, SEATS_OF, codes
from couyon.games.tarot.game import DealSummary, GameState, Move, replay

FORMAT = "tarot-record/1"


@dataclass(frozen=True, slots=True)
class TarotRecord:
    """A tarot game as its number of players, a seed and every seat's moves; extra keys are kept, never read."""

    players: int
    seed: str
    moves: tuple[str, ...]
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The record as one JSON object, in the contract's key order, extras last."""
        return record_json(
            {"format": FORMAT, "players": self.players, "seed": self.seed, "moves": list(self.moves)}, self.extras
        )

    def replay(self) -> GameState:
        """The game this record describes; raises ``RecordError`` naming the first faulty move."""
        try:
            return replay(self.seed, self.players, self.moves)
        except ReplayError as error:
            raise RecordError(f"move {error.index} ({quoted(self.moves[error.index])}): {error}", error.index) from None


def parse_record(text: str | bytes) -> TarotRecord:
    """Read a record, checking its shape in the contract's key order (not yet its moves, but that each is a string)."""
    document = read_document(text)
    if document.get("format") != FORMAT:
        raise wrong_format(document, (FORMAT,))
    players = document.get("players")
    # A JSON integer only: not 4.0, "4" or true (bool is an int in Python).
    if type(players) is not int or players not in PLAYER_COUNTS:
        raise RecordError(f'the record\'s "players" must be the integer 3, 4 or 5, not {describe(players)}')
    seed = checked_seed(document.get("seed"))
    moves = checked_moves(
        document.get("moves"),
        '"W:pass" or "E:KS"',
        lambda index: TarotRecord(players, seed, tuple(document["moves"][:index])).replay(),
    )
    return TarotRecord(players, seed, moves, extras_of(document, ("format", "players", "seed", "moves")))


def record_of(state: GameState, moves: Sequence[Move | str], **extras: Any) -> TarotRecord:
    """The record of a game played from ``state.seed`` with these moves."""
    return TarotRecord(state.players, state.seed, tuple(str(move) for move in moves), dict(extras))


def _points(half_points: int) -> int | float:
    """P / 2 as the report prints it: a whole number, or one ending in .5."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def deal_report(deal: DealSummary, players: int) -> dict[str, Any]:
    """One deal as the contract's ``deal_log`` entry, every key always present."""
    seats = SEATS_OF[players]
    result = deal.result
    marque = None if result is None else result.marque
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        "bids": [f"{seat}:{'pass' if bid is None else bid}" for seat, bid in deal.bids],
        "outcome": None if deal.outcome is None else str(deal.outcome),
        "taker": None if deal.taker is None else str(deal.taker),
        "contract": None if deal.contract is None else str(deal.contract),
        "called": None if deal.called is None else str(deal.called),
        "partner": None if deal.partner is None else str(deal.partner),
        "chien": codes(deal.chien),
        "ecart": None if deal.ecart is None else codes(deal.ecart),
        "chelem_announced": deal.chelem_announced,
        "poignees": [
            {"seat": str(poignee.seat), "cards": codes(poignee.cards), "prime": poignee.prime}
            for poignee in deal.poignees
        ],
        "miseres": [{"seat": str(seat), "kind": str(kind)} for seat, kind in deal.miseres],
        "bouts": None if marque is None else marque.bouts,
        "points": None if marque is None else _points(marque.half_points),
        "needed": None if marque is None else marque.needed,
        "result": None if marque is None else ("made" if marque.made else "failed"),
        "margin": None if marque is None else marque.margin,
        "petit_au_bout": None if result is None or result.petit_au_bout is None else str(result.petit_au_bout),
        "chelem": None if result is None or result.chelem is None else str(result.chelem),
        "marque": None if marque is None else marque.marque,
        "scores": None
        if result is None
        else {str(seat): score for seat, score in zip(seats, result.scores, strict=True)},
    }


def report(state: GameState) -> dict[str, Any]:
    """The verifier's report of a replayed game, key for key as the contract prints it."""
    log = state.deal_log
    return {
        "valid": True,
        "finished": state.over,
        "players": state.players,
        "deals": log[-1].number,
        "played": state.played,
        "scores": {str(seat): total for seat, total in zip(state.seats, state.totals, strict=True)},
        "score": state.score,
        "deal_log": [deal_report(deal, state.players) for deal in log],
    }


def verify(text: str | bytes) -> dict[str, Any]:
    """``couyon verify`` for a ``tarot-record/1`` record: the contract's report, or its refusal object."""
    try:
        return report(parse_record(text).replay())
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
    except CouyonError as error:  # pragma: no cover - every rule error is a ReplayError; a safety net
        return {"valid": False, "error": str(error), "move": None}
