"""What a returning player sees: the day's results (distribution, percentile, traveller) and personal statistics.

Everything is computed from the stored verified games (``leaderboard_entries`` and the games'
moves); each verified daily game's deal lines are kept once folded (``deal_lines``, a cache of the fold). The day's results of today are shown only to a player whose
ranked attempt of the day is finished, and the traveller (how the field did with each deal)
only once the day is over: before that it would tell the outcome of deals others have yet to
play, as the deals and the bots are the same for everyone.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from collections import Counter, OrderedDict

from couyon.common.kind import Json
from couyon.registry import DEFAULT_GAME, REVIEW_CODE, GameKind
from couyon.server.clubs.service import Entrant, field_deals, standings
from couyon.server.encoding import json_text
from couyon.server.errors import ApiError
from couyon.server.games import BRUSSELS, FoldCache, GameService, _naive_utc, known_game
from couyon.store import LeaderboardEntry

TRAVELLERS_KEPT = 64
"""Days of a game whose traveller is kept (one fold of every verified game of the day makes one)."""
FIELDS_KEPT = 512
"""Days of a game whose matchpoints are kept for the challenge performance (a few hundred bytes a game a day): the
days a person's latest 500 deals span, in every game, are read by everyone who played them."""


def better_than_percent(rank: int, field: int) -> int | None:
    """The share of the other players of a board ranked after ``rank``, in whole percent (None when alone)."""
    if field < 2:
        return None
    return (100 * (field - rank)) // (field - 1)


def _counts(values: list[int], key: str, descending: bool) -> list[Json]:
    return [{key: value, "players": count} for value, count in sorted(Counter(values).items(), reverse=descending)]


class DayResults:
    """The day's results and the personal statistics of ``service``'s store (``GET /api/daily/results``, ``/stats``)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._lock = threading.Lock()
        # (game, day, number of entries) -> the day's traveller lines: a late-verified entry makes a new key.
        self._travellers: OrderedDict[tuple[str, dt.date, int], dict[str, list[Json]]] = OrderedDict()
        # (game, day, number of entries) -> each verified game's deals for the challenge performance (None: coups).
        self._fields: OrderedDict[tuple[str, dt.date, int], dict[str, list[tuple[float, float]]] | None] = OrderedDict()

    def of_day(self, player_id: str | None, game: str = DEFAULT_GAME, day: dt.date | None = None) -> Json:
        """The results of ``game``'s challenge of ``day`` (today by default) as ``player_id`` may see them."""
        kind = known_game(game)
        today = self.service.today()
        day = day or today
        over = day < today
        if not over and (player_id is None or not self.service.ranked_attempt_finished(player_id, day, kind)):
            raise ApiError(
                403,
                "results_hidden",
                "A day's results are shown once your ranked attempt of it is finished, or once the day is over.",
            )
        entries = self.service.store.daily_entries(day, kind.id)
        field = len(entries)
        mine = next(
            ((rank, entry) for rank, entry in enumerate(entries, start=1) if entry.player_id == player_id), None
        )
        you: Json | None = None
        if mine is not None:
            rank, entry = mine
            you = {
                "score": entry.score,
                "deals": entry.deals,
                "rank": rank,
                "better_than_percent": better_than_percent(rank, field),
            }
        traveller = None
        if over and kind.deal_results is not None and kind.traveller is not None:
            lines = self._traveller_lines(kind, day, entries)
            own = lines.get(mine[1].game_id, []) if mine is not None else []
            traveller = kind.traveller(list(lines.values()), own)
        return {
            "game": kind.id,
            "day": day.isoformat(),
            "over": over,
            "players": field,
            "scores": _counts([entry.score for entry in entries], "score", descending=True),
            "deals": _counts([entry.deals for entry in entries], "deals", descending=False),
            "you": you,
            "traveller": traveller,
        }

    def _traveller_lines(self, kind: GameKind, day: dt.date, entries: list[LeaderboardEntry]) -> dict[str, list[Json]]:
        """Each verified game of the day's deal results (``GameKind.deal_results``), by game id; cached per day."""
        key = (kind.id, day, len(entries))
        with self._lock:
            cached = self._travellers.get(key)
        if cached is not None:
            return cached
        assert kind.deal_results is not None
        store = self.service.store
        kept = store.deal_lines([entry.game_id for entry in entries], REVIEW_CODE)
        lines = {game_id: json.loads(text) for game_id, text in kept.items()}
        folds = FoldCache(1)  # A fold of its own: the day's games must not push the players' games out of the cache.
        folded: dict[str, list[Json]] = {}
        for entry in entries:
            if entry.game_id in lines:
                continue
            loaded = store.game(entry.game_id)
            if loaded is not None:
                folded[entry.game_id] = kind.deal_results(folds.fold(*loaded))
        # Kept once for every process and every later start (migration 0017): a day's field is folded once.
        store.keep_deal_lines({game_id: json_text(deals) for game_id, deals in folded.items()}, REVIEW_CODE)
        lines |= folded
        with self._lock:
            self._travellers[key] = lines
            while len(self._travellers) > TRAVELLERS_KEPT:
                self._travellers.popitem(last=False)
        return lines

    def field_deals(
        self, player_id: str, kind: GameKind, most: int
    ) -> list[tuple[dt.datetime, list[tuple[float, float]]]]:
        """The player's deals of ``kind``'s challenges of the days that are over (a running day's field is not
        complete), latest day first, until ``most`` deals: when the day ended, and his deals (``field_deals``): each
        deal's matchpoints against everyone whose verified game of that day played it, as a tournament's standings
        compute them (the day is one tournament of one game, each entrant one verified game)."""
        if kind.deal_results is None:
            return []
        today = self.service.today()
        played = [(entry.day, entry) for entry, _rank, _field in self.service.store.daily_places(player_id, kind.id)]
        found: list[tuple[dt.datetime, list[tuple[float, float]]]] = []
        counted = 0
        for day, mine in reversed(played):  # ``daily_places`` gives the oldest day first.
            if day is None or day >= today:
                continue
            if counted >= most:
                break
            entries = self.service.store.daily_entries(day, kind.id)
            field = self._day_field(kind, day, entries)
            if field is None:
                return []  # A game of coups, not of deals (coucou): no deal to compare.
            deals = field.get(mine.game_id, [])
            ended = dt.datetime.combine(day + dt.timedelta(days=1), dt.time(), BRUSSELS)
            found.append((_naive_utc(ended), deals))
            counted += len(deals)
        return found

    def _day_field(
        self, kind: GameKind, day: dt.date, entries: list[LeaderboardEntry]
    ) -> dict[str, list[tuple[float, float]]] | None:
        """Each verified game of the day's deals (``field_deals``), by game id; None for a game of coups. Kept per
        day and number of entries (``FIELDS_KEPT``), as the traveller lines are."""
        key = (kind.id, day, len(entries))
        with self._lock:
            if key in self._fields:
                self._fields.move_to_end(key)
                return self._fields[key]
        lines = self._traveller_lines(kind, day, entries)
        answer = standings(
            [
                Entrant(entry.game_id, None, {1: entry.score}, {1: lines[entry.game_id]})
                for entry in entries
                if entry.game_id in lines
            ],
            1,
        )
        deal_based = answer["deal_based"] or not any(lines.values())
        field = field_deals(answer) if deal_based else None
        with self._lock:
            self._fields[key] = field
            while len(self._fields) > FIELDS_KEPT:
                self._fields.popitem(last=False)
        return field

    def of_player(self, player_id: str | None, game: str = DEFAULT_GAME) -> Json:
        """The player's statistics in ``game``: ranked games finished and won, average score, daily streaks."""
        kind = known_game(game)
        store = self.service.store
        entries = [] if player_id is None else store.player_entries(player_id, kind.id)
        places = [] if player_id is None else store.daily_places(player_id, kind.id)
        scores = [entry.score for entry in entries]
        days = [entry.day for entry, _rank, _field in places if entry.day is not None]
        today = self.service.today()
        return {
            "game": kind.id,
            "today": today.isoformat(),
            "games": {
                "played": len(entries),
                "won": None if kind.win_score is None else sum(score >= kind.win_score for score in scores),
                "average_score": round(sum(scores) / len(scores), 1) if scores else None,
                "best_score": max(scores, default=None),
            },
            "daily": {
                "played": len(days),
                "streak": current_streak(days, today),
                "best_streak": best_streak(days),
                "days": [
                    {
                        "day": entry.day.isoformat() if entry.day else None,
                        "score": entry.score,
                        "deals": entry.deals,
                        "rank": rank,
                        "players": field,
                    }
                    for entry, rank, field in places
                ],
            },
        }


def current_streak(days: list[dt.date], today: dt.date) -> int:
    """Days played in a row up to today, or up to yesterday while today's challenge is still to play."""
    played = set(days)
    day = today if today in played else today - dt.timedelta(days=1)
    streak = 0
    while day in played:
        streak += 1
        day -= dt.timedelta(days=1)
    return streak


def best_streak(days: list[dt.date]) -> int:
    """The longest run of consecutive days played."""
    best = run = 0
    previous: dt.date | None = None
    for day in sorted(set(days)):
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return best
