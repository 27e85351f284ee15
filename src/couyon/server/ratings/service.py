"""Ratings of play with people (issue 35, docs/ratings.md): the live update of a finished table game, the rebuild
of every rating from the stored games, and the readings the routes answer.

The live update and the rebuild call the same pure functions (``model.places``, ``model.update``) on the same
stored data (the game's moves, who held each seat, which moves the bot made at a person's seat), in the order of
``rating_games``: the rebuild gives the live numbers exactly (tests/server/test_ratings.py).
"""

from __future__ import annotations

import bisect
import datetime as dt
import json
from collections.abc import Mapping

from couyon.common.kind import Json
from couyon.registry import GAMES, GameKind
from couyon.server.clubs.service import TOURNAMENT_MODE, ClubService
from couyon.server.errors import ApiError
from couyon.server.games import FoldCache, GameService, _naive_utc, kind_of, known_game
from couyon.server.ratings.model import (
    FARMING_DAYS,
    NEW,
    PERFORMANCE_DEALS,
    PROVISIONAL_DEALS,
    PROVISIONAL_GAMES,
    Place,
    Rating,
    anchor_of,
    farming_factor,
    people_key,
    performance,
    places,
    update,
)
from couyon.server.results import DayResults
from couyon.store import StoredGame
from couyon.store.ratings import RatedGame, RatingStore
from couyon.store.tables import TableStore

BOARD_SIZE = 100
"""The most lines of a game's board by rating."""
WINDOW = dt.timedelta(days=FARMING_DAYS)
REBUILD_CHUNK = 500
"""Games a rebuild reads at once (a chunk's ids are bound in each query: under the 999 values the oldest SQLite
allows)."""


def _placed(
    game: StoredGame, moves: list[str], holders: dict[str, str | None], bot_numbers: set[int], folds: FoldCache
) -> tuple[str, list[Place], tuple[float, float]] | None:
    """A finished table or tournament game's game id, each seat's part in it and its bot's anchor, from its stored
    row, moves, seats' holders and bot moves; None if it is neither. A tournament game's person holds the game's
    human seat, every other seat its bot."""
    kind = kind_of(game)
    if not holders and game.mode == TOURNAMENT_MODE:
        holders = {str(kind.human): game.player_id}
    if not holders:
        return None
    final = folds.fold(game, moves)
    if kind.seats is None or kind.seat_result is None or not kind.engine.is_over(final):
        return None
    options = json.loads(game.options) if game.options else {}
    return kind.id, places(kind, options, final, holders, moves, bot_numbers), anchor_of(kind.id, game.bot_id)


def family(kind: GameKind) -> str:
    """The game family a challenge performance is measured per (issue 35): the games the site explains with one set
    of rules, its rules page. Tarot at 3, 4 and 5 are one game at three table sizes (the same cards, contracts and
    scoring), so one family: a deal's percentage is a rank against those who played that same deal at the same size,
    on the same 0-100 scale whatever the size, and their mean is still how often the person beat the field. Every
    other game is its own: Malmedy is couyon's variant but another game to play (five cards and a blind, trump always
    named, the mite, free play: its own rules page); coucou and as qui court have no deals to compare."""
    return kind.rules_page


def rating_json(rating: Rating) -> Json:
    """A rating as the API gives it: the number shown, μ, σ, the games counted, whether provisional."""
    return {
        "rating": round(rating.shown, 2),
        "mu": round(rating.mu, 3),
        "sigma": round(rating.sigma, 3),
        "games": round(rating.games, 2),
        "provisional": rating.provisional,
    }


class RatingService:
    """Ratings over the games' service and its store."""

    def __init__(self, games: GameService, clubs: ClubService | None = None, days: DayResults | None = None) -> None:
        self.games = games
        self.clubs = clubs
        """The tournaments the challenge performance is read from (none: the rebuild's, which reads stored games)."""
        self.days = days
        """The daily challenges it is read from (none: the rebuild's)."""
        if clubs is not None:
            clubs.tournament_rules.finished = self.rate  # A verified tournament game is rated as it is entered.
        self.store = RatingStore(games.store)
        self.tables = TableStore(games.store)

    def _places(self, game_id: str) -> tuple[str, list[Place], tuple[float, float]] | None:
        """A finished table or tournament game's game id, each seat's part in it and its bot's anchor; None if it is
        neither."""
        stored = self.games.store.game(game_id)
        if stored is None:
            return None
        holders, bots = self.tables.holders(game_id), self.tables.bot_numbers(game_id)
        return _placed(*stored, holders, bots, self.games._folds)

    def rate(self, game_id: str) -> bool:
        """Rate a finished table game or verified tournament game (once: False if it was rated already, or is
        neither)."""
        made = self._places(game_id)
        if made is None:
            return False
        kind_id, found, anchor = made
        people = [place.player_id for place in found if place.player_id is not None]

        def compute(before: Mapping[str, Rating], earlier: int) -> dict[str, Rating]:
            return update(anchor, found, before, farming_factor(earlier, len(before)))

        now = _naive_utc(self.games.clock())
        return self.store.rate(game_id, kind_id, people_key(found), people, now, WINDOW, compute)

    def rebuild(self) -> int:
        """Recompute every rating from the stored games, in the order they were rated; the number of games.

        The games are read ``REBUILD_CHUNK`` at a time (four queries a chunk), each folded once with a fold cache of
        its own (the rebuild's games must not push the players' out of the service's), the anti-farming counts kept
        per set of people as it goes, and everything written in one transaction (``RatingStore.replace``)."""
        current: dict[tuple[str, str], Rating] = {}
        computed: list[tuple[RatedGame, dict[str, Rating]]] = []
        rated_at: dict[tuple[str, str], list[dt.datetime]] = {}
        """The times of the games rated so far, by game and people, in order (the anti-farming window counts them)."""
        folds = FoldCache(1)
        rows = self.store.rated_games()
        for start in range(0, len(rows), REBUILD_CHUNK):
            chunk = rows[start : start + REBUILD_CHUNK]
            ids = [row.game_id for row in chunk]
            stored, holders, bots = (
                self.games.store.games_of(ids),
                self.tables.holders_of(ids),
                self.tables.bot_numbers_of(ids),
            )
            for row in chunk:
                times = rated_at.setdefault((row.game, row.people), [])
                earlier = len(times) - bisect.bisect_right(times, row.rated_at - WINDOW)
                bisect.insort(times, row.rated_at)
                loaded = stored.get(row.game_id)
                made = (
                    None
                    if loaded is None
                    else _placed(*loaded, holders.get(row.game_id, {}), bots.get(row.game_id, set()), folds)
                )
                after: dict[str, Rating] = {}
                if made is not None:
                    kind_id, found, anchor = made
                    people = {place.player_id for place in found if place.player_id is not None}
                    before = {player: current.get((player, kind_id), NEW) for player in people}
                    after = update(anchor, found, before, farming_factor(earlier, len(before)))
                    current.update({(player, kind_id): rating for player, rating in after.items()})
                computed.append((row, after))
        self.store.replace(computed)
        return len(computed)

    def challenge(self, player_id: str) -> dict[str, Json]:
        """The person's challenge performance in each game family (``family``) he played closed tournaments or daily
        challenges of days that are over of: their deals merged, the latest field completed first (a tournament's
        closing, a day's end), with the games whose deals it counts."""
        families: dict[str, list[tuple[dt.datetime, str, list[tuple[float, float]]]]] = {}
        for ended, game, deals in [] if self.clubs is None else self.clubs.closed_deals(player_id):
            families.setdefault(family(GAMES[game]), []).append((ended, game, deals))
        for kind in GAMES.values():
            for ended, deals in [] if self.days is None else self.days.field_deals(player_id, kind, PERFORMANCE_DEALS):
                families.setdefault(family(kind), []).append((ended, kind.id, deals))
        found: dict[str, Json] = {}
        for name, merged in families.items():
            merged.sort(key=lambda item: item[0], reverse=True)
            # Latest first, the deals of one tournament or day last first.
            measured = performance([deal for _at, _game, deals in merged for deal in reversed(deals)])
            if measured is not None:
                found[name] = {
                    "performance": round(measured.value, 1),
                    "interval": round(measured.interval, 1),
                    "deals": measured.deals,
                    "provisional": measured.provisional,
                    "games": [kind.id for kind in GAMES.values() if any(game == kind.id for _at, game, _d in merged)],
                }
        return found

    def me(self, player_id: str | None) -> Json:
        """The person's rating and challenge performance in each game he has a rating or challenge deals in, with the
        rating's curve (the rating after each game that rated him); a game's challenge performance is its family's."""
        if player_id is None:
            return {"games": [], "provisional_below": PROVISIONAL_GAMES, "provisional_below_deals": PROVISIONAL_DEALS}
        challenge = self.challenge(player_id)
        points = self.store.points_of(player_id)
        found = self.store.ratings_of(player_id)
        answer: list[Json] = []
        for kind in GAMES.values():
            shared = challenge.get(family(kind))
            if kind.id not in found and (shared is None or kind.id not in shared["games"]):
                continue
            curve = [
                {"at": point.rated_at.replace(tzinfo=dt.UTC).isoformat(), **rating_json(point.rating)}
                for point in points
                if point.game == kind.id
            ]
            rating = None if kind.id not in found else rating_json(found[kind.id])
            answer.append({"game": kind.id, "rating": rating, "curve": curve, "challenge": shared})
        return {"games": answer, "provisional_below": PROVISIONAL_GAMES, "provisional_below_deals": PROVISIONAL_DEALS}

    def board(self, raw_game: str, name: str | None = None) -> Json:
        """A game's board by rating: the people no longer provisional, highest number shown first; with ``name``,
        only that person's line (404 with one sentence if nobody of that name is on it)."""
        kind = known_game(raw_game)
        lines = [
            {"rank": rank, "name": shown_name, **rating_json(rating)}
            for rank, (_player, shown_name, rating) in enumerate(
                self.store.board(kind.id, PROVISIONAL_GAMES, BOARD_SIZE), start=1
            )
        ]
        if name is not None:
            lines = [line for line in lines if line["name"] == name]
            if not lines:
                raise ApiError(
                    404, "no_rating", f"Nobody named {name[:24]!r} is on the board by rating of {kind.names['en']}."
                )
        return {"game": kind.id, "entries": lines}

    def of_people(self, game: str, player_ids: list[str]) -> dict[str, Json]:
        """The ratings in ``game`` of those of these people who have one (a table's lobby shows them)."""
        return {player: rating_json(rating) for player, rating in self.store.of_people(game, player_ids).items()}
