"""The store of friends' tables (issue 21): tables, their seats, and who held each seat of a table game.

A table's every change is one transaction. The moves of a table game go into ``moves`` like every game's, so the
primary key on (game, move number) refuses the second of two racing moves (two people, two tabs, two processes
that both saw a clock run out), and the table's ``moved_at`` is written in the same transaction: the clock's
deadline is derived from the stored time of the last move, by whichever process looks.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, insert, select, tuple_, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from couyon.store.schema import game_seats, moves, seat_bot_moves, table_seats, tables
from couyon.store.store import StaleMoveError, Store, StoredGame


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A friends' table as stored."""

    code: str
    secret: str
    game: str
    options: str
    clock: int
    host_id: str
    state: str
    """``waiting`` (seats being taken), ``playing``, ``over`` (its game finished; seats may be left and taken, a
    rematch may follow) or ``closed`` (untouched for the retention period: ``Store.prune``)."""
    game_id: str | None
    games_played: int
    results: str
    """The table's own results as JSON (games played, each player's score and wins)."""
    moved_at: dt.datetime | None
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class TableSeat:
    """One seat of a table and who holds it."""

    seat: str
    player_id: str | None
    bot_now: bool
    rematch: bool
    seen_at: dt.datetime | None


class SeatsChanged(Exception):
    """A game was not dealt: a seat was taken or left since the seats were read."""


class SeatRefused(Exception):
    """A seat change the table's state refuses; ``args[0]`` says which (``seat_taken``, ``table_started``...)."""


class TableStore:
    """The reads and writes of friends' tables over a ``Store`` (the same database, the same write lock)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, table: StoredTable, seats: Sequence[str], host_seat: str) -> None:
        """Store a new table with its seats, the host at ``host_seat`` and every other seat free."""
        with self.store._write() as connection:
            self.store._ensure_player(connection, table.host_id, table.created_at)
            connection.execute(
                insert(tables).values(
                    code=table.code,
                    secret=table.secret,
                    game=table.game,
                    options=table.options,
                    clock=table.clock,
                    host_id=table.host_id,
                    state=table.state,
                    game_id=None,
                    games_played=0,
                    results=table.results,
                    moved_at=None,
                    created_at=table.created_at,
                )
            )
            connection.execute(
                insert(table_seats),
                [
                    {
                        "code": table.code,
                        "seat": seat,
                        "player_id": table.host_id if seat == host_seat else None,
                        "bot_now": False,
                        "rematch": False,
                        "seen_at": None,
                    }
                    for seat in seats
                ],
            )

    def table(self, code: str) -> tuple[StoredTable, list[TableSeat]] | None:
        """The table and its seats, or None if there is no table with this code."""
        with self.store.engine.connect() as connection:
            row = connection.execute(select(tables).where(tables.c.code == code)).first()
            if row is None:
                return None
            seats = connection.execute(
                select(
                    table_seats.c.seat,
                    table_seats.c.player_id,
                    table_seats.c.bot_now,
                    table_seats.c.rematch,
                    table_seats.c.seen_at,
                ).where(table_seats.c.code == code)
            ).all()
        return StoredTable(**row._asdict()), [TableSeat(*seat) for seat in seats]

    def take_seat(self, code: str, seat: str, player_id: str) -> None:
        """Seat ``player_id`` at the free ``seat`` of a table before its game or between games, freeing the seat he
        held; ``SeatRefused``."""
        with self.store._write() as connection:
            state = connection.execute(select(tables.c.state).where(tables.c.code == code)).scalar_one_or_none()
            if state == "closed":
                raise SeatRefused("table_closed")
            if state not in ("waiting", "over"):
                raise SeatRefused("table_started")
            holder = connection.execute(
                select(table_seats.c.player_id).where(table_seats.c.code == code, table_seats.c.seat == seat)
            ).first()
            if holder is None:
                raise SeatRefused("no_seat")
            if holder.player_id == player_id:
                return
            if holder.player_id is not None:
                raise SeatRefused("seat_taken")
            connection.execute(
                update(table_seats)
                .where(table_seats.c.code == code, table_seats.c.player_id == player_id)
                .values(player_id=None, rematch=False, bot_now=False)
            )
            done = connection.execute(
                update(table_seats)
                .where(table_seats.c.code == code, table_seats.c.seat == seat, table_seats.c.player_id.is_(None))
                .values(player_id=player_id)
            )
            if done.rowcount != 1:
                raise SeatRefused("seat_taken")

    def leave_seat(self, code: str, player_id: str, heirs: Sequence[str] = ()) -> None:
        """Free the seat ``player_id`` holds at a table before its game or between games (``SeatRefused`` while it
        plays or once closed): the next game's bot holds it, unless a person takes it first. A host who leaves
        hands the table to the first of ``heirs`` (player ids) still seated, so that someone may start it."""
        with self.store._write() as connection:
            row = connection.execute(select(tables.c.state, tables.c.host_id).where(tables.c.code == code)).first()
            if row is not None and row.state == "closed":
                raise SeatRefused("table_closed")
            if row is not None and row.state == "playing":
                raise SeatRefused("table_playing")
            connection.execute(
                update(table_seats)
                .where(table_seats.c.code == code, table_seats.c.player_id == player_id)
                .values(player_id=None, rematch=False, bot_now=False)
            )
            if row is None or row.host_id != player_id or not heirs:
                return
            seated = set(
                connection.execute(
                    select(table_seats.c.player_id).where(
                        table_seats.c.code == code, table_seats.c.player_id.in_(list(heirs))
                    )
                ).scalars()
            )
            heir = next((candidate for candidate in heirs if candidate in seated), None)
            if heir is not None:
                connection.execute(update(tables).where(tables.c.code == code).values(host_id=heir))

    def start_game(
        self,
        code: str,
        previous_game: str | None,
        game: StoredGame,
        first_moves: Sequence[str],
        holders: Mapping[str, str | None],
        bot_numbers: Sequence[int],
        now: dt.datetime,
    ) -> None:
        """Store ``game`` as the table's new game (its seats' holders and the bots' first moves) and start playing.

        Refused (``StaleMoveError``) when the table is already playing or closed, or another game started first;
        ``SeatsChanged`` when the seats' holders are no longer ``holders`` (a person sat or left meanwhile).
        """
        with self.store._write() as connection:
            started = connection.execute(
                update(tables)
                .where(
                    tables.c.code == code,
                    tables.c.state.in_(("waiting", "over")),
                    tables.c.game_id.is_(None) if previous_game is None else tables.c.game_id == previous_game,
                )
                .values(state="playing", game_id=game.id, moved_at=now)
            )
            if started.rowcount != 1:
                raise StaleMoveError(f"table {code} started already")
            seated = connection.execute(
                select(table_seats.c.seat, table_seats.c.player_id).where(table_seats.c.code == code)
            ).all()
            if {row.seat: row.player_id for row in seated} != dict(holders):
                raise SeatsChanged(f"the seats of table {code} changed")  # Rolls the start back.
            self.store._insert_game(connection, game, first_moves)
            connection.execute(
                insert(game_seats),
                [{"game_id": game.id, "seat": seat, "player_id": holder} for seat, holder in holders.items()],
            )
            self._insert_bot_numbers(connection, game.id, bot_numbers)
            connection.execute(update(table_seats).where(table_seats.c.code == code).values(rematch=False))

    @staticmethod
    def _insert_bot_numbers(connection: Connection, game_id: str, numbers: Sequence[int]) -> None:
        if numbers:
            connection.execute(insert(seat_bot_moves), [{"game_id": game_id, "number": n} for n in numbers])

    def append_moves(
        self,
        code: str,
        game_id: str,
        first_number: int,
        new_moves: Sequence[str],
        bot_numbers: Sequence[int],
        now: dt.datetime,
        results: str | None = None,
    ) -> None:
        """Write moves ``first_number`` onward of the table's game, and the time of the last one, in one transaction.

        ``results``: the move ends the game, and these are the table's results after it (the table is then over).
        A move number already written raises ``StaleMoveError``: the game moved on.
        """
        rows = [{"game_id": game_id, "number": first_number + i, "move": move} for i, move in enumerate(new_moves)]
        values: dict[str, object] = {"moved_at": now}
        if results is not None:
            values |= {"state": "over", "results": results, "games_played": tables.c.games_played + 1}
        try:
            with self.store._write() as connection:
                connection.execute(insert(moves), rows)
                self._insert_bot_numbers(connection, game_id, bot_numbers)
                connection.execute(
                    update(tables).where(tables.c.code == code, tables.c.game_id == game_id).values(values)
                )
        except IntegrityError as error:
            raise StaleMoveError(f"move {first_number} of game {game_id} is already written") from error

    def give_to_bot(self, code: str, seat: str) -> None:
        """The bot plays this seat until its person comes back (``seen`` with ``back``)."""
        with self.store._write() as connection:
            connection.execute(
                update(table_seats).where(table_seats.c.code == code, table_seats.c.seat == seat).values(bot_now=True)
            )

    def ask_rematch(self, code: str, seat: str, game_id: str) -> bool:
        """This seat asks for a rematch of ``game_id``; False, and nothing stored, if the table is no longer over
        with that game (another request dealt the rematch: a wish stored now would carry over to the next game)."""
        over = (
            select(tables.c.code).where(tables.c.code == code, tables.c.state == "over", tables.c.game_id == game_id)
        ).exists()
        with self.store._write() as connection:
            asked = connection.execute(
                update(table_seats)
                .where(table_seats.c.code == code, table_seats.c.seat == seat, over)
                .values(rematch=True)
            )
        return asked.rowcount == 1

    def seen(self, seats: Sequence[tuple[str, str]], now: dt.datetime, back: bool = False) -> None:
        """These (code, seat) pairs' players hold a socket now; ``back``: a player came back (his seat is his again)."""
        if not seats:
            return
        values: dict[str, object] = {"seen_at": now, **({"bot_now": False} if back else {})}
        with self.store._write() as connection:
            connection.execute(
                update(table_seats).where(tuple_(table_seats.c.code, table_seats.c.seat).in_(seats)).values(values)
            )

    def holders(self, game_id: str) -> dict[str, str | None]:
        """Who held each seat of a table game (a player id, None for the bot); empty for a solo game."""
        return self.holders_of([game_id]).get(game_id, {})

    def holders_of(self, game_ids: Sequence[str]) -> dict[str, dict[str, str | None]]:
        """``holders`` of each of these games that is a table game, by game id, in one query."""
        query = select(game_seats).where(game_seats.c.game_id.in_(game_ids))
        found: dict[str, dict[str, str | None]] = {}
        with self.store.engine.connect() as connection:
            for row in connection.execute(query):
                found.setdefault(row.game_id, {})[row.seat] = row.player_id
        return found

    def bot_numbers(self, game_id: str) -> set[int]:
        """The move numbers of a table game that the bot made at a person's seat."""
        return self.bot_numbers_of([game_id]).get(game_id, set())

    def bot_numbers_of(self, game_ids: Sequence[str]) -> dict[str, set[int]]:
        """``bot_numbers`` of each of these games that has any, by game id, in one query."""
        query = select(seat_bot_moves).where(seat_bot_moves.c.game_id.in_(game_ids))
        found: dict[str, set[int]] = {}
        with self.store.engine.connect() as connection:
            for row in connection.execute(query):
                found.setdefault(row.game_id, set()).add(row.number)
        return found

    def forget(self, code: str) -> None:
        """Delete a table (its games stay, as every game does until the retention rule)."""
        with self.store._write() as connection:
            connection.execute(delete(tables).where(tables.c.code == code))
