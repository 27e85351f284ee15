"""Coucou's entries in the registry: ``GAME`` (coucou) and ``AS_QUI_COURT_GAME`` (Méry's as qui court, rulings
20–24, the same fold with ``Variant.AS_QUI_COURT``), each with its fold for the server and the bots' history cache."""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from couyon.common.kind import GameKind, OptionRule, Options
from couyon.games.coucou import bots as coucou_bots
from couyon.games.coucou import game as coucou_game
from couyon.games.coucou import results
from couyon.games.coucou.answers import (
    COUCOU_HUMAN,
    coucou_board_facts,
    coucou_events_of,
    coucou_view_json,
    coups_played,
)
from couyon.games.coucou.record import FORMAT_2
from couyon.games.coucou.record import Record as CoucouRecord
from couyon.games.coucou.record import verify as coucou_verify
from couyon.games.coucou.review import as_qui_court_review, coucou_review
from couyon.games.coucou.view import PublicCoup, public_coup
from couyon.games.coucou.view import view as coucou_view

HISTORY_CACHE = 64
"""Coucou games whose public history the engine keeps for the bots' views (one entry per game, a public coup
per finished coup): the games in play at this moment. A game without its entry rebuilds it in about 50 µs."""


class CoucouEngine:
    """Coucou's fold (``couyon.games.coucou.game``): 5 to 20 players, ``players`` and ``tokens`` from the table options.

    ``variant`` chooses the table: coucou, or as qui court (its records are ``coucou-record/2``)."""

    def __init__(self, variant: coucou_game.Variant = coucou_game.COUCOU) -> None:
        self.variant = variant
        self._lock = threading.Lock()
        # By the id of the last finished coup: (the finished coups, their public history).
        self._histories: OrderedDict[int, tuple[tuple[coucou_game.Coup, ...], tuple[PublicCoup, ...]]] = OrderedDict()

    def new_game(self, seed: str, options: Options) -> coucou_game.GameState:
        players = options.get("players", coucou_game.DEFAULT_PLAYERS)
        tokens = options.get("tokens", coucou_game.DEFAULT_TOKENS)
        assert isinstance(players, int) and isinstance(tokens, int), "parse_options checks the options"
        return coucou_game.new_game(seed, players, tokens, self.variant)

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
        variant = None if self.variant is coucou_game.COUCOU else self.variant
        return CoucouRecord(seed, players, tokens, tuple(moves), dict(extras), variant).to_json()


GAME = GameKind(
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
    seats=lambda options: tuple(range(1, int(options["players"]) + 1)),
    seat_result=lambda state, seat: (state.score_of(seat), state.winner == seat),
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
    # A coucou bot's decision is a threshold on one card (tens of µs): 2 ms each keeps 19 of them under 40 ms.
    decision_floor_ms=2,
    board_facts=coucou_board_facts,
    win_score=1000,  # The winner scores 1000 or more (ruling 16).
    deal_results=results.deal_results,
    traveller=results.traveller,
    review=coucou_review,
)

# As qui court is coucou with Méry's changes (ruling 20): what is not named here is coucou's, the daily
# challenge's table included (ruling 17).
AS_QUI_COURT_GAME = dataclasses.replace(
    GAME,
    id="as-qui-court",
    names={"fr": "As qui court", "en": "As qui court"},
    summaries={
        "fr": "La variante de Méry : le donneur n'a qu'une carte et reçoit celle de son voisin, il ne change "
        "avec le talon que s'il vient de recevoir un as, et un roi se montre au lieu de dire « Coucou ! ».",
        "en": "Méry's variant: the dealer has one card and takes his neighbour's, he changes with the stock "
        "only when he has just been handed an ace, and a king is shown instead of saying “Coucou!”.",
    },
    # Its records are coucou-record/2 with "variant": "as-qui-court"; the same verifier reads both variants.
    record_format=FORMAT_2,
    variant=str(coucou_game.AS_QUI_COURT),
    engine=CoucouEngine(coucou_game.AS_QUI_COURT),
    bots=coucou_bots.AQC_BOTS,
    table_bot_id=coucou_bots.AQC_TABLE_BOT_ID,
    rules_page="#/rules/as-qui-court",
    level_bots={"easy": "easy/2", "normal": "normal/2", "expert": "expert/2"},
    hint_bot_id="expert/2",
    review=as_qui_court_review,
)
