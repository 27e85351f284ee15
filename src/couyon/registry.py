"""Every game the site hosts, in one registry: the server, the store, the CLI and the page ask it.

A ``GameKind`` names a game (or a variant with a table of its own): its id, its names
and one sentence in French and English, its player counts, its record format, its
bots and the bot that sits at a new table, its rules page, and the functions that
start a game, show a seat's view as JSON and tell the events of a move. Nothing else
in the project branches on which game it holds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from couyon.bots import Bot, bot_id
from couyon.bots.baseline import BaselineBot
from couyon.bots.expert import ExpertBot
from couyon.bots.malmedy_baseline import MalmedyBaselineBot
from couyon.bots.random_bot import RandomBot
from couyon.coucou.record import verify as coucou_verify
from couyon.game import GameState, Move, new_game
from couyon.malmedy import MALMEDY
from couyon.record import RecordError, read_document, verify, wrong_format
from couyon.rules import STANDARD, Variant
from couyon.server.answers import Json, events_of, view_json
from couyon.server.malmedy_answers import malmedy_events_of, malmedy_view_json
from couyon.tarot.record import verify as tarot_verify

DEFAULT_GAME = "couyon"
"""The game of a request, a stored row or a record that names none: the common couyon."""


@dataclass(frozen=True, slots=True)
class GameKind:
    """One game of the site, with everything the rest of the code needs to host it."""

    id: str
    names: Mapping[str, str]
    """The game's name by language (``fr``, ``en``)."""
    summaries: Mapping[str, str]
    """One sentence that says what the game is, by language."""
    player_counts: tuple[int, ...]
    record_format: str
    variant: Variant
    """The record's ``variant`` key and the rules the fold applies."""
    bots: Mapping[str, Bot]
    """Every bot that may hold a seat in this game, by the ``name/version`` records keep."""
    table_bot_id: str
    """The bot that holds the other seats in games started now."""
    rules_page: str
    """The page's route to the game's rules, tips and questions."""
    verify: Callable[[str | bytes], dict[str, Any]]
    """``couyon verify`` for a record of this game's format: the contract's report or its refusal."""
    view_json: Callable[[GameState, int], Json]
    """A seat's view as the API's ``view`` object."""
    events_of: Callable[[GameState, Move, GameState], list[Json]]
    """What the table saw happen when a move turned one state into the next."""

    def new_game(self, seed: str) -> GameState:
        """The game before its first move, dealt from ``seed``."""
        return new_game(seed, self.variant)

    def bot(self, identifier: str) -> Bot:
        """The bot recorded as ``identifier`` in this game."""
        try:
            return self.bots[identifier]
        except KeyError:
            known = ", ".join(sorted(self.bots))
            raise ValueError(f"unknown bot {identifier!r} for {self.id}; known bots: {known}") from None

    def score(self, state: GameState) -> tuple[int, int] | None:
        """The leaderboard's (score, deals) of a finished game: South's score, and every deal dealt."""
        if state.score is None:
            return None
        return state.score, state.finished_deals[-1].number

    def describe(self) -> dict[str, Any]:
        """The game as ``GET /api/catalog`` lists it."""
        return {
            "id": self.id,
            "names": dict(self.names),
            "summaries": dict(self.summaries),
            "players": list(self.player_counts),
            "record_format": self.record_format,
            "variant": self.variant.name,
            "table_bot": self.table_bot_id,
            "rules": self.rules_page,
        }


def _by_id(*bots: Bot) -> dict[str, Bot]:
    return {bot_id(bot): bot for bot in bots}


COUYON = GameKind(
    id="couyon",
    names={"fr": "Couyon", "en": "Couyon"},
    summaries={
        "fr": "Le jeu des cafés d'Ardenne : 24 cartes, quatre chacun, une carte retournée propose l'atout, "
        "cinq lignes de craie à effacer.",
        "en": "The Ardennes café game: 24 cards, four each, a turned-up card proposes trump, "
        "five chalk lines to wipe out.",
    },
    player_counts=(4,),
    record_format="couyon-record/1",
    variant=STANDARD,
    bots=_by_id(RandomBot(), BaselineBot(), ExpertBot(version=1), ExpertBot(version=2), ExpertBot(version=3)),
    table_bot_id="expert/3",
    rules_page="#/rules",
    verify=verify,
    view_json=view_json,
    events_of=events_of,
)

MALMEDY_GAME = GameKind(
    id="malmedy",
    names={"fr": "Couyon de Malmedy", "en": "Malmedy couyon"},
    summaries={
        "fr": "La variante de Malmedy : cinq cartes et un blind, le joueur à gauche du donneur choisit l'atout, "
        "la dame de trèfle est toujours atout, et la mite se contre.",
        "en": "The Malmedy variant: five cards and a blind, the dealer's left names trump, "
        "the queen of clubs is always trump, and a mite can be doubled.",
    },
    player_counts=(4,),
    record_format="couyon-record/1",
    variant=MALMEDY,
    bots=_by_id(RandomBot(), MalmedyBaselineBot()),
    table_bot_id="baseline/1",
    rules_page="#/rules/malmedy",
    verify=verify,
    view_json=malmedy_view_json,
    events_of=malmedy_events_of,
)

GAMES: dict[str, GameKind] = {game.id: game for game in (COUYON, MALMEDY_GAME)}
"""Every game, in the order the home page shows them (couyon first)."""

_BY_VARIANT = {game.variant.name: game for game in GAMES.values()}


def game_named(identifier: str) -> GameKind:
    """The game called ``identifier``."""
    try:
        return GAMES[identifier]
    except KeyError:
        raise ValueError(f"unknown game {identifier!r}; known games: {', '.join(GAMES)}") from None


def game_of_variant(variant: str) -> GameKind:
    """The game a ``couyon-record/1`` record of this ``variant`` belongs to."""
    try:
        return _BY_VARIANT[variant]
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}; known variants: {', '.join(sorted(_BY_VARIANT))}") from None


RECORD_VERIFIERS: dict[str, Callable[[str | bytes], dict[str, Any]]] = {
    **{game.record_format: game.verify for game in GAMES.values()},
    "tarot-record/1": tarot_verify,
    "coucou-record/1": coucou_verify,
}
"""``couyon verify`` by record format (a game whose engine exists before its table adds its format here)."""


def verify_record(text: str | bytes) -> dict[str, Any]:
    """``couyon verify``: read the record's ``format`` and hand the record to that format's verifier."""
    try:
        document = read_document(text)
        format_name = document.get("format")
        verifier = RECORD_VERIFIERS.get(format_name) if isinstance(format_name, str) else None
        if verifier is None:
            raise wrong_format(document, list(RECORD_VERIFIERS))
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
    return verifier(text)
