"""Reading a record document, for every game's format: the size limit, strict JSON, the ``format`` check and the
refusal sentence."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from couyon.common.errors import CouyonError

MAX_RECORD_BYTES = 1 << 20
"""The largest record ``couyon verify`` reads (1 MiB): a real game is a few kilobytes, and a cap keeps a
huge file (millions of keys or moves) from costing seconds of CPU and hundreds of megabytes."""


class RecordError(CouyonError):
    """A record that cannot be accepted; ``move`` is the 0-based index of the faulty move, if any."""

    def __init__(self, message: str, move: int | None = None) -> None:
        super().__init__(message)
        self.move = move


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


def describe(value: Any) -> str:
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
        raise RecordError(f"a record must be a JSON object, not {describe(document)}")
    return document


def wrong_format(document: dict[str, Any], formats: Sequence[str]) -> RecordError:
    """The refusal of a record whose ``format`` is none of ``formats``."""
    expected = repr(formats[0]) if len(formats) == 1 else "one of " + ", ".join(repr(name) for name in formats)
    return RecordError(f'the record\'s "format" must be {expected}, not {describe(document.get("format"))}')


def record_json(head: dict[str, Any], extras: Mapping[str, Any]) -> str:
    """A record as one JSON object: ``head`` (its format's keys, in the contract's order), then the extra keys it
    kept, in their order, but none that would overwrite a key of ``head``."""
    head.update({key: value for key, value in extras.items() if key not in head})
    return json.dumps(head, ensure_ascii=False)


def extras_of(document: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """The keys of ``document`` its format does not define: kept, never read."""
    return {key: value for key, value in document.items() if key not in keys}


def checked_seed(seed: object, refusal: str = 'the record\'s "seed" must be a string') -> str:
    """The record's ``seed``: a string of valid Unicode text, else ``refusal`` (or the lone surrogate's)."""
    if not isinstance(seed, str):
        raise RecordError(refusal)
    try:
        seed.encode("utf-8")
    except UnicodeEncodeError:
        raise RecordError('the record\'s "seed" is not valid Unicode text (it holds a lone surrogate)') from None
    return seed


def checked_moves(moves: object, example: str, replay_before: Callable[[int], object]) -> tuple[str, ...]:
    """The record's ``moves``: a list of strings (the sentences show ``example``, the format's moves). Before a move
    that is not a string is refused, ``replay_before(index)`` replays the moves before it, so that an earlier move
    that breaks a rule is named first."""
    if not isinstance(moves, list):
        raise RecordError(f'the record\'s "moves" must be a list of strings like {example}')
    for index, move in enumerate(moves):
        if not isinstance(move, str):
            replay_before(index)
            raise RecordError(f"move {index} must be a string like {example}, not {describe(move)}", index)
    return tuple(moves)
