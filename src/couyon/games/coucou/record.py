"""Coucou game records (``coucou-record/1``, ``coucou-record/2``) and the verifier's report, as coucou-record-format.md fixes them.

``coucou-record/2`` is ``/1`` plus a required ``variant``: ``coucou`` or ``as-qui-court`` (rulings 20–24). A ``/1``
record is always coucou and is read and reported exactly as before; a ``/2`` report has ``variant`` right after
``valid``, and for as qui court each coup's ``kings_shown`` right after ``stock``.

The JSON is read by ``couyon.common.records.read_document`` (UTF-8, no NaN, no key twice, no
absurd integer), as every format ``couyon verify`` reads; then the record's own keys
are checked in the contract's order (format, players, tokens, seed, moves), then the
moves are replayed and the first faulty one is named by its 0-based index.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from couyon.common.errors import CouyonError
from couyon.common.records import (
    RecordError,
    checked_seed,
    extras_of,
    quoted,
    read_document,
    record_json,
    wrong_format,
)
from couyon.games.coucou.cards import MAX_PLAYERS, MIN_PLAYERS, Card
from couyon.games.coucou.game import (
    MAX_TOKENS,
    MIN_TOKENS,
    Coup,
    GameOverError,
    GameState,
    Move,
    Seat,
    Variant,
    new_game,
    play,
)

FORMAT = "coucou-record/1"
FORMAT_2 = "coucou-record/2"
"""Both variants, named by the record's ``variant`` key (the contract's last section)."""
_MISSING = object()


@dataclass(frozen=True, slots=True)
class Record:
    """A coucou game as a seed, its table and every seat's moves; extra keys are kept but never read."""

    seed: str
    players: int
    tokens: int
    moves: tuple[str, ...]
    extras: dict[str, Any] = field(default_factory=dict)
    variant: Variant | None = None
    """None: a ``coucou-record/1`` record (coucou); else a ``coucou-record/2`` record of this variant."""

    def to_json(self) -> str:
        """The record as one JSON object, in the contract's key order, extras last."""
        header: dict[str, Any] = {"format": FORMAT} if self.variant is None else {"format": FORMAT_2}
        if self.variant is not None:
            header["variant"] = str(self.variant)
        return record_json(
            header | {"players": self.players, "tokens": self.tokens, "seed": self.seed, "moves": list(self.moves)},
            self.extras,
        )

    def replay(self) -> GameState:
        """The game this record describes; raises ``RecordError`` naming the first faulty move."""
        return replay_moves(self.seed, self.players, self.tokens, self.moves, self.variant or Variant.COUCOU)


def _describe(value: object) -> str:
    """A short name for a JSON value, for error sentences."""
    if value is _MISSING:
        return "missing"
    if isinstance(value, str):
        return quoted(value)
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int | float):
        written = json.dumps(value)
        return "the number " + (written if len(written) <= 40 else written[:40] + "…")
    return "a list" if isinstance(value, list) else "an object"


def _whole_number(document: dict[str, Any], key: str, lowest: int, highest: int) -> int:
    value = document.get(key, _MISSING)
    # ``type(...) is int``: JSON ``true`` is a bool (an int subclass) and ``8.0`` a float; neither is a count.
    if type(value) is not int or not lowest <= value <= highest:
        raise RecordError(
            f'the record\'s "{key}" must be a whole number from {lowest} to {highest}, not {_describe(value)}'
        )
    return value


def _header(text: str | bytes) -> tuple[str, int, int, list[Any], dict[str, Any], Variant | None]:
    """The record's keys in the contract's order; the variant is None for ``coucou-record/1``."""
    document = read_document(text)
    if document.get("format") not in (FORMAT, FORMAT_2):
        raise wrong_format(document, (FORMAT, FORMAT_2))
    variant = None
    if document["format"] == FORMAT_2:
        named = document.get("variant", _MISSING)
        if not isinstance(named, str) or named not in (Variant.COUCOU, Variant.AS_QUI_COURT):
            raise RecordError(f'the record\'s "variant" must be "coucou" or "as-qui-court", not {_describe(named)}')
        variant = Variant(named)
    players = _whole_number(document, "players", MIN_PLAYERS, MAX_PLAYERS)
    tokens = _whole_number(document, "tokens", MIN_TOKENS, MAX_TOKENS)
    given = document.get("seed", _MISSING)
    seed = checked_seed(given, f'the record\'s "seed" must be a string, not {_describe(given)}')
    moves = document.get("moves", _MISSING)
    if not isinstance(moves, list):
        raise RecordError(f'the record\'s "moves" must be a list of strings like "3:keep", not {_describe(moves)}')
    contract = ("format", "players", "tokens", "seed", "moves") if variant is None else _KEYS_2
    return seed, players, tokens, moves, extras_of(document, contract), variant


_KEYS_2 = ("format", "variant", "players", "tokens", "seed", "moves")


def replay_moves(
    seed: str, players: int, tokens: int, moves: Sequence[object], variant: Variant = Variant.COUCOU
) -> GameState:
    """Fold a record's moves over a new game; ``RecordError`` names the first faulty move and why."""
    state = new_game(seed, players, tokens, variant)
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            raise RecordError(f'move {index} must be a string like "3:keep", not {_describe(move)}', index)
        try:
            if state.winner is not None:
                raise GameOverError(f"the game is over (seat {state.winner} won): no move can follow")
            state = play(state, Move.parse(move))
        except CouyonError as error:
            raise RecordError(f"move {index} ({quoted(move)}): {error}", index) from None
    return state


def parse_record(text: str | bytes) -> Record:
    """Read a record and replay it: a ``Record`` whose moves are all legal, or ``RecordError``."""
    seed, players, tokens, moves, extras, variant = _header(text)
    replay_moves(seed, players, tokens, moves, variant or Variant.COUCOU)
    return Record(seed, players, tokens, tuple(moves), extras, variant)


def record_of(state: GameState, moves: Sequence[Move | str], **extras: Any) -> Record:
    """The record of a game played from ``state``'s seed and table with these moves (as qui court: ``/2``)."""
    variant = None if state.variant is Variant.COUCOU else state.variant
    moves_written = tuple(str(move) for move in moves)
    return Record(state.seed, state.players, state.starting_tokens, moves_written, dict(extras), variant)


def _by_seat(order: Sequence[Seat], cards: Sequence[Card]) -> dict[str, str]:
    """The coup's seats and their cards, keyed by seat number as a decimal string, by increasing seat."""
    return {str(seat): str(card) for seat, card in sorted(zip(order, cards, strict=True))}


def _every_seat(tokens: Sequence[int]) -> dict[str, int]:
    return {str(seat): count for seat, count in enumerate(tokens, start=1)}


def coup_report(coup: Coup) -> dict[str, Any]:
    """One coup as the contract's ``coup_log`` entry; ``after``, ``losers``, ``tokens``, ``eliminated`` null until it ends."""
    over = coup.losers is not None
    entry: dict[str, Any] = {
        "number": coup.number,
        "dealer": coup.dealer,
        "order": list(coup.order),
        "before": _by_seat(coup.order, coup.before),
        "actions": [f"{seat}:{outcome}" for seat, outcome in zip(coup.order, coup.actions, strict=False)],
        "stock": None if coup.turned is None else str(coup.turned),
    }
    if coup.variant is Variant.AS_QUI_COURT:
        entry["kings_shown"] = list(coup.kings_shown)
    return entry | {
        "after": _by_seat(coup.order, coup.cards) if over else None,
        "losers": list(coup.losers) if coup.losers is not None else None,
        "tokens": _every_seat(coup.tokens) if coup.tokens is not None else None,
        "eliminated": list(coup.eliminated) if coup.eliminated is not None else None,
    }


def report(state: GameState, format_name: str = FORMAT) -> dict[str, Any]:
    """The verifier's report of a replayed game, key for key as the contract prints it (``/2``: with its variant)."""
    coups = state.coups
    named = {"variant": str(state.variant)} if format_name == FORMAT_2 else {}
    return {
        "valid": True,
        **named,
        "finished": state.winner is not None,
        "winner": state.winner,
        "tokens": _every_seat(state.tokens),
        "coups": len(coups),
        "eliminated": [
            {"seat": elimination.seat, "coup": elimination.coup, "place": elimination.place}
            for elimination in state.eliminations
        ],
        "place": state.place_of(1) if state.winner is not None else None,
        "score": state.score,
        "coup_log": [coup_report(coup) for coup in coups],
    }


def verify(text: str | bytes) -> dict[str, Any]:
    """``couyon verify`` for a ``coucou-record/1`` or ``/2`` record: the contract's report, or its refusal object."""
    try:
        seed, players, tokens, moves, _, variant = _header(text)
        if variant is None:
            return report(replay_moves(seed, players, tokens, moves))
        return report(replay_moves(seed, players, tokens, moves, variant), FORMAT_2)
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
