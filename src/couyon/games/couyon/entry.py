"""The common couyon's entry in the registry (``GAME``): its fold for the server, its bots, its record, its answers."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from couyon.common.kind import GameKind, Json, OptionRule, Options, Review
from couyon.games.couyon import answers, results
from couyon.games.couyon.bots import Bot, bot_id, bot_move
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.cards import SEATS, Seat
from couyon.games.couyon.game import GameState, Move, legal_moves, new_game, play
from couyon.games.couyon.puzzles import CouyonPuzzles
from couyon.games.couyon.record import Record, verify
from couyon.games.couyon.review import review
from couyon.games.couyon.rules import STANDARD, Variant, dealt_variant


def seat_result(state: GameState, seat: Seat) -> tuple[int, bool]:
    """A seat's score in a finished game, South's rule (ruling 8) from its own team's side, and whether its team won."""
    score = state.score_of(seat)
    assert score is not None, "a finished game's"
    return score, state.winner == seat.team


ONE_DEAL: Options = {"deals": 1}
"""The table options of a game of one deal (``GameKind.one_deal``: a club's tournament in deals, docs/clubs.md): the
fold ends it once its first deal is done (``Variant.deals``)."""


class CouyonEngine:
    """The common couyon's fold (``couyon.games.couyon.game``) for one variant, standard or Malmedy.

    A game dealt with the option ``deals`` (``ONE_DEAL``) is folded with the variant ending after that many deals;
    its record names the variant as every record does, and says ``deals`` in an extra key that verifiers ignore.
    """

    def __init__(self, variant: Variant) -> None:
        self.variant = variant

    def new_game(self, seed: str, options: Options) -> GameState:
        return new_game(seed, dealt_variant(self.variant, options))

    def parse_move(self, text: str, options: Options) -> Move:
        return Move.parse(text, self.variant.actions)

    def play(self, state: GameState, move: Move) -> GameState:
        return play(state, move)

    def legal_moves(self, state: GameState) -> tuple[Move, ...]:
        return legal_moves(state)

    def to_move(self, state: GameState) -> Seat | None:
        return state.to_move

    def is_over(self, state: GameState) -> bool:
        return state.over

    def bot_move(self, state: GameState, bot: Bot) -> Move:
        return bot_move(state, bot)

    def score(self, state: GameState) -> tuple[int, int] | None:
        if state.score is None:
            return None
        return state.score, state.finished_deals[-1].number

    def record_json(self, seed: str, moves: Sequence[str], options: Options, extras: Mapping[str, Any]) -> str:
        limit = {"deals": options["deals"]} if "deals" in options else {}
        return Record(seed, tuple(moves), self.variant.name, {**limit, **extras}).to_json()


def from_moves(review: Callable[[str, Sequence[str], bool, Seat, Options], Json]) -> Review:
    """A review made from the seed, the moves and the table options alone (couyon's, Malmedy's: it replays no bot),
    from the seat its label names."""
    return lambda seed, moves, revealed, options, bots, seat: review(seed, moves, revealed, Seat.parse(seat), options)


LEVELS = ("beginner", "expert")
"""The levels of a couyon, Malmedy or tarot table: the baseline bots, or the table's experts (the daily challenge's)."""


def by_id(*bots: Bot) -> dict[str, Bot]:
    """Bots by the ``name/version`` records keep."""
    return {bot_id(bot): bot for bot in bots}


GAME = GameKind(
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
    bots=by_id(RandomBot(), BaselineBot(), ExpertBot(version=1), ExpertBot(version=2), ExpertBot(version=3)),
    table_bot_id="expert/3",
    rules_page="#/rules",
    review=from_moves(review),
    verify=verify,
    view_json=answers.view_json,
    events_of=answers.events_of,
    options=(OptionRule("level", LEVELS, "expert"),),
    seats=lambda options: SEATS,
    seat_result=seat_result,
    daily_options={"level": "expert"},
    level_bots={"beginner": "baseline/1"},
    hint_bot_id="expert/3",
    # expert/3's decisions: 13.7 ms p99 on an idle core (docs/bots.md); the margin covers a loaded machine.
    decision_floor_ms=100,
    # South's camp wins with the other camp's lines left: 1000 + 100 per line (ruling 8).
    win_score=1001,
    deal_results=results.deal_results,
    traveller=results.traveller,
    one_deal=ONE_DEAL,
    puzzles=CouyonPuzzles("couyon"),
)
