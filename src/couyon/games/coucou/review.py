"""The review of a finished game of coucou from one seat: every coup it was dealt a card in, its keep-or-change judged.

The review is written from one seat (``seat``): seat 1 at the solo table, each person's own at a
friends' table. For each coup that seat played: the card it held when it spoke, what it said (keep
or change) and what came of it (an exchange, a "Coucou !", the stock), what the expert bot
(``expert/1``, the hint's bot) says from that seat's view at that moment, and the showdown as the
whole table saw it (every card, the lowest rank, the losers). The dealer does not speak: a coup
the seat dealt has no decision. ``place`` and ``score`` are the seat's.

The expert is a rule (ruling 19), not a valuation: it gives no value to either choice. A
decision's ``cost`` is 0 when the seat chose as the expert, 1 when it did not; the game's
``cost`` counts those decisions.

With ``revealed`` (a free game, or a daily whose day is over) each decision also tells what
followed: whether the seat lost a token in the coup, and what the other choice would have
given — the coup played again from the seat's move with the other one, every later speaker
played by the game's bot, which decides from its seat's view alone and never draws at
random, so the replay is exactly what a table of bots would have done (at a friends' table the
later speakers may have been people: the replay still gives them the bot). Without ``revealed``
nothing of a coup's hidden cards is in the review: only the seat's own cards, the expert's choice
from its view, and the showdowns every player saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from couyon.games.coucou.bots import AQC_BOTS, BOTS, CoucouBot, ExpertBot, ExpertBot2, bot_id, bot_move
from couyon.games.coucou.cards import RANK_CODES
from couyon.games.coucou.game import (
    CHANGE,
    DEFAULT_PLAYERS,
    DEFAULT_TOKENS,
    KEEP,
    Coup,
    GameState,
    Move,
    Variant,
    new_game,
    play,
)
from couyon.games.coucou.view import public_coup

Json = dict[str, Any]

HUMAN = 1
"""Seat 1, the solo table's human's (ruling 1): the seat a review is written from unless told."""
REVIEWER = ExpertBot()
"""The expert whose choice the review shows: the hint's bot."""
AQC_REVIEWER = ExpertBot2()
"""As qui court's: its hint's bot, ``expert/2``."""


def coucou_review(
    seed: str, moves: Sequence[str], revealed: bool, options: Mapping[str, Any], bots: str, seat: str = str(HUMAN)
) -> Json:
    """The review from ``seat`` (its label, ``"1"`` to ``"20"``) of the finished game ``seed`` + ``moves`` dealt with
    the table ``options``, the bot seats played by ``bots`` (see the module's text)."""
    return _review(Variant.COUCOU, REVIEWER, BOTS, seed, moves, revealed, options, bots, int(seat))


def as_qui_court_review(
    seed: str, moves: Sequence[str], revealed: bool, options: Mapping[str, Any], bots: str, seat: str = str(HUMAN)
) -> Json:
    """The review from ``seat`` of a finished game of as qui court: as coucou's, judged by ``expert/2``; the dealer's
    move (when he was handed an ace) is a decision like any other, and a king shown is ``king-shown``."""
    return _review(Variant.AS_QUI_COURT, AQC_REVIEWER, AQC_BOTS, seed, moves, revealed, options, bots, int(seat))


def _review(
    variant: Variant,
    reviewer: CoucouBot,
    known: Mapping[str, CoucouBot],
    seed: str,
    moves: Sequence[str],
    revealed: bool,
    options: Mapping[str, Any],
    bots: str,
    seat: int,
) -> Json:
    players, tokens = options.get("players", DEFAULT_PLAYERS), options.get("tokens", DEFAULT_TOKENS)
    state = new_game(seed, players, tokens, variant)
    bot = known[bots]
    decisions: dict[int, Json] = {}
    for text in moves:
        move = Move.parse(text)
        if move.seat == seat:
            decisions[state.coup.number] = _decision(state, move, bot, revealed, reviewer)
        state = play(state, move)
    coups = [_coup(coup, decisions.get(coup.number), seat) for coup in state.finished if seat in coup.order]
    named = {} if variant is Variant.COUCOU else {"variant": str(variant)}
    return {
        "revealed": revealed,
        **named,
        "expert": bot_id(reviewer),
        "bots": bots,
        "players": state.players,
        "tokens": state.starting_tokens,
        "winner": state.winner,
        "place": state.place_of(seat),
        "score": state.score_of(seat),
        "cost": sum(coup["decision"]["cost"] for coup in coups if coup["decision"] is not None),
        "coups": coups,
    }


def _decision(state: GameState, move: Move, bot: Any, revealed: bool, reviewer: CoucouBot) -> Json:
    """The seat's ``move`` in ``state``: its card, the expert's choice from its view and, ``revealed``, the other
    choice replayed."""
    expert = bot_move(state, reviewer).action
    decision: Json = {
        "card": str(state.coup.card_of(move.seat)),
        "choice": str(move.action),
        "expert_choice": str(expert),
        "cost": int(expert != move.action),
    }
    if revealed:
        other = _coup_played(state, Move(move.seat, CHANGE if move.action == KEEP else KEEP), bot)
        decision["other"] = {"choice": str(CHANGE if move.action == KEEP else KEEP), **_seat_in(other, move.seat)}
    return decision


def _coup_played(state: GameState, move: Move, bot: Any) -> Coup:
    """The coup in play once ``move`` is made and ``bot`` speaks for every later seat, at its showdown."""
    number = state.coup.number
    state = play(state, move)
    while state.winner is None and state.coup.number == number:
        state = play(state, bot_move(state, bot))
    return state.finished[-1]


def _seat_in(coup: Coup, seat: int) -> Json:
    """What a finished coup did to ``seat``: its move's outcome, its card at the showdown, the token lost or not."""
    position = coup.order.index(seat)
    assert coup.losers is not None
    return {
        "outcome": str(coup.actions[position]),
        "final": str(coup.cards[position]),
        "lost": seat in coup.losers,
    }


def _coup(coup: Coup, decision: Json | None, seat: int) -> Json:
    shown = public_coup(coup)
    lowest = min(card.rank for card in shown.after)
    entry: Json = {
        "number": coup.number,
        "dealer": coup.dealer,
        "order": list(coup.order),
        "decision": decision,
        "showdown": {
            "actions": [f"{seat}:{outcome}" for seat, outcome in zip(shown.order, shown.actions, strict=False)],
            "stock": None if shown.stock is None else str(shown.stock),
            "cards": {str(seat): str(card) for seat, card in sorted(zip(shown.order, shown.after, strict=True))},
            "lowest": RANK_CODES[lowest],
            "losers": list(shown.losers),
            "eliminated": list(shown.eliminated),
        },
    }
    if coup.variant is Variant.AS_QUI_COURT:
        entry["showdown"]["kings_shown"] = list(shown.kings_shown)
    if decision is not None:
        followed = _seat_in(coup, seat)
        decision.update(followed if "other" in decision else {"outcome": followed["outcome"]})
    return entry
