"""The shape of one game's entry in the registry: what the server, the store, the CLI and the page may ask of it.

A ``GameKind`` names a game (or a variant with a table of its own): its id, its names and one sentence in
French and English, its player counts, its record format, its bots and the bot that sits at a new table,
its rules page, and the functions that start a game, show a seat's view as JSON and tell the events of a
move. Each game's package builds its own (``couyon.games.<game>.entry.GAME``); ``couyon.registry`` lists them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from couyon.common.puzzles import PuzzleMiner

Json = dict[str, Any]
"""A JSON object of the API, as the answers build it."""

Options = Mapping[str, int | str]
"""A game's table options as the request names them and the store keeps them (``{"players": 8}``)."""
Review = Callable[[str, Sequence[str], bool, Options, str, str], Json]
"""A finished game's review from its seed, its moves, whether every hidden card may be shown, its table options,
the bot that held the bots' seats, and ``seat``: the label (as records write it, ``"S"``, ``"1"``) of the seat it is
written from, whose hand alone it shows while the hidden cards may not be, whose decisions it judges from that
seat's view and whose camp its totals are counted for (the solo table's is the entry's ``human``)."""


class EventsOf(Protocol):
    """What one seat saw happen when a move turned one state into the next (the human's seat when left out)."""

    def __call__(self, before: Any, move: Any, after: Any, seat: Any = ..., /) -> list[Json]: ...


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
    events_of: EventsOf
    """What the table saw happen when a move turned one state into the next, as ``seat`` (the human's by default)
    saw it: a card passed face down is shown only to the two seats that passed it."""
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
    traveller: Callable[[list[list[Json]], list[Json]], list[Json]] | None = None
    """The day's traveller from every game's ``deal_results`` and the player's own: a line per deal (or coup)
    number; set with ``deal_results``."""
    decision_floor_ms: int = 0
    """How long each bot decision holds an answer of this game (``couyon.server.pacing``): above the p99 of its
    table bot's decision on a loaded machine, so that an answer's time tells nothing of the bots' hands."""
    review: Review | None = None
    """The review of a finished game (``couyon.games.couyon.review``, ``couyon.games.coucou.review``); None: the game has no review."""
    seats: Callable[[Options], tuple[Any, ...]] | None = None
    """Every seat of a game dealt with these (parsed) options, in turn order: the next seat in the tuple is the left
    of the one before (friends' tables seat people by it, and move the dealer on to the next one). None: the game
    cannot be played at a friends' table."""
    seat_result: Callable[[Any, Any], tuple[int, bool]] | None = None
    """A seat's (score, won) in a finished game, as the leaderboard would score that seat (a friends' table's own
    results); set with ``seats``."""
    deals_per_game: int | None = None
    """How many deals every finished game plays, for a game where that is fixed (tarot at n players: n deals,
    tarot-record-format.md; passed-out and petit-sec deals are dealt again and are not among them): a club's
    tournament of it can be given its length in deals. None: it depends on the play (couyon, Malmedy: a game runs
    until a side's lines are done, so their tournaments in deals play games of one deal, ``one_deal``; coucou: until
    one player has tokens)."""
    one_deal: Options = field(default_factory=dict)
    """The table options of a game of one deal, for a game whose number of deals depends on the play (couyon,
    Malmedy: ``{"deals": 1}``, the engine ends the game once its first deal is done): a club's tournament given in
    deals plays that many of them (docs/clubs.md). Not among ``options``: never on the new-game form, and
    ``parse_options`` takes them only when asked (``one_deal=True``), so no free or daily game has them. Empty: no
    such game (tarot's games have ``deals_per_game``; coucou has coups)."""
    puzzles: PuzzleMiner | None = None
    """The game's puzzles (``couyon.common.puzzles``, docs/puzzles.md): its miner of seeded bot games. None: no
    puzzles yet."""
    extra_verifiers: Mapping[str, Callable[[str | bytes], dict[str, Any]]] = field(default_factory=dict)
    """Other record formats this entry's ``couyon verify`` reads, by format, beyond ``record_format`` (none today:
    as qui court's entry, whose format is ``coucou-record/2``, reads coucou's ``/2`` records too)."""

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

    def parse_options(self, raw: Mapping[str, object] | None, one_deal: bool = False) -> dict[str, int | str]:
        """The table options of a request, every one given its default; ``ValueError`` names a bad one. With
        ``one_deal``, those of a game of one deal (``one_deal``'s, whether the request names them or not)."""
        given = dict(raw or {})
        options: dict[str, int | str] = {}
        if one_deal:
            if not self.one_deal:
                raise ValueError(f"{self.id} has no games of one deal")
            for name, fixed in self.one_deal.items():
                if given.pop(name, fixed) != fixed:
                    raise ValueError(f"the option {name} of a game of one deal of {self.id} is {fixed}")
                options[name] = fixed
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
