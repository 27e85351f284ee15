"""Clubs, their members and tournaments, and friends' challenges: the tables of migration 0013 and their reads and writes.

A club is a name, a short join code and a longer link secret; its members hold a role (``creator``,
``manager``, ``member``). A tournament is a club's: a game and its options, a number of games
(``count``), an opening and a closing time, and whether it repeats weekly (a ``series`` of tournaments
one week apart). Its seeds are never stored: the server derives them from its secret and the
tournament's id, so nothing in the database tells a deal before the server publishes it. Each
entrant's games are rows of ``games`` like any other (mode ``club``); ``tournament_entries`` ties
them to their tournament, one per player and game number: the primary key is what gives a second
device of the same player no second try. A challenge ties a finished game to the games of the friends
who take it up (mode ``duel``). Players are referred to by id without a foreign key, as
``daily_attempts`` does: the retention rule's player deletion never waits on a club.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from couyon.store.schema import games, leaderboard_entries, metadata, players
from couyon.store.store import LeaderboardEntry, Store, StoredGame

ROLES = ("creator", "manager", "member")

clubs = Table(
    "clubs",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("name", String(24), nullable=False),
    # The short code members type (unambiguous letters and digits), and the secret of the club's link.
    Column("code", String(16), nullable=False, unique=True),
    Column("link", String(32), nullable=False, unique=True),
    Column("created_at", DateTime, nullable=False),
)

club_members = Table(
    "club_members",
    metadata,
    Column("club_id", String(24), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Column("role", String(8), nullable=False),
    Column("joined_at", DateTime, nullable=False),
    Index("ix_club_members_player_id", "player_id"),
)

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("club_id", String(24), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("name", String(24), nullable=False),
    Column("game", String(32), nullable=False),
    # Canonical JSON of the table options, as ``games.options``.
    Column("options", String(128), nullable=False, server_default=""),
    Column("count", Integer, nullable=False),
    Column("opens_at", DateTime, nullable=False),
    Column("closes_at", DateTime, nullable=False),
    Column("weekly", Boolean, nullable=False),
    # The first tournament of a weekly series (its own id when it is the first): one tournament per series and week.
    Column("series_id", String(24), nullable=False),
    Column("created_at", DateTime, nullable=False),
    UniqueConstraint("series_id", "opens_at", name="uq_tournaments_series_week"),
)

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", String(24), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Column("number", Integer, primary_key=True, autoincrement=False),
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
    # The verified game's deal lines (``GameKind.deal_results``) as JSON, written once it is verified: the
    # standings read them instead of folding every entrant's game again.
    Column("lines", Text, nullable=True),
)

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(24), primary_key=True),
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", String(64), nullable=False),
    Column("created_at", DateTime, nullable=False),
)

challenge_games = Table(
    "challenge_games",
    metadata,
    Column("challenge_id", String(24), ForeignKey("challenges.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(64), primary_key=True),
    Column("game_id", String(40), ForeignKey("games.id", ondelete="CASCADE"), nullable=False, unique=True),
)


@dataclass(frozen=True, slots=True)
class Club:
    id: str
    name: str
    code: str
    link: str
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Member:
    player_id: str
    role: str
    name: str | None
    joined_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Tournament:
    id: str
    club_id: str
    name: str
    game: str
    options: str
    count: int
    opens_at: dt.datetime
    closes_at: dt.datetime
    weekly: bool
    series_id: str
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class Challenge:
    id: str
    game_id: str
    player_id: str
    created_at: dt.datetime


class AlreadyMember(Exception):
    """The player is already a member of that club."""


class _Undone(Exception):
    """Raised inside a write transaction to roll back what it did so far."""


def _give_role(connection: Connection, club_id: str, player_id: str, role: str, *, creator_now: bool) -> bool:
    """Give ``role`` to the club's member if he is (``creator_now``) or is not its creator now; whether he was."""
    held = club_members.c.role == "creator" if creator_now else club_members.c.role != "creator"
    changed = connection.execute(
        update(club_members)
        .where(club_members.c.club_id == club_id, club_members.c.player_id == player_id, held)
        .values(role=role)
    ).rowcount
    return bool(changed)


class ClubStore:
    """The reads and writes of clubs, tournaments and challenges over a ``Store`` (its engine and write lock)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _read(self, query: Any) -> list[Any]:
        with self.store.engine.connect() as connection:
            return list(connection.execute(query))

    # -- clubs and members --------------------------------------------------------------------

    def create_club(self, club: Club, creator_id: str) -> None:
        """Store a club with its creator as its first member; ``IntegrityError`` if its code or link is taken."""
        with self.store._write() as connection:
            self.store._ensure_player(connection, creator_id, club.created_at)
            connection.execute(insert(clubs).values(**_fields(club)))
            connection.execute(
                insert(club_members).values(
                    club_id=club.id, player_id=creator_id, role="creator", joined_at=club.created_at
                )
            )

    def club(self, club_id: str) -> Club | None:
        rows = self._read(select(clubs).where(clubs.c.id == club_id))
        return Club(**rows[0]._asdict()) if rows else None

    def club_by_code(self, code: str) -> Club | None:
        """The club whose join code or link secret this is."""
        rows = self._read(select(clubs).where((clubs.c.code == code) | (clubs.c.link == code)))
        return Club(**rows[0]._asdict()) if rows else None

    def clubs_of(self, player_id: str) -> list[tuple[Club, str]]:
        """The player's clubs with his role in each, oldest membership first."""
        query = (
            select(clubs, club_members.c.role)
            .join(club_members, club_members.c.club_id == clubs.c.id)
            .where(club_members.c.player_id == player_id)
            .order_by(club_members.c.joined_at, clubs.c.id)
        )
        found = []
        for row in self._read(query):
            fields = row._asdict()
            role = fields.pop("role")
            found.append((Club(**fields), str(role)))
        return found

    def members(self, club_id: str) -> list[Member]:
        """The club's members with their current names, creator first, then managers, then by joining."""
        query = (
            select(club_members.c.player_id, club_members.c.role, players.c.name, club_members.c.joined_at)
            .select_from(club_members.outerjoin(players, players.c.id == club_members.c.player_id))
            .where(club_members.c.club_id == club_id)
            .order_by(club_members.c.joined_at, club_members.c.player_id)
        )
        members = [Member(**row._asdict()) for row in self._read(query)]
        return sorted(members, key=lambda member: ROLES.index(member.role))

    def role(self, club_id: str, player_id: str) -> str | None:
        rows = self._read(
            select(club_members.c.role).where(club_members.c.club_id == club_id, club_members.c.player_id == player_id)
        )
        return str(rows[0].role) if rows else None

    def join(self, club_id: str, player_id: str, now: dt.datetime) -> None:
        """Add a member; ``AlreadyMember`` if he is one (nothing is written then)."""
        try:
            with self.store._write() as connection:
                self.store._ensure_player(connection, player_id, now)
                connection.execute(
                    insert(club_members).values(club_id=club_id, player_id=player_id, role="member", joined_at=now)
                )
        except IntegrityError:
            raise AlreadyMember(player_id) from None

    def rename(self, club_id: str, name: str) -> None:
        with self.store._write() as connection:
            connection.execute(update(clubs).where(clubs.c.id == club_id).values(name=name))

    def remove_member(self, club_id: str, player_id: str) -> bool:
        """Remove a member who is not the creator; whether one was removed."""
        with self.store._write() as connection:
            removed = connection.execute(
                delete(club_members).where(
                    club_members.c.club_id == club_id,
                    club_members.c.player_id == player_id,
                    club_members.c.role != "creator",
                )
            ).rowcount
        return bool(removed)

    def set_role(self, club_id: str, player_id: str, role: str) -> bool:
        """Make a member (not the creator) a manager or a member again; whether he was one to change."""
        assert role in ("manager", "member")
        with self.store._write() as connection:
            return _give_role(connection, club_id, player_id, role, creator_now=False)

    def hand_over(self, club_id: str, creator_id: str, heir_id: str) -> bool:
        """The creator's role goes to another member and he stays a manager, in one transaction; False, and nothing
        changed, when ``creator_id`` is no longer the creator (another hand-over came first: the demotion waits for
        it and then finds no creator's row) or the heir is no longer a member."""
        try:
            with self.store._write() as connection:
                if not _give_role(connection, club_id, creator_id, "manager", creator_now=True):
                    return False
                if not _give_role(connection, club_id, heir_id, "creator", creator_now=False):
                    raise _Undone
        except _Undone:
            return False
        return True

    def daily_entries(self, club_id: str, game: str, first: dt.date, last: dt.date) -> list[LeaderboardEntry]:
        """The verified daily entries of the club's members in ``game`` from ``first`` to ``last``."""
        table = leaderboard_entries
        members = select(club_members.c.player_id).where(club_members.c.club_id == club_id)
        query = (
            select(table)
            .where(
                table.c.game == game,
                table.c.board == "daily",
                table.c.day >= first,
                table.c.day <= last,
                table.c.player_id.in_(members),
            )
            .order_by(table.c.day, table.c.score.desc())
        )
        return [LeaderboardEntry(**row._asdict()) for row in self._read(query)]

    # -- tournaments --------------------------------------------------------------------------

    def add_tournament(self, tournament: Tournament) -> bool:
        """Store a tournament; False if its series already has one opening then (a weekly one made by another)."""
        try:
            with self.store._write() as connection:
                connection.execute(insert(tournaments).values(**_fields(tournament)))
        except IntegrityError:
            return False
        return True

    def tournament(self, tournament_id: str) -> Tournament | None:
        rows = self._read(select(tournaments).where(tournaments.c.id == tournament_id))
        return Tournament(**rows[0]._asdict()) if rows else None

    def tournaments_of(self, club_id: str) -> list[Tournament]:
        """The club's tournaments, the latest opening first."""
        query = (
            select(tournaments)
            .where(tournaments.c.club_id == club_id)
            .order_by(tournaments.c.opens_at.desc(), tournaments.c.id)
        )
        return [Tournament(**row._asdict()) for row in self._read(query)]

    def closed_tournaments_of(self, player_id: str, now: dt.datetime) -> list[Tournament]:
        """The tournaments the player entered that closed before ``now``, the latest closing first."""
        entered = select(tournament_entries.c.tournament_id).where(tournament_entries.c.player_id == player_id)
        query = (
            select(tournaments)
            .where(tournaments.c.id.in_(entered), tournaments.c.closes_at <= now)
            .order_by(tournaments.c.closes_at.desc(), tournaments.c.id)
        )
        return [Tournament(**row._asdict()) for row in self._read(query)]

    def entry_game(self, tournament_id: str, player_id: str, number: int) -> str | None:
        rows = self._read(
            select(tournament_entries.c.game_id).where(
                tournament_entries.c.tournament_id == tournament_id,
                tournament_entries.c.player_id == player_id,
                tournament_entries.c.number == number,
            )
        )
        return str(rows[0].game_id) if rows else None

    def tournament_of_game(self, game_id: str) -> Tournament | None:
        query = (
            select(tournaments)
            .join(tournament_entries, tournament_entries.c.tournament_id == tournaments.c.id)
            .where(tournament_entries.c.game_id == game_id)
        )
        rows = self._read(query)
        return Tournament(**rows[0]._asdict()) if rows else None

    def create_entry(self, tournament_id: str, number: int, game: StoredGame, first_moves: list[str]) -> str:
        """Store ``game`` as the player's game ``number`` of the tournament, or return the one already there."""
        try:
            with self.store._write() as connection:
                existing = connection.execute(
                    select(tournament_entries.c.game_id).where(
                        tournament_entries.c.tournament_id == tournament_id,
                        tournament_entries.c.player_id == game.player_id,
                        tournament_entries.c.number == number,
                    )
                ).scalar_one_or_none()
                if existing is not None:
                    return str(existing)
                self.store._insert_game(connection, game, first_moves)
                connection.execute(
                    insert(tournament_entries).values(
                        tournament_id=tournament_id, player_id=game.player_id, number=number, game_id=game.id
                    )
                )
                return game.id
        except IntegrityError:
            # Two devices of the player raced (PostgreSQL): the other one's game is the one.
            found = self.entry_game(tournament_id, game.player_id, number)
            if found is None:
                raise
            return found

    def set_lines(self, game_id: str, lines: str) -> None:
        """Keep a verified tournament game's deal lines (JSON)."""
        with self.store._write() as connection:
            connection.execute(
                update(tournament_entries).where(tournament_entries.c.game_id == game_id).values(lines=lines)
            )

    def lines(self, game_ids: list[str]) -> dict[str, str]:
        """The kept deal lines of these games (those that have some)."""
        if not game_ids:
            return {}
        query = select(tournament_entries.c.game_id, tournament_entries.c.lines).where(
            tournament_entries.c.game_id.in_(game_ids), tournament_entries.c.lines.is_not(None)
        )
        return {str(row.game_id): str(row.lines) for row in self._read(query)}

    def entries(
        self, tournament_ids: list[str], player_id: str | None = None
    ) -> list[tuple[str, str, int, str, LeaderboardEntry | None]]:
        """Every entry of these tournaments (of one player if named): (tournament, player, number, game id, its
        verified entry or None)."""
        if not tournament_ids:
            return []
        query = (
            select(
                tournament_entries.c.tournament_id,
                tournament_entries.c.player_id,
                tournament_entries.c.number,
                tournament_entries.c.game_id,
                leaderboard_entries,
            )
            .select_from(
                tournament_entries.outerjoin(
                    leaderboard_entries, leaderboard_entries.c.game_id == tournament_entries.c.game_id
                )
            )
            .where(
                tournament_entries.c.tournament_id.in_(tournament_ids),
                *([] if player_id is None else [tournament_entries.c.player_id == player_id]),
            )
            .order_by(tournament_entries.c.tournament_id, tournament_entries.c.player_id, tournament_entries.c.number)
        )
        found = []
        for row in self._read(query):
            values = row._mapping
            entry = None
            if values[leaderboard_entries.c.game_id] is not None:
                entry = LeaderboardEntry(**{column.name: values[column] for column in leaderboard_entries.c})
            found.append(
                (
                    str(values[tournament_entries.c.tournament_id]),
                    str(values[tournament_entries.c.player_id]),
                    int(values[tournament_entries.c.number]),
                    str(values[tournament_entries.c.game_id]),
                    entry,
                )
            )
        return found

    def entries_state(self, tournament_id: str) -> tuple[int, int, int]:
        """What changes when one of the tournament's entries does: its entries, its verified ones, their scores'
        sum (a verified score never changes, and an entry goes only with its game)."""
        query = (
            select(
                func.count(tournament_entries.c.game_id),
                func.count(leaderboard_entries.c.game_id),
                func.coalesce(func.sum(leaderboard_entries.c.score), 0),
            )
            .select_from(
                tournament_entries.outerjoin(
                    leaderboard_entries, leaderboard_entries.c.game_id == tournament_entries.c.game_id
                )
            )
            .where(tournament_entries.c.tournament_id == tournament_id)
        )
        entries, verified, total = self._read(query)[0]
        return int(entries), int(verified), int(total)

    def entrant_names(self, tournament_id: str) -> dict[str, str | None]:
        """The names of the tournament's entrants, by player."""
        entrants = select(tournament_entries.c.player_id).where(tournament_entries.c.tournament_id == tournament_id)
        rows = self._read(select(players.c.id, players.c.name).where(players.c.id.in_(entrants)))
        return {str(row.id): row.name for row in rows}

    def names(self, player_ids: list[str]) -> dict[str, str | None]:
        if not player_ids:
            return {}
        rows = self._read(select(players.c.id, players.c.name).where(players.c.id.in_(player_ids)))
        return {str(row.id): row.name for row in rows}

    # -- challenges ---------------------------------------------------------------------------

    def create_challenge(self, challenge: Challenge) -> Challenge:
        """Store ``challenge`` unless its game has one already (two tabs asking at once): the one that stands. The
        game's row is locked first, so two such writes on PostgreSQL run one after the other, as SQLite's do."""
        with self.store._write() as connection:
            connection.execute(select(games.c.id).where(games.c.id == challenge.game_id).with_for_update())
            standing = connection.execute(select(challenges).where(challenges.c.game_id == challenge.game_id)).all()
            if standing:
                return Challenge(**standing[0]._asdict())
            connection.execute(insert(challenges).values(**_fields(challenge)))
        return challenge

    def challenge(self, challenge_id: str) -> Challenge | None:
        rows = self._read(select(challenges).where(challenges.c.id == challenge_id))
        return Challenge(**rows[0]._asdict()) if rows else None

    def challenge_of_game(self, game_id: str) -> Challenge | None:
        """The challenge a game was sent as, or taken up in."""
        taken = select(challenge_games.c.challenge_id).where(challenge_games.c.game_id == game_id)
        rows = self._read(select(challenges).where((challenges.c.game_id == game_id) | challenges.c.id.in_(taken)))
        return Challenge(**rows[0]._asdict()) if rows else None

    def challenge_games(self, challenge_id: str) -> list[tuple[str, str]]:
        """The (player, game id) of the friends who took up the challenge, first taker first."""
        rows = self._read(
            select(challenge_games.c.player_id, challenge_games.c.game_id)
            .where(challenge_games.c.challenge_id == challenge_id)
            .order_by(challenge_games.c.game_id)
        )
        return [(str(row.player_id), str(row.game_id)) for row in rows]

    def take_challenge(self, challenge_id: str, game: StoredGame, first_moves: list[str]) -> str:
        """Store ``game`` as the player's game of the challenge, or return the one already there."""
        query = select(challenge_games.c.game_id).where(
            and_(challenge_games.c.challenge_id == challenge_id, challenge_games.c.player_id == game.player_id)
        )
        try:
            with self.store._write() as connection:
                existing = connection.execute(query).scalar_one_or_none()
                if existing is not None:
                    return str(existing)
                self.store._insert_game(connection, game, first_moves)
                connection.execute(
                    insert(challenge_games).values(challenge_id=challenge_id, player_id=game.player_id, game_id=game.id)
                )
                return game.id
        except IntegrityError:
            rows = self._read(query)
            if not rows:
                raise
            return str(rows[0].game_id)


def _fields(row: Any) -> dict[str, Any]:
    return {name: getattr(row, name) for name in row.__slots__}
