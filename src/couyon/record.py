"""Game records (``couyon-record/1``) and the verifier's report, as record-format.md fixes them."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from couyon.cards import TEAMS
from couyon.game import CouyonError, DealSummary, GameState, Move, ReplayError, replay
from couyon.malmedy import MalmedySummary
from couyon.variants import VARIANTS, variant_named

FORMAT = "couyon-record/1"
MAX_RECORD_BYTES = 1 << 20
"""The largest record ``couyon verify`` reads (1 MiB): a real game is a few kilobytes, and a cap keeps a
huge file (millions of keys or moves) from costing seconds of CPU and hundreds of megabytes."""


class RecordError(CouyonError):
    """A record that cannot be accepted; ``move`` is the 0-based index of the faulty move, if any."""

    def __init__(self, message: str, move: int | None = None) -> None:
        super().__init__(message)
        self.move = move


@dataclass(frozen=True, slots=True)
class Record:
    """A game as a seed plus every seat's moves; extra keys are kept but never read."""

    seed: str
    moves: tuple[str, ...]
    variant: str = "standard"
    extras: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The record as one JSON object, in the contract's key order, extras last."""
        document = {"format": FORMAT, "variant": self.variant, "seed": self.seed, "moves": list(self.moves)}
        document.update({key: value for key, value in self.extras.items() if key not in document})
        return json.dumps(document, ensure_ascii=False)

    def replay(self) -> GameState:
        """The game this record describes; raises ``RecordError`` naming the first faulty move."""
        try:
            variant = variant_named(self.variant)
        except ValueError as error:
            raise RecordError(str(error)) from None
        try:
            return replay(self.seed, self.moves, variant)
        except ReplayError as error:
            raise RecordError(f"move {error.index} ({quoted(self.moves[error.index])}): {error}", error.index) from None


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"the record is not valid JSON: {name} is not a JSON value")


def _read_integer(digits: str) -> int:
    # Python refuses to convert integers of more than 4300 digits (a guard against slow
    # conversions); such a number can only be junk in a record, so it is refused plainly.
    try:
        return int(digits)
    except ValueError:
        raise RecordError(f"the record holds a number too long to read ({len(digits)} digits)") from None


def first_repeated_key(pairs: list[tuple[str, Any]]) -> str | None:
    """The first key a JSON object's ``pairs`` give twice, if any: readers disagree on which value counts."""
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return key
        seen.add(key)
    return None


def _object_without_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    repeated = first_repeated_key(pairs)
    if repeated is not None:
        raise RecordError(f"the record is ambiguous: the key {quoted(repeated)} appears twice in one object")
    return dict(pairs)


def quoted(text: str, limit: int = 40) -> str:
    """``text`` quoted for an error sentence, shortened so one huge value cannot flood the message."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _describe(value: Any) -> str:
    """A short name for a JSON value, for error sentences."""
    if isinstance(value, str):
        return quoted(value)
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        return quoted(json.dumps(value))
    return "a list" if isinstance(value, list) else "an object"


def read_document(text: str | bytes) -> dict[str, Any]:
    """The record's JSON object, read strictly (UTF-8, no NaN, no key twice, no absurd integer), any format."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(f"the record is larger than {MAX_RECORD_BYTES:,} bytes, the most couyon verify reads")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError("the record is not UTF-8 text") from None
    try:
        document = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_read_integer,
            object_pairs_hook=_object_without_duplicate_keys,
        )
    except json.JSONDecodeError as error:
        raise RecordError(
            f"the record is not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from None
    except RecursionError:
        raise RecordError("the record is not valid JSON: it is nested too deeply") from None
    if not isinstance(document, dict):
        raise RecordError(f"a record must be a JSON object, not {_describe(document)}")
    return document


def wrong_format(document: dict[str, Any], formats: Sequence[str]) -> RecordError:
    """The refusal of a record whose ``format`` is none of ``formats``."""
    expected = repr(formats[0]) if len(formats) == 1 else "one of " + ", ".join(repr(name) for name in formats)
    return RecordError(f'the record\'s "format" must be {expected}, not {_describe(document.get("format"))}')


def parse_record(text: str | bytes) -> Record:
    """Read a record, checking its shape (not yet its moves, except that each is a string)."""
    document = read_document(text)
    if document.get("format") != FORMAT:
        raise wrong_format(document, (FORMAT,))
    variant = document.get("variant")
    if not isinstance(variant, str):
        raise RecordError('the record\'s "variant" must be a string such as "standard"')
    try:
        variant_named(variant)
    except ValueError:
        raise RecordError(f"unknown variant {quoted(variant)}; known variants: {', '.join(sorted(VARIANTS))}") from None
    seed = document.get("seed")
    if not isinstance(seed, str):
        raise RecordError('the record\'s "seed" must be a string')
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError('the record\'s "seed" is not valid Unicode text (it holds a lone surrogate)') from None
    moves = document.get("moves")
    if not isinstance(moves, list):
        raise RecordError('the record\'s "moves" must be a list of strings like "W:pass" or "E:AH"')
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            # The verifier names the first faulty move: an earlier move that breaks a rule comes first.
            Record(seed, tuple(moves[:index]), variant).replay()
            raise RecordError(f'move {index} must be a string like "W:pass" or "E:AH", not {_describe(move)}', index)
    extras = {key: value for key, value in document.items() if key not in ("format", "variant", "seed", "moves")}
    return Record(seed, tuple(moves), variant, extras)


def record_of(state: GameState, moves: Sequence[Move | str], **extras: Any) -> Record:
    """The record of a game played from ``state.seed`` with these moves."""
    return Record(state.seed, tuple(str(move) for move in moves), state.variant.name, dict(extras))


def team_values(values: tuple[int, int]) -> dict[str, int]:
    return {str(team): values[team] for team in TEAMS}


def deal_report(deal: DealSummary | MalmedySummary) -> dict[str, Any]:
    """One deal as the contract's ``deal_log`` entry (malmedy.md's for a Malmedy deal)."""
    if isinstance(deal, MalmedySummary):
        return malmedy_deal_report(deal)
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


def malmedy_deal_report(deal: MalmedySummary) -> dict[str, Any]:
    """One Malmedy deal as its ``deal_log`` entry (malmedy.md, "Record differences")."""
    return {
        "number": deal.number,
        "dealer": str(deal.dealer),
        "chooser": str(deal.chooser),
        "trump": None if deal.trump is None else str(deal.trump),
        "mite": None if deal.mite is None else str(deal.mite),
        "contra": deal.contra,
        "points": team_values(deal.points),
        "tricks": team_values(deal.tricks),
        "outcome": None if deal.outcome is None else str(deal.outcome),
        "capot": None if deal.capot is None else str(deal.capot),
        "lines": None if deal.lines is None else team_values(deal.lines),
    }


def report(state: GameState) -> dict[str, Any]:
    """The verifier's report of a replayed game, key for key as the contract prints it."""
    finished = state.winner is not None
    return {
        "valid": True,
        "finished": finished,
        "winner": None if state.winner is None else str(state.winner),
        "lines": team_values(state.lines),
        "deals": state.deal_log[-1].number,
        "score": state.score,
        "deal_log": [deal_report(deal) for deal in state.deal_log],
    }


def verify(text: str | bytes) -> dict[str, Any]:
    """Parse and replay a record; the contract's report, or its refusal object."""
    try:
        return report(parse_record(text).replay())
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
