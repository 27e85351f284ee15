"""The HTTP routes of puzzles (docs/api.md, "Puzzles"): thin, over ``PuzzleService``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from couyon.registry import DEFAULT_GAME
from couyon.server.errors import ErrorBody, documented
from couyon.server.identity import new_player_id
from couyon.server.pacing import AnswerFloor
from couyon.server.puzzles.service import ANSWER_FLOOR_MS, PuzzleService

PuzzleGame = Annotated[str, Query(max_length=32, description="The game's id (GET /api/catalog)")]


class AnswerRequest(BaseModel):
    """The card the player chooses, as records write it (``AS``, ``10C``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    card: str = Field(max_length=8)


class PuzzleRatingModel(BaseModel):
    rating: float
    deviation: float
    volatility: float
    provisional: bool


class QuestionModel(BaseModel):
    """What the seat saw: nothing hidden, no solution."""

    id: str
    game: str
    seat: str
    view: dict[str, Any]
    rating: PuzzleRatingModel


class NextModel(BaseModel):
    puzzle: QuestionModel
    player_rating: PuzzleRatingModel


class DailyModel(BaseModel):
    day: str
    puzzle: QuestionModel
    answered: bool


class CardValueModel(BaseModel):
    card: str
    value: float
    best_share: float


class AnswerModel(BaseModel):
    id: str
    correct: bool
    card: str
    best: list[str]
    values: list[CardValueModel]
    unit: str
    layouts: int
    exhaustive: bool
    certain: bool
    themes: list[str]
    layout: dict[str, list[str]] | None
    failures: dict[str, dict[str, list[str]]]
    source: dict[str, Any]
    daily: str | None
    player_rating: PuzzleRatingModel
    puzzle_rating: PuzzleRatingModel


class AnsweredModel(BaseModel):
    number: int
    puzzle: str
    card: str
    correct: bool
    daily: str | None
    at: str
    rating: PuzzleRatingModel


class MyPuzzlesModel(BaseModel):
    """The player's puzzle rating in a game, and his answers there with his rating after each (the curve)."""

    game: str
    rating: PuzzleRatingModel
    answers: list[AnsweredModel]


def _json(document: object) -> Response:
    return Response(json.dumps(document, ensure_ascii=False, separators=(",", ":")), media_type="application/json")


def puzzles_router(
    puzzles: PuzzleService,
    current_player: Callable[[Request], str | None],
    remember: Callable[[Response, str, Request], None],
    answer_floor: AnswerFloor,
) -> APIRouter:
    router = APIRouter()

    @router.get("/api/puzzles/next", responses=documented({200: {"model": NextModel}}, errors=(404, 422, 429, 503)))
    async def next_puzzle(request: Request, game: PuzzleGame = DEFAULT_GAME) -> Response:
        return _json(await run_in_threadpool(puzzles.next, current_player(request), game))

    @router.get("/api/puzzles/daily", responses=documented({200: {"model": DailyModel}}, errors=(404, 422, 429, 503)))
    async def daily_puzzle(request: Request, game: PuzzleGame = DEFAULT_GAME) -> Response:
        return _json(await run_in_threadpool(puzzles.daily, current_player(request), game))

    @router.get("/api/puzzles/me", responses=documented({200: {"model": MyPuzzlesModel}}, errors=(404, 422, 429, 503)))
    async def my_puzzles(request: Request, game: PuzzleGame = DEFAULT_GAME) -> Response:
        return _json(await run_in_threadpool(puzzles.mine, current_player(request), game))

    @router.post(
        "/api/puzzles/{puzzle_id}/answer",
        responses=documented(
            {200: {"model": AnswerModel}, 410: {"model": ErrorBody, "description": "A past day's puzzle of the day"}},
            errors=(400, 404, 409, 413, 422, 429, 503),
        ),
    )
    async def answer(body: AnswerRequest, request: Request, puzzle_id: Annotated[str, Path(max_length=20)]) -> Response:
        # Held as long whatever is played, right or wrong, so that the answer's time tells nothing.
        arrival = answer_floor.monotonic()
        found = current_player(request)
        player_id = found or new_player_id()
        try:
            document = await run_in_threadpool(puzzles.answer, player_id, puzzle_id, body.card)
        finally:
            await answer_floor.hold(arrival, 1, ANSWER_FLOOR_MS, "puzzle answer")
        response = _json(document)
        if found is None:
            remember(response, player_id, request)
        return response

    return router
