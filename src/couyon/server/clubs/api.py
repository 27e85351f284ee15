"""The HTTP routes of clubs, tournaments and challenges (docs/api.md, "Clubs"): thin, over ``ClubService``.

``create_app`` includes ``clubs_router``; it hands over what every route needs from the app: the game
service, the player of a request's cookie, and how to set the cookie of a new player.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, Literal

from fastapi import APIRouter, BackgroundTasks, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, RootModel
from starlette.concurrency import run_in_threadpool

from couyon.registry import DEFAULT_GAME
from couyon.server.clubs.service import ClubService
from couyon.server.encoding import json_response
from couyon.server.errors import ApiError, ErrorBody, documented
from couyon.server.games import GameAnswer, GameAnswerModel
from couyon.server.identity import new_player_id
from couyon.server.limits import RateLimiter
from couyon.server.pacing import AnswerFloor

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
        None,
        strict=True,
        description="the number of deals instead: tarot's, a multiple of its deals per game; couyon's and Malmedy's, "
        "1 to 20, each a game of one deal",
    )
    opens_at: dt.datetime | None = Field(None, description="ISO 8601 with its offset; now when left out")
    closes_at: dt.datetime
    weekly: bool = False
    model_config = ConfigDict(extra="forbid", strict=False)


class ChallengeRequest(_Strict):
    game_id: str = Field(max_length=40)


# -- the answers, as /api/openapi.json describes them (docs/api.md, "Clubs, tournaments and challenges") ----------


class MemberModel(BaseModel):
    key: str = Field(description="The member's key in this club (an HMAC: never the player id)")
    name: str | None
    tag: str
    role: Literal["creator", "manager", "member"]
    you: bool


class ClubModel(BaseModel):
    """A club, to one of its members: its code and link, the members and their roles."""

    id: str
    name: str
    role: Literal["creator", "manager", "member"]
    code: str
    link: str
    manager: bool
    deals_per_game: dict[str, int] = Field(
        description="The games whose tournaments may be given a number of deals, and the deals of each of its games"
    )
    members: list[MemberModel]


class ClubLineModel(BaseModel):
    id: str
    name: str
    role: Literal["creator", "manager", "member"]


class ClubListModel(BaseModel):
    """The player's clubs."""

    clubs: list[ClubLineModel]


class RemovedModel(RootModel[ClubModel | ClubListModel]):
    """The club once a member is removed; to a member who left, his clubs (as ``GET /api/clubs``)."""


class DailyBoardModel(BaseModel):
    """The members' daily scores of the week (Monday to today) side by side, and their week's totals."""

    game: str
    today: str
    today_shown: bool
    days: list[str]
    members: list[dict[str, Any]]


class TournamentModel(BaseModel):
    """A tournament: its game and length, its times, the asking player's games, its seeds once closed."""

    id: str
    club: str
    name: str
    game: str
    options: dict[str, int | str]
    count: int = Field(description="Its number of games")
    deals: int | None = Field(
        description="Its number of deals, when given in deals (tarot; couyon and Malmedy: games of one deal)"
    )
    opens_at: str
    closes_at: str
    weekly: bool
    series: str
    state: Literal["coming", "open", "closed"]
    games: list[dict[str, Any]]
    seeds: list[str] | None


class TournamentListModel(BaseModel):
    tournaments: list[TournamentModel]


class StandingModel(BaseModel):
    entrant: str
    name: str | None
    total: int
    games: int
    duplicate: float | None
    rank: int
    duplicate_rank: int | None = None
    you: bool


class DealLineModel(BaseModel):
    game: int
    deal: int
    entrants: int


class ResultsModel(BaseModel):
    """The standings, and the deals whose results ``GET /api/tournaments/{id}/deals/{game}/{deal}`` gives."""

    tournament: TournamentModel
    deal_based: bool
    standings: list[StandingModel]
    deals: list[DealLineModel]


class DealResultsModel(BaseModel):
    """One deal's results, best first: a page of them from ``offset``; ``next_offset`` asks the next page."""

    game: int
    deal: int
    entrants: int
    offset: int
    next_offset: int | None
    results: list[dict[str, Any]]


class SeriesModel(BaseModel):
    """A weekly series' closed tournaments and each member's record over them."""

    series: str
    name: str
    archive: list[dict[str, Any]]
    members: list[dict[str, Any]]


class ChallengeLinkModel(BaseModel):
    id: str
    link: str


class ChallengeResultsModel(BaseModel):
    """Every side of a challenge; scores and lines shown once the asking player's own game is over."""

    id: str
    game: str
    names: dict[str, str]
    options: dict[str, int | str]
    mine: str | None
    shown: bool
    players: list[dict[str, Any]]


def _answer(model: type[BaseModel], status: int = 200, description: str = "") -> dict[int | str, dict[str, Any]]:
    return {status: {"model": model, "description": description or model.__doc__ or "The answer"}}


def _refused(status: int, description: str) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody, "description": description}}


NOT_A_MANAGER = _refused(403, "Not a manager (or not the creator) of the club")
READ = (404, 429, 503)
"""What every read of a club or tournament may answer besides its answer: not a member, too many requests, no database."""
WRITE = (400, 404, 409, 413, 422, 429, 503)
"""What every write with a JSON body may answer besides its answer."""


def clubs_router(
    clubs: ClubService,
    current_player: Callable[[Request], str | None],
    remember: Callable[[Response, str, Request], None],
    answer_floor: AnswerFloor,
) -> APIRouter:
    """The routes under ``/api/clubs``, ``/api/tournaments`` and ``/api/challenges``."""
    service = clubs.service
    joins = RateLimiter(JOINS_PER_MINUTE, kind="club-joins", address_factor=1, shared=service.store)
    # In /api/openapi.json, where the hostile suite (tests/hostile/test_schemathesis.py) fuzzes every operation.
    router = APIRouter(tags=["clubs"])

    def player(request: Request) -> tuple[str, bool]:
        found = current_player(request)
        return (found, False) if found is not None else (new_player_id(), True)

    def answered(document: object, status: int, request: Request, player_id: str, new: bool) -> Response:
        response = json_response(document, status)
        if new:
            remember(response, player_id, request)
        return response

    async def dealt(
        deal: Callable[[], tuple[GameAnswer, bool]], background: BackgroundTasks
    ) -> tuple[GameAnswer, bool]:
        """A game dealt or resumed as ``POST /api/games`` does it: the answer held by the floor of the bot moves
        made before the player's first turn (their time would tell what the bots hold: server/pacing.py), and
        its verifying replay run once it is sent when those moves ended it."""
        arrival = answer_floor.monotonic()
        answer, created = await run_in_threadpool(deal)
        await answer_floor.hold(arrival, answer.bot_moves, answer.decision_floor_ms, "create")
        if answer.leaderboard_pending:
            background.add_task(service.verify_finished, answer.game.id)
        return answer, created

    @router.post("/api/clubs", status_code=201, responses=documented(_answer(ClubModel, 201), errors=WRITE))
    async def create_club(body: ClubName, request: Request) -> Response:
        player_id, new = player(request)
        club = await run_in_threadpool(clubs.create_club, player_id, body.name)
        return answered(club, 201, request, player_id, new)

    @router.get("/api/clubs", responses=documented(_answer(ClubListModel), errors=(429, 503)))
    def my_clubs(request: Request) -> Response:
        return json_response(clubs.my_clubs(current_player(request)))

    @router.post("/api/clubs/join", responses=documented(_answer(ClubModel), errors=WRITE))
    async def join(body: JoinRequest, request: Request) -> Response:
        player_id, new = player(request)
        address = (request.client.host if request.client else None) or None
        wait = await joins.retry_after(None if new else player_id, address)
        if wait is not None:
            raise ApiError(429, "too_many_requests", f"Too many club codes tried: try again in {wait} seconds.", wait)
        club = await run_in_threadpool(clubs.join, player_id, body.code)
        return answered(club, 200, request, player_id, new)

    @router.get("/api/clubs/{club_id}", responses=documented(_answer(ClubModel), errors=READ))
    def club(club_id: str, request: Request) -> Response:
        return json_response(clubs.club_json(club_id, current_player(request)))

    @router.put("/api/clubs/{club_id}", responses=documented(_answer(ClubModel), NOT_A_MANAGER, errors=WRITE))
    def rename(club_id: str, body: ClubName, request: Request) -> Response:
        return json_response(clubs.rename(club_id, current_player(request), body.name))

    @router.delete(
        "/api/clubs/{club_id}/members/{key}",
        responses=documented(
            _answer(RemovedModel),
            NOT_A_MANAGER,
            errors=(404, 409, 429, 503),
        ),
    )
    def remove(club_id: str, key: str, request: Request) -> Response:
        return json_response(clubs.remove(club_id, current_player(request), key))

    @router.put(
        "/api/clubs/{club_id}/members/{key}/role",
        responses=documented(_answer(ClubModel), NOT_A_MANAGER, errors=WRITE),
    )
    def set_role(club_id: str, key: str, body: RoleRequest, request: Request) -> Response:
        return json_response(clubs.set_role(club_id, current_player(request), key, body.role))

    @router.post(
        "/api/clubs/{club_id}/hand-over", responses=documented(_answer(ClubModel), NOT_A_MANAGER, errors=WRITE)
    )
    def hand_over(club_id: str, body: HandOverRequest, request: Request) -> Response:
        return json_response(clubs.hand_over(club_id, current_player(request), body.member))

    @router.get("/api/clubs/{club_id}/daily", responses=documented(_answer(DailyBoardModel), errors=(*READ, 422)))
    def daily_board(club_id: str, request: Request, game: str = DEFAULT_GAME) -> Response:
        return json_response(clubs.daily_board(club_id, current_player(request), game[:32]))

    @router.get("/api/clubs/{club_id}/tournaments", responses=documented(_answer(TournamentListModel), errors=READ))
    def tournaments(club_id: str, request: Request) -> Response:
        return json_response(clubs.tournaments(club_id, current_player(request)))

    @router.post(
        "/api/clubs/{club_id}/tournaments",
        status_code=201,
        responses=documented(_answer(TournamentModel, 201), NOT_A_MANAGER, errors=WRITE),
    )
    def schedule(club_id: str, body: TournamentRequest, request: Request) -> Response:
        fields = body.model_dump()
        opens = fields.get("opens_at") or service.clock()
        for name, moment in (("opens_at", opens), ("closes_at", fields["closes_at"])):
            if moment.tzinfo is None:
                raise ApiError(422, "invalid_fields", f"{name} needs its offset from UTC, such as +01:00 or Z.")
            try:
                moment.astimezone(dt.UTC)
            except OverflowError:
                raise ApiError(422, "invalid_fields", f"{name} is out of the calendar's range.") from None
        fields["opens_at"] = opens
        return json_response(clubs.schedule(club_id, current_player(request), fields), 201)

    @router.get("/api/clubs/{club_id}/series/{series_id}", responses=documented(_answer(SeriesModel), errors=READ))
    def series(club_id: str, series_id: str, request: Request) -> Response:
        return json_response(clubs.series(club_id, current_player(request), series_id))

    @router.get("/api/tournaments/{tournament_id}", responses=documented(_answer(TournamentModel), errors=READ))
    def tournament(tournament_id: str, request: Request) -> Response:
        player_id = current_player(request)
        found, _role = clubs._tournament(tournament_id, player_id)
        return json_response(clubs.tournament_json(found, player_id))

    @router.post(
        "/api/tournaments/{tournament_id}/play",
        responses=documented(
            _answer(GameAnswerModel, 200, "The player's unfinished game of the tournament"),
            _answer(GameAnswerModel, 201, "His next game, dealt"),
            _refused(403, "Not open yet, or no longer a member"),
            errors=(404, 409, 429, 503),
        ),
    )
    async def play(tournament_id: str, request: Request, background: BackgroundTasks) -> Response:
        player_id = current_player(request)
        if player_id is None:
            raise ApiError(404, "unknown_tournament", "There is no such tournament for this player.")
        answer, created = await dealt(lambda: clubs.play(tournament_id, player_id), background)
        return json_response(answer.to_json(), 201 if created else 200)

    @router.get(
        "/api/tournaments/{tournament_id}/results",
        responses=documented(
            _answer(ResultsModel),
            _refused(403, "Hidden until one has played every game, or until closing"),
            errors=READ,
        ),
    )
    def results(tournament_id: str, request: Request) -> Response:
        return json_response(clubs.results(tournament_id, current_player(request)))

    @router.get(
        "/api/tournaments/{tournament_id}/deals/{game}/{deal}",
        responses=documented(
            _answer(DealResultsModel),
            _refused(403, "Hidden until one has played every game, or until closing"),
            errors=(*READ, 422),
        ),
    )
    def deal(tournament_id: str, game: int, deal: int, request: Request, offset: int = Query(0, ge=0)) -> Response:
        return json_response(clubs.deal(tournament_id, current_player(request), game, deal, offset))

    @router.get(
        "/api/tournaments/{tournament_id}/records/{game_id}",
        responses=documented(
            {200: {"description": "The game's record (its format's JSON), for couyon verify"}},
            _refused(403, "Published once the tournament closes"),
            errors=READ,
        ),
    )
    def record(tournament_id: str, game_id: str, request: Request) -> Response:
        body = clubs.record(tournament_id, current_player(request), game_id)
        return Response(body, 200, media_type="application/json")

    @router.post(
        "/api/challenges",
        status_code=201,
        responses=documented(
            _answer(ChallengeLinkModel, 201, "The challenge's link (the same one when asked again)"),
            _refused(403, "A daily game whose day is not over"),
            errors=WRITE,
        ),
    )
    def challenge(body: ChallengeRequest, request: Request) -> Response:
        return json_response(clubs.challenge(current_player(request), body.game_id), 201)

    @router.post(
        "/api/challenges/{challenge_id}/play",
        responses=documented(
            _answer(GameAnswerModel, 200, "The friend's game of the challenge, resumed"),
            _answer(GameAnswerModel, 201, "His game, dealt"),
            errors=(404, 409, 429, 503),
        ),
    )
    async def take(challenge_id: str, request: Request, background: BackgroundTasks) -> Response:
        player_id, new = player(request)
        answer, created = await dealt(lambda: clubs.take(challenge_id, player_id), background)
        return answered(answer.to_json(), 201 if created else 200, request, player_id, new)

    @router.get("/api/challenges/{challenge_id}", responses=documented(_answer(ChallengeResultsModel), errors=READ))
    def challenge_results(challenge_id: str, request: Request) -> Response:
        return json_response(clubs.challenge_results(challenge_id, current_player(request)))

    return router
