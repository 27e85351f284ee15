"""Puzzles (issue 34, docs/puzzles.md): what one is, the test that keeps it, and what each game's miner offers.

A puzzle is a card decision of one seat in a real deal, shown as that seat saw it. It is kept when it is **well
posed**: over the layouts of the hidden cards that agree with everything the seat knows (every one of them when
there are at most ``EXHAUSTIVE_LIMIT``, else ``SAMPLED_LAYOUTS`` drawn by the bots' sampler, each counted once),
solved exactly, one card, or a group of cards worth the same on every layout, is best on at least ``BEST_SHARE``
of them and beats every other card on average by at least the game's ``margin`` (in the game's own units). It is
**certain** ("sûr") when every layout was counted and the best group is best on all of them.

``judge`` applies that test to the values a game's solver found; each game's ``puzzles`` module
(``couyon.games.<game>.puzzles``) draws the layouts, solves them, picks the candidates (decisions where the card
played lost clearly against the best one) and tags the themes, behind the ``PuzzleMiner`` face its registry entry
carries (``GameKind.puzzles``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Json = dict[str, Any]

MIN_LAYOUTS = 200
"""A sampled decision is judged over at least this many layouts (the issue's floor)."""
SAMPLED_LAYOUTS = 256
"""Layouts drawn when they are too many to count: above ``MIN_LAYOUTS``."""
EXHAUSTIVE_LIMIT = 200_000
"""Up to this many consistent layouts, every one is solved once (exact shares, and "certain" possible)."""
BEST_SHARE = 0.9
"""The least share of layouts on which the best group must be best."""


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card of a puzzle: its average value over the layouts and the share of layouts where it is best."""

    card: str
    value: float
    best_share: float

    def to_json(self) -> Json:
        return {"card": self.card, "value": self.value, "best_share": self.best_share}


@dataclass(frozen=True, slots=True)
class Verdict:
    """What ``judge`` found of one decision's values."""

    best: tuple[str, ...]
    """The best group: the card of the highest average and every card worth the same as it on every layout."""
    values: tuple[CardValue, ...]
    """Every legal card, in the order given."""
    share: float
    """The share of layouts where the best group is best."""
    margin: float
    """The best group's average minus the best average of the other cards (inf when every card is in the group)."""
    well_posed: bool
    certain: bool


def judge(cards: Sequence[str], counted: Mapping[tuple[float, ...], int], margin: float, exhaustive: bool) -> Verdict:
    """The well-posedness test (this module's text) of one decision among the legal ``cards``: ``counted`` holds, for
    each vector of values the layouts gave (the value of each of ``cards`` in order), how many layouts gave it;
    ``margin`` is the game's threshold; ``exhaustive`` whether those layouts are every consistent one."""
    count = sum(counted.values())
    indexes = range(len(cards))
    means = [sum(values[i] * times for values, times in counted.items()) / count for i in indexes]
    top = max(indexes, key=lambda i: (means[i], -i))
    group = [i for i in indexes if all(values[i] == values[top] for values in counted)]
    best_counts = [0] * len(cards)
    for values, times in counted.items():
        highest = max(values)
        for i in indexes:
            if values[i] == highest:
                best_counts[i] += times
    others = [means[i] for i in indexes if i not in group]
    lead = means[top] - max(others) if others else float("inf")
    share = best_counts[top] / count
    enough = exhaustive or count >= MIN_LAYOUTS
    well_posed = enough and bool(others) and share >= BEST_SHARE and lead >= margin
    return Verdict(
        best=tuple(cards[i] for i in group),
        values=tuple(CardValue(cards[i], round(means[i], 4), round(best_counts[i] / count, 4)) for i in indexes),
        share=share,
        margin=lead,
        well_posed=well_posed,
        certain=well_posed and exhaustive and best_counts[top] == count,
    )


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A mined puzzle: the seat's view at the decision, and (secret until answered) its source and solution."""

    game: str
    """The registry id of the game (``GameKind.id``)."""
    options: Mapping[str, int | str]
    """The source game's table options."""
    seed: str
    moves: tuple[str, ...]
    """The source game's moves before the decision (as records write them): ``couyon verify`` replays them."""
    seat: str
    """The deciding seat, as records write it."""
    view: Json
    """What the seat saw then: the entry's ``view_json`` of the position (its hand, the public history)."""
    played: str
    """The card the source game's player chose there (lost clearly against the best)."""
    best: tuple[str, ...]
    values: tuple[CardValue, ...]
    """Every legal card with its average value (in ``unit``) and its share of layouts where it is best."""
    unit: str
    """The values' unit, e.g. ``lines`` (chalk lines for the seat's team)."""
    layouts: int
    """How many layouts were solved."""
    exhaustive: bool
    """Whether those are every layout that agrees with the view (else drawn by the bots' sampler)."""
    certain: bool
    share: float
    margin: float
    themes: tuple[str, ...]
    failures: Mapping[str, Json] = field(default_factory=dict)
    """For each card not among the best: one consistent layout (each other seat's hand) where it does worse than
    the best card, the best card being best there."""

    @property
    def id(self) -> str:
        """A stable id from the source game and the decision: mining the same game again finds the same ids."""
        text = f"{self.game}\x00{self.seed}\x00{len(self.moves)}\x00{sorted(self.options.items())}"
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def question_json(self) -> Json:
        """What may be sent before the answer: the puzzle's id, game and the seat's view only (the themes wait for the
        answer: ``keep-trump`` or ``lead-trump`` would say which cards are best)."""
        return {"id": self.id, "game": self.game, "seat": self.seat, "view": self.view}

    def to_json(self) -> Json:
        return {
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "moves": list(self.moves),
            "seat": self.seat,
            "view": self.view,
            "played": self.played,
            "best": list(self.best),
            "values": [value.to_json() for value in self.values],
            "unit": self.unit,
            "layouts": self.layouts,
            "exhaustive": self.exhaustive,
            "certain": self.certain,
            "share": self.share,
            "margin": self.margin,
            "themes": list(self.themes),
            "failures": dict(self.failures),
        }

    @staticmethod
    def from_json(data: Json) -> Puzzle:
        return Puzzle(
            game=data["game"],
            options=data["options"],
            seed=data["seed"],
            moves=tuple(data["moves"]),
            seat=data["seat"],
            view=data["view"],
            played=data["played"],
            best=tuple(data["best"]),
            values=tuple(CardValue(**value) for value in data["values"]),
            unit=data["unit"],
            layouts=data["layouts"],
            exhaustive=data["exhaustive"],
            certain=data["certain"],
            share=data["share"],
            margin=data["margin"],
            themes=tuple(data["themes"]),
            failures=data["failures"],
        )


@dataclass(frozen=True, slots=True)
class MinedGame:
    """What mining one seeded game found: its accepted puzzles and how many decisions led to them."""

    puzzles: tuple[Puzzle, ...]
    decisions: int
    """Card decisions with a choice (more than one legal card) examined."""
    candidates: int
    """Those where the card played lost clearly against the best one (then judged in full)."""


class PuzzleMiner(Protocol):
    """One game's puzzles: ``GameKind.puzzles``."""

    unit: str
    """The unit of the values, e.g. ``lines``."""
    margin: float
    """The least average lead of the best card over the second, in ``unit``."""
    themes: Mapping[str, str]
    """Every theme this game tags, with the rule that tags it (one sentence)."""

    def mine(self, seed: str) -> MinedGame:
        """Play the seeded bot game ``seed`` through and keep its well-posed decisions (deterministic: the same seed
        gives the same puzzles)."""
        ...

    def hidden_cards(self, puzzle: Puzzle) -> frozenset[str]:
        """The cards the puzzle's seat could not see at the decision (replayed from the source game): none of them may
        be in ``puzzle.view``."""
        ...


def seeds(base: str, start: int, count: int) -> Iterator[str]:
    """The seeds of the mined bot games: ``base:i`` for i from ``start``."""
    for index in range(start, start + count):
        yield f"{base}:{index}"
