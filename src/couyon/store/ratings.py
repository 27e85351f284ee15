"""Ratings of play with people (issue 35, migration 0015): the games rated in their order, each person's rating
per game, and each rated game's new ratings (the curves over time).

``rating_games`` lists the finished games the ratings count, numbered in the order they were rated: its unique
number is what orders two updates racing in two processes (the second to insert a number fails and rates again,
after the first), and what ``couyon ratings rebuild`` replays. ``ratings`` and ``rating_points`` are derived:
the rebuild deletes and recomputes them from the stored games. All go with their game (``ON DELETE CASCADE``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from sqlalchemy import Column, DateTime, Float, ForeignKey, Index, Integer, String, Table, delete, func, insert, select
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from couyon.server.ratings.model import NEW, Rating
from couyon.store.schema import metadata, players
from couyon.store.store import Store

rating_games = Table(
    "rating_games",
    metadata,
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
    Column("game", String(32), nullable=False),
    # Who played it (``model.people_key``): the anti-farming rule counts the earlier games among the same people.
    Column("people", String(32), nullable=False),
    Column("rated_at", DateTime, nullable=False),
    Index("ix_rating_games_people", "game", "people", "rated_at"),
)

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(64), primary_key=True),
    Column("game", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Float, nullable=False),
    Column("games", Float, nullable=False),
    Index("ix_ratings_board", "game", "shown"),
)

rating_points = Table(
    "rating_points",
    metadata,
    Column("number", Integer, ForeignKey("rating_games.number", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("shown", Float, nullable=False),
    Column("games", Float, nullable=False),
    Index("ix_rating_points_player_id", "player_id"),
)


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One row of ``rating_games``."""

    number: int
    game_id: str
    game: str
    people: str
    rated_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Point:
    """A person's rating in a game just after one rated game."""

    number: int
    game: str
    rated_at: dt.datetime
    rating: Rating


Update = Callable[[Mapping[str, Rating], int], dict[str, Rating]]
"""Given the people's ratings before a game and how many games of it were rated among the same people in the
anti-farming window before it, their ratings after it."""


def _rating(row: object) -> Rating:
    return Rating(row.mu, row.sigma, row.shown, row.games)  # type: ignore[attr-defined]


def _values(rating: Rating) -> dict[str, float]:
    return {"mu": rating.mu, "sigma": rating.sigma, "shown": rating.shown, "games": rating.games}


class RatingStore:
    """The reads and writes of ratings over a ``Store`` (the same database, the same write lock)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def rate(
        self,
        game_id: str,
        game: str,
        people: str,
        player_ids: Iterable[str],
        at: dt.datetime,
        window: dt.timedelta,
        compute: Update,
    ) -> bool:
        """Rate one finished game once, in one transaction; False if it was rated already."""
        wanted = sorted(set(player_ids))
        while True:
            try:
                with self.store._write() as connection:
                    if connection.execute(
                        select(rating_games.c.number).where(rating_games.c.game_id == game_id)
                    ).first():
                        return False
                    number = (connection.execute(select(func.max(rating_games.c.number))).scalar() or 0) + 1
                    earlier = _earlier(connection, game, people, at, window)
                    before = self._current(connection, game, wanted)
                    row = RatedGame(number, game_id, game, people, at)
                    self._write_rated(connection, row, compute(before, earlier))
                return True
            except IntegrityError:
                continue  # Another process rated a game with this number first: rate this one after it.

    def _current(self, connection: Connection, game: str, player_ids: list[str]) -> dict[str, Rating]:
        rows = connection.execute(
            select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(player_ids))
        ).all()
        found = {row.player_id: _rating(row) for row in rows}
        return {player_id: found.get(player_id, NEW) for player_id in player_ids}

    def _write_rated(self, connection: Connection, row: RatedGame, after: Mapping[str, Rating]) -> None:
        connection.execute(
            insert(rating_games).values(
                number=row.number, game_id=row.game_id, game=row.game, people=row.people, rated_at=row.rated_at
            )
        )
        if not after:
            return
        connection.execute(
            insert(rating_points),
            [{"number": row.number, "player_id": player_id, **_values(rating)} for player_id, rating in after.items()],
        )
        connection.execute(delete(ratings).where(ratings.c.game == row.game, ratings.c.player_id.in_(list(after))))
        connection.execute(
            insert(ratings),
            [{"player_id": player_id, "game": row.game, **_values(rating)} for player_id, rating in after.items()],
        )

    def rated_games(self) -> list[RatedGame]:
        """Every rated game, in the order it was rated."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(select(rating_games).order_by(rating_games.c.number)).all()
        return [RatedGame(row.number, row.game_id, row.game, row.people, row.rated_at) for row in rows]

    def replace(self, computed: list[tuple[RatedGame, dict[str, Rating]]]) -> None:
        """Write what a rebuild computed in place of every derived row, in one transaction: each table in one
        statement, and of ``ratings`` only each person's last (what writing the games one by one leaves)."""
        latest: dict[tuple[str, str], Rating] = {}
        for row, after in computed:
            latest.update({(player_id, row.game): rating for player_id, rating in after.items()})
        with self.store._write() as connection:
            connection.execute(delete(rating_points))
            connection.execute(delete(ratings))
            connection.execute(delete(rating_games))
            written = [
                (
                    rating_games,
                    [
                        {
                            "number": row.number,
                            "game_id": row.game_id,
                            "game": row.game,
                            "people": row.people,
                            "rated_at": row.rated_at,
                        }
                        for row, _after in computed
                    ],
                ),
                (
                    rating_points,
                    [
                        {"number": row.number, "player_id": player_id, **_values(rating)}
                        for row, after in computed
                        for player_id, rating in after.items()
                    ],
                ),
                (
                    ratings,
                    [
                        {"player_id": player_id, "game": game, **_values(rating)}
                        for (player_id, game), rating in latest.items()
                    ],
                ),
            ]
            for table, rows in written:
                if rows:
                    connection.execute(insert(table), rows)

    def ratings_of(self, player_id: str) -> dict[str, Rating]:
        """The person's rating in each game he was rated in."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(select(ratings).where(ratings.c.player_id == player_id)).all()
        return {row.game: _rating(row) for row in rows}

    def points_of(self, player_id: str) -> list[Point]:
        """The person's rating after each game that rated him, oldest first."""
        query = (
            select(rating_points, rating_games.c.game, rating_games.c.rated_at)
            .join(rating_games, rating_games.c.number == rating_points.c.number)
            .where(rating_points.c.player_id == player_id)
            .order_by(rating_points.c.number)
        )
        with self.store.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [Point(row.number, row.game, row.rated_at, _rating(row)) for row in rows]

    def everything(self) -> tuple[dict[tuple[str, str], Rating], dict[tuple[int, str], Rating]]:
        """Every rating and every point, as stored (the rebuild's test compares them)."""
        with self.store.engine.connect() as connection:
            current = {(row.player_id, row.game): _rating(row) for row in connection.execute(select(ratings))}
            points = {(row.number, row.player_id): _rating(row) for row in connection.execute(select(rating_points))}
        return current, points

    def board(self, game: str, least_games: float, limit: int) -> list[tuple[str, str | None, Rating]]:
        """The highest shown ratings of a game among people rated by at least ``least_games``: id, name, rating."""
        query = (
            select(ratings, players.c.name)
            .join(players, players.c.id == ratings.c.player_id, isouter=True)
            .where(ratings.c.game == game, ratings.c.games >= least_games)
            .order_by(ratings.c.shown.desc(), ratings.c.player_id)
            .limit(limit)
        )
        with self.store.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [(row.player_id, row.name, _rating(row)) for row in rows]

    def of_people(self, game: str, player_ids: list[str]) -> dict[str, Rating]:
        """The ratings in ``game`` of those of these people who have one."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(ratings).where(ratings.c.game == game, ratings.c.player_id.in_(player_ids))
            ).all()
        return {row.player_id: _rating(row) for row in rows}


def _earlier(connection: Connection, game: str, people: str, at: dt.datetime, window: dt.timedelta) -> int:
    """How many games of ``game`` among these people were rated in the window before ``at``."""
    count = connection.execute(
        select(func.count()).where(
            rating_games.c.game == game, rating_games.c.people == people, rating_games.c.rated_at > at - window
        )
    ).scalar()
    return int(count or 0)
