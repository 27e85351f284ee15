"""Puzzles (issue 34, migration 0016, docs/puzzles.md): the mined puzzles and their source games, each player's puzzle
rating per game, his answers and his rating after each, and the puzzle of each day.

``puzzle_sources`` names every source game mined, with what it gave: a game is mined once (its key), so a second
``couyon puzzles mine`` continues where the first stopped and never stores a puzzle twice. ``puzzle_attempts`` holds
one answer per player and puzzle (its primary key): of two racing answers to one puzzle the second fails and
changes nothing. Each answer of a player in a game has the next ``number`` (unique too), so two answers of one
player to two puzzles at once are rated one after the other, the second from the first's result.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import (
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from couyon.common.puzzles import MinedGame, Puzzle
from couyon.server.puzzles.glicko2 import NEW, Glicko
from couyon.store.schema import metadata
from couyon.store.store import Store

puzzle_sources = Table(
    "puzzle_sources",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("seed", String(200), primary_key=True),
    Column("decisions", Integer, nullable=False),
    Column("candidates", Integer, nullable=False),
    Column("puzzles", Integer, nullable=False),
)

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", String(20), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("seed", String(200), nullable=False),
    Column("certain", Boolean, nullable=False),
    Column("themes", String(200), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("answers", Integer, nullable=False),
    Column("body", Text, nullable=False),
    ForeignKeyConstraint(
        ["game", "seed"], ["puzzle_sources.game", "puzzle_sources.seed"], name="fk_puzzles_source", ondelete="CASCADE"
    ),
    Index("ix_puzzles_game_rating", "game", "rating"),
)

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("answers", Integer, nullable=False),
)

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("puzzle_id", String(20), ForeignKey("puzzles.id", ondelete="CASCADE"), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("number", Integer, nullable=False),
    Column("card", String(8), nullable=False),
    Column("correct", Boolean, nullable=False),
    Column("daily", Date, nullable=True),
    Column("answered_at", DateTime, nullable=False),
    UniqueConstraint("player_id", "game", "number", name="uq_puzzle_attempts_number"),
)

puzzle_rating_points = Table(
    "puzzle_rating_points",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("puzzle_id", String(20), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("answered_at", DateTime, nullable=False),
    ForeignKeyConstraint(
        ["player_id", "puzzle_id"],
        ["puzzle_attempts.player_id", "puzzle_attempts.puzzle_id"],
        name="fk_puzzle_rating_points_attempt",
        ondelete="CASCADE",
    ),
)

puzzle_dailies = Table(
    "puzzle_dailies",
    metadata,
    Column("game", String(32), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("puzzle_id", String(20), ForeignKey("puzzles.id", ondelete="CASCADE"), nullable=False),
)


@dataclass(frozen=True, slots=True)
class StoredPuzzle:
    """A puzzle with its current rating and how many first answers rated it."""

    puzzle: Puzzle
    rating: Glicko
    answers: int


@dataclass(frozen=True, slots=True)
class Attempt:
    """A player's answer to a puzzle, and his rating after it."""

    puzzle_id: str
    game: str
    number: int
    card: str
    correct: bool
    daily: dt.date | None
    answered_at: dt.datetime
    rating: Glicko


@dataclass(frozen=True, slots=True)
class MiningTotals:
    """What the mined source games of one game gave, summed."""

    games: int
    decisions: int
    candidates: int
    puzzles: int


Rate = Callable[[Glicko, Glicko], tuple[Glicko, Glicko]]
"""The player's and the puzzle's ratings after an answer, from theirs before it."""


def _glicko(row: object) -> Glicko:
    return Glicko(row.rating, row.deviation, row.volatility)  # type: ignore[attr-defined]


def _values(rating: Glicko) -> dict[str, float]:
    return {"rating": rating.rating, "deviation": rating.deviation, "volatility": rating.volatility}


def _stored(row: object) -> StoredPuzzle:
    return StoredPuzzle(Puzzle.from_json(json.loads(row.body)), _glicko(row), row.answers)  # type: ignore[attr-defined]


class PuzzleStore:
    """The reads and writes of puzzles over a ``Store`` (the same database, the same write lock)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- mining

    def add_mined(self, game: str, seed: str, mined: MinedGame) -> bool:
        """Keep one mined source game and its puzzles, in one transaction; False if it was mined already."""
        try:
            with self.store._write() as connection:
                connection.execute(
                    insert(puzzle_sources).values(
                        game=game,
                        seed=seed,
                        decisions=mined.decisions,
                        candidates=mined.candidates,
                        puzzles=len(mined.puzzles),
                    )
                )
                if mined.puzzles:
                    connection.execute(insert(puzzles), [_puzzle_row(game, seed, puzzle) for puzzle in mined.puzzles])
        except IntegrityError:
            return False
        return True

    def mined_seeds(self, game: str, seeds: Iterable[str]) -> set[str]:
        """Those of ``seeds`` already mined for ``game``."""
        wanted = list(seeds)
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(puzzle_sources.c.seed).where(puzzle_sources.c.game == game, puzzle_sources.c.seed.in_(wanted))
            ).all()
        return {row.seed for row in rows}

    def totals(self, game: str) -> MiningTotals:
        query = select(
            func.count(),
            func.coalesce(func.sum(puzzle_sources.c.decisions), 0),
            func.coalesce(func.sum(puzzle_sources.c.candidates), 0),
            func.coalesce(func.sum(puzzle_sources.c.puzzles), 0),
        ).where(puzzle_sources.c.game == game)
        with self.store.engine.connect() as connection:
            games, decisions, candidates, found = connection.execute(query).one()
        return MiningTotals(int(games), int(decisions), int(candidates), int(found))

    # --- reading puzzles

    def puzzle(self, puzzle_id: str) -> StoredPuzzle | None:
        with self.store.engine.connect() as connection:
            row = connection.execute(select(puzzles).where(puzzles.c.id == puzzle_id)).first()
        return None if row is None else _stored(row)

    def next_for(self, player_id: str, game: str, rating: float) -> StoredPuzzle | None:
        """The puzzle of ``game`` rated nearest ``rating`` that the player never answered and that was never a puzzle
        of the day (those are answered as the day's, and never after their day), ties broken by the lowest id."""
        answered = exists().where(puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id == puzzles.c.id)
        daily = exists().where(puzzle_dailies.c.puzzle_id == puzzles.c.id)
        query = (
            select(puzzles)
            .where(puzzles.c.game == game, ~answered, ~daily)
            .order_by(func.abs(puzzles.c.rating - rating), puzzles.c.id)
            .limit(1)
        )
        with self.store.engine.connect() as connection:
            row = connection.execute(query).first()
        return None if row is None else _stored(row)

    def daily(self, game: str, day: dt.date, choose: Callable[[int], int]) -> StoredPuzzle | None:
        """The puzzle of ``day`` in ``game``, the same for everyone: chosen on the day's first request, as the
        ``choose(count)``-th puzzle by id (``count`` the puzzles of the game then), and kept; None without puzzles."""
        key = and_(puzzle_dailies.c.game == game, puzzle_dailies.c.day == day)
        with self.store.engine.connect() as connection:
            kept = connection.execute(select(puzzle_dailies.c.puzzle_id).where(key)).scalar()
        if kept is None:
            with self.store.engine.connect() as connection:
                count = connection.execute(select(func.count()).where(puzzles.c.game == game)).scalar() or 0
                if not count:
                    return None
                chosen = connection.execute(
                    select(puzzles.c.id)
                    .where(puzzles.c.game == game)
                    .order_by(puzzles.c.id)
                    .offset(choose(count))
                    .limit(1)
                ).scalar()
            try:
                with self.store._write() as connection:
                    connection.execute(insert(puzzle_dailies).values(game=game, day=day, puzzle_id=chosen))
            except IntegrityError:
                pass  # Another request chose the day's puzzle first: it holds.
            with self.store.engine.connect() as connection:
                kept = connection.execute(select(puzzle_dailies.c.puzzle_id).where(key)).scalar()
        return self.puzzle(str(kept))

    def daily_day(self, game: str, puzzle_id: str) -> dt.date | None:
        """The last day ``puzzle_id`` was the puzzle of the day in ``game``, if it ever was."""
        with self.store.engine.connect() as connection:
            day = connection.execute(
                select(func.max(puzzle_dailies.c.day)).where(
                    puzzle_dailies.c.game == game, puzzle_dailies.c.puzzle_id == puzzle_id
                )
            ).scalar()
        return day

    # --- ratings and answers

    def rating(self, player_id: str, game: str) -> Glicko:
        """The player's puzzle rating in ``game`` (``NEW`` before his first answer)."""
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(puzzle_ratings).where(puzzle_ratings.c.player_id == player_id, puzzle_ratings.c.game == game)
            ).first()
        return NEW if row is None else _glicko(row)

    def answer(
        self,
        player_id: str,
        puzzle_id: str,
        card: str,
        correct: bool,
        at: dt.datetime,
        daily: dt.date | None,
        rate: Rate,
    ) -> Attempt | None:
        """Record the player's answer and rate it, in one transaction; None if he answered this puzzle already (then
        nothing changes)."""
        while True:
            try:
                with self.store._write() as connection:
                    return self._answer(connection, player_id, puzzle_id, card, correct, at, daily, rate)
            except IntegrityError:
                if self.attempt(player_id, puzzle_id) is not None:
                    return None
                # Another answer of this player took this number first: rate this one after it.

    def _answer(
        self,
        connection: Connection,
        player_id: str,
        puzzle_id: str,
        card: str,
        correct: bool,
        at: dt.datetime,
        daily: dt.date | None,
        rate: Rate,
    ) -> Attempt | None:
        done = puzzle_attempts.c.player_id == player_id
        if connection.execute(
            select(puzzle_attempts.c.number).where(done, puzzle_attempts.c.puzzle_id == puzzle_id)
        ).first():
            return None
        row = connection.execute(select(puzzles).where(puzzles.c.id == puzzle_id).with_for_update()).one()
        game = row.game
        number = (
            connection.execute(
                select(func.max(puzzle_attempts.c.number)).where(done, puzzle_attempts.c.game == game)
            ).scalar()
            or 0
        ) + 1
        connection.execute(
            insert(puzzle_attempts).values(
                player_id=player_id,
                puzzle_id=puzzle_id,
                game=game,
                number=number,
                card=card,
                correct=correct,
                daily=daily,
                answered_at=at,
            )
        )
        mine = and_(puzzle_ratings.c.player_id == player_id, puzzle_ratings.c.game == game)
        before = connection.execute(select(puzzle_ratings).where(mine)).first()
        player_after, puzzle_after = rate(NEW if before is None else _glicko(before), _glicko(row))
        if before is None:
            connection.execute(
                insert(puzzle_ratings).values(player_id=player_id, game=game, answers=1, **_values(player_after))
            )
        else:
            connection.execute(
                update(puzzle_ratings).where(mine).values(answers=before.answers + 1, **_values(player_after))
            )
        connection.execute(
            update(puzzles).where(puzzles.c.id == puzzle_id).values(answers=row.answers + 1, **_values(puzzle_after))
        )
        connection.execute(
            insert(puzzle_rating_points).values(
                player_id=player_id,
                game=game,
                number=number,
                puzzle_id=puzzle_id,
                answered_at=at,
                **_values(player_after),
            )
        )
        return Attempt(puzzle_id, game, number, card, correct, daily, at, player_after)

    def attempt(self, player_id: str, puzzle_id: str) -> Attempt | None:
        """The player's answer to ``puzzle_id``, if he gave one."""
        found = self._attempts(and_(puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.puzzle_id == puzzle_id))
        return found[0] if found else None

    def history(self, player_id: str, game: str) -> list[Attempt]:
        """The player's answers in ``game``, oldest first, each with his rating after it (his rating's curve)."""
        return self._attempts(and_(puzzle_attempts.c.player_id == player_id, puzzle_attempts.c.game == game))

    def _attempts(self, where: object) -> list[Attempt]:
        query = (
            select(
                puzzle_attempts,
                puzzle_rating_points.c.rating,
                puzzle_rating_points.c.deviation,
                puzzle_rating_points.c.volatility,
            )
            .join(
                puzzle_rating_points,
                and_(
                    puzzle_rating_points.c.player_id == puzzle_attempts.c.player_id,
                    puzzle_rating_points.c.puzzle_id == puzzle_attempts.c.puzzle_id,
                ),
            )
            .where(where)  # type: ignore[arg-type]
            .order_by(puzzle_attempts.c.number)
        )
        with self.store.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            Attempt(
                row.puzzle_id, row.game, row.number, row.card, row.correct, row.daily, row.answered_at, _glicko(row)
            )
            for row in rows
        ]


def _puzzle_row(game: str, seed: str, puzzle: Puzzle) -> dict[str, object]:
    return {
        "id": puzzle.id,
        "game": game,
        "seed": seed,
        "certain": puzzle.certain,
        "themes": " ".join(puzzle.themes)[:200],
        "answers": 0,
        "body": json.dumps(puzzle.to_json(), separators=(",", ":")),
        **_values(NEW),
    }
