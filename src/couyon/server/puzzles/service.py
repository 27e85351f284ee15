"""Puzzles over HTTP (docs/api.md, "Puzzles"; docs/puzzles.md): the next puzzle near the player's rating, the day's
puzzle, and the answer judged and rated.

Before the answer only the question leaves the server (``Puzzle.question_json``: the seat's view, no seed, no
solution, no values). The answer is judged against the mined best cards, rated by Glicko-2 (``glicko2.rate_answer``)
once (the store's key), and only then are the solution, the values, a failing layout and the source game sent.
"""

from __future__ import annotations

import datetime as dt
import hashlib

from couyon.common.kind import GameKind, Json
from couyon.server.errors import ApiError
from couyon.server.games import GameService, _naive_utc, known_game
from couyon.server.puzzles.glicko2 import NEW, Glicko, rate_answer
from couyon.store.puzzles import PuzzleStore, StoredPuzzle

ANSWER_FLOOR_MS = 100
"""Every answer is held until this long after it arrived (``pacing.AnswerFloor``), right or wrong alike."""


def rating_json(rating: Glicko) -> Json:
    return {
        "rating": round(rating.rating, 1),
        "deviation": round(rating.deviation, 1),
        "volatility": round(rating.volatility, 5),
        "provisional": rating.provisional,
    }


def day_index(game: str, day: dt.date, count: int) -> int:
    """Which of ``count`` puzzles (by id) is the puzzle of ``day``: from a hash of the game and the day."""
    return int.from_bytes(hashlib.sha256(f"{game}:{day.isoformat()}".encode()).digest()[:8], "big") % count


class PuzzleService:
    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = PuzzleStore(service.store)

    def _game(self, raw_game: str) -> GameKind:
        kind = known_game(raw_game)
        if kind.puzzles is None:
            raise ApiError(404, "no_puzzles", f"{kind.names['en']} has no puzzles yet.")
        return kind

    def _question(self, stored: StoredPuzzle) -> Json:
        return {**stored.puzzle.question_json(), "rating": rating_json(stored.rating)}

    def next(self, player_id: str | None, raw_game: str) -> Json:
        """The puzzle of the game rated nearest the player's rating that he never answered."""
        kind = self._game(raw_game)
        rating = NEW if player_id is None else self.store.rating(player_id, kind.id)
        found = self.store.next_for(player_id or "", kind.id, rating.rating)
        if found is None:
            raise ApiError(404, "no_puzzle", f"There is no {kind.names['en']} puzzle left that you have not answered.")
        return {"puzzle": self._question(found), "player_rating": rating_json(rating)}

    def daily(self, player_id: str | None, raw_game: str) -> Json:
        """Today's puzzle of the game (Europe/Brussels day), the same for everyone, and whether the player answered."""
        kind = self._game(raw_game)
        day = self.service.today()
        found = self.store.daily(kind.id, day, lambda count: day_index(kind.id, day, count))
        if found is None:
            raise ApiError(404, "no_puzzle", f"There is no {kind.names['en']} puzzle yet.")
        answered = player_id is not None and self.store.attempt(player_id, found.puzzle.id) is not None
        return {"day": day.isoformat(), "puzzle": self._question(found), "answered": answered}

    def mine(self, player_id: str | None, raw_game: str) -> Json:
        """The player's puzzle rating in the game and every answer of his there, oldest first, each with his rating
        after it (the curve)."""
        kind = self._game(raw_game)
        history = [] if player_id is None else self.store.history(player_id, kind.id)
        rating = NEW if player_id is None else self.store.rating(player_id, kind.id)
        return {
            "game": kind.id,
            "rating": rating_json(rating),
            "answers": [
                {
                    "number": attempt.number,
                    "puzzle": attempt.puzzle_id,
                    "card": attempt.card,
                    "correct": attempt.correct,
                    "daily": None if attempt.daily is None else attempt.daily.isoformat(),
                    "at": attempt.answered_at.isoformat(),
                    "rating": rating_json(attempt.rating),
                }
                for attempt in history
            ],
        }

    def answer(self, player_id: str, puzzle_id: str, card: str) -> Json:
        """Judge and rate the player's first answer to the puzzle; refuse a second one, a card the seat may not play,
        or a past day's puzzle of the day."""
        stored = self.store.puzzle(puzzle_id[:20])
        if stored is None:
            raise ApiError(404, "no_puzzle", f"There is no puzzle {puzzle_id[:20]!r}.")
        puzzle = stored.puzzle
        legal = [value.card for value in puzzle.values]
        if card not in legal:
            raise ApiError(
                409,
                "illegal_card",
                f"{card[:8]!r} is not a card the seat may play here: the cards are {', '.join(legal)}.",
            )
        today = self.service.today()
        day = self.store.daily_day(puzzle.game, puzzle.id)
        if day is not None and day < today:
            raise ApiError(
                410, "daily_over", f"The puzzle of {day.isoformat()} is over: today's puzzle is another one."
            )
        correct = card in puzzle.best
        attempt = self.store.answer(
            player_id,
            puzzle.id,
            card,
            correct,
            _naive_utc(self.service.clock()),
            day,
            lambda player, rated: rate_answer(player, rated, correct),
        )
        if attempt is None:
            raise ApiError(
                409, "already_answered", "You have answered this puzzle already: only the first answer counts."
            )
        after = self.store.puzzle(puzzle.id)
        assert after is not None
        return {
            "id": puzzle.id,
            "correct": correct,
            "card": card,
            "best": list(puzzle.best),
            "values": [value.to_json() for value in puzzle.values],
            "unit": puzzle.unit,
            "layouts": puzzle.layouts,
            "exhaustive": puzzle.exhaustive,
            "certain": puzzle.certain,
            "themes": list(puzzle.themes),
            "layout": puzzle.failures.get(card),
            "failures": dict(puzzle.failures),
            "source": {
                "game": puzzle.game,
                "options": dict(puzzle.options),
                "seed": puzzle.seed,
                "moves": list(puzzle.moves),
                "seat": puzzle.seat,
                "played": puzzle.played,
            },
            "daily": None if day is None else day.isoformat(),
            "player_rating": rating_json(attempt.rating),
            "puzzle_rating": rating_json(after.rating),
        }
