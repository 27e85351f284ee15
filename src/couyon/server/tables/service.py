"""Friends' tables (issue 21): people and the table's bot holding the seats of one game, without HTTP.

A game knows nothing of who holds its seats: a table maps each seat to a holder (a player, or the table's
bot), and one handler serves every move (``../shared/design.md``, "Seats held by people"):

1. check that the sender holds the seat that may move (or that the seat's clock ran out, or that its player is
   gone past the grace period: then the table's bot makes that decision for it);
2. apply the move to the fold, refusing with the rules' own sentence;
3. append it to the store, where the primary key (game, move number) settles every race;
4. publish "table T has move N" (``publish``): every process reads the moves from the store and sends each of
   its sockets its own seat's view and the events since that seat's last move number;
5. while a bot holds the seat to move, let it move (``plan_bots``), and go to 3.

Every decision is made from the stored moves and the stored time of the last move, so any process can enforce a
clock after a restart. Nothing here branches on which game a table plays: the registry's ``GameKind`` gives the
seats, the views, the events and each seat's result.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.exc import IntegrityError

from couyon.common.errors import CouyonError, GameOverError, IllegalMoveError, OutOfTurnError
from couyon.common.kind import Json
from couyon.registry import GameKind, Options
from couyon.server.errors import ApiError
from couyon.server.games import (
    UNTIL_OVER,
    GameService,
    VerificationError,
    _naive_utc,
    _sentence,
    known_game,
    random_seed,
    stored_options,
    verified_replay,
)
from couyon.store import StaleMoveError, StoredGame
from couyon.store.tables import SeatRefused, SeatsChanged, StoredTable, TableSeat, TableStore

log = logging.getLogger("couyon.server")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""A table code's characters: no 0/O, 1/I/L, so a code read aloud or copied by hand is not mistaken."""
CODE_LENGTH = 6
CLOCKS = (0, 15, 30, 60)
"""The seconds a person has per decision (0: no clock)."""
MESSAGES = ("well_played", "thanks_partner", "oops", "your_turn", "hello", "good_game")
"""The preset messages (the page has their words); no free text, so nothing to moderate."""
MESSAGE_INTERVAL_S = 3.0
"""At most one preset message per seat in this many seconds."""
DEFAULT_GRACE_S = 60.0
"""How long a person may have no socket before the bot plays his seat (``Settings.table_grace_seconds``)."""
TABLE_MODE = "table"
"""The ``games.mode`` of a table game: never ranked, on no board."""
NAME_SECONDS = 5.0
"""How long a process keeps a seated player's name before reading it again (a renamed player shows within it)."""
DEALER_TRIES = 256
"""Seeds tried for a rematch whose first dealer is the seat after the last game's."""
DEAL_TRIES = 3
"""How often the host's start deals again when a seat was taken or left while it dealt."""

NO_TABLE = "There is no table with this code: check it with the person who opened it."
CLOSED = "This table was closed after a long time with nobody at it: open a new one."
"""The sentence of every request to a closed table (410 ``table_closed``) but its record's."""


def normal_code(raw: str) -> str | None:
    """A table code as stored (``ABCDEF``) from what a person typed (``abc-def``, spaces); None if it cannot be one."""
    code = "".join(char for char in raw[:32].upper() if char not in " -")
    if len(code) != CODE_LENGTH or any(char not in CODE_ALPHABET for char in code):
        return None
    return code


def shown_code(code: str) -> str:
    """A table code as the page shows it, in two halves: ``ABC-DEF``."""
    return f"{code[:3]}-{code[3:]}"


@dataclass(slots=True)
class Loaded:
    """A table as one request sees it: the stored table and seats, its game folded from the stored moves."""

    table: StoredTable
    kind: GameKind
    options: Options
    seats: dict[str, TableSeat]
    """By seat label, in the game's turn order."""
    objects: dict[str, Any]
    """Each seat label's seat as the game's engine names it."""
    game: StoredGame | None = None
    moves: list[str] = field(default_factory=list)
    state: Any = None
    waived_by: str | None = None
    """The person's seat that has just let its optional move go (``GameKind.waive_action``): nothing of it is
    stored, the seat the game waits for is the bots' to play (``plan_bots``), after the answer floor."""

    def seat_of(self, player_id: str | None) -> str | None:
        if player_id is None:
            return None
        return next((label for label, seat in self.seats.items() if seat.player_id == player_id), None)


Waiver = tuple[str, str, int]
"""A person's optional move let go (``Loaded.waived_by``): the game's id, his seat, the move number it was at."""


@dataclass(frozen=True, slots=True)
class BotPlan:
    """Bot decisions computed from a stored game, to be appended at ``first_number`` (unless the game moved on)."""

    code: str
    game_id: str
    first_number: int
    moves: tuple[str, ...]
    bot_numbers: tuple[int, ...]
    """Which of them the bot made at a person's seat (his clock ran out, he is gone, the host gave it)."""
    results: str | None
    """The table's results after the game if these moves end it."""
    floor_ms: int
    """The game's answer floor per bot decision (``GameKind.decision_floor_ms``)."""


class TableService:
    """Friends' tables over the games' service and its store; keeps no table in memory.

    ``publish(code, number)`` is called after every commit that changes a table (a move, a seat, the start): the
    process's hub carries it to every process (``couyon.server.tables.hub``). ``present(code, seat)`` says whether
    this process holds a socket of that seat now (the store's ``seen_at`` says it for the other processes).
    """

    def __init__(
        self,
        games: GameService,
        grace_s: float = DEFAULT_GRACE_S,
        publish: Callable[[str, int, Loaded | None], None] | None = None,
        present: Callable[[str, str], bool] | None = None,
        finished: Callable[[str], object] | None = None,
        rated: Callable[[str, list[str]], Mapping[str, Json]] | None = None,
    ) -> None:
        self.games = games
        self.store = TableStore(games.store)
        self.grace = dt.timedelta(seconds=grace_s)
        self.grace_s = grace_s
        self.publish: Callable[[str, int, Loaded | None], None] = publish or (lambda code, number, loaded: None)
        self.present: Callable[[str, str], bool] = present or (lambda code, seat: False)
        self.finished: Callable[[str], object] = finished or (lambda game_id: None)
        """Called with a game's id once its final move is stored (the ratings rate it)."""
        self.rated: Callable[[str, list[str]], Mapping[str, Json]] = rated or (lambda game, people: {})
        """The ratings in a game of those of these people who have one (the lobby shows them)."""
        self._messages: dict[tuple[str, str], float] = {}
        self._names: dict[str, tuple[float, str | None]] = {}

    def now(self) -> dt.datetime:
        return _naive_utc(self.games.clock())

    def name_of(self, player_id: str) -> str | None:
        """A seated player's name, read at most every ``NAME_SECONDS`` (every socket's table message shows it)."""
        moment = time.monotonic()
        kept = self._names.get(player_id)
        if kept is not None and moment - kept[0] < NAME_SECONDS:
            return kept[1]
        name = self.games.store.player_name(player_id)
        if len(self._names) > 10_000:
            self._names.clear()
        self._names[player_id] = (moment, name)
        return name

    # -- loading ----------------------------------------------------------------------------------------

    def load(self, code: str, secret: str | None = None, closed: bool = False) -> Loaded:
        """The table ``code``; 404 with one sentence for no such table or (``secret`` given) a wrong secret, 410 for
        a closed table (untouched for the retention period, ``Store.prune``) unless ``closed`` (its record)."""
        normal = normal_code(code)
        found = None if normal is None else self.store.table(normal)
        # Bytes: compare_digest refuses a str with non-ASCII characters, and a secret given may hold any.
        given = None if secret is None else secret[:64].encode()
        if found is None or (given is not None and not hmac.compare_digest(found[0].secret.encode(), given)):
            raise ApiError(404, "no_table", NO_TABLE)  # Never say whether the code or the secret was wrong.
        table, seats = found
        if table.state == "closed" and not closed:
            raise ApiError(410, "table_closed", CLOSED)
        kind = kind_of_table(table)
        options = json.loads(table.options) if table.options else {}
        assert kind.seats is not None
        objects = {str(seat): seat for seat in kind.seats(options)}
        by_label = {seat.seat: seat for seat in seats}
        loaded = Loaded(table, kind, options, {label: by_label[label] for label in objects}, objects)
        if table.game_id is not None:
            stored = self.games.store.game(table.game_id)
            if stored is not None:
                loaded.game, loaded.moves = stored
                loaded.state = self.games._folds.fold(*stored)
        return loaded

    def _person(self, loaded: Loaded, label: str) -> bool:
        return loaded.seats[label].player_id is not None

    def connected(self, loaded: Loaded, label: str, now: dt.datetime) -> bool:
        """Whether the person at ``label`` holds a socket here, or did within the grace period anywhere."""
        seat = loaded.seats[label]
        if seat.player_id is None:
            return False
        if self.present(loaded.table.code, label):
            return True
        return seat.seen_at is not None and now - seat.seen_at <= self.grace

    def bot_now(self, loaded: Loaded, label: str, now: dt.datetime) -> bool:
        """Whether the bot plays a person's seat now: the host gave it, or its player is gone past the grace."""
        seat = loaded.seats[label]
        return seat.player_id is not None and (seat.bot_now or not self.connected(loaded, label, now))

    def active(self, loaded: Loaded, now: dt.datetime) -> set[str]:
        """The seats whose person decides now (the others' decisions are the bot's)."""
        return {label for label in loaded.seats if self._person(loaded, label) and not self.bot_now(loaded, label, now)}

    def waiting_on(self, loaded: Loaded, state: Any, active: set[str]) -> str | None:
        """The person's seat the game waits for: the seat to move if a person decides it, else a person's seat
        that has an optional move (tarot's taker and his chelem, while the game waits for the leader)."""
        engine = loaded.kind.engine
        to_move = engine.to_move(state)
        if to_move is None:
            return None
        if str(to_move) in active:
            return str(to_move)
        return next((str(move.seat) for move in engine.legal_moves(state) if str(move.seat) in active), None)

    def deadline(self, loaded: Loaded, now: dt.datetime) -> dt.datetime | None:
        """When the clock of the decision the table waits for runs out (None: no clock, or nobody to wait for)."""
        table = loaded.table
        if table.clock <= 0 or table.state != "playing" or loaded.state is None or table.moved_at is None:
            return None
        if self.waiting_on(loaded, loaded.state, self.active(loaded, now)) is None:
            return None
        return table.moved_at + dt.timedelta(seconds=table.clock)

    def next_check(self, loaded: Loaded, now: dt.datetime) -> dt.datetime | None:
        """When this table may next need the bot without anyone moving: its clock, or a grace period ending."""
        if loaded.table.state != "playing" or loaded.state is None:
            return None
        moments = [] if (deadline := self.deadline(loaded, now)) is None else [deadline]
        for label, seat in loaded.seats.items():
            if (
                seat.player_id is not None
                and not seat.bot_now
                and seat.seen_at is not None
                and not self.present(loaded.table.code, label)
            ):
                moments.append(seat.seen_at + self.grace)
        return min(moments, default=None)

    # -- the table's JSON -----------------------------------------------------------------------------

    def table_json(self, loaded: Loaded, player_id: str | None, with_secret: bool = True) -> Json:
        table = loaded.table
        now = self.now()
        me = loaded.seat_of(player_id)
        host = loaded.seat_of(table.host_id)
        names: dict[str | None, str | None] = {
            seat.player_id: self.name_of(seat.player_id) for seat in loaded.seats.values() if seat.player_id is not None
        }
        playing = table.state != "waiting"
        # The lobby (before the game and between games) shows each person's rating; a running game reads none.
        people = [seat.player_id for seat in loaded.seats.values() if seat.player_id is not None]
        rated = {} if table.state == "playing" else self.rated(table.game, people)
        seats = [
            {
                "seat": label,
                "name": names.get(seat.player_id) if seat.player_id is not None else None,
                "holder": "person" if seat.player_id is not None else ("bot" if playing else "free"),
                "connected": self.connected(loaded, label, now),
                "bot_now": playing and self.bot_now(loaded, label, now),
                "rematch": seat.rematch,
                **_rating_of(rated.get(seat.player_id or "")),
            }
            for label, seat in loaded.seats.items()
        ]
        to_move = None
        if loaded.state is not None and table.state == "playing":
            waiting = self.waiting_on(loaded, loaded.state, self.active(loaded, now))
            engine_to_move = loaded.kind.engine.to_move(loaded.state)
            to_move = waiting or (None if engine_to_move is None else str(engine_to_move))
        deadline = self.deadline(loaded, now)
        document: Json = {
            "code": shown_code(table.code),
            "game": table.game,
            "options": loaded.options,
            "clock": table.clock,
            "state": table.state,
            "host": host,
            "me": me,
            "seats": seats,
            "game_id": table.game_id,
            "move_number": len(loaded.moves),
            "to_move": to_move,
            "deadline_ms": None if deadline is None else max(0, int((deadline - now).total_seconds() * 1000)),
            "results": self.results_json(loaded, names),
        }
        if with_secret:
            document["secret"] = table.secret
            document["link"] = f"/#/tables/{table.code}/{table.secret}"
        return document

    def results_json(self, loaded: Loaded, names: dict[str | None, str | None]) -> Json:
        results = json.loads(loaded.table.results or "{}")
        kept = results.get("players", {})
        players = []
        for label, seat in loaded.seats.items():
            key = seat.player_id or f"bot:{label}"
            line = kept.get(key, {"score": 0, "wins": 0})
            players.append({"seat": label, "name": names.get(seat.player_id), **line})
        return {"games": loaded.table.games_played, "players": players}

    # -- opening, seats, start ------------------------------------------------------------------------------

    def _named(self, player_id: str) -> None:
        if not self.games.store.player_name(player_id):
            raise ApiError(422, "name_required", "Give yourself a name before you sit down.")

    def open(self, player_id: str, game: str, raw_options: Mapping[str, object] | None, clock: int) -> Json:
        """A new table of ``game`` with these options and clock; the host sits at the game's human seat."""
        self._named(player_id)
        kind = known_game(game)
        if kind.seats is None:
            raise ApiError(422, "invalid_fields", f"{kind.names['en']} cannot be played at a friends' table yet.")
        try:
            options = kind.parse_options(raw_options)
        except ValueError as error:
            raise ApiError(422, "invalid_fields", _sentence(str(error))) from None
        if isinstance(clock, bool) or clock not in CLOCKS:
            raise ApiError(422, "invalid_fields", "The clock is one of 0 (none), 15, 30 or 60 seconds.")
        labels = [str(seat) for seat in kind.seats(options)]
        now = self.now()
        for _ in range(8):
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            table = StoredTable(
                code=code,
                secret=secrets.token_urlsafe(16)[:22],
                game=kind.id,
                options=json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "",
                clock=clock,
                host_id=player_id,
                state="waiting",
                game_id=None,
                games_played=0,
                results="{}",
                moved_at=None,
                created_at=now,
            )
            try:
                self.store.create(table, labels, str(kind.human))
            except IntegrityError:
                continue  # That code is taken (one chance in 887 million per living table): draw another.
            self.store.seen([(code, str(kind.human))], now)
            log.info("table opened", extra={"table": code, "kind": kind.id, "clock": clock})
            return self.table_json(self.load(code), player_id)
        raise ApiError(503, "no_code", "No free table code was found: try again.")

    def join(self, raw_code: str, player_id: str | None) -> Json:
        """The table of a code typed by a person (with its secret, so that the page can use the link's routes)."""
        return self.table_json(self.load(raw_code), player_id)

    def show(self, player_id: str | None, code: str, secret: str) -> Json:
        loaded = self.load(code, secret)
        self._seen(loaded, player_id)
        return self.table_json(loaded, player_id)

    def _seen(self, loaded: Loaded, player_id: str | None, back: bool = False) -> None:
        """A request of the person at a seat: he is there (HTTP polling counts as a socket)."""
        label = loaded.seat_of(player_id)
        if label is None:
            return
        seat = loaded.seats[label]
        now = self.now()
        if (back and seat.bot_now) or seat.seen_at is None or now - seat.seen_at > self.grace / 4:
            self.store.seen([(loaded.table.code, label)], now, back=back)
            loaded.seats[label] = TableSeat(seat.seat, seat.player_id, seat.bot_now and not back, seat.rematch, now)

    def _label(self, loaded: Loaded, seat: str) -> str:
        if seat not in loaded.seats:
            shown = ", ".join(loaded.seats)
            raise ApiError(
                422, "invalid_fields", f"There is no seat {seat[:8]!r} at this table: the seats are {shown}."
            )
        return seat

    def take_seat(self, player_id: str, code: str, secret: str, seat: str) -> Json:
        self._named(player_id)
        loaded = self.load(code, secret)
        label = self._label(loaded, seat)
        if loaded.table.state == "playing":
            raise _seat_refusal("table_started")
        if loaded.seat_of(player_id) is None and all(one.player_id is not None for one in loaded.seats.values()):
            raise ApiError(409, "table_full", "Every seat of this table is taken.")
        try:
            self.store.take_seat(loaded.table.code, label, player_id)
        except SeatRefused as refusal:
            raise _seat_refusal(str(refusal)) from None
        self.store.seen([(loaded.table.code, label)], self.now())
        self.publish(loaded.table.code, -1, None)
        return self.table_json(self.load(loaded.table.code), player_id)

    def leave_seat(self, player_id: str, code: str, secret: str) -> Json:
        """Free the person's seat before the game or between games. A host who leaves hands the table to the next
        person seated after him in turn order; between games, a rematch the others all asked for starts now."""
        loaded = self.load(code, secret)
        mine = loaded.seat_of(player_id)
        labels = list(loaded.seats)
        after_mine = labels if mine is None else labels[labels.index(mine) + 1 :] + labels[: labels.index(mine)]
        heirs = [pid for label in after_mine if (pid := loaded.seats[label].player_id) not in (None, player_id)]
        try:
            self.store.leave_seat(loaded.table.code, player_id, heirs)
        except SeatRefused as refusal:
            raise _seat_refusal(str(refusal)) from None
        return self._rematch_if_asked(self.load(loaded.table.code), player_id)

    def _host(self, loaded: Loaded, player_id: str | None) -> None:
        if player_id is None or player_id != loaded.table.host_id:
            raise ApiError(403, "not_host", "Only the host, who opened the table, may do this.")

    def start(self, player_id: str | None, code: str, secret: str) -> Json:
        """Start the table's game (host only): every free seat goes to the table's bot. The bots' first moves are
        the hub's to play (``TableHub.run_bots``), after the answer floor like every bot decision."""
        for _ in range(DEAL_TRIES):
            loaded = self.load(code, secret)
            self._host(loaded, player_id)
            if loaded.table.state != "waiting":
                raise ApiError(409, "table_started", "The game has already started.")
            with contextlib.suppress(SeatsChanged):  # Someone sat or left just now: deal to the seats as they are.
                return self._deal(loaded, player_id, previous=None, seed=random_seed())
        raise ApiError(409, "seats_changed", "The seats keep changing: start again once everyone is seated.")

    def _deal(self, loaded: Loaded, player_id: str | None, previous: str | None, seed: str) -> Json:
        kind = loaded.kind
        now = self.now()
        holders = {label: seat.player_id for label, seat in loaded.seats.items()}
        game = StoredGame(
            id="g_" + secrets.token_urlsafe(12),
            player_id=loaded.table.host_id,
            mode=TABLE_MODE,
            day=None,
            ranked=False,
            seed=seed,
            variant=kind.variant,
            bot_id=kind.level_bots.get(str(loaded.options.get("level")), self.games.table_bots[kind.id]),
            created_at=now,
            game=kind.id,
            options=loaded.table.options,
        )
        try:
            self.store.start_game(loaded.table.code, previous, game, [], holders, [], now)
        except StaleMoveError:
            raise ApiError(409, "table_started", "The game has already started.") from None
        log.info("table game started", extra={"table": loaded.table.code, "game": game.id, "kind": kind.id})
        self.publish(loaded.table.code, 0, None)
        return self.table_json(self.load(loaded.table.code), player_id)

    def give_to_bot(self, player_id: str | None, code: str, secret: str, seat: str) -> Json:
        """The host gives a silent seat to the bot, until its player comes back."""
        loaded = self.load(code, secret)
        self._host(loaded, player_id)
        label = self._label(loaded, seat)
        if loaded.seats[label].player_id is None:
            raise ApiError(409, "no_person", "The bot already holds this seat.")
        self.store.give_to_bot(loaded.table.code, label)
        self.publish(loaded.table.code, -1, None)
        return self.table_json(self.load(loaded.table.code), player_id)

    def rematch(self, player_id: str | None, code: str, secret: str) -> Json:
        """This person asks for a rematch; once every seated person asked, the next game starts (same seats, a new
        seed, the dealer moved on to the next seat)."""
        loaded = self.load(code, secret)
        label = loaded.seat_of(player_id)
        if label is None:
            raise ApiError(403, "not_seated", "Only a player seated at this table may ask for a rematch.")
        if loaded.table.state != "over":
            raise ApiError(409, "game_not_over", "A rematch can be asked once the game is over.")
        assert loaded.table.game_id is not None  # Over: a game was played.
        if not self.store.ask_rematch(loaded.table.code, label, loaded.table.game_id):
            # Another request of his (a double click) or of the last to ask dealt it meanwhile: the table as it is.
            return self.table_json(self.load(loaded.table.code), player_id)
        return self._rematch_if_asked(self.load(loaded.table.code), player_id)

    def _rematch_if_asked(self, loaded: Loaded, player_id: str | None) -> Json:
        """Deal the next game if the table is over and every seated person asked for it; else tell of the change."""
        people = [seat for seat in loaded.seats.values() if seat.player_id is not None]
        if loaded.table.state != "over" or not people or not all(seat.rematch for seat in people):
            self.publish(loaded.table.code, -1, None)
            return self.table_json(loaded, player_id)
        try:
            return self._deal(loaded, player_id, previous=loaded.table.game_id, seed=self.rematch_seed(loaded))
        except SeatsChanged:
            # A newcomer sat meanwhile: the rematch waits for him to ask too (a leaving seat checks again itself).
            self.publish(loaded.table.code, -1, None)
        except ApiError as refusal:
            if refusal.code != "table_started":
                raise
            # The last two to ask asked at once and the other request dealt it.
        return self.table_json(self.load(loaded.table.code), player_id)

    def rematch_seed(self, loaded: Loaded) -> str:
        """A new seed whose first dealer is the seat after the last game's first dealer (in turn order).

        Every game's seed chooses its first dealer (``stream(seed, "dealer")``, each record format's contract), so
        the dealer is moved on by drawing seeds until one deals from the next seat: n draws on average at n seats.
        A game whose view names no dealer keeps the new seed as it falls.
        """
        previous = None if loaded.game is None else first_dealer(loaded.kind, loaded.game.seed, loaded.options)
        labels = list(loaded.seats)
        seed = random_seed()
        if previous is None or previous not in labels:
            return seed
        wanted = labels[(labels.index(previous) + 1) % len(labels)]
        for _ in range(DEALER_TRIES):
            if first_dealer(loaded.kind, seed, loaded.options) == wanted:
                return seed
            seed = random_seed()
        return seed

    # -- moves ------------------------------------------------------------------------------------------

    def move(
        self, player_id: str | None, code: str, secret: str, action: str, move_number: int, seat: str | None = None
    ) -> Loaded:
        """Play the person's ``action`` at his seat on the view numbered ``move_number``; the table after it.

        The bots' answers are not played here (``plan_bots``): they go out after the answer floor."""
        loaded = self.load(code, secret)
        mine = loaded.seat_of(player_id)
        if mine is None:
            raise ApiError(403, "not_your_seat", "You hold no seat at this table.")
        if seat is not None and seat != mine:
            raise ApiError(403, "not_your_seat", f"This seat is not yours: you sit at {mine}.")
        table = loaded.table
        if table.state == "waiting" or loaded.game is None:
            raise ApiError(409, "not_started", "The game has not started yet.")
        kind, engine, state = loaded.kind, loaded.kind.engine, loaded.state
        if engine.is_over(state):
            raise ApiError(409, "game_over", "The game is over: no move can follow.")
        if move_number != state.move_count:
            raise ApiError(
                409, "stale", f"This move answers view {move_number} but the game is at move {state.move_count}."
            )
        seat_object = loaded.objects[mine]
        if not any(move.seat == seat_object for move in engine.legal_moves(state)):
            raise ApiError(409, "out_of_turn", "It is not your turn.")
        now = self.now()
        self._seen(loaded, player_id, back=True)  # Playing is coming back: the seat is his again.
        if kind.waive_action is not None and action == kind.waive_action:
            to_move = engine.to_move(state)
            if to_move == seat_object or str(to_move) in self.active(loaded, now):
                raise ApiError(409, "illegal_move", "There is nothing to let go now: the game waits for a player.")
            loaded.waived_by = mine
            return loaded
        try:
            move = engine.parse_move(f"{mine}:{action}", loaded.options)
        except CouyonError:
            raise ApiError(422, "invalid_move", f"{action[:12]!r} is not a move: send {kind.actions}.") from None
        try:
            after = engine.play(state, move)
        except (OutOfTurnError, GameOverError) as error:
            raise ApiError(409, "out_of_turn", _sentence(str(error))) from None
        except IllegalMoveError as error:
            raise ApiError(409, "illegal_move", _sentence(str(error))) from None
        self._append(loaded, str(move), after, now)
        return loaded

    def _append(self, loaded: Loaded, new_move: str, after: Any, now: dt.datetime) -> None:
        game = loaded.game
        assert game is not None
        results = self._results_after(loaded, after) if loaded.kind.engine.is_over(after) else None
        try:
            self.store.append_moves(loaded.table.code, game.id, len(loaded.moves), [new_move], [], now, results)
        except StaleMoveError:
            raise ApiError(409, "stale", "This move was already played from another tab or request.") from None
        loaded.moves = [*loaded.moves, new_move]
        loaded.state = after
        # The table as now stored goes out with the notification: a final move's, over and with its results.
        table = loaded.table
        loaded.table = replace(table, moved_at=now)
        if results is not None:
            loaded.table = replace(loaded.table, state="over", results=results, games_played=table.games_played + 1)
        self.games._folds.remember(game, tuple(loaded.moves), after)
        if results is not None:
            self.finished(game.id)
        self.publish(loaded.table.code, len(loaded.moves), loaded)

    def _results_after(self, loaded: Loaded, final: Any) -> str:
        """The table's results once this game is over: one more game, each holder's score added, his win counted."""
        results = json.loads(loaded.table.results or "{}")
        players = results.setdefault("players", {})
        seat_result = loaded.kind.seat_result
        for label, seat in loaded.seats.items():
            if seat_result is None:
                break
            score, won = seat_result(final, loaded.objects[label])
            line = players.setdefault(seat.player_id or f"bot:{label}", {"score": 0, "wins": 0})
            line["score"] += score
            line["wins"] += int(won)
        return json.dumps(results, sort_keys=True, separators=(",", ":"))

    def _bots(
        self, loaded: Loaded, state: Any, first_number: int, now: dt.datetime
    ) -> tuple[list[str], list[int], Any]:
        """The bots' moves from ``state`` until a present person decides or the game ends.

        A person gone past the grace period (or whose seat the host gave) has his decisions made by the bot, but only
        while someone is at the table: a table nobody is connected to waits for a player to come back."""
        kind, engine = loaded.kind, loaded.kind.engine
        assert loaded.game is not None
        bot = kind.bot(loaded.game.bot_id)
        active = self.active(loaded, now)
        anyone = any(self.connected(loaded, label, now) for label in loaded.seats)
        moves: list[str] = []
        bot_numbers: list[int] = []
        while not engine.is_over(state) and self.waiting_on(loaded, state, active) is None:
            to_move = str(engine.to_move(state))
            if self._person(loaded, to_move) and not anyone:
                break
            move = engine.bot_move(state, bot)
            if self._person(loaded, str(move.seat)):
                bot_numbers.append(first_number + len(moves))
            state = engine.play(state, move)
            moves.append(str(move))
        return moves, bot_numbers, state

    def waits_for_bots(self, loaded: Loaded) -> bool:
        """Whether the game, as ``loaded`` holds it, waits for a bot now (no read: a person's move just made, or his
        optional move let go)."""
        if loaded.state is None or loaded.kind.engine.is_over(loaded.state):
            return False
        return (
            loaded.waived_by is not None
            or self.waiting_on(loaded, loaded.state, self.active(loaded, self.now())) is None
        )

    def plan_bots(self, code: str, forced: bool = False, waived: Waiver | None = None) -> BotPlan | None:
        """The bots' next moves at ``code``, if it waits for them; ``forced``: also the one decision of a person
        whose clock ran out (checked against the stored time of the last move); ``waived``: the optional move a person
        let go in this game at this move number, so the seat to move moves. None: nothing to play now."""
        loaded = self.load(code)
        if loaded.table.state != "playing" or loaded.game is None or loaded.kind.engine.is_over(loaded.state):
            return None
        now = self.now()
        kind, engine, state = loaded.kind, loaded.kind.engine, loaded.state
        first_number = len(loaded.moves)
        moves: list[str] = []
        bot_numbers: list[int] = []
        waiting = self.waiting_on(loaded, state, self.active(loaded, now))
        if waiting is not None:
            if waived != (loaded.game.id, waiting, first_number):  # ``move`` checked it waits for another seat.
                deadline = self.deadline(loaded, now)
                if not forced or deadline is None or now < deadline:
                    return None
                log.info("table clock ran out", extra={"table": code, "seat": waiting, "number": first_number})
            # The clock ran out, or the person let his optional move go: the bot makes that one decision, a normal
            # move of the seat (or, for an optional move, lets it go: the seat the game waits for moves).
            move = engine.bot_move(state, kind.bot(loaded.game.bot_id))
            if self._person(loaded, str(move.seat)):
                bot_numbers.append(first_number)
            state = engine.play(state, move)
            moves.append(str(move))
        more, more_numbers, state = self._bots(loaded, state, first_number + len(moves), now)
        moves += more
        bot_numbers += more_numbers
        if not moves:
            return None
        results = self._results_after(loaded, state) if engine.is_over(state) else None
        return BotPlan(
            code, loaded.game.id, first_number, tuple(moves), tuple(bot_numbers), results, kind.decision_floor_ms
        )

    def commit(self, plan: BotPlan) -> bool:
        """Append a plan's moves; False if the game moved on meanwhile (another process or person was first)."""
        try:
            self.store.append_moves(
                plan.code, plan.game_id, plan.first_number, plan.moves, plan.bot_numbers, self.now(), plan.results
            )
        except StaleMoveError:
            return False
        if plan.results is not None:
            self.finished(plan.game_id)
        self.publish(plan.code, plan.first_number + len(plan.moves), None)
        return True

    # -- answers ------------------------------------------------------------------------------------

    def answer(self, loaded: Loaded, label: str, since: int, start: Any = None) -> tuple[Json, Any]:
        """The game answer of seat ``label``: its view and the events since move ``since`` as that seat saw them;
        and the state it ends at (a socket keeps it, to step from on the next move)."""
        game = loaded.game
        assert game is not None
        kind, engine = loaded.kind, loaded.kind.engine
        seat = loaded.objects[label]
        moves = loaded.moves
        events: list[Json] = []
        if 0 <= since < len(moves):
            state = start if start is not None else self.games._folds.fold(game, moves[:since])
            for text in moves[since:]:
                move = engine.parse_move(text, loaded.options)
                after = engine.play(state, move)
                events.extend(kind.events_of(state, move, after, seat))
                state = after
        state = loaded.state
        return {
            "id": game.id,
            "game": game.game,
            "options": stored_options(game),
            "mode": TABLE_MODE,
            "day": None,
            "ranked": False,
            "hints": 0,
            "bot": game.bot_id,
            "table": shown_code(loaded.table.code),
            "seat": label,
            "since": since if 0 <= since < len(moves) else len(moves),
            "move_number": len(moves),
            "view": kind.view_json(state, seat),
            "events": events,
            "leaderboard": None,
            "leaderboard_pending": False,
        }, state

    def game_answer(self, player_id: str | None, code: str, secret: str, since: int) -> Json:
        loaded = self.load(code, secret)
        label = loaded.seat_of(player_id)
        if label is None:
            raise ApiError(403, "not_seated", "Only a player seated at this table sees its game.")
        if loaded.game is None:
            raise ApiError(409, "not_started", "The game has not started yet.")
        self._seen(loaded, player_id)
        return self.answer(loaded, label, since)[0]

    def message(self, player_id: str | None, code: str, secret: str, message: str, monotonic: float) -> tuple[str, str]:
        """A preset message of the person's seat (at most one per ``MESSAGE_INTERVAL_S``); (code, seat)."""
        loaded = self.load(code, secret)
        label = loaded.seat_of(player_id)
        if label is None:
            raise ApiError(403, "not_seated", "Only a player seated at this table may send a message.")
        if message not in MESSAGES:
            raise ApiError(
                422, "invalid_fields", f"There is no message {message[:24]!r}: send one of {', '.join(MESSAGES)}."
            )
        key = (loaded.table.code, label)
        last = self._messages.get(key)
        if last is not None and monotonic - last < MESSAGE_INTERVAL_S:
            wait = max(1, int(MESSAGE_INTERVAL_S - (monotonic - last) + 0.999))
            raise ApiError(429, "too_many_messages", f"Too many messages: try again in {wait} seconds.", wait)
        self._messages[key] = monotonic
        if len(self._messages) > 10_000:
            self._messages.clear()
        return loaded.table.code, label

    # -- records and reviews ---------------------------------------------------------------------------

    def record(self, player_id: str | None, code: str, secret: str, game_id: str | None = None) -> str:
        """The public record of the table's game (its game's format), with ``people``: which seats were people's,
        and ``bot_moves``: the move numbers the bot made at a person's seat. A closed table's finished game keeps
        its record."""
        loaded = self.load(code, secret, closed=True)
        if loaded.seat_of(player_id) is None:
            raise ApiError(403, "not_seated", "Only a player seated at this table may download its record.")
        game, moves = self._finished(loaded, game_id, "record")
        holders = self.store.holders(game.id)
        extras: Json = {
            "bots": game.bot_id,
            "table": shown_code(loaded.table.code),
            "people": {seat: self.games.store.player_name(pid) for seat, pid in holders.items() if pid is not None},
            "bot_moves": sorted(self.store.bot_numbers(game.id)),
        }
        return loaded.kind.engine.record_json(game.seed, moves, stored_options(game), extras)

    def _finished(self, loaded: Loaded, game_id: str | None, what: str) -> tuple[StoredGame, list[str]]:
        """The table's current game (the one ``game_id`` names, if given), once it is over; before, 409 saying that
        ``what`` (``"record"``, ``"review"``) waits for the end."""
        wanted = loaded.table.game_id
        stored = None if wanted is None or game_id not in (None, wanted) else self.games.store.game(wanted)
        if stored is None:
            raise ApiError(404, "unknown_game", "There is no such game at this table.")
        if not loaded.kind.engine.is_over(self.games._folds.fold(*stored)):
            raise ApiError(409, "game_not_over", UNTIL_OVER[what])
        return stored

    def verify(self, game_id: str) -> Any:
        """The server's verifying replay of a finished table game: every bot move recomputed (those it made at a
        person's seat too), every person's move checked by the rules. Raises ``VerificationError``."""
        stored = self.games.store.game(game_id)
        if stored is None:
            raise VerificationError("there is no such game")
        game, moves = stored
        return verified_table_replay(game, moves, self.store.holders(game_id), self.store.bot_numbers(game_id))

    def review(self, player_id: str | None, code: str, secret: str) -> Json:
        """The review of the table's finished game from the person's own seat (``seat``: its label): his hand, his
        decisions judged, his camp's totals; every hand shown, the game being over."""
        loaded = self.load(code, secret)
        label = loaded.seat_of(player_id)
        if label is None:
            raise ApiError(403, "not_seated", "Only a player seated at this table may see its review.")
        game, moves = self._finished(loaded, None, "review")
        if loaded.kind.review is None:
            raise ApiError(409, "no_review", f"There is no review of a game of {loaded.kind.names['en']} yet.")
        review = self.games._kept_review(game, moves, True, label)
        return {"id": game.id, "game": game.game, "mode": TABLE_MODE, "seat": label, **review}


def verified_table_replay(
    game: StoredGame, moves: Sequence[str], holders: dict[str, str | None], bot_numbers: set[int]
) -> Any:
    """Replay a table game from its seed (``verified_replay``): a move of a bot's seat, or one the bot made at a
    person's seat (``bot_numbers``), must be the move the recorded bot computes; a person's move must be legal."""

    def bots_move(kind: GameKind, state: Any, index: int, move: Any) -> bool:
        return holders.get(str(move.seat)) is None or index in bot_numbers

    return verified_replay(game, moves, bots_move)


def _rating_of(rating: Json | None) -> Json:
    """A seat's rating fields: the number shown and whether it is provisional, or none."""
    if rating is None:
        return {"rating": None, "rating_provisional": None}
    return {"rating": rating["rating"], "rating_provisional": rating["provisional"]}


def kind_of_table(table: StoredTable) -> GameKind:
    return known_game(table.game)


def first_dealer(kind: GameKind, seed: str, options: Options) -> str | None:
    """The seat that deals first from ``seed``, as the game's view names it (``deal`` or ``coup``'s dealer)."""
    shown = kind.view_json(kind.new_game(seed, options), kind.human)
    for part in ("deal", "coup"):
        found = shown.get(part)
        if isinstance(found, dict) and found.get("dealer") is not None:
            return str(found["dealer"])
    return None


def _seat_refusal(reason: str) -> ApiError:
    sentences = {
        "seat_taken": (409, "This seat is taken: choose a free one."),
        "table_started": (409, "The game has started: seats are taken before it or between games."),
        "table_closed": (410, CLOSED),
        "table_playing": (409, "A seat is left between games, not during one."),
        "no_seat": (422, "There is no such seat at this table."),
    }
    status, sentence = sentences.get(reason, (409, "This seat cannot be taken now."))
    return ApiError(status, reason, sentence)
