"""The day's traveller shared by the deal-based games: every game's lines grouped by deal number."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from couyon.common.kind import Json

_OUTCOMES = ("made", "failed", "tie")


def by_number(field: list[list[Json]], own: list[Json], key: str) -> Iterator[tuple[int, list[Json], Json | None]]:
    """The games' lines grouped by their ``key`` (``deal``, ``coup``) in order: each number, its lines, the player's."""
    grouped: dict[int, list[Json]] = {}
    for lines in field:
        for line in lines:
            grouped.setdefault(int(line[key]), []).append(line)
    mine = {int(line[key]): line for line in own}
    for number in sorted(grouped):
        yield number, grouped[number], mine.get(number)


def taken_lines(lines: list[Json]) -> list[Json]:
    """The lines of deals that someone took and that were played (not redealt)."""
    return [line for line in lines if line["taker"] is not None and line["outcome"] != "redeal"]


def deal_traveller(field: list[list[Json]], own: list[Json]) -> list[Json]:
    """One line per deal number: how many games reached it and how it went in them, and the player's own deal."""
    traveller = []
    for number, lines, own_line in by_number(field, own, "deal"):
        taken = taken_lines(lines)
        counts: dict[str, Any] = {outcome: sum(line["outcome"] == outcome for line in taken) for outcome in _OUTCOMES}
        row: Json = {
            "deal": number,
            "games": len(lines),
            "not_taken": len(lines) - len(taken),
            "taken_by_us": sum(line["side"] == "us" for line in taken),
            "taken_by_them": sum(line["side"] == "them" for line in taken),
            **counts,
        }
        row["you"] = own_of(own_line, "deal")
        traveller.append(row)
    return traveller


def own_of(line: Json | None, key: str) -> Json | None:
    """The player's own line without its number (``key``), or None where his game did not reach it."""
    return None if line is None else {name: line[name] for name in line if name != key}
