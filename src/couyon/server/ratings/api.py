"""The HTTP routes of ratings (docs/api.md, "Ratings"): thin, over ``RatingService``."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from couyon.server.encoding import json_response
from couyon.server.errors import documented
from couyon.server.ratings.service import RatingService


class RatingModel(BaseModel):
    """A rating: the number shown (μ − 3σ, never lowered by a win), μ and σ, the weight of games counted."""

    rating: float
    mu: float
    sigma: float
    games: float
    provisional: bool


class CurvePointModel(RatingModel):
    at: str


class ChallengeModel(BaseModel):
    """A challenge performance of a game family: the mean percentage corrected for the fields' strength, its 95 %
    interval's half-width, the deals counted (the latest 500 at most)."""

    performance: float
    interval: float
    deals: int
    provisional: bool
    games: list[str]
    """The games whose deals it counts: one game, or several of one family (tarot at 3, 4 and 5)."""


class GameRatingModel(BaseModel):
    game: str
    rating: RatingModel | None
    curve: list[CurvePointModel]
    challenge: ChallengeModel | None


class MyRatingsModel(BaseModel):
    """The person's two numbers in each game he has one of, with the rating's curve."""

    games: list[GameRatingModel]
    provisional_below: int
    provisional_below_deals: int


class BoardLineModel(RatingModel):
    rank: int
    name: str | None


class RatingBoardModel(BaseModel):
    """A game's board by rating: people no longer provisional, highest first."""

    game: str
    entries: list[BoardLineModel]


def ratings_router(ratings: RatingService, current_player: Callable[[Request], str | None]) -> APIRouter:
    router = APIRouter()

    @router.get("/api/ratings/me", responses=documented({200: {"model": MyRatingsModel}}, errors=(429, 503)))
    async def mine(request: Request) -> Response:
        player_id = current_player(request)
        return json_response(await run_in_threadpool(ratings.me, player_id))

    @router.get(
        "/api/ratings/board", responses=documented({200: {"model": RatingBoardModel}}, errors=(404, 422, 429, 503))
    )
    async def board(game: str, name: str | None = None) -> Response:
        return json_response(await run_in_threadpool(ratings.board, game[:32], None if name is None else name[:64]))

    return router
