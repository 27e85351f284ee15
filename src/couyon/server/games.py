"""The authoritative game logic of the server, without HTTP: create, resume and play games.

Every game the site hosts is a ``GameKind`` of ``couyon.registry``; a stored game names its
kind by id, and the kind gives everything that differs: how a game is dealt, its bots, the
JSON of a view and of the events, the leaderboard's score. Nothing here branches on which
game it holds.

A request loads the stored moves and folds them over the seed (parsed once, folded with
``play``; a fold cache skips a prefix already folded from exactly these moves), checks the
human's move, lets the bots answer until South must act, and appends every new move in one
transaction keyed by move number. Daily seeds are HMACs of the server secret, the game and
the Europe/Brussels day; a finished ranked game enters its game's leaderboard only after a
second replay in which the bots recompute every one of their moves with the recorded bot id.
That replay costs up to a few hundred milliseconds, so it is not run by the final move's
request: the final move stores the finish time, and the replay runs after its answer is
sent (``verify_finished``) or, if that never happened, on the next ``show`` of the game.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import logging
import multiprocessing
import os
import secrets
import signal
import threading
import time
import unicodedata
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol
from zoneinfo import ZoneInfo

from pydantic import BaseModel
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from couyon.common.errors import CouyonError, GameOverError, IllegalMoveError, OutOfTurnError
from couyon.common.kind import Json
from couyon.registry import DEFAULT_GAME, GAMES, REVIEW_CODE, Engine, GameKind, Options, game_named
from couyon.server.encoding import json_text
from couyon.server.errors import ApiError
from couyon.store import LeaderboardEntry, RankedFinish, StaleMoveError, Store, StoredGame
from couyon.store.schema import games as games_table

Clock = Callable[[], dt.datetime]
"""The app's only source of time (aware datetimes); tests hand in one they can move."""
Replay = Callable[[StoredGame, list[str]], "tuple[int, int] | str"]
"""Runs the verifying replay of a finished game: its (score, deals), or why it is refused."""

BRUSSELS = ZoneInfo("Europe/Brussels")
PARENT_CHECK_SECONDS = 0.5
"""How often the replay process checks that the server process that started it still lives."""
FOLD_CACHE_GAMES = 4096
"""Games whose folded state is kept between requests (a few kilobytes each)."""
NAME_MAX = 24
HINTED = "the player asked for a hint"
"""Why a free game helped by a hint is not on its board (``ranked_finishes.refusal``)."""
UNTIL_OVER = {
    "record": "The record can be downloaded once the game is over.",
    "review": "The review opens once the game is over.",
}
"""What a request for a game's record or review answers before the game's end (409 ``game_not_over``)."""
_NAME_PUNCTUATION = frozenset(" -_.'")

log = logging.getLogger("couyon.server")


class ModeRules(Protocol):
    """What a mode of game other than free and daily says of its games (a club tournament's: ``server/clubs/service.py``).

    ``no_hints``: None if the player may ask for hints (a hint then takes the game out of its board), else
    the sentence that refuses them.
    """

    no_hints: str | None

    def refuse_play(self, game: StoredGame) -> None:
        """Raise an ``ApiError`` if no move may be played in ``game`` now (its tournament closed, say)."""
        ...

    def secret(self, game: StoredGame) -> bool:
        """Whether ``game``'s seed and hidden cards are still secret (its record and whole review wait)."""
        ...

    def entered(self, game: StoredGame, moves: list[str]) -> None:
        """``game`` was verified and entered its board (its mode's results may keep what they need of it)."""
        ...


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def random_seed() -> str:
    """The seed of a free game: 128 random bits."""
    return secrets.token_hex(16)


def table_bots(setting: str | None = None) -> dict[str, str]:
    """The bot of new tables of every game: the registry's, unless ``COUYON_TABLE_BOT`` names another.

    The setting is a bot id (``expert/1``: the default game's bot, as before there were several
    games) or comma-separated ``game=bot`` pairs (``couyon=expert/2,malmedy=random/1``). Raises
    ``ValueError`` with one sentence for an unknown game, an unknown bot or a game named twice.
    """
    chosen: dict[str, str] = {}
    for item in (setting or "").split(","):
        if not item.strip():
            continue
        game, equals, bot = item.strip().rpartition("=")
        kind = game_named(game.strip() if equals else DEFAULT_GAME)
        if kind.id in chosen:
            raise ValueError(f"COUYON_TABLE_BOT names the bot of {kind.id} twice")
        kind.bot(bot.strip())
        chosen[kind.id] = bot.strip()
    return {kind.id: chosen.get(kind.id, kind.table_bot_id) for kind in GAMES.values()}


def known_game(identifier: str) -> GameKind:
    """The game a request names; 422 with the list of games for a name the registry does not know."""
    try:
        return game_named(identifier)
    except ValueError:
        games = " and ".join(", ".join(GAMES).rsplit(", ", 1))
        raise ApiError(
            422, "invalid_fields", f"There is no game {identifier[:32]!r} here: the games are {games}."
        ) from None


def kind_of(game: StoredGame) -> GameKind:
    """The registry's game of a stored game (``ValueError`` if this server does not know it)."""
    return game_named(game.game)


def valid_name(raw: str) -> str:
    """A player's name: 1–24 letters, digits, spaces and ``-_.'`` (NFC, outer spaces dropped)."""
    name = unicodedata.normalize("NFC", raw).strip(" ")
    if not 1 <= len(name) <= NAME_MAX:
        raise ApiError(422, "invalid_name", f"A name has 1 to {NAME_MAX} characters.")
    if not all(char.isalnum() or char in _NAME_PUNCTUATION for char in name):
        raise ApiError(422, "invalid_name", "A name may hold only letters, digits, spaces and - _ . '")
    return name


def _sentence(text: str) -> str:
    """The engine's message as one sentence: capital first letter (card codes keep their case), full stop."""
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _naive_utc(moment: dt.datetime) -> dt.datetime:
    """Stored times are naive UTC so that SQLite and PostgreSQL compare them alike."""
    return moment.astimezone(dt.UTC).replace(tzinfo=None)


@dataclass(frozen=True, slots=True)
class GameAnswer:
    """What a game request answers: the game's public facts, South's view, events, leaderboard place.

    ``leaderboard_pending``: the game is finished and ranked, and its verifying replay has not run yet.
    """

    game: StoredGame
    state: Any
    events: list[Json]
    leaderboard: tuple[LeaderboardEntry, int] | None
    leaderboard_pending: bool = False
    hints: int = 0
    """How many of the game's moves the player asked a hint for (a game with one is not ranked)."""
    bot_moves: int = 0
    """How many bot decisions the request computed (public: the bots' moves are in the events, or were in the
    answer that first showed them); the answer floor (``couyon.server.pacing``) holds the answer by this count."""

    @property
    def decision_floor_ms(self) -> int:
        """The game's floor per bot decision (``GameKind.decision_floor_ms``)."""
        return kind_of(self.game).decision_floor_ms

    def to_json(self) -> Json:
        entry = self.leaderboard
        kind = kind_of(self.game)
        return {
            "id": self.game.id,
            "game": self.game.game,
            "options": stored_options(self.game),
            "mode": self.game.mode,
            "day": None if self.game.day is None else self.game.day.isoformat(),
            "ranked": self.game.ranked and not self.hints,
            "hints": self.hints,
            "bot": self.game.bot_id,
            "view": kind.view_json(self.state, kind.human),
            "events": self.events,
            "leaderboard": None
            if entry is None
            else {"board": entry[0].board, "rank": entry[1], "score": entry[0].score, "deals": entry[0].deals},
            "leaderboard_pending": self.leaderboard_pending,
        }


class GameAnswerModel(BaseModel):
    """A game answer (docs/api.md, ``GameAnswer.to_json``): the game's public facts, South's view and the events
    since the move; the OpenAPI schema's."""

    id: str
    game: str
    mode: Literal["free", "daily", "club", "duel"]
    day: str | None
    ranked: bool
    bot: str
    view: dict[str, Any]
    events: list[dict[str, Any]]
    leaderboard: dict[str, Any] | None
    leaderboard_pending: bool


def _refuse_over_or_stale(engine: Engine, state: Any, move_number: int, what: str) -> None:
    """409 for a ``what`` (a move, a hint) asked of a game that is over or of a view that is no longer the game's."""
    if engine.is_over(state):
        raise ApiError(409, "game_over", "The game is over: no move can follow.")
    if move_number != state.move_count:
        raise ApiError(
            409, "stale", f"This {what} answers view {move_number} but the game is at move {state.move_count}."
        )


class GameService:
    """Games of every kind, daily challenges and leaderboards over a ``Store``; keeps no game in memory.

    ``table_bots`` maps game ids to the bot of their new tables (``table_bots()`` reads the
    setting); a game it leaves out gets the registry's. ``new_seed`` deals free games.
    """

    def __init__(
        self,
        store: Store,
        secret: bytes,
        clock: Clock = utc_now,
        table_bots: Mapping[str, str] | None = None,
        replay: Replay | None = None,
        new_seed: Callable[[], str] = random_seed,
    ) -> None:
        bots = {kind.id: kind.table_bot_id for kind in GAMES.values()} | dict(table_bots or {})
        for game, bot in bots.items():
            game_named(game).bot(bot)  # Refuse to start with a bot nobody can replay.
        self.table_bots = bots
        self.new_seed = new_seed
        self.replay: Replay = replay or replay_check
        self.store = store
        self._secret = secret
        self.clock = clock
        self._folds = FoldCache(FOLD_CACHE_GAMES)
        # Games being verified, and reviews being built, in this process, with how many threads hold or wait for
        # their lock.
        self._working: dict[object, tuple[threading.Lock, int]] = {}
        self._working_guard = threading.Lock()
        self.modes: dict[str, ModeRules] = {}
        """The rules of the modes other modules add (``server/clubs/service.py``), by the games' ``mode``."""

    # -- time and the daily challenge ------------------------------------------------------

    def today(self) -> dt.date:
        """The current Europe/Brussels calendar day."""
        return self.clock().astimezone(BRUSSELS).date()

    def seconds_left_today(self) -> int:
        now = self.clock().astimezone(BRUSSELS)
        next_midnight = dt.datetime.combine(now.date() + dt.timedelta(days=1), dt.time(), BRUSSELS)
        # Subtract in UTC: aware datetimes of one zone subtract as wall-clock times, wrong on DST days.
        return max(0, int((next_midnight.astimezone(dt.UTC) - now.astimezone(dt.UTC)).total_seconds()))

    def daily_seed(self, day: dt.date, game: str = DEFAULT_GAME) -> str:
        """The seed of ``game``'s challenge of ``day``: HMAC-SHA256 of the server secret, the game and the day.

        The message is ``daily:<game>:<day>``, except for the default game whose seeds were
        published before there were several games: its message stays ``daily:<day>``.
        """
        message = f"daily:{day.isoformat()}" if game == DEFAULT_GAME else f"daily:{game}:{day.isoformat()}"
        return hmac.new(self._secret, message.encode(), hashlib.sha256).hexdigest()[:32]

    def published_seed(self, day: dt.date, game: str = DEFAULT_GAME) -> str:
        """The seed of a day that is over; refused while the day (or a later one) is still on."""
        kind = known_game(game)
        if day >= self.today():
            raise ApiError(403, "seed_secret", "The seed of a daily challenge is published once its day is over.")
        return self.daily_seed(day, kind.id)

    def daily_status(self, player_id: str | None, game: str = DEFAULT_GAME) -> Json:
        kind = known_game(game)
        day = self.today()
        game_id = None if player_id is None else self.store.daily_attempt(player_id, day, kind.id)
        finished = False
        if game_id is not None:
            loaded = self.store.game(game_id)
            if loaded is not None:
                finished = kind.engine.is_over(self._folds.fold(*loaded))
        return {
            "day": day.isoformat(),
            "seconds_left": self.seconds_left_today(),
            "game_id": game_id,
            "finished": finished,
        }

    def _finished_by(self, player_id: str | None, day: dt.date, kind: GameKind) -> bool:
        return player_id is not None and self.ranked_attempt_finished(player_id, day, kind)

    def ranked_attempt_finished(self, player_id: str, day: dt.date, kind: GameKind) -> bool:
        """Whether the player's ranked attempt of ``kind``'s challenge of ``day`` exists and is over."""
        game_id = self.store.daily_attempt(player_id, day, kind.id)
        loaded = None if game_id is None else self.store.game(game_id)
        return loaded is not None and kind.engine.is_over(self._folds.fold(*loaded))

    # -- games --------------------------------------------------------------------------------

    def create(
        self,
        player_id: str,
        mode: str,
        ranked: bool,
        game_id: str = DEFAULT_GAME,
        requested_options: Mapping[str, object] | None = None,
        past_day: dt.date | None = None,
        *,
        seed: str | None = None,
        bot_id: str | None = None,
        keep: Callable[[StoredGame, list[str]], str] | None = None,
        one_deal: bool = False,
    ) -> tuple[GameAnswer, bool]:
        """A new game of ``game_id`` whose bots have played up to the human's first turn; ``False`` if an attempt resumed.

        A daily game is dealt with the game's daily options; a free one with the options the
        request names (each missing one at its default). ``past_day`` deals the challenge of a
        day that is over, unranked (the archive: its seed is public by then). A mode of another module deals
        its own ``seed`` (and ``bot_id``: a challenge's is its game's) and stores the game with ``keep``, which
        returns the id of the game it kept: the one it was handed, or the player's game already there; with
        ``one_deal``, a game of one deal (``GameKind.one_deal``: a club's tournament in deals).
        """
        kind = known_game(game_id)
        now = self.clock()
        if past_day is not None:
            if mode != "daily" or ranked:
                raise ApiError(
                    422, "invalid_fields", "A past day's challenge is played as mode daily with ranked false."
                )
            if past_day >= self.today():
                raise ApiError(403, "day_not_over", "A day's challenge can be replayed once its day is over.")
        day = past_day or (self.today() if mode == "daily" else None)
        try:
            options = kind.parse_options(kind.daily_options if day is not None else requested_options, one_deal)
        except ValueError as error:
            raise ApiError(422, "invalid_fields", _sentence(str(error))) from None
        if (
            day is not None
            and past_day is None
            and not ranked
            and not self.ranked_attempt_finished(player_id, day, kind)
        ):
            # Deals and bots are deterministic: an unranked copy would show every hidden card and the
            # outcome of every choice before the player commits it in the ranked attempt.
            raise ApiError(
                409,
                "daily_not_finished",
                "Today's challenge can be replayed unranked once your ranked attempt of the day is finished.",
            )
        if seed is None:
            seed = self.new_seed() if day is None else self.daily_seed(day, kind.id)
        game = StoredGame(
            id="g_" + secrets.token_urlsafe(12),
            player_id=player_id,
            mode=mode,
            day=day,
            ranked=ranked,
            seed=seed,
            variant=kind.variant,
            bot_id=bot_id or kind.level_bots.get(str(options.get("level")), self.table_bots[kind.id]),
            created_at=_naive_utc(now),
            game=kind.id,
            options=json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "",
        )
        state = kind.engine.new_game(seed, options)
        events: list[Json] = []
        first_moves: list[str] = []
        state = _bots_play(kind, state, kind.bot(game.bot_id), events, first_moves)
        if keep is not None or (mode == "daily" and ranked):
            attempt_id = (keep or self.store.create_daily_attempt)(game, first_moves)
            if attempt_id != game.id:
                # The bots' first moves were computed all the same: the resumed answer is held for them too.
                return replace(self.show(player_id, attempt_id), bot_moves=len(first_moves)), False
        else:
            self.store.create_game(game, first_moves)
        # The bots may end a game before the human's first move (as qui court with one token: seat 1 dealt out
        # before he speaks): a ranked one is finished then, as by a final move.
        finish = self._ranked_finish(game, 0) if kind.engine.is_over(state) else None
        if finish is not None:
            self.store.append_moves(game.id, len(first_moves), [], finish)
        log.info(
            "game created",
            extra={"game": game.id, "kind": kind.id, "mode": mode, "ranked": ranked, "bot": game.bot_id},
        )
        pending = finish is not None and finish.refusal is None
        return GameAnswer(game, state, events, None, pending, bot_moves=len(first_moves)), True

    def _owned(self, player_id: str | None, game_id: str) -> tuple[StoredGame, list[str]]:
        loaded = None if player_id is None or len(game_id) > 40 else self.store.game(game_id)
        if loaded is None or loaded[0].player_id != player_id:
            # Someone else's game is answered exactly like a game that does not exist.
            raise ApiError(404, "unknown_game", "There is no such game for this player.")
        return loaded

    def show(self, player_id: str | None, game_id: str) -> GameAnswer:
        game, moves = self._owned(player_id, game_id)
        state = self._folds.fold(game, moves)
        entry = self._leaderboard_place(game, moves) if kind_of(game).engine.is_over(state) else None
        return GameAnswer(game, state, [], entry, hints=self.store.hints(game.id))

    def verify_finished(self, game_id: str) -> None:
        """Run a finished ranked game's verifying replay now (after the final move's answer was sent)."""
        try:
            loaded = self.store.game(game_id)
            if loaded is not None:
                self._leaderboard_place(*loaded)
        except Exception as error:  # Nobody waits for this answer: log, and the next show verifies.
            log.warning("leaderboard verification postponed", extra={"game": game_id, "error": str(error)})

    def _leaderboard_place(self, game: StoredGame, moves: list[str]) -> tuple[LeaderboardEntry, int] | None:
        """A finished game's entry and rank, verifying it first if it is ranked, pending and not refused."""
        entry = self.store.entry(game.id)
        if entry is not None or not game.ranked:
            return entry
        # One verification per game at a time in this process; another process may race, and its
        # insert of the same entry is a no-op.
        with self._one_at_a_time(("verify", game.id)):
            entry = self.store.entry(game.id)
            finish = self.store.ranked_finish(game.id)
            if entry is not None or finish is None or finish.refusal is not None:
                return entry
            if self.store.hints(game.id):  # A hint asked while the final move was being played.
                self.store.refuse(game.id, HINTED)
                return None
            verdict = self.replay(game, moves)
            if isinstance(verdict, str):
                log.warning("leaderboard entry refused", extra={"game": game.id, "reason": verdict})
                self.store.refuse(game.id, verdict)
                return None
            score, deals = verdict
            kind = kind_of(game)
            self.store.enter(
                LeaderboardEntry(
                    game_id=game.id,
                    board=game.mode,
                    day=game.day,
                    player_id=game.player_id,
                    score=score,
                    deals=deals,
                    finished_at=finish.finished_at,
                    game=game.game,
                    level=kind.level(stored_options(game)),
                )
            )
            if game.mode == "daily" and kind.deal_results is not None:
                # The day's field compares its deals (``DayResults``): their lines are kept now, from the fold the
                # final move left in the cache, so that no read has to fold the day's games again.
                lines = kind.deal_results(self._folds.fold(game, moves))
                self.store.keep_deal_lines({game.id: json_text(lines)}, REVIEW_CODE)
            rules = self.modes.get(game.mode)
            if rules is not None:
                try:
                    rules.entered(game, moves)
                except Exception as error:  # The entry stands; the mode's results compute what they miss later.
                    log.warning("mode's entry hook failed", extra={"game": game.id, "error": str(error)})
            return self.store.entry(game.id)

    @contextmanager
    def _one_at_a_time(self, key: object) -> Iterator[None]:
        """One thread of this process at a time for ``key`` (a game's verification, a review's building)."""
        with self._working_guard:
            lock, holders = self._working.get(key, (threading.Lock(), 0))
            self._working[key] = (lock, holders + 1)
        try:
            with lock:
                yield
        finally:
            with self._working_guard:
                lock, holders = self._working[key]
                if holders == 1:
                    del self._working[key]
                else:
                    self._working[key] = (lock, holders - 1)

    def move(self, player_id: str | None, game_id: str, action: str, move_number: int) -> GameAnswer:
        """Play the human's ``action`` on the view numbered ``move_number``, then the bots' answers."""
        game, moves = self._owned(player_id, game_id)
        # Read with the game (``Store.reading``: the same connection), before the bots' moves.
        hints = self.store.hints(game.id) if self._no_hints(game) is None else 0
        state = self._folds.fold(game, moves)
        kind = kind_of(game)  # The fold refused a game this server does not know.
        engine = kind.engine
        self._refuse_play(game)
        _refuse_over_or_stale(engine, state, move_number, "move")
        if not kind.human_may_move(state):
            raise ApiError(409, "out_of_turn", "It is not your turn.")
        if kind.waive_action is not None and action == kind.waive_action:
            return self._waive(game, moves, state, kind, hints)
        try:
            move = engine.parse_move(f"{kind.human}:{action}", stored_options(game))
        except CouyonError:
            raise ApiError(422, "invalid_move", f"{action[:12]!r} is not a move: send {kind.actions}.") from None
        try:
            after = engine.play(state, move)
        except (OutOfTurnError, GameOverError) as error:
            raise ApiError(409, "out_of_turn", _sentence(str(error))) from None
        except IllegalMoveError as error:
            raise ApiError(409, "illegal_move", _sentence(str(error))) from None
        events = kind.events_of(state, move, after)
        new_moves = [str(move)]
        after = _bots_play(kind, after, kind.bot(game.bot_id), events, new_moves)
        finish = self._ranked_finish(game, hints) if engine.is_over(after) else None
        try:
            self.store.append_moves(game.id, len(moves), new_moves, finish)
        except StaleMoveError:
            raise ApiError(409, "stale", "This move was already played from another tab or request.") from None
        self._folds.remember(game, (*moves, *new_moves), after)
        # The entry comes from the verifying replay, run after this answer (``verify_finished``).
        pending = finish is not None and finish.refusal is None
        return GameAnswer(game, after, events, None, pending, hints, bot_moves=len(new_moves) - 1)

    def _waive(self, game: StoredGame, moves: list[str], state: Any, kind: GameKind, hints: int) -> GameAnswer:
        """The human lets his optional move go (``kind.waive_action``): nothing of his is stored, the seat the
        game waits for moves, then the bots until the human may move again."""
        engine = kind.engine
        self._refuse_play(game)
        if engine.to_move(state) == kind.human:
            raise ApiError(409, "illegal_move", "There is nothing to let go now: the game waits for your move.")
        bot = kind.bot(game.bot_id)
        move = engine.bot_move(state, bot)
        after = engine.play(state, move)
        events = kind.events_of(state, move, after)
        new_moves = [str(move)]
        after = _bots_play(kind, after, bot, events, new_moves)
        finish = self._ranked_finish(game, hints) if engine.is_over(after) else None
        try:
            self.store.append_moves(game.id, len(moves), new_moves, finish)
        except StaleMoveError:
            raise ApiError(409, "stale", "This move was already played from another tab or request.") from None
        self._folds.remember(game, (*moves, *new_moves), after)
        pending = finish is not None and finish.refusal is None
        return GameAnswer(game, after, events, None, pending, hints, bot_moves=len(new_moves))

    def _no_hints(self, game: StoredGame) -> str | None:
        """None if the player of ``game`` may ask for hints, else the sentence that refuses them."""
        rules = self.modes.get(game.mode)
        if rules is not None:
            return rules.no_hints
        return None if game.mode == "free" else "Hints are for free games: the daily challenge is played without help."

    def _refuse_play(self, game: StoredGame) -> None:
        rules = self.modes.get(game.mode)
        if rules is not None:
            rules.refuse_play(game)

    def _seed_secret(self, game: StoredGame) -> bool:
        rules = self.modes.get(game.mode)
        return rules is not None and rules.secret(game)

    def _ranked_finish(self, game: StoredGame, hints: int) -> RankedFinish | None:
        """What the final move of a ranked game stores: its finish time, and a refusal if its day was over
        or the player asked for a hint."""
        if not game.ranked:
            return None
        now = self.clock()
        refusal = None
        if game.mode == "daily" and game.day != now.astimezone(BRUSSELS).date():
            # Its day is over and the seed is public: a late finish cannot be ranked.
            refusal = "the daily game was finished after its day"
        elif hints:
            refusal = HINTED
        return RankedFinish(_naive_utc(now), refusal)

    def hint(self, player_id: str | None, game_id: str, move_number: int) -> Json:
        """The expert's move for the human on the view numbered ``move_number`` of a free game; the game is
        no longer ranked. The expert decides from the human's view alone (``engine.bot_move`` hands it the
        view of the seat to move), never from the whole state."""
        game, moves = self._owned(player_id, game_id)
        kind = kind_of(game)
        refusal = self._no_hints(game)
        if refusal is not None or kind.hint_bot_id is None:
            raise ApiError(
                403, "no_hints", refusal or "Hints are for free games: the daily challenge is played without help."
            )
        self._refuse_play(game)
        state = self._folds.fold(game, moves)
        engine = kind.engine
        _refuse_over_or_stale(engine, state, move_number, "hint")
        if engine.to_move(state) != kind.human:
            raise ApiError(409, "out_of_turn", "It is not your turn.")
        move = engine.bot_move(state, kind.bot(kind.hint_bot_id))
        hints = self.store.add_hint(game.id, move_number)
        log.info("hint", extra={"game": game.id, "kind": kind.id, "hints": hints})
        return {"move": str(move).split(":", 1)[1], "move_number": move_number, "hints": hints, "ranked": False}

    def record(self, player_id: str | None, game_id: str) -> str:
        """The ``couyon-record/1`` JSON of a finished game (a daily one once its day is over)."""
        game, moves = self._owned(player_id, game_id)
        state = self._folds.fold(game, moves)
        kind = kind_of(game)
        if not kind.engine.is_over(state):
            raise ApiError(409, "game_not_over", UNTIL_OVER["record"])
        if game.day is not None and game.day >= self.today():
            raise ApiError(403, "seed_secret", "A daily challenge's record is published once its day is over.")
        if self._seed_secret(game):
            raise ApiError(403, "seed_secret", "This game's record is published once its tournament closes.")
        extras: Json = {"bots": game.bot_id, "player": self.store.player_name(game.player_id)}
        if game.day is not None:
            extras["challenge"] = game.day.isoformat()
        return kind.engine.record_json(game.seed, moves, stored_options(game), extras)

    def review(self, player_id: str | None, game_id: str) -> Json:
        """The review of a finished game (``couyon.games.couyon.review``): a daily game's hidden cards once its day is over."""
        game, moves = self._owned(player_id, game_id)
        state = self._folds.fold(game, moves)
        kind = kind_of(game)
        if kind.review is None:
            raise ApiError(409, "no_review", f"There is no review of a game of {kind.names['en']} yet.")
        if not kind.engine.is_over(state):
            raise ApiError(409, "game_not_over", UNTIL_OVER["review"])
        revealed = (game.day is None or game.day < self.today()) and not self._seed_secret(game)
        day = None if game.day is None else game.day.isoformat()
        facts = {"id": game.id, "game": game.game, "mode": game.mode, "day": day, "ranked": game.ranked}
        return {**facts, **self._kept_review(game, moves, revealed, str(kind.human))}

    def _kept_review(self, game: StoredGame, moves: list[str], revealed: bool, seat: str) -> Json:
        """A finished game's review from ``seat`` (its label: the solo table's human, or a person's seat at a
        friends' table), built once and stored: it costs up to a second of CPU and never changes.

        The moves of a finished game are final, and so is what a review may show: the review of a daily
        game before its day is over (``revealed`` false) hides what the seat did not see and is stored apart,
        and the whole review is built, and stored, by the first request once nothing is secret. Each seat's
        review is stored apart (migration 0014). A review
        built by other code (``registry.REVIEW_CODE``: the version and a hash of the games' and common code) is
        built again. One thread of the process builds a given review
        while the others asking for it wait, then read it. A store that refuses the write costs the next
        request the building again, not this one its answer.
        """
        stored = self.store.review(game.id, seat, revealed, REVIEW_CODE)
        if stored is not None:
            return _unpacked(stored)
        with self._one_at_a_time(("review", game.id, seat, revealed)):
            stored = self.store.review(game.id, seat, revealed, REVIEW_CODE)
            if stored is not None:
                return _unpacked(stored)
            review = kind_of(game).review
            assert review is not None
            built = review(game.seed, moves, revealed, stored_options(game), game.bot_id, seat)
            try:
                self.store.keep_review(game.id, seat, revealed, REVIEW_CODE, _packed(built))
            except SQLAlchemyError as error:
                log.warning("review not stored", extra={"game": game.id, "error": type(error).__name__})
            log.info("review built", extra={"game": game.id, "kind": game.game, "seat": seat, "revealed": revealed})
            return built

    # -- leaderboards and names ------------------------------------------------------------------

    def leaderboard(
        self,
        board: str,
        day: dt.date | None,
        limit: int,
        game: str = DEFAULT_GAME,
        level: str | None = None,
        *,
        period: str = "all",
        player_id: str | None = None,
    ) -> Json:
        """A board of ``game``: the free board of one level (the default level unless ``level`` names one), or
        a day's board (always the daily's level).

        ``period`` keeps the free board's games finished today or this week (from Monday), Brussels time, or
        all of them. Each line says whether it is ``player_id``'s and carries its player's ``tag``.
        """
        kind = known_game(game)
        if board == "daily" and period != "all":
            raise ApiError(
                422, "invalid_fields", "A daily board is one day's: leave out period, or ask for board free."
            )
        if board == "daily" and day is None:
            day = self.today()
        if board == "free":
            day = None
        shown = self._board_level(kind, board, level)
        # Today's board shows what today's results hide (scores, deals, coucou places): the same rule.
        if day is not None and day >= self.today() and not self._finished_by(player_id, day, kind):
            raise ApiError(
                403,
                "results_hidden",
                "A day's board is shown once your ranked attempt of it is finished, or once the day is over.",
            )
        since = self._period_start(period)
        entries = self.store.leaderboard(board, day, limit, kind.id, shown, since=since)
        facts = kind.board_facts
        options = self._options_of([entry.game_id for entry in entries]) if facts is not None else {}
        return {
            "board": board,
            "day": None if day is None else day.isoformat(),
            "level": shown or None,
            "period": period,
            "entries": [
                {
                    "rank": entry.rank,
                    "name": entry.name,
                    "tag": self.player_tag(entry.player_id),
                    "you": entry.player_id == player_id,
                    "score": entry.score,
                    "deals": entry.deals,
                    "finished_at": entry.finished_at.replace(tzinfo=dt.UTC).isoformat(),
                    **({} if facts is None else facts(entry.score, entry.deals, options.get(entry.game_id, {}))),
                }
                for entry in entries
            ],
        }

    def _period_start(self, period: str) -> dt.datetime | None:
        """The first moment of today or of this week (Monday), Brussels time, as naive UTC; None for all time."""
        if period == "all":
            return None
        today = self.today()
        first = today if period == "day" else today - dt.timedelta(days=today.weekday())
        return _naive_utc(dt.datetime.combine(first, dt.time(), BRUSSELS))

    def player_tag(self, player_id: str) -> str:
        """Five digits that stay the same for a player and tell anonymous players apart on a board.

        An HMAC of the server secret: the player's id, which is the key to the player's games, cannot be
        read back from it.
        """
        digest = hmac.new(self._secret, f"tag:{player_id}".encode(), hashlib.sha256).digest()
        return str(10_000 + int.from_bytes(digest[:8], "big") % 90_000)

    @staticmethod
    def _board_level(kind: GameKind, board: str, level: str | None) -> str:
        """The level of the board a request names; 422 with one sentence for a level the game does not offer."""
        rule = next((rule for rule in kind.options if rule.name == "level"), None)
        if rule is None:
            if level is not None:
                raise ApiError(422, "invalid_fields", f"{kind.names['en']} has no levels: leave out level.")
            return ""
        if level is not None and level not in rule.values:
            levels = " and ".join(", ".join(str(value) for value in rule.values).rsplit(", ", 1))
            raise ApiError(422, "invalid_fields", f"There is no level {level[:16]!r} here: the levels are {levels}.")
        daily_level = kind.level(kind.daily_options)
        if board == "daily" and level not in (None, daily_level):
            raise ApiError(422, "invalid_fields", f"The daily challenge is always played at the {daily_level} level.")
        return daily_level if board == "daily" else level or str(rule.default)

    def _options_of(self, game_ids: list[str]) -> dict[str, Options]:
        """The table options of these stored games, in one query (a board line's facts may need them)."""
        if not game_ids:
            return {}
        query = select(games_table.c.id, games_table.c.options).where(games_table.c.id.in_(game_ids))
        with self.store.engine.connect() as connection:
            rows = connection.execute(query).all()
        return {row.id: json.loads(row.options) if row.options else {} for row in rows}

    def set_name(self, player_id: str, raw: str) -> str:
        name = valid_name(raw)
        self.store.set_player_name(player_id, name, _naive_utc(self.clock()))
        return name

    def new_recovery_generation(self, player_id: str) -> int:
        """The generation of the player's new recovery code: older codes stop working."""
        return self.store.new_recovery_generation(player_id, _naive_utc(self.clock()))


def _packed(review: Json) -> bytes:
    """A review as stored: its compact JSON, zlib-compressed (7 to 9 times smaller: docs/server.md, Reviews)."""
    return zlib.compress(json.dumps(review, ensure_ascii=False, separators=(",", ":")).encode(), 6)


def _unpacked(body: bytes) -> Json:
    review: Json = json.loads(zlib.decompress(body))
    return review


class VerificationError(Exception):
    """A stored game that does not replay as the rules and its bots would have played it."""


class FoldCache:
    """Recently folded games, reused only when the stored moves still begin with the cached ones.

    Every request still loads the moves from the database; the cache only skips re-folding a
    prefix already folded from exactly those moves, so it can never disagree with the store
    (another process's appended moves are folded on top, a rewritten list is folded anew).
    """

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._lock = threading.Lock()
        self._states: OrderedDict[tuple[str, str, str], tuple[tuple[str, ...], Any]] = OrderedDict()

    def fold(self, game: StoredGame, moves: list[str]) -> Any:
        """The current state: the stored moves folded over the seed (bots are not asked again)."""
        key = (game.id, game.seed, game.variant)
        with self._lock:
            cached = self._states.get(key)
        start = 0
        try:
            if cached is not None and len(cached[0]) <= len(moves) and cached[0] == tuple(moves[: len(cached[0])]):
                start, state = len(cached[0]), cached[1]
            kind = kind_of(game)
            options = stored_options(game)
            if start == 0:
                state = kind.engine.new_game(game.seed, options)
            for text in moves[start:]:
                state = kind.engine.play(state, kind.engine.parse_move(text, options))
        except (CouyonError, ValueError) as error:
            log.error("stored game does not replay", extra={"game": game.id, "error": str(error)})
            raise ApiError(409, "corrupt_game", "This game's stored moves do not replay; it cannot continue.") from None
        if start < len(moves) or cached is None:
            self.remember(game, tuple(moves), state)
        return state

    def remember(self, game: StoredGame, moves: tuple[str, ...], state: Any) -> None:
        with self._lock:
            key = (game.id, game.seed, game.variant)
            self._states[key] = (moves, state)
            self._states.move_to_end(key)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)


def replay_check(game: StoredGame, moves: list[str]) -> tuple[int, int] | str:
    """The verifying replay's verdict on a finished game: its (score, deals), or why it is refused."""
    try:
        state = verified_replay(game, moves)
    except VerificationError as error:
        return str(error)
    scored = kind_of(game).score(state)
    assert scored is not None
    return scored


def _start_replay_worker(parent: int) -> None:
    """The replay process's start: it ignores Ctrl-C and exits as soon as the server process is gone."""
    # Ctrl-C reaches the whole process group: the server stops the replay process itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Nobody waits for a replay (it runs after the final move's answer): when the cores are busy, requests first.
    os.nice(10)
    threading.Thread(target=_exit_when_orphaned, args=(parent,), name="replay-parent-watch", daemon=True).start()


def _exit_when_orphaned(parent: int) -> None:
    # A server killed with SIGKILL never shuts its pool down: the worker would live on (80 MB). Once its
    # parent is gone it is re-parented, so a changed parent id means nobody will ever ask it again.
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


class ReplayProcess:
    """``replay_check`` in one separate process, started on first use.

    The replay is pure Python CPU for 50-250 ms; in a thread of the server it would hold the
    GIL while the requests' threads wait for it (each wait up to a 5 ms switch interval), so
    it runs where it uses the other core and the requests only wait on its pipe.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool: ProcessPoolExecutor | None = None

    def _started(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn, not fork: the server process has threads (and database connections) to not copy.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    1, mp_context=context, initializer=_start_replay_worker, initargs=(os.getpid(),)
                )
            return self._pool

    def __call__(self, game: StoredGame, moves: list[str]) -> tuple[int, int] | str:
        pool = self._started()
        try:
            return pool.submit(replay_check, game, moves).result()
        except BrokenProcessPool:
            # The replay process died (killed, out of memory): start another one once.
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            return self._started().submit(replay_check, game, moves).result()

    def close(self) -> None:
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def stored_options(game: StoredGame) -> Options:
    """The table options a stored game was dealt with (none for games without options)."""
    options: Options = json.loads(game.options) if game.options else {}
    return options


BotsMove = Callable[[GameKind, Any, int, Any], bool]
"""Whether move ``index`` (parsed, played from ``state``) is a bot's, to be recomputed by the verifying replay; it
may refuse the move with a ``VerificationError`` sentence."""


def solo_bots_move(kind: GameKind, state: Any, index: int, move: Any) -> bool:
    """At the solo table every seat but the human's is a bot's, and a bot moves only when the human may not, or when
    the game waits for that bot while the human let an optional move go (the tarot taker's chelem,
    ``GameKind.waive_action``)."""
    if move.seat == kind.human:
        return False
    if kind.human_may_move(state) and (kind.waive_action is None or kind.engine.to_move(state) != move.seat):
        raise VerificationError(f"move {index} is {move} but the human was to move")
    return True


def verified_replay(game: StoredGame, moves: Sequence[str], bots_move: BotsMove = solo_bots_move) -> Any:
    """Replay from the seed, recomputing every bot move (``bots_move`` says which: the solo table's by default, a
    friends' table's in ``couyon.server.tables.service``) with the recorded bot; refuse any difference.

    Every other move is checked by the rules alone. Raises ``VerificationError``; the final state otherwise.
    """
    try:
        kind = kind_of(game)
        engine = kind.engine
        bot = kind.bot(game.bot_id)
        options = stored_options(game)
        state = engine.new_game(game.seed, options)
        for index, text in enumerate(moves):
            move = engine.parse_move(text, options)
            if bots_move(kind, state, index, move):
                expected = engine.bot_move(state, bot)
                if expected != move:
                    raise VerificationError(f"move {index} is {text} but bot {game.bot_id} plays {expected}")
            state = engine.play(state, move)
    except (CouyonError, ValueError) as error:
        raise VerificationError(f"the moves do not replay: {error}") from None
    if not engine.is_over(state):
        raise VerificationError("the game is not finished")
    return state


def _bots_play(kind: GameKind, state: Any, bot: Any, events: list[Json], new_moves: list[str]) -> Any:
    """Let the bots move until the human has a move or the game ends, recording moves and ``kind``'s events."""
    engine = kind.engine
    while not engine.is_over(state) and not kind.human_may_move(state):
        move = engine.bot_move(state, bot)
        after = engine.play(state, move)
        events.extend(kind.events_of(state, move, after))
        new_moves.append(str(move))
        state = after
    return state
