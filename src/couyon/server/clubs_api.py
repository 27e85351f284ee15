"""The HTTP routes of clubs, tournaments and challenges (docs/api.md, "Clubs"): thin, over ``ClubService``.

``create_app`` includes ``clubs_router``; it hands over what every route needs from the app: the game
service, the player of a request's cookie, and how to set the cookie of a new player.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool

from couyon.registry import DEFAULT_GAME
from couyon.server.clubs import ClubService
from couyon.server.errors import ApiError
from couyon.server.games import GameService
from couyon.server.identity import new_player_id
from couyon.server.limits import RateLimiter

JOINS_PER_MINUTE = 10
"""Join attempts per address (and per player) a minute: a code of 49 bits cannot be enumerated at that pace."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class ClubName(_Strict):
    name: str = Field(max_length=64)


class JoinRequest(_Strict):
    code: str = Field(max_length=40)


class RoleRequest(_Strict):
    role: Literal["manager", "member"]


class HandOverRequest(_Strict):
    member: str = Field(max_length=32)


class TournamentRequest(_Strict):
    name: str = Field(max_length=64)
    game: str = Field(DEFAULT_GAME, max_length=32)
    options: dict[str, int | str] | None = None
    count: int | None = Field(None, strict=True, description="the number of games; or give deals")
    deals: int | None = Field(
        None, strict=True, description="for a game of a fixed number of deals (tarot): the number of deals"
    )
    opens_at: dt.datetime | None = Field(None, description="ISO 8601 with its offset; now when left out")
    closes_at: dt.datetime
    weekly: bool = False
    model_config = ConfigDict(extra="forbid", strict=False)


class ChallengeRequest(_Strict):
    game_id: str = Field(max_length=40)


def _json(document: object, status: int = 200) -> Response:
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return Response(body, status, media_type="application/json")


def clubs_router(
    service: GameService,
    secret: bytes,
    current_player: Callable[[Request], str | None],
    remember: Callable[[Response, str, Request], None],
) -> APIRouter:
    """The routes under ``/api/clubs``, ``/api/tournaments`` and ``/api/challenges``."""
    clubs = ClubService(service, secret)
    joins = RateLimiter(JOINS_PER_MINUTE, kind="club-joins", address_factor=1, shared=service.store)
    # Not in /api/openapi.json yet: the hostile suite (tests/hostile/) fuzzes every operation of the schema, and these
    # routes' answers are not yet described there (docs/api.md describes them).
    router = APIRouter(include_in_schema=False)

    def player(request: Request) -> tuple[str, bool]:
        found = current_player(request)
        return (found, False) if found is not None else (new_player_id(), True)

    def answered(document: object, status: int, request: Request, player_id: str, new: bool) -> Response:
        response = _json(document, status)
        if new:
            remember(response, player_id, request)
        return response

    @router.post("/api/clubs", status_code=201)
    async def create_club(body: ClubName, request: Request) -> Response:
        player_id, new = player(request)
        club = await run_in_threadpool(clubs.create_club, player_id, body.name)
        return answered(club, 201, request, player_id, new)

    @router.get("/api/clubs")
    def my_clubs(request: Request) -> Response:
        return _json(clubs.my_clubs(current_player(request)))

    @router.post("/api/clubs/join")
    async def join(body: JoinRequest, request: Request) -> Response:
        player_id, new = player(request)
        address = (request.client.host if request.client else None) or None
        wait = await joins.retry_after(None if new else player_id, address)
        if wait is not None:
            raise ApiError(429, "too_many_requests", f"Too many club codes tried: try again in {wait} seconds.", wait)
        club = await run_in_threadpool(clubs.join, player_id, body.code)
        return answered(club, 200, request, player_id, new)

    @router.get("/api/clubs/{club_id}")
    def club(club_id: str, request: Request) -> Response:
        return _json(clubs.club_json(club_id, current_player(request)))

    @router.put("/api/clubs/{club_id}")
    def rename(club_id: str, body: ClubName, request: Request) -> Response:
        return _json(clubs.rename(club_id, current_player(request), body.name))

    @router.delete("/api/clubs/{club_id}/members/{key}")
    def remove(club_id: str, key: str, request: Request) -> Response:
        return _json(clubs.remove(club_id, current_player(request), key))

    @router.put("/api/clubs/{club_id}/members/{key}/role")
    def set_role(club_id: str, key: str, body: RoleRequest, request: Request) -> Response:
        return _json(clubs.set_role(club_id, current_player(request), key, body.role))

    @router.post("/api/clubs/{club_id}/hand-over")
    def hand_over(club_id: str, body: HandOverRequest, request: Request) -> Response:
        return _json(clubs.hand_over(club_id, current_player(request), body.member))

    @router.get("/api/clubs/{club_id}/daily")
    def daily_board(club_id: str, request: Request, game: str = DEFAULT_GAME) -> Response:
        return _json(clubs.daily_board(club_id, current_player(request), game[:32]))

    @router.get("/api/clubs/{club_id}/tournaments")
    def tournaments(club_id: str, request: Request) -> Response:
        return _json(clubs.tournaments(club_id, current_player(request)))

    @router.post("/api/clubs/{club_id}/tournaments", status_code=201)
    def schedule(club_id: str, body: TournamentRequest, request: Request) -> Response:
        fields = body.model_dump()
        opens = fields.get("opens_at") or service.clock()
        for name, moment in (("opens_at", opens), ("closes_at", fields["closes_at"])):
            if moment.tzinfo is None:
                raise ApiError(422, "invalid_fields", f"{name} needs its offset from UTC, such as +01:00 or Z.")
        fields["opens_at"] = opens
        return _json(clubs.schedule(club_id, current_player(request), fields), 201)

    @router.get("/api/clubs/{club_id}/series/{series_id}")
    def series(club_id: str, series_id: str, request: Request) -> Response:
        return _json(clubs.series(club_id, current_player(request), series_id))

    @router.get("/api/tournaments/{tournament_id}")
    def tournament(tournament_id: str, request: Request) -> Response:
        player_id = current_player(request)
        found, _role = clubs._tournament(tournament_id, player_id)
        return _json(clubs.tournament_json(found, player_id))

    @router.post("/api/tournaments/{tournament_id}/play")
    async def play(tournament_id: str, request: Request) -> Response:
        player_id = current_player(request)
        if player_id is None:
            raise ApiError(404, "unknown_tournament", "There is no such tournament for this player.")
        answer, created = await run_in_threadpool(clubs.play, tournament_id, player_id)
        return _json(answer.to_json(), 201 if created else 200)

    @router.get("/api/tournaments/{tournament_id}/results")
    def results(tournament_id: str, request: Request) -> Response:
        return _json(clubs.results(tournament_id, current_player(request)))

    @router.get("/api/tournaments/{tournament_id}/deals/{game}/{deal}")
    def deal(tournament_id: str, game: int, deal: int, request: Request, offset: int = Query(0, ge=0)) -> Response:
        return _json(clubs.deal(tournament_id, current_player(request), game, deal, offset))

    @router.get("/api/tournaments/{tournament_id}/records/{game_id}")
    def record(tournament_id: str, game_id: str, request: Request) -> Response:
        body = clubs.record(tournament_id, current_player(request), game_id)
        return Response(body, 200, media_type="application/json")

    @router.post("/api/challenges", status_code=201)
    def challenge(body: ChallengeRequest, request: Request) -> Response:
        return _json(clubs.challenge(current_player(request), body.game_id), 201)

    @router.post("/api/challenges/{challenge_id}/play")
    async def take(challenge_id: str, request: Request) -> Response:
        player_id, new = player(request)
        answer, created = await run_in_threadpool(clubs.take, challenge_id, player_id)
        return answered(answer.to_json(), 201 if created else 200, request, player_id, new)

    @router.get("/api/challenges/{challenge_id}")
    def challenge_results(challenge_id: str, request: Request) -> Response:
        return _json(clubs.challenge_results(challenge_id, current_player(request)))

    return router
