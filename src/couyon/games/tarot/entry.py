"""French tarot's entries in the registry, one per table size (``GAMES``: 3, 4 and 5 players), so each count has
its own daily seed and boards (rulings 16, 18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from couyon.common.kind import GameKind, OptionRule, Options
from couyon.games.tarot import game as tarot_game
from couyon.games.tarot import results
from couyon.games.tarot.answers import NO_CHELEM, tarot_events_of, tarot_view_json, winner_of
from couyon.games.tarot.bots import bot_move as tarot_bot_move
from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
from couyon.games.tarot.cards import SEATS_OF
from couyon.games.tarot.cards import Seat as TarotSeat
from couyon.games.tarot.record import TarotRecord
from couyon.games.tarot.record import verify as tarot_verify
from couyon.games.tarot.review import review_at

LEVELS = ("beginner", "expert")
"""The levels of a tarot table: the baseline bots, or the table's experts (the daily challenge's)."""


class TarotEngine:
    """French tarot's fold (``couyon.games.tarot.game``) at one number of players; its one option, the level, deals
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


def _seat_result(state: Any, seat: TarotSeat) -> tuple[int, bool]:
    """A seat's total in a finished game (ruling 17) and whether it is the winner (the highest total)."""
    score = state.score_of(seat)
    assert score is not None, "a finished game's"
    return score, winner_of(state) == seat


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
        deals_per_game=players,
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
        seats=lambda options: SEATS_OF[players],
        seat_result=_seat_result,
        daily_options={"level": "expert"},
        level_bots={"beginner": "baseline/1"},
        # A hint asks the table's expert, so it costs no more than a table move.
        hint_bot_id="expert/5",
        # A bid that simulates takes 28-115 ms on a loaded machine: 100 ms still leaked (AUC 0.71), 250 did not.
        decision_floor_ms=250,
        review=review_at(players),
        deal_results=results.deal_results,
        traveller=results.traveller,
    )


GAMES = tuple(_tarot(players) for players in (3, 4, 5))
