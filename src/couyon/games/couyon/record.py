"""Game records (``couyon-record/1``) and the verifier's report, as record-format.md fixes them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from couyon.common.errors import ReplayError
from couyon.common.records import (
    RecordError,
    checked_moves,
    checked_seed,
    extras_of,
    quoted,
    read_document,
    record_json,
    wrong_format,
)
from couyon.games.couyon.cards import TEAMS
from couyon.games.couyon.game import DealSummary, GameState, Move, replay
from couyon.games.couyon.rules import STANDARD, Variant

FORMAT = "couyon-record/1"
STANDARD_ONLY: Mapping[str, Variant] = {STANDARD.name: STANDARD}
"""The variants a record of the common couyon may name; Malmedy's verifier adds its own
(``couyon.games.malmedy.record.VARIANTS``)."""


def variant_named(name: str, variants: Mapping[str, Variant]) -> Variant:
    """The variant called ``name`` among ``variants``."""
    try:
        return variants[name]
    except KeyError:
        raise ValueError(f"unknown variant {name!r}; known variants: {', '.join(sorted(variants))}") from None


@dataclass(frozen=True, slots=True)
class Record:
    """A game as a seed plus every seat's moves; extra keys are kept but never read."""

    seed: str
    moves: tuple[str, ...]
    variant: str = "standard"
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The record as one JSON object, in the contract's key order, extras last."""
        return record_json(
            {"format": FORMAT, "variant": self.variant, "seed": self.seed, "moves": list(self.moves)}, self.extras
        )

    def replay(self, variants: Mapping[str, Variant] = STANDARD_ONLY) -> GameState:
        """The game this record describes, its variant one of ``variants``; raises ``RecordError`` naming the first
        faulty move."""
        try:
            variant = variant_named(self.variant, variants)
        except ValueError as error:
            raise RecordError(str(error)) from None
        try:
            return replay(self.seed, self.moves, variant)
        except ReplayError as error:
            raise RecordError(f"move {error.index} ({quoted(self.moves[error.index])}): {error}", error.index) from None


def parse_record(text: str | bytes, variants: Mapping[str, Variant] = STANDARD_ONLY) -> Record:
    """Read a record, checking its shape (not yet its moves, except that each is a string)."""
    document = read_document(text)
    if document.get("format") != FORMAT:
        raise wrong_format(document, (FORMAT,))
    variant = document.get("variant")
    if not isinstance(variant, str):
        raise RecordError('the record\'s "variant" must be a string such as "standard"')
    try:
        variant_named(variant, variants)
    except ValueError:
        raise RecordError(f"unknown variant {quoted(variant)}; known variants: {', '.join(sorted(variants))}") from None
    seed = checked_seed(document.get("seed"))
    moves = checked_moves(
        document.get("moves"),
        '"W:pass" or "E:AH"',
        lambda index: Record(seed, tuple(document["moves"][:index]), variant).replay(variants),
    )
    return Record(seed, moves, variant, extras_of(document, ("format", "variant", "seed", "moves")))


def record_of(state: GameState, moves: Sequence[Move | str], **extras: Any) -> Record:
    """The record of a game played from ``state.seed`` with these moves."""
    return Record(state.seed, tuple(str(move) for move in moves), state.variant.name, dict(extras))


def team_values(values: tuple[int, int]) -> dict[str, int]:
    return {str(team): values[team] for team in TEAMS}


def deal_report(deal: DealSummary) -> dict[str, Any]:
    """One deal of the common couyon as the contract's ``deal_log`` entry."""
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        "proposals": [str(card) for card in deal.proposals],
        "trump": None if deal.trump is None else str(deal.trump),
        "taker": None if deal.taker is None else str(deal.taker),
        "points": None if deal.points is None else team_values(deal.points),
        "outcome": None if deal.outcome is None else str(deal.outcome),
        "stake": deal.stake,
        "lines": None if deal.outcome is None else team_values(deal.lines),
    }


def report(state: GameState) -> dict[str, Any]:
    """The verifier's report of a replayed game, key for key as the contract prints it."""
    fold = state.variant.fold
    report_deal = deal_report if fold is None else fold.deal_report
    finished = state.winner is not None
    return {
        "valid": True,
        "finished": finished,
        "winner": None if state.winner is None else str(state.winner),
        "lines": team_values(state.lines),
        "deals": state.deal_log[-1].number,
        "score": state.score,
        "deal_log": [report_deal(deal) for deal in state.deal_log],
    }


def verify(text: str | bytes, variants: Mapping[str, Variant] = STANDARD_ONLY) -> dict[str, Any]:
    """Parse and replay a record whose variant is one of ``variants``; the contract's report, or its refusal object."""
    try:
        return report(parse_record(text, variants).replay(variants))
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
