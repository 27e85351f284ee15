"""The rating of play with people: one finished table game's outcome, and the Plackett-Luce update it makes.

Pure functions of a stored game (its final state, who held each seat, which of a person's moves the bot made):
the live update and ``couyon ratings rebuild`` both call them, so the rebuild gives the live numbers exactly.
Nothing here names a game: the registry's ``GameKind`` gives each seat's result.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from openskill.models import PlackettLuce, PlackettLuceRating

from couyon.common.kind import GameKind, Options

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce with its defaults: μ 25, σ 25/3, β 25/6, τ 25/300."""
PROVISIONAL_GAMES = 10
"""A person's rating in a game is provisional until this many games rated him (with their whole weight)."""
FARMING_DAYS = 7
"""The window of the anti-farming rule: a game counts 1 / (1 + k), k the games of the same game rated in the days
before it among exactly the same people."""
REFERENCE = (MODEL.mu, MODEL.sigma / 3)
"""The anchor of each game's table bot, by convention (not measured): the prior's μ, and a third of its σ (an anchor
is well known). Every other bot is measured against it."""
ANCHORS_FILE = Path(__file__).with_name("anchors.json")
"""Each game's bots' fixed ratings, by bot id: ``scripts/measure_anchors.py`` measured them from bot-only games."""


def _anchors() -> dict[str, dict[str, tuple[float, float]]]:
    kept = json.loads(ANCHORS_FILE.read_text())["anchors"]
    return {game: {bot: (float(mu), float(sigma)) for bot, (mu, sigma) in bots.items()} for game, bots in kept.items()}


ANCHORS = _anchors()


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating in one game: μ and σ, the number shown (``shown``) and the weight of games rated."""

    mu: float
    sigma: float
    shown: float
    games: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


NEW = Rating(MODEL.mu, MODEL.sigma, MODEL.mu - 3 * MODEL.sigma, 0.0)
"""Everyone's rating before his first game."""


@dataclass(frozen=True, slots=True)
class Place:
    """One seat's part in a finished game: who held it, his share of its decisions, where it finished."""

    label: str
    player_id: str | None
    """None: the game's bot held the seat from start to end."""
    share: float
    """The part of the seat's decisions its person made himself (the bot made the rest)."""
    score: int
    won: bool
    left: bool
    """The person was gone at the end: the bot made his seat's last decision."""


def places(
    kind: GameKind,
    options: Options,
    final: object,
    holders: Mapping[str, str | None],
    moves: Sequence[str],
    bot_numbers: set[int],
) -> list[Place]:
    """Each seat's part in the finished game ``final`` (dealt with ``options``; ``holders`` by seat label)."""
    assert kind.seats is not None and kind.seat_result is not None
    made: dict[str, int] = {}
    own: dict[str, int] = {}
    last: dict[str, int] = {}
    for number, text in enumerate(moves):
        label = text.split(":", 1)[0]  # Every move is written SEAT:ACTION.
        made[label] = made.get(label, 0) + 1
        own[label] = own.get(label, 0) + (number not in bot_numbers)
        last[label] = number
    found: list[Place] = []
    for seat in kind.seats(options):
        label = str(seat)
        player = holders.get(label)
        score, won = kind.seat_result(final, seat)
        # A person the game gave no decision (coucou: out before his turn came) ceded none of them to the bot.
        share = (own.get(label, 0) / made[label] if made.get(label) else 1.0) if player is not None else 0.0
        left = player is not None and last.get(label) in bot_numbers
        found.append(Place(label, player, share, score, won, left))
    return found


def teams(found: Sequence[Place]) -> list[list[Place]]:
    """The game's finishing order as Plackett-Luce teams, best first: seats of equal score and result finish together
    (partners: couyon's and Malmedy's teams, a tarot taker and his called partner when their totals are equal), and
    each person who left finishes last, alone, below everyone who stayed (those who left tie among themselves)."""
    stayed: dict[tuple[int, bool], list[Place]] = {}
    for place in found:
        if not place.left:
            stayed.setdefault((place.score, place.won), []).append(place)
    order = [stayed[key] for key in sorted(stayed, key=lambda key: (-key[0], not key[1]))]
    return order + [[place] for place in found if place.left]


def anchor_of(kind_id: str, bot_id: str) -> tuple[float, float]:
    """The fixed rating (μ, σ) of a game's bot; the reference bot's for a bot not measured."""
    return ANCHORS.get(kind_id, {}).get(bot_id, REFERENCE)


def update(
    anchor: tuple[float, float], found: Sequence[Place], before: Mapping[str, Rating], factor: float
) -> dict[str, Rating]:
    """Each person's rating after the game: Plackett-Luce over ``teams``, the bot's seats at its fixed ``anchor``.

    ``before``: each person's rating before it; ``factor``: the anti-farming weight (``farming_factor``). A person's
    move from his old μ and σ² toward the model's new ones is his share of his seat's decisions times ``factor``; a
    bot's new rating is thrown away (anchors never move). The number shown is the new ordinal, except that a won game
    never lowers it. No person, or a single team: no change.
    """
    order = teams(found)
    people = [place for place in found if place.player_id is not None]
    if not people or len(order) < 2:
        return {}

    def model_rating(place: Place) -> PlackettLuceRating:
        if place.player_id is None:
            return MODEL.rating(*anchor)
        kept = before[place.player_id]
        return MODEL.rating(kept.mu, kept.sigma)

    ranks = [float(index) for index, _team in enumerate(order)]
    # Those who left tie for last.
    first_left = next((index for index, team in enumerate(order) if team[0].left), len(order))
    ranks = [min(rank, float(first_left)) for rank in ranks]
    rated = MODEL.rate([[model_rating(place) for place in team] for team in order], ranks=ranks)
    after: dict[str, Rating] = {}
    for team, new_team in zip(order, rated, strict=True):
        for place, new in zip(team, new_team, strict=True):
            if place.player_id is None:
                continue
            old = before[place.player_id]
            weight = place.share * factor
            mu = old.mu + weight * (new.mu - old.mu)
            sigma = math.sqrt(old.sigma**2 + weight * (new.sigma**2 - old.sigma**2))
            ordinal = mu - 3 * sigma
            shown = max(old.shown, ordinal) if place.won and not place.left else ordinal
            after[place.player_id] = Rating(mu, sigma, shown, old.games + weight)
    return after


def farming_factor(earlier: int, people: int) -> float:
    """The weight of a game of ``people`` people after ``earlier`` games of the same game among the same people in
    ``FARMING_DAYS``; a person alone with the bots (a tournament's game) farms nobody: his games weigh 1."""
    return 1.0 / (1 + earlier) if people > 1 else 1.0


def people_key(found: Sequence[Place]) -> str:
    """Who played the game, as one key (the anti-farming rule compares them): the sorted player ids, hashed."""
    ids = sorted({place.player_id for place in found if place.player_id is not None})
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()[:32]


PERFORMANCE_DEALS = 500
"""The challenge performance counts a person's latest deals, this many at most."""
PROVISIONAL_DEALS = 50
"""A challenge performance is provisional below this many deals."""


@dataclass(frozen=True, slots=True)
class Performance:
    """A challenge performance: the mean corrected percentage, its 95 % interval's half-width, the deals counted."""

    value: float
    interval: float
    deals: int

    @property
    def provisional(self) -> bool:
        return self.deals < PROVISIONAL_DEALS


def performance(deals: Sequence[tuple[float, float]]) -> Performance | None:
    """The challenge performance of the latest deals (latest first): each deal's percentage against everyone who
    played it, plus how far that deal's field is above 50 (the average duplicate score of the others: beating a
    strong field counts more); their mean, with the 95 % interval of a mean (1.96 standard errors). None: no deal."""
    counted = [percent + (field - 50.0) for percent, field in deals[:PERFORMANCE_DEALS]]
    if not counted:
        return None
    mean = sum(counted) / len(counted)
    spread = math.sqrt(sum((value - mean) ** 2 for value in counted) / (len(counted) - 1)) if len(counted) > 1 else 50.0
    return Performance(mean, 1.96 * spread / math.sqrt(len(counted)), len(counted))
