"""Every game the site hosts, in one registry: the server, the store, the CLI and the page ask it.

A ``GameKind`` names a game (or a variant with a table of its own): its id, its names
and one sentence in French and English, its player counts, its record format, its
bots and the bot that sits at a new table, its rules page, and the functions that
start a game, show a seat's view as JSON and tell the events of a move. Nothing else
in the project branches on which game it holds.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from couyon.bots import Bot, bot_id, bot_move
from couyon.bots.baseline import BaselineBot
from couyon.bots.expert import ExpertBot
from couyon.bots.malmedy_baseline import MalmedyBaselineBot
from couyon.bots.malmedy_expert import MalmedyExpertBot
from couyon.bots.random_bot import RandomBot
from couyon.cards import Seat
from couyon.coucou import bots as coucou_bots
from couyon.coucou import game as coucou_game
from couyon.coucou.record import Record as CoucouRecord
from couyon.coucou.record import verify as coucou_verify
from couyon.coucou.review import coucou_review
from couyon.coucou.view import PublicCoup, public_coup
from couyon.coucou.view import view as coucou_view
from couyon.game import GameState, Move, legal_moves, new_game, play
from couyon.malmedy import MALMEDY
from couyon.malmedy_review import malmedy_review
from couyon.record import Record, RecordError, read_document, verify, wrong_format
from couyon.review import review
from couyon.rules import STANDARD, Variant
from couyon.server.answers import Json, deal_results, events_of, view_json
from couyon.server.coucou_answers import (
    COUCOU_HUMAN,
    coucou_board_facts,
    coucou_deal_results,
    coucou_events_of,
    coucou_view_json,
    coups_played,
)
from couyon.server.malmedy_answers import malmedy_events_of, malmedy_view_json
from couyon.server.tarot_answers import NO_CHELEM, tarot_deal_results, tarot_events_of, tarot_view_json
from couyon.tarot import game as tarot_game
from couyon.tarot.bots import bot_move as tarot_bot_move
from couyon.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
from couyon.tarot.cards import Seat as TarotSeat
from couyon.tarot.record import TarotRecord
from couyon.tarot.record import verify as tarot_verify

DEFAULT_GAME = "couyon"
"""The game of a request, a stored row or a record that names none: the common couyon."""

Options = Mapping[str, int | str]
"""A game's table options as the request names them and the store keeps them (``{"players": 8}``)."""
Review = Callable[[str, Sequence[str], bool, Options, str], Json]
"""A finished game's review from its seed, its moves, whether every hidden card may be shown, its table options
and the bot that held the other seats."""


class Engine(Protocol):
    """The fold of one game, as the server, the replay check and the records use it.

    States and moves are the game's own types; every refusal is a ``CouyonError`` (an
    ``IllegalMoveError``, ``OutOfTurnError`` or ``GameOverError`` for a move the rules refuse,
    an ``InvalidMoveError`` for a text that is no move), one sentence each.
    """

    def new_game(self, seed: str, options: Options) -> Any:
        """The game before its first move, dealt from ``seed`` with these table options."""
        ...

    def parse_move(self, text: str, options: Options) -> Any:
        """The move written ``text`` (``SEAT:ACTION``, as records write it)."""
        ...

    def play(self, state: Any, move: Any) -> Any:
        """The state after ``move``."""
        ...

    def legal_moves(self, state: Any) -> Sequence[Any]:
        """The moves allowed now (each with its ``seat``)."""
        ...

    def to_move(self, state: Any) -> Any:
        """The seat expected to move next, or None once the game is over."""
        ...

    def is_over(self, state: Any) -> bool: ...

    def bot_move(self, state: Any, bot: Any) -> Any:
        """The move ``bot`` makes for the seat to move, from that seat's view and its seeded generator."""
        ...

    def score(self, state: Any) -> tuple[int, int] | None:
        """The leaderboard's (score, deals) of a finished game: the human's score, and the deals (or coups) dealt."""
        ...

    def record_json(self, seed: str, moves: Sequence[str], options: Options, extras: Mapping[str, Any]) -> str:
        """The game's public record (its format's JSON), with ``extras`` after the contract's keys."""
        ...


@dataclass(frozen=True, slots=True)
class OptionRule:
    """One table option a player may choose for a free game (the number of players, say)."""

    name: str
    values: tuple[int | str, ...]
    default: int | str

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "values": list(self.values), "default": self.default}


class CouyonEngine:
    """The common couyon's fold (``couyon.game``) for one variant, standard or Malmedy."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def new_game(self, seed: str, options: Options) -> GameState:
        return new_game(seed, self.variant)

    def parse_move(self, text: str, options: Options) -> Move:
        return Move.parse(text, self.variant.actions)

    def play(self, state: GameState, move: Move) -> GameState:
        return play(state, move)

    def legal_moves(self, state: GameState) -> tuple[Move, ...]:
        return legal_moves(state)

    def to_move(self, state: GameState) -> Seat | None:
        return state.to_move

    def is_over(self, state: GameState) -> bool:
        return state.winner is not None

    def bot_move(self, state: GameState, bot: Bot) -> Move:
        return bot_move(state, bot)

    def score(self, state: GameState) -> tuple[int, int] | None:
        if state.score is None:
            return None
        return state.score, state.finished_deals[-1].number

    def record_json(self, seed: str, moves: Sequence[str], options: Options, extras: Mapping[str, Any]) -> str:
        return Record(seed, tuple(moves), self.variant.name, dict(extras)).to_json()


HISTORY_CACHE = 64
"""Coucou games whose public history the engine keeps for the bots' views (one entry per game, a public coup
per finished coup): the games in play at this moment. A game without its entry rebuilds it in about 50 µs."""


class CoucouEngine:
    """Coucou's fold (``couyon.coucou.game``): 5 to 20 players, ``players`` and ``tokens`` from the table options."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        # By the id of the last finished coup: (the finished coups, their public history).
        self._histories: OrderedDict[int, tuple[tuple[coucou_game.Coup, ...], tuple[PublicCoup, ...]]] = OrderedDict()

    def new_game(self, seed: str, options: Options) -> coucou_game.GameState:
        players = options.get("players", coucou_game.DEFAULT_PLAYERS)
        tokens = options.get("tokens", coucou_game.DEFAULT_TOKENS)
        assert isinstance(players, int) and isinstance(tokens, int), "parse_options checks the options"
        return coucou_game.new_game(seed, players, tokens)

    def parse_move(self, text: str, options: Options) -> coucou_game.Move:
        return coucou_game.Move.parse(text)

    def play(self, state: coucou_game.GameState, move: coucou_game.Move) -> coucou_game.GameState:
        return coucou_game.play(state, move)

    def legal_moves(self, state: coucou_game.GameState) -> tuple[coucou_game.Move, ...]:
        return coucou_game.legal_moves(state)

    def to_move(self, state: coucou_game.GameState) -> int | None:
        return state.to_move

    def is_over(self, state: coucou_game.GameState) -> bool:
        return state.winner is not None

    def bot_move(self, state: coucou_game.GameState, bot: coucou_bots.CoucouBot) -> coucou_game.Move:
        """``coucou.bots.bot_move``, with the finished coups' public history made once per coup, not per decision.

        The view handed to the bot is ``view(state, seat)``, its ``history`` taken from the cache: a bot loop
        that plays a 20-player table to its end (up to 47 coups, 500 decisions) would otherwise spend most
        of its time rebuilding the history.
        """
        seat = state.to_move
        if seat is None:
            raise ValueError("the game is over: no seat is to speak")
        seat_view = coucou_view(state, seat, self._history(state.finished))
        return bot.choose(seat_view, coucou_bots.bot_rng(state.seed, state.coup.number, seat))

    def _history(self, finished: tuple[coucou_game.Coup, ...]) -> tuple[PublicCoup, ...]:
        """The public history of these finished coups, one public coup made per finished coup.

        Every state of one coup holds the same ``finished`` tuple, and the next coup's holds it plus one
        coup: the entry of the game's previous coup is extended, then dropped. An entry keeps the coup its
        key is the ``id`` of, so that id cannot be reused while the entry lives.
        """
        if not finished:
            return ()
        with self._lock:
            cached = self._histories.get(id(finished[-1]))
            if cached is not None and cached[0] is finished:
                return cached[1]
            previous = self._histories.pop(id(finished[-2]), None) if len(finished) > 1 else None
            if previous is not None and previous[0] == finished[:-1]:
                history = (*previous[1], public_coup(finished[-1]))
            else:
                history = tuple(public_coup(coup) for coup in finished)
            self._histories[id(finished[-1])] = (finished, history)
            while len(self._histories) > HISTORY_CACHE:
                self._histories.popitem(last=False)
            return history

    def score(self, state: coucou_game.GameState) -> tuple[int, int] | None:
        """Seat 1's score (ruling 16) and the coups it played: its elimination's coup, or every coup if it won."""
        if state.score is None:
            return None
        return state.score, coups_played(state, COUCOU_HUMAN)

    def record_json(self, seed: str, moves: Sequence[str], options: Options, extras: Mapping[str, Any]) -> str:
        players = options.get("players", coucou_game.DEFAULT_PLAYERS)
        tokens = options.get("tokens", coucou_game.DEFAULT_TOKENS)
        assert isinstance(players, int) and isinstance(tokens, int), "parse_options checks the options"
        return CoucouRecord(seed, players, tokens, tuple(moves), dict(extras)).to_json()


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
    variant: str
    """What the store's ``variant`` column keeps: the ``variant`` key of a ``couyon-record/1`` record."""
    engine: Engine
    human: Any
    """The human's seat (``Seat.S`` at couyon, seat 1 at coucou)."""
    actions: str
    """How sentences name the moves a player may send, e.g. ``take, pass or a card like AH or 10C``."""
    bots: Mapping[str, Any]
    """Every bot that may hold a seat in this game, by the ``name/version`` records keep."""
    table_bot_id: str
    """The bot that holds the other seats in games started now."""
    rules_page: str
    """The page's route to the game's rules, tips and questions."""
    verify: Callable[[str | bytes], dict[str, Any]]
    """``couyon verify`` for a record of this game's format: the contract's report or its refusal."""
    view_json: Callable[[Any, Any], Json]
    """A seat's view as the API's ``view`` object."""
    events_of: Callable[[Any, Any, Any], list[Json]]
    """What the table saw happen when a move turned one state into the next."""
    waive_action: str | None = None
    """A pseudo-action (never stored, in no record) by which the human lets an optional move go while the game
    waits for another seat: tarot's ``no-chelem``, the human taker's answer to his chelem window. None: no such move."""
    options: tuple[OptionRule, ...] = ()
    """The table options of a free game; the daily challenge uses ``daily_options``."""
    daily_options: Options = field(default_factory=dict)
    level_bots: Mapping[str, str] = field(default_factory=dict)
    """For a game whose ``level`` option chooses the bots: each level's bot id; a level it leaves out is the
    table bot's (``table_bot_id``, or the operator's ``COUYON_TABLE_BOT``)."""
    hint_bot_id: str | None = None
    """The expert whose move a hint tells the player of a free game (None: no hints in this game)."""
    board_facts: Callable[[int, int, Options], Json] | None = None
    """What a leaderboard line adds to its score and deals, from them and the game's options (coucou: the place)."""
    win_score: int | None = None
    """The lowest leaderboard score of a game the human won (personal statistics); None: the score does not say."""
    deal_results: Callable[[Any], list[Json]] | None = None
    """How each deal (coucou: each coup) of a finished game went from the human's side (the day's traveller)."""
    review: Review | None = None
    """The review of a finished game (``couyon.review``, ``couyon.coucou.review``); None: the game has no review."""

    def new_game(self, seed: str, options: Options | None = None) -> Any:
        """The game before its first move, dealt from ``seed``."""
        return self.engine.new_game(seed, self.parse_options(options))

    def bot(self, identifier: str) -> Any:
        """The bot recorded as ``identifier`` in this game."""
        try:
            return self.bots[identifier]
        except KeyError:
            known = ", ".join(sorted(self.bots))
            raise ValueError(f"unknown bot {identifier!r} for {self.id}; known bots: {known}") from None

    def score(self, state: Any) -> tuple[int, int] | None:
        """The leaderboard's (score, deals) of a finished game: South's score, and every deal dealt."""
        return self.engine.score(state)

    def parse_options(self, raw: Mapping[str, object] | None) -> dict[str, int | str]:
        """The table options of a request, every one given its default; ``ValueError`` names a bad one."""
        given = dict(raw or {})
        options: dict[str, int | str] = {}
        for rule in self.options:
            value = given.pop(rule.name, rule.default)
            if isinstance(value, bool) or value not in rule.values:
                shown = ", ".join(str(allowed) for allowed in rule.values)
                raise ValueError(f"the option {rule.name} of {self.id} is one of {shown}")
            options[rule.name] = value
        if given:
            unknown = sorted(given)[0]
            raise ValueError(f"{self.id} has no option {unknown[:32]!r}")
        return options

    def level(self, options: Options) -> str:
        """The simulated players' level of a game dealt with ``options`` (its boards' level); "" without levels."""
        rule = next((rule for rule in self.options if rule.name == "level"), None)
        return "" if rule is None else str(options.get("level", rule.default))

    def human_may_move(self, state: Any) -> bool:
        """Whether the human has a move now (the server lets the bots play until he has)."""
        return any(move.seat == self.human for move in self.engine.legal_moves(state))

    def describe(self) -> dict[str, Any]:
        """The game as ``GET /api/catalog`` lists it."""
        return {
            "id": self.id,
            "names": dict(self.names),
            "summaries": dict(self.summaries),
            "players": list(self.player_counts),
            "record_format": self.record_format,
            "variant": self.variant,
            "table_bot": self.table_bot_id,
            "rules": self.rules_page,
            "options": [rule.describe() for rule in self.options],
            "hints": self.hint_bot_id is not None,
        }


def _from_moves(review: Callable[[str, Sequence[str], bool], Json]) -> Review:
    """A review made from the seed and the moves alone (couyon's, Malmedy's: it replays no bot)."""
    return lambda seed, moves, revealed, options, bots: review(seed, moves, revealed)


LEVELS = ("beginner", "expert")
"""The levels of a couyon or tarot table: the baseline bots, or the table's experts (the daily challenge's)."""


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
    variant=STANDARD.name,
    engine=CouyonEngine(STANDARD),
    human=Seat.S,
    actions="take, pass or a card like AH or 10C",
    bots=_by_id(RandomBot(), BaselineBot(), ExpertBot(version=1), ExpertBot(version=2), ExpertBot(version=3)),
    table_bot_id="expert/3",
    rules_page="#/rules",
    review=_from_moves(review),
    verify=verify,
    view_json=view_json,
    events_of=events_of,
    options=(OptionRule("level", LEVELS, "expert"),),
    daily_options={"level": "expert"},
    level_bots={"beginner": "baseline/1"},
    hint_bot_id="expert/3",
    # South's camp wins with the other camp's lines left: 1000 + 100 per line (ruling 8).
    win_score=1001,
    deal_results=deal_results,
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
    variant=MALMEDY.name,
    engine=CouyonEngine(MALMEDY),
    human=Seat.S,
    actions="trump-C, trump-D, trump-H, trump-S, mite, contra, recontra, pass or a card like AH or 10C",
    bots=_by_id(RandomBot(), MalmedyBaselineBot(), MalmedyExpertBot()),
    table_bot_id="expert/1",
    rules_page="#/rules/malmedy",
    verify=verify,
    view_json=malmedy_view_json,
    events_of=malmedy_events_of,
    options=(OptionRule("level", LEVELS, "expert"),),
    daily_options={"level": "expert"},
    level_bots={"beginner": "baseline/1"},
    hint_bot_id="expert/1",
    # South's camp wins with the other camp's lines left: 1000 + 100 per line (ruling 8).
    win_score=1001,
    deal_results=deal_results,
    review=_from_moves(malmedy_review),
)

COUCOU_GAME = GameKind(
    id="coucou",
    names={"fr": "Coucou", "en": "Coucou"},
    summaries={
        "fr": "De cinq à vingt joueurs, une seule carte chacun : on la garde ou on la change avec son voisin, "
        "un roi répond « Coucou ! », et la plus basse perd un jeton.",
        "en": "Five to twenty players, one card each: keep it or change it with your neighbour, "
        'a king answers "Coucou!", and the lowest card loses a token.',
    },
    player_counts=tuple(range(5, 21)),
    record_format="coucou-record/1",
    variant="coucou",
    engine=CoucouEngine(),
    human=COUCOU_HUMAN,
    actions="keep or change",
    bots=coucou_bots.BOTS,
    table_bot_id=coucou_bots.TABLE_BOT_ID,
    rules_page="#/rules/coucou",
    verify=coucou_verify,
    view_json=coucou_view_json,
    events_of=coucou_events_of,
    options=(
        OptionRule("players", tuple(range(5, 21)), coucou_game.DEFAULT_PLAYERS),
        OptionRule(
            "tokens",
            tuple(range(coucou_game.MIN_TOKENS, coucou_game.MAX_TOKENS + 1)),
            coucou_game.DEFAULT_TOKENS,
        ),
        OptionRule("level", ("easy", "normal", "expert"), "expert"),
    ),
    # Ruling 17: the daily challenge is 8 players with 3 tokens each against Expert bots.
    daily_options={"players": 8, "tokens": 3, "level": "expert"},
    level_bots={"easy": "easy/1", "normal": "normal/1", "expert": "expert/1"},
    hint_bot_id="expert/1",
    board_facts=coucou_board_facts,
    win_score=1000,  # The winner scores 1000 or more (ruling 16).
    deal_results=coucou_deal_results,
    review=coucou_review,
)

# -- French tarot: one kind per player count, so each count has its own daily seed and boards (rulings 16, 18).


class TarotEngine:
    """French tarot's fold (``couyon.tarot.game``) at one number of players; its one option, the level, deals
    the same game (it chooses the bots)."""

    def __init__(self, players: int) -> None:
        self.players = players

    def new_game(self, seed: str, options: Options) -> tarot_game.GameState:
        return tarot_game.new_game(seed, self.players)

    def parse_move(self, text: str, options: Options) -> tarot_game.Move:
        return tarot_game.Move.parse(text, self.players)

    def play(self, state: tarot_game.GameState, move: tarot_game.Move) -> tarot_game.GameState:
        return tarot_game.play(state, move)

    def legal_moves(self, state: tarot_game.GameState) -> tuple[tarot_game.Move, ...]:
        return tarot_game.legal_moves(state)

    def to_move(self, state: tarot_game.GameState) -> TarotSeat | None:
        return tarot_game.to_move(state)

    def is_over(self, state: tarot_game.GameState) -> bool:
        return tarot_game.is_over(state)

    def bot_move(self, state: tarot_game.GameState, bot: Any) -> tarot_game.Move:
        return tarot_bot_move(state, bot)

    def score(self, state: tarot_game.GameState) -> tuple[int, int] | None:
        """South's total over the n played deals (ruling 17), and those n deals: a passed-out or annulled
        deal does not count among the deals of a game (ruling 6), on the leaderboard as at the table's end."""
        if state.score is None:
            return None
        return state.score, state.played

    def record_json(self, seed: str, moves: Sequence[str], options: Options, extras: Mapping[str, Any]) -> str:
        return TarotRecord(self.players, seed, tuple(moves), dict(extras)).to_json()


def _tarot(players: int) -> GameKind:
    return GameKind(
        id=f"tarot{players}",
        names={"fr": f"Tarot à {players}", "en": f"Tarot, {players} players"},
        summaries={
            "fr": f"Le tarot français à {players} joueurs : 78 cartes, des enchères de la petite à la garde contre, "
            "le chien, les bouts, les poignées et le petit au bout.",
            "en": f"French tarot for {players} players: 78 cards, bids from petite to garde contre, the chien, "
            "the bouts, poignées and the petit au bout.",
        },
        player_counts=(players,),
        record_format="tarot-record/1",
        variant=f"tarot{players}",
        engine=TarotEngine(players),
        human=TarotSeat.S,
        actions=(
            "pass, petite, garde, garde-sans, garde-contre, call:KH, ecart:CARDS, chelem, no-chelem, "
            "poignee:CARDS, misere-atout, misere-tete or a card like KS, 10H, 21T or EX"
        ),
        bots=TAROT_BOTS_BY_ID,
        table_bot_id=TAROT_TABLE_BOT_ID,
        rules_page="#/rules/tarot",
        verify=tarot_verify,
        view_json=tarot_view_json,
        events_of=tarot_events_of,
        waive_action=NO_CHELEM,
        options=(OptionRule("level", LEVELS, "expert"),),
        daily_options={"level": "expert"},
        level_bots={"beginner": "baseline/1"},
        # A hint asks the table's expert, so it costs no more than a table move.
        hint_bot_id="expert/3",
        deal_results=tarot_deal_results,
    )


TAROT_GAMES = tuple(_tarot(players) for players in (3, 4, 5))

GAMES: dict[str, GameKind] = {game.id: game for game in (COUYON, MALMEDY_GAME, COUCOU_GAME, *TAROT_GAMES)}
"""Every game, in the order the home page shows them (couyon first)."""

_BY_VARIANT = {game.variant: game for game in GAMES.values() if game.record_format == "couyon-record/1"}


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
