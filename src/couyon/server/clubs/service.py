"""Clubs, their tournaments and friends' challenges (issue 22, docs/clubs.md): the service, without HTTP.

A tournament's game is a game of the ``GameService`` like any other, created with the tournament's
seed for that game number and the mode ``club``; its verifying replay is the one every ranked game
gets, and its verified score is a ``leaderboard_entries`` row of the board ``club`` (which no public
board reads). ``TournamentRules`` tells the game service what the mode changes: no move once the
tournament closed or once the player left the club, the seed and hidden cards secret until closing,
and a hint allowed but taking the game out. A challenge's game (mode ``duel``) is dealt with the seed,
options and bot of the game it challenges.

Nothing here names a game: the registry's ``GameKind`` gives the deal lines (``deal_results``) of which
the standings' duplicate score and the per-deal results are made.
"""

from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError

from couyon.common.kind import Json, Options
from couyon.common.results import by_number
from couyon.registry import GAMES, GameKind
from couyon.server.errors import ApiError
from couyon.server.games import (
    BRUSSELS,
    FoldCache,
    GameAnswer,
    GameService,
    _naive_utc,
    kind_of,
    known_game,
    stored_options,
)
from couyon.server.names import valid_name
from couyon.store import StoredGame
from couyon.store.clubs import AlreadyMember, Challenge, Club, ClubStore, Member, Tournament

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
"""Join codes' characters: digits and capitals without 0/O, 1/I/L (31 of them)."""
CODE_LENGTH = 10
"""10 characters of 31: 49 bits; with the join limit per address, guessing one takes centuries."""
MAX_GAMES = 20
DEAL_PAGE = 100
"""The most entrants' lines one answer of a deal's results holds (``GET /api/tournaments/{id}/deals/{game}/{deal}``)."""
KEPT_STANDINGS = 32
"""Tournaments whose standings a service keeps between two requests (each until one of its entries changes)."""
MAX_DAYS = 31
"""The longest a tournament stays open; a weekly one at most 7 days (it must close before the next opens)."""
TOURNAMENT_MODE = "club"
CHALLENGE_MODE = "duel"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def typed_code(raw: str) -> str:
    """A code as a member may type it: spaces and dashes dropped, any case, and the look-alikes read as the code's."""
    cleaned = raw.strip().replace(" ", "").replace("-", "")
    if len(cleaned) == CODE_LENGTH:
        return cleaned.upper()
    return raw.strip().lower()  # A link's secret: 32 hexadecimal digits.


def shown_code(code: str) -> str:
    return f"{code[:5]}-{code[5:]}"


def _aware(moment: dt.datetime) -> str:
    return moment.replace(tzinfo=dt.UTC).isoformat()


# -- the standings: pure functions of the entries and their deal lines (benchmarks/bench_tournament.py) --------


@dataclass(frozen=True, slots=True)
class Entrant:
    """One entrant's games as the standings see them: his verified (score, deals) per game number, his lines."""

    key: str
    name: str | None
    scores: dict[int, int]
    """Game number -> verified score, for the games that count (finished, verified, no hint)."""
    lines: dict[int, list[Json]]
    """Game number -> the game's deal (or coup) lines (``GameKind.deal_results``), for the games that count."""


def deal_value(line: Json) -> float:
    """What a deal line is worth to the entrant, to compare it with the others' on the same deal.

    A line with ``points`` (tarot) is its points; otherwise (couyon, Malmedy) the order of its outcome from
    the entrant's side: his side's contract made, the other side's failed, a tie or a deal nobody took, the
    other side's made, his side's failed.
    """
    if "points" in line:
        return float(line["points"])
    side, outcome = line.get("side"), line.get("outcome")
    if side is None or outcome in (None, "redeal", "tie"):
        return 0.0
    made = outcome == "made"
    return (2.0 if made else -2.0) if side == "us" else (-1.0 if made else 1.0)


def standings(entrants: list[Entrant], count: int) -> Json:
    """The standings by total score, with the duplicate score (matchpoints in percent) of the deal-based games,
    and the per-deal results: what every entrant did on each deal, with his percentage on it.

    An entrant's total is the sum of his counted games' scores, and for each game number he has no counted game
    of, the lowest counted score of that number if it is below 0 (tarot), else 0.

    On one deal (game number and deal number), each entrant who played it scores 1 against every other who
    played it and did worse, ½ against each who did as well, 0 against each who did better; his percentage is
    that over the number of others (50 when alone). His duplicate score is the average of his percentages,
    where a deal of a game number he has no counted game of (unfinished at closing, hinted, refused) counts 0.
    Deals after the end of his own finished game are not his and do not count.
    """
    deal_based = any("deal" in line for entrant in entrants for lines in entrant.lines.values() for line in lines)
    percents: dict[str, list[float]] = {entrant.key: [] for entrant in entrants}
    deals: list[Json] = []
    missing = dict.fromkeys(range(1, count + 1), 0)
    """Each game number's deals: what an entrant without a counted game of it scores 0 on."""
    for number in sorted({number for entrant in entrants for number in entrant.lines}) if deal_based else []:
        # The day's traveller's grouping (``couyon.common.results.by_number``), each line marked with its entrant.
        field = [[{**line, "entrant": entrant.key} for line in entrant.lines.get(number, [])] for entrant in entrants]
        for deal, played, _own in by_number(field, [], "deal"):
            missing[number] = missing.get(number, 0) + 1
            values = sorted(deal_value(line) for line in played)
            others = len(values) - 1
            rows: list[Json] = []
            for line in played:
                value = deal_value(line)
                below = bisect.bisect_left(values, value)
                equal = bisect.bisect_right(values, value) - below
                percent = 50.0 if others == 0 else 100.0 * (below + 0.5 * (equal - 1)) / others
                percents[line["entrant"]].append(percent)
                # The entrant's name is his standings line's: written once, not on each of his deals.
                rows.append({**_without(line, "deal"), "percent": round(percent, 1)})
            rows.sort(key=lambda row: (-row["percent"], row["entrant"]))
            deals.append({"game": number, "deal": deal, "entrants": len(rows), "results": rows})
    # A game number an entrant has no counted game of scores the lowest of that number's counted games, or 0 if
    # they are all above it: a losing game left unfinished (a tarot total below 0) scores no better than the worst.
    lowest = {
        number: min([0, *(entrant.scores[number] for entrant in entrants if number in entrant.scores)])
        for number in range(1, count + 1)
    }
    table: list[Json] = []
    for entrant in entrants:
        absent = sum(missing[number] for number in missing if number not in entrant.scores)
        mine = percents[entrant.key]
        table.append(
            {
                "entrant": entrant.key,
                "name": entrant.name,
                "total": sum(entrant.scores.values())
                + sum(score for number, score in lowest.items() if number not in entrant.scores),
                "games": len(entrant.scores),
                "duplicate": round(sum(mine) / (len(mine) + absent), 1) if deal_based and (mine or absent) else None,
            }
        )
    table.sort(key=lambda row: (-row["total"], -row["games"], row["entrant"]))
    _rank(table, "rank", lambda row: (row["total"], row["games"]))
    if deal_based:
        order = sorted(table, key=lambda row: -(row["duplicate"] or 0.0))
        _rank(order, "duplicate_rank", lambda row: row["duplicate"] or 0.0)
    return {"deal_based": deal_based, "standings": table, "deals": deals}


def field_deals(answer: Json) -> dict[str, list[tuple[float, float]]]:
    """From the ``standings`` of deal-based games, each entrant's deals in order: his percentage on each deal he
    played and the average duplicate score of the others who played it (how strong that deal's field was; 50 alone)."""
    strength = {row["entrant"]: row["duplicate"] or 0.0 for row in answer["standings"]}
    found: dict[str, list[tuple[float, float]]] = {}
    for deal in answer["deals"]:
        rows = deal["results"]
        total = sum(strength[row["entrant"]] for row in rows)
        for row in rows:
            field = (total - strength[row["entrant"]]) / (len(rows) - 1) if len(rows) > 1 else 50.0
            found.setdefault(row["entrant"], []).append((float(row["percent"]), field))
    return found


def _rank(rows: list[Json], key: str, value: Any) -> None:
    """Ranks in the rows' order, equal values sharing the rank (1, 2, 2, 4)."""
    previous = None
    for index, row in enumerate(rows, start=1):
        current = value(row)
        if current != previous:
            rank = index
        row[key] = rank
        previous = current


def _without(line: Json, key: str) -> Json:
    return {name: value for name, value in line.items() if name != key}


# -- the mode of tournament games ------------------------------------------------------------------------------


class TournamentRules:
    """What mode ``club`` changes in the game service (``couyon.server.games.ModeRules``)."""

    no_hints: str | None = None

    def __init__(self, clubs: ClubStore, service: GameService) -> None:
        self.clubs = clubs
        self.service = service
        self.finished: Callable[[str], object] = lambda game_id: None
        """Called with a verified tournament game's id (the ratings rate it: ``RatingService``)."""

    def refuse_play(self, game: StoredGame) -> None:
        tournament = self.clubs.tournament_of_game(game.id)
        if tournament is None:
            return
        if _naive_utc(self.service.clock()) >= tournament.closes_at:
            raise ApiError(409, "tournament_closed", "This tournament is closed: no move can be played in it now.")
        if self.clubs.role(tournament.club_id, game.player_id) is None:
            raise ApiError(
                403, "not_a_member", "You are no longer a member of this club: its tournaments are closed to you."
            )

    def secret(self, game: StoredGame) -> bool:
        tournament = self.clubs.tournament_of_game(game.id)
        return tournament is not None and _naive_utc(self.service.clock()) < tournament.closes_at

    def entered(self, game: StoredGame, moves: list[str]) -> None:
        """Keep the verified game's deal lines, computed once here (after the final move's answer was sent)."""
        kind = kind_of(game)
        if kind.deal_results is not None:
            lines = kind.deal_results(FoldCache(1).fold(game, moves))
            self.clubs.set_lines(game.id, json.dumps(lines, separators=(",", ":")))
        self.finished(game.id)


class ChallengeRules:
    """Mode ``duel``: a challenge's game is played as its sender played his, without hints."""

    no_hints: str | None = "A challenge is played without hints, as your friend played it."

    def refuse_play(self, game: StoredGame) -> None:
        return None

    def secret(self, game: StoredGame) -> bool:
        return False

    def entered(self, game: StoredGame, moves: list[str]) -> None:
        return None


# -- the service ---------------------------------------------------------------------------------------------


class ClubService:
    """Clubs, members, the members' boards, tournaments and challenges over the game service's store."""

    def __init__(self, service: GameService, secret: bytes) -> None:
        self.service = service
        self.clubs = ClubStore(service.store)
        self._secret = secret
        self._kept_standings: dict[str, tuple[object, Json]] = {}
        self._kept_lock = threading.Lock()
        """Guards ``_kept_standings``: requests are served from a pool of threads."""
        self.tournament_rules = TournamentRules(self.clubs, service)
        service.modes[TOURNAMENT_MODE] = self.tournament_rules
        service.modes[CHALLENGE_MODE] = ChallengeRules()

    def now(self) -> dt.datetime:
        return _naive_utc(self.service.clock())

    def member_key(self, club_id: str, player_id: str) -> str:
        """How the API names a member: an HMAC of the club and the player, never the player id (the key to his games)."""
        message = f"member:{club_id}:{player_id}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()[:16]

    def tournament_seed(self, tournament_id: str, number: int) -> str:
        """Game ``number``'s seed: an HMAC of the server secret, secret until the tournament closes."""
        message = f"tournament:{tournament_id}:{number}".encode()
        return hmac.new(self._secret, message, hashlib.sha256).hexdigest()[:32]

    # -- clubs -------------------------------------------------------------------------------------------

    def create_club(self, player_id: str, raw_name: str) -> Json:
        name = valid_name(raw_name)
        now = self.now()
        for _ in range(5):
            club = Club("c_" + secrets.token_urlsafe(9), name, new_code(), secrets.token_hex(16), now)
            try:
                self.clubs.create_club(club, player_id)
            except IntegrityError:
                continue  # A code drawn twice (one chance in 10^14): draw again.
            return self.club_json(club.id, player_id)
        raise ApiError(503, "database_unavailable", "No club could be stored now: try again.")

    def _membership(self, club_id: str, player_id: str | None) -> tuple[Club, str]:
        club = None if player_id is None or len(club_id) > 24 else self.clubs.club(club_id)
        role = None if club is None or player_id is None else self.clubs.role(club_id, player_id)
        if club is None or role is None:
            # A club one is not in is answered as one that does not exist: ids tell nothing.
            raise ApiError(404, "unknown_club", "There is no such club for this player.")
        return club, role

    def _managed(self, club_id: str, player_id: str | None) -> tuple[Club, str]:
        club, role = self._membership(club_id, player_id)
        if role == "member":
            raise ApiError(403, "not_a_manager", "Only the club's creator and managers may do this.")
        return club, role

    def _member_named(self, club_id: str, key: str) -> Member:
        for member in self.clubs.members(club_id):
            if self.member_key(club_id, member.player_id) == key:
                return member
        raise ApiError(404, "unknown_member", "There is no such member in this club.")

    def club_json(self, club_id: str, player_id: str | None) -> Json:
        club, role = self._membership(club_id, player_id)
        members = self.clubs.members(club_id)
        manager = role != "member"
        return {
            "id": club.id,
            "name": club.name,
            "role": role,
            # The code and the link let anyone in: every member may pass them on, as a café's regulars do.
            "code": shown_code(club.code),
            "link": f"/#/clubs/join/{club.link}",
            "manager": manager,
            # For the form that schedules a tournament: the games whose length may be given in deals, and how many
            # deals each of their games plays.
            "deals_per_game": {game.id: per_game for game in GAMES.values() if (per_game := _deals_per_game(game))},
            "members": [
                {
                    "key": self.member_key(club_id, member.player_id),
                    "name": member.name,
                    "tag": self.service.player_tag(member.player_id),
                    "role": member.role,
                    "you": member.player_id == player_id,
                }
                for member in members
            ],
        }

    def my_clubs(self, player_id: str | None) -> Json:
        found = [] if player_id is None else self.clubs.clubs_of(player_id)
        return {"clubs": [{"id": club.id, "name": club.name, "role": role} for club, role in found]}

    def join(self, player_id: str, raw_code: str) -> Json:
        code = typed_code(raw_code)
        club = self.clubs.club_by_code(code) if code else None
        if club is None:
            raise ApiError(404, "unknown_code", "No club has this code: check it with a member of the club.")
        try:
            self.clubs.join(club.id, player_id, self.now())
        except AlreadyMember:
            raise ApiError(409, "already_member", "You are already a member of this club.") from None
        return self.club_json(club.id, player_id)

    def rename(self, club_id: str, player_id: str | None, raw_name: str) -> Json:
        self._managed(club_id, player_id)
        self.clubs.rename(club_id, valid_name(raw_name))
        return self.club_json(club_id, player_id)

    def remove(self, club_id: str, player_id: str | None, key: str) -> Json:
        """A manager removes a member (a manager only if he is the creator); any member may leave."""
        _club, role = self._membership(club_id, player_id)
        member = self._member_named(club_id, key)
        leaving = member.player_id == player_id
        if member.role == "creator":
            message = (
                "The creator cannot leave the club: hand it over first."
                if leaving
                else "The creator cannot be removed from the club."
            )
            raise ApiError(409, "creator_stays", message)
        if not leaving and (role == "member" or (member.role == "manager" and role != "creator")):
            raise ApiError(
                403, "not_a_manager", "Only the club's creator may remove a manager, and only managers a member."
            )
        self.clubs.remove_member(club_id, member.player_id)
        return self.my_clubs(player_id) if leaving else self.club_json(club_id, player_id)

    def set_role(self, club_id: str, player_id: str | None, key: str, role: str) -> Json:
        _club, mine = self._membership(club_id, player_id)
        if mine != "creator":
            raise ApiError(403, "not_the_creator", "Only the club's creator may name or unname managers.")
        member = self._member_named(club_id, key)
        if member.role == "creator":
            raise ApiError(409, "creator_stays", "The creator is already the club's first manager.")
        if not self.clubs.set_role(club_id, member.player_id, role):
            raise ApiError(
                409,
                "club_changed",
                "The club changed meanwhile (this member left it or now holds it): nothing was changed.",
            )
        return self.club_json(club_id, player_id)

    def hand_over(self, club_id: str, player_id: str | None, key: str) -> Json:
        _club, mine = self._membership(club_id, player_id)
        if mine != "creator" or player_id is None:
            raise ApiError(403, "not_the_creator", "Only the club's creator may hand it over.")
        member = self._member_named(club_id, key)
        if member.player_id == player_id:
            raise ApiError(409, "creator_stays", "You are already the club's creator.")
        if not self.clubs.hand_over(club_id, player_id, member.player_id):
            raise ApiError(
                409, "club_changed", "The club changed meanwhile (its creator or this member): nothing was handed over."
            )
        return self.club_json(club_id, player_id)

    # -- the members' board of a game's daily ------------------------------------------------------------

    def daily_board(self, club_id: str, player_id: str | None, game: str) -> Json:
        """The members' daily scores of this week (Monday to today) side by side, and their week's totals.

        Today's scores are shown once the asking player's ranked attempt of today is finished, as the day's
        board is; the week's total then leaves today out too.
        """
        self._membership(club_id, player_id)
        kind = known_game(game)
        today = self.service.today()
        monday = today - dt.timedelta(days=today.weekday())
        shown_today = player_id is not None and self.service.ranked_attempt_finished(player_id, today, kind)
        last = today if shown_today else today - dt.timedelta(days=1)
        entries = self.clubs.daily_entries(club_id, kind.id, monday, last) if last >= monday else []
        days = [monday + dt.timedelta(days=offset) for offset in range((today - monday).days + 1)]
        rows: list[Json] = []
        for member in self.clubs.members(club_id):
            mine = {entry.day: entry for entry in entries if entry.player_id == member.player_id}
            scores = [mine[day].score if day in mine else None for day in days]
            rows.append(
                {
                    "key": self.member_key(club_id, member.player_id),
                    "name": member.name,
                    "tag": self.service.player_tag(member.player_id),
                    "you": member.player_id == player_id,
                    "today": scores[-1] if shown_today else None,
                    "days": scores,
                    "week": sum(score for score in scores if score is not None),
                    "played": sum(score is not None for score in scores),
                }
            )
        rows.sort(key=lambda row: (-row["week"], -row["played"], row["key"]))
        return {
            "game": kind.id,
            "today": today.isoformat(),
            "today_shown": shown_today,
            "days": [day.isoformat() for day in days],
            "members": rows,
        }

    # -- tournaments -------------------------------------------------------------------------------------

    def schedule(self, club_id: str, player_id: str | None, body: Json) -> Json:
        self._managed(club_id, player_id)
        name = valid_name(str(body["name"]))
        kind = known_game(str(body["game"]))
        count, one_deal = _games_of(kind, body.get("count"), body.get("deals"))
        try:
            options = kind.parse_options(body.get("options"), one_deal)
        except ValueError as error:
            text = str(error)
            raise ApiError(422, "invalid_fields", text[:1].upper() + text[1:] + ".") from None
        opens, closes = _naive_utc(body["opens_at"]), _naive_utc(body["closes_at"])
        weekly = bool(body.get("weekly", False))
        if closes <= opens:
            raise ApiError(422, "invalid_fields", "A tournament must close after it opens.")
        longest = 7 if weekly else MAX_DAYS
        if closes - opens > dt.timedelta(days=longest):
            what = (
                "A weekly tournament stays open at most 7 days"
                if weekly
                else f"A tournament stays open at most {MAX_DAYS} days"
            )
            raise ApiError(422, "invalid_fields", what + ".")
        now = self.now()
        if closes <= now:
            raise ApiError(422, "invalid_fields", "A tournament must close in the future.")
        if opens > now + dt.timedelta(days=365):
            raise ApiError(422, "invalid_fields", "A tournament must open within a year.")
        identifier = "t_" + secrets.token_urlsafe(9)
        tournament = Tournament(
            identifier,
            club_id,
            name,
            kind.id,
            json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "",
            count,
            opens,
            closes,
            weekly,
            identifier,
            now,
        )
        self.clubs.add_tournament(tournament)
        return self.tournament_json(tournament, player_id)

    def _repeat_weekly(self, club_id: str) -> list[Tournament]:
        """The club's tournaments, after making the next week's of every weekly series whose latest has closed."""
        found = self.clubs.tournaments_of(club_id)
        now = self.now()
        latest: dict[str, Tournament] = {}
        for tournament in found:
            if tournament.weekly and tournament.series_id not in latest:
                latest[tournament.series_id] = tournament
        made = False
        week = dt.timedelta(days=7)
        for last in latest.values():
            if last.closes_at > now:
                continue
            # The first week to come that has not closed (weeks nobody could play are skipped); the series keeps
            # Brussels' wall-clock hours across a change of summer time.
            opens, closes = _brussels(last.opens_at), _brussels(last.closes_at)
            while _naive_utc(closes) <= now:
                opens, closes = opens + week, closes + week
            successor = Tournament(
                "t_" + secrets.token_urlsafe(9),
                club_id,
                last.name,
                last.game,
                last.options,
                last.count,
                _naive_utc(opens),
                _naive_utc(closes),
                True,
                last.series_id,
                now,
            )
            # False when another request made it first: the read below finds theirs.
            made = self.clubs.add_tournament(successor) or made
        return self.clubs.tournaments_of(club_id) if made else found

    def tournaments(self, club_id: str, player_id: str | None) -> Json:
        self._membership(club_id, player_id)
        return {"tournaments": [self.tournament_json(item, player_id) for item in self._repeat_weekly(club_id)]}

    def _tournament(self, tournament_id: str, player_id: str | None) -> tuple[Tournament, str]:
        tournament = None if len(tournament_id) > 24 else self.clubs.tournament(tournament_id)
        if tournament is None:
            raise ApiError(404, "unknown_tournament", "There is no such tournament for this player.")
        try:
            _club, role = self._membership(tournament.club_id, player_id)
        except ApiError:
            raise ApiError(404, "unknown_tournament", "There is no such tournament for this player.") from None
        return tournament, role

    def state_of(self, tournament: Tournament) -> str:
        now = self.now()
        return "coming" if now < tournament.opens_at else "open" if now < tournament.closes_at else "closed"

    def tournament_json(self, tournament: Tournament, player_id: str | None) -> Json:
        state = self.state_of(tournament)
        mine = [] if player_id is None else self._progress(tournament, player_id)
        return {
            "id": tournament.id,
            "club": tournament.club_id,
            "name": tournament.name,
            "game": tournament.game,
            "options": dict(_options_of(tournament)),
            "count": tournament.count,
            "deals": _deals_of(tournament),
            "opens_at": _aware(tournament.opens_at),
            "closes_at": _aware(tournament.closes_at),
            "weekly": tournament.weekly,
            "series": tournament.series_id,
            "state": state,
            "games": mine,
            "seeds": [self.tournament_seed(tournament.id, number) for number in range(1, tournament.count + 1)]
            if state == "closed"
            else None,
        }

    def _progress(self, tournament: Tournament, player_id: str) -> list[Json]:
        """The player's games of the tournament so far: number, game id, whether finished, whether it counts."""
        found = []
        for _tournament, _player, number, game_id, entry in self.clubs.entries([tournament.id], player_id):
            loaded = self.service.store.game(game_id)
            finished = loaded is not None and kind_of(loaded[0]).engine.is_over(self.service._folds.fold(*loaded))
            found.append({"number": number, "game_id": game_id, "finished": finished, "counted": entry is not None})
        return found

    def play(self, tournament_id: str, player_id: str) -> tuple[GameAnswer, bool]:
        """The player's next game of the tournament: his unfinished one, else the next number, in order."""
        tournament, _role = self._tournament(tournament_id, player_id)
        state = self.state_of(tournament)
        if state == "coming":
            raise ApiError(
                403, "tournament_not_open", "This tournament is not open yet: its deals are secret until then."
            )
        if state == "closed":
            raise ApiError(409, "tournament_closed", "This tournament is closed: no game can be played in it now.")
        progress = self._progress(tournament, player_id)
        unfinished = next((game for game in progress if not game["finished"]), None)
        if unfinished is not None:
            return self.service.show(player_id, unfinished["game_id"]), False
        number = len(progress) + 1
        if number > tournament.count:
            raise ApiError(
                409, "tournament_done", "You have played every game of this tournament: each is played once."
            )
        options = _options_of(tournament)
        return self.service.create(
            player_id,
            TOURNAMENT_MODE,
            True,
            tournament.game,
            options,
            seed=self.tournament_seed(tournament.id, number),
            keep=lambda game, first: self.clubs.create_entry(tournament.id, number, game, first),
            one_deal=_one_deal(known_game(tournament.game), options),
        )

    def closed_deals(self, player_id: str) -> list[tuple[dt.datetime, str, list[tuple[float, float]]]]:
        """The player's deals in the closed tournaments he entered, latest tournament first: when it closed, its game,
        and his deals in it (``field_deals``)."""
        found: list[tuple[dt.datetime, str, list[tuple[float, float]]]] = []
        for tournament in self.clubs.closed_tournaments_of(player_id, self.now()):
            answer = self._standings(tournament)
            if answer["deal_based"]:
                mine = self.member_key(tournament.club_id, player_id)
                found.append((tournament.closes_at, tournament.game, field_deals(answer).get(mine, [])))
        return found

    def _standings(self, tournament: Tournament) -> Json:
        """``standings`` of the tournament's entrants, kept until one of its entries (or an entrant's name) changes.

        The answer is shared between requests: callers copy what they change.
        """
        names = self.clubs.entrant_names(tournament.id)
        signature = (self.clubs.entries_state(tournament.id), tuple(sorted(names.items(), key=lambda item: item[0])))
        with self._kept_lock:
            kept = self._kept_standings.get(tournament.id)
        if kept is not None and kept[0] == signature:
            return kept[1]
        answer = standings(self._entrants(tournament, self.clubs.entries([tournament.id]), names), tournament.count)
        with self._kept_lock:
            self._kept_standings.pop(tournament.id, None)
            if len(self._kept_standings) >= KEPT_STANDINGS:
                self._kept_standings.pop(next(iter(self._kept_standings)))  # The one kept longest.
            self._kept_standings[tournament.id] = (signature, answer)
        return answer

    def _entrants(
        self,
        tournament: Tournament,
        rows: list[tuple[str, str, int, str, Any]],
        names: dict[str, str | None],
    ) -> list[Entrant]:
        kind = known_game(tournament.game)
        kept = self.clubs.lines([game_id for _t, _p, _n, game_id, entry in rows if entry is not None])
        by_player: dict[str, Entrant] = {}
        for _t, player, number, game_id, entry in rows:
            entrant = by_player.setdefault(
                player, Entrant(self.member_key(tournament.club_id, player), names.get(player), {}, {})
            )
            if entry is None:
                continue
            entrant.scores[number] = entry.score
            entrant.lines[number] = json.loads(kept[game_id]) if game_id in kept else self._deal_lines(kind, game_id)
        return list(by_player.values())

    def _deal_lines(self, kind: GameKind, game_id: str) -> list[Json]:
        """A verified game's deal lines when its verification did not keep them (``TournamentRules.entered``)."""
        if kind.deal_results is None:
            return []
        loaded = self.service.store.game(game_id)
        lines = [] if loaded is None else kind.deal_results(FoldCache(1).fold(*loaded))
        self.clubs.set_lines(game_id, json.dumps(lines, separators=(",", ":")))
        return lines

    def _shown(self, tournament_id: str, player_id: str | None) -> tuple[Tournament, Json]:
        """The tournament and its standings, to an entrant who played every game and to every member once closed."""
        tournament, _role = self._tournament(tournament_id, player_id)
        state = self.state_of(tournament)
        progress = [] if player_id is None else self._progress(tournament, player_id)
        done = len(progress) == tournament.count and all(game["finished"] for game in progress)
        if state != "closed" and not done:
            raise ApiError(
                403,
                "results_hidden",
                "A tournament's results are shown once you have played all its games, or once it closes.",
            )
        return tournament, self._standings(tournament)

    def results(self, tournament_id: str, player_id: str | None) -> Json:
        """The standings, and the list of deals whose results ``deal`` gives (each asked when it is opened)."""
        tournament, answer = self._shown(tournament_id, player_id)
        mine = None if player_id is None else self.member_key(tournament.club_id, player_id)
        return {
            "tournament": self.tournament_json(tournament, player_id),
            "deal_based": answer["deal_based"],
            "standings": [{**row, "you": row["entrant"] == mine} for row in answer["standings"]],
            "deals": [
                {"game": deal["game"], "deal": deal["deal"], "entrants": deal["entrants"]} for deal in answer["deals"]
            ],
        }

    def deal(self, tournament_id: str, player_id: str | None, number: int, deal: int, offset: int) -> Json:
        """One deal's results (what each entrant did on it, best first), ``DEAL_PAGE`` lines from ``offset`` on."""
        _tournament, answer = self._shown(tournament_id, player_id)
        found = next((item for item in answer["deals"] if (item["game"], item["deal"]) == (number, deal)), None)
        if found is None:
            raise ApiError(404, "unknown_deal", "This tournament has no such deal among its results.")
        lines = found["results"][offset : offset + DEAL_PAGE]
        following = offset + len(lines)
        return {
            "game": number,
            "deal": deal,
            "entrants": found["entrants"],
            "offset": offset,
            "next_offset": following if following < found["entrants"] else None,
            "results": lines,
        }

    def record(self, tournament_id: str, player_id: str | None, game_id: str) -> str:
        """An entrant's game record, to any member once the tournament closed (then ``couyon verify`` replays it)."""
        tournament, _role = self._tournament(tournament_id, player_id)
        if self.state_of(tournament) != "closed":
            raise ApiError(403, "seed_secret", "A tournament's games are published once it closes.")
        if not any(game == game_id for _t, _p, _n, game, _e in self.clubs.entries([tournament.id])):
            raise ApiError(404, "unknown_game", "There is no such game in this tournament.")
        loaded = self.service.store.game(game_id)
        assert loaded is not None
        game, moves = loaded
        kind = kind_of(game)
        extras: Json = {"bots": game.bot_id, "player": self.service.store.player_name(game.player_id)}
        extras["tournament"] = tournament.id
        return kind.engine.record_json(game.seed, moves, stored_options(game), extras)

    def series(self, club_id: str, player_id: str | None, series_id: str) -> Json:
        """A weekly series' archive (its closed tournaments) and each member's record over it."""
        self._membership(club_id, player_id)
        found = [item for item in self._repeat_weekly(club_id) if item.series_id == series_id]
        if not found:
            raise ApiError(404, "unknown_tournament", "There is no such tournament for this player.")
        closed = [item for item in found if self.state_of(item) == "closed"]
        records: dict[str, Json] = {}
        archive = []
        for tournament in closed:
            table = self._standings(tournament)["standings"]
            archive.append(
                {
                    "id": tournament.id,
                    "opens_at": _aware(tournament.opens_at),
                    "entrants": len(table),
                    "winner": table[0]["name"] if table else None,
                }
            )
            for row in table:
                record = records.setdefault(
                    row["entrant"], {"entrant": row["entrant"], "name": row["name"], "played": 0, "won": 0, "ranks": []}
                )
                record["played"] += 1
                record["won"] += row["rank"] == 1
                record["ranks"].append(row["rank"])
        members = sorted(records.values(), key=lambda row: (-row["won"], -row["played"], row["entrant"]))
        for row in members:
            row["best_rank"] = min(row["ranks"])
        return {"series": series_id, "name": found[0].name, "archive": archive, "members": members}

    # -- challenges --------------------------------------------------------------------------------------

    def challenge(self, player_id: str | None, game_id: str) -> Json:
        """A challenge on a finished game of the player (a free game, or a daily one once its day is over)."""
        answer = self.service.show(player_id, game_id)
        game = answer.game
        if not kind_of(game).engine.is_over(answer.state):
            raise ApiError(409, "game_not_over", "A friend can be challenged once your game is over.")
        if game.mode not in ("free", "daily") or (game.day is not None and game.day >= self.service.today()):
            raise ApiError(
                403, "seed_secret", "Only a free game, or a daily one once its day is over, can be sent to a friend."
            )
        assert player_id is not None
        found = self.clubs.challenge_of_game(game.id)
        if found is None:
            found = self.clubs.create_challenge(
                Challenge("d_" + secrets.token_urlsafe(12), game.id, player_id, self.now())
            )
        return {"id": found.id, "link": f"/#/challenge/{found.id}"}

    def _challenge(self, challenge_id: str) -> tuple[Challenge, StoredGame]:
        found = None if len(challenge_id) > 24 else self.clubs.challenge(challenge_id)
        loaded = None if found is None else self.service.store.game(found.game_id)
        if found is None or loaded is None:
            raise ApiError(404, "unknown_challenge", "There is no such challenge: the link may be cut.")
        return found, loaded[0]

    def take(self, challenge_id: str, player_id: str) -> tuple[GameAnswer, bool]:
        found, source = self._challenge(challenge_id)
        if found.player_id == player_id:
            raise ApiError(409, "own_challenge", "This is your own challenge: send its link to a friend.")
        existing = dict(self.clubs.challenge_games(found.id)).get(player_id)
        if existing is not None:
            return self.service.show(player_id, existing), False
        return self.service.create(
            player_id,
            CHALLENGE_MODE,
            False,
            source.game,
            stored_options(source),
            seed=source.seed,
            bot_id=source.bot_id,
            keep=lambda game, first: self.clubs.take_challenge(found.id, game, first),
        )

    def challenge_results(self, challenge_id: str, player_id: str | None) -> Json:
        """Both (or every) side's results deal by deal, each shown once the asking player has finished his own."""
        found, source = self._challenge(challenge_id)
        kind = kind_of(source)
        sides = [(found.player_id, source.id), *self.clubs.challenge_games(found.id)]
        names = self.clubs.names([player for player, _game in sides])
        finished: dict[str, Any] = {}
        for _player, game_id in sides:
            loaded = self.service.store.game(game_id)
            if loaded is not None:
                state = self.service._folds.fold(*loaded)
                if kind.engine.is_over(state):
                    finished[game_id] = state
        own = next((game_id for player, game_id in sides if player == player_id), None)
        open_to_me = own is not None and own in finished
        players = []
        for player, game_id in sides:
            state = finished.get(game_id)
            shown = open_to_me and state is not None
            score = kind.score(state) if shown else None
            players.append(
                {
                    "name": names.get(player),
                    "tag": self.service.player_tag(player),
                    "you": player == player_id,
                    "sender": player == found.player_id,
                    "finished": state is not None,
                    "score": None if score is None else score[0],
                    "lines": kind.deal_results(state) if shown and kind.deal_results is not None else None,
                }
            )
        return {
            "id": found.id,
            "game": kind.id,
            "names": dict(kind.names),
            "options": stored_options(source),
            "mine": own,
            "shown": open_to_me,
            "players": players,
        }


def _options_of(tournament: Tournament) -> Options:
    """The table options of the tournament's games."""
    options: Options = json.loads(tournament.options) if tournament.options else {}
    return options


def _one_deal(kind: GameKind, options: Options) -> bool:
    """Whether a tournament's games of ``kind`` with these options are games of one deal (``GameKind.one_deal``):
    a tournament of couyon or Malmedy given in deals."""
    return bool(kind.one_deal) and kind.one_deal.items() <= options.items()


def _deals_per_game(kind: GameKind) -> int | None:
    """How many deals each game of a tournament of ``kind`` given in deals plays: tarot's fixed number
    (``GameKind.deals_per_game``), 1 for a game whose deals depend on the play but that has games of one deal
    (couyon, Malmedy); None: its tournaments are given a number of games only (coucou)."""
    return kind.deals_per_game or (1 if kind.one_deal else None)


def _deals_of(tournament: Tournament) -> int | None:
    """A tournament's number of deals, when every game of it plays the same number of them; else None."""
    kind = GAMES[tournament.game]
    if kind.deals_per_game is not None:
        return tournament.count * kind.deals_per_game
    return tournament.count if _one_deal(kind, _options_of(tournament)) else None


def _games_of(kind: GameKind, games: int | None, deals: int | None) -> tuple[int, bool]:
    """A tournament's number of games, from its request's ``count`` (of games) or ``deals``, and whether they are
    games of one deal. A number of deals is that many games' worth for a game whose every game plays the same
    number of them (``GameKind.deals_per_game``: tarot), and that many games of one deal for a game that has them
    (``GameKind.one_deal``: couyon, Malmedy)."""
    if (games is None) == (deals is None):
        raise ApiError(422, "invalid_fields", "A tournament has either a number of games (count) or of deals (deals).")
    if games is not None:
        if not 1 <= games <= MAX_GAMES:
            raise ApiError(422, "invalid_fields", f"A tournament has 1 to {MAX_GAMES} games.")
        return games, False
    assert deals is not None
    name = kind.names["en"]
    per_game = _deals_per_game(kind)
    if per_game is None:
        raise ApiError(
            422,
            "invalid_fields",
            f"A game of {name} has no fixed number of deals: give its tournament a number of games (count).",
        )
    count, rest = divmod(deals, per_game)
    one_deal = kind.deals_per_game is None
    if one_deal and not 1 <= count <= MAX_GAMES:
        raise ApiError(
            422,
            "invalid_fields",
            f"A tournament of {name} has 1 to {MAX_GAMES} deals, each played as a game of one deal.",
        )
    if rest or not 1 <= count <= MAX_GAMES:
        raise ApiError(
            422,
            "invalid_fields",
            f"A tournament of {name} has {per_game} to {per_game * MAX_GAMES} deals, in games of {per_game} deals: "
            f"a multiple of {per_game}.",
        )
    return count, one_deal


def _brussels(naive_utc: dt.datetime) -> dt.datetime:
    return naive_utc.replace(tzinfo=dt.UTC).astimezone(BRUSSELS)
