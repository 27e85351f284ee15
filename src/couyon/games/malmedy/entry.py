"""The couyon de Malmedy's entry in the registry (``GAME``): couyon's fold with the Malmedy variant, its own bots."""

from __future__ import annotations

from couyon.common.kind import GameKind, OptionRule
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.cards import SEATS, Seat
from couyon.games.couyon.entry import LEVELS, ONE_DEAL, CouyonEngine, by_id, from_moves, seat_result
from couyon.games.malmedy import answers, results
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.expert import MalmedyExpertBot
from couyon.games.malmedy.game import MALMEDY
from couyon.games.malmedy.puzzles import MalmedyPuzzles
from couyon.games.malmedy.record import verify
from couyon.games.malmedy.review import malmedy_review

GAME = GameKind(
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
    bots=by_id(RandomBot(), MalmedyBaselineBot(), MalmedyExpertBot()),
    table_bot_id="expert/1",
    rules_page="#/rules/malmedy",
    verify=verify,
    view_json=answers.malmedy_view_json,
    events_of=answers.malmedy_events_of,
    options=(OptionRule("level", LEVELS, "expert"),),
    seats=lambda options: SEATS,
    seat_result=seat_result,
    daily_options={"level": "expert"},
    level_bots={"beginner": "baseline/1"},
    hint_bot_id="expert/1",
    # The queen of spades' signal is gone at 100 ms (AUC 0.49, docs/server.md "Answer times").
    decision_floor_ms=100,
    # South's camp wins with the other camp's lines left: 1000 + 100 per line (ruling 8).
    win_score=1001,
    deal_results=results.deal_results,
    traveller=results.traveller,
    review=from_moves(malmedy_review),
    one_deal=ONE_DEAL,
    puzzles=MalmedyPuzzles("malmedy"),
)
