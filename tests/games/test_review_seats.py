"""The review of a finished game from each of its seats (issue 21: each person at a friends' table reads his own):
couyon, Malmedy, coucou and as qui court.

Each game is played with the review's own expert at every seat, deciding as the review does (its view, its
stream), so every seat's review must rate each of that seat's decisions as costing nothing: values counted for
another seat's team, or from another seat's view, would not. The decisions judged are that seat's, all of them;
its score is its own; and while the hidden cards may not be shown, nothing the seat did not see is in its review.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from couyon.common.stream import Stream
from couyon.games.coucou import review as coucou_review_module
from couyon.games.coucou.bots import bot_move as coucou_bot_move
from couyon.games.coucou.cards import DECK_52
from couyon.games.coucou.game import AS_QUI_COURT, COUCOU, Variant
from couyon.games.coucou.game import GameState as CoucouState
from couyon.games.coucou.game import Move as CoucouMove
from couyon.games.coucou.game import new_game as new_coucou
from couyon.games.coucou.game import play as play_coucou
from couyon.games.coucou.review import as_qui_court_review, coucou_review
from couyon.games.couyon import review as couyon_review_module
from couyon.games.couyon.bots.solver import move_values
from couyon.games.couyon.cards import CARDS, SEATS, Seat, cards_of
from couyon.games.couyon.game import GameState, Move, legal_cards, new_game, play
from couyon.games.couyon.review import review
from couyon.games.couyon.rules import STANDARD
from couyon.games.couyon.rules import Variant as CouyonVariant
from couyon.games.couyon.view import standard_view
from couyon.games.malmedy import review as malmedy_review_module
from couyon.games.malmedy.game import MALMEDY, malmedy_view
from couyon.games.malmedy.review import malmedy_review

Json = dict[str, Any]
CARD_CODES = {str(card) for card in CARDS}


def expert_game(variant: CouyonVariant, seed: str, choose: Callable[[GameState], Move]) -> tuple[GameState, list[str]]:
    """A finished game of ``variant`` with every seat's move ``choose``'s; the game as it ended and its moves."""
    state = new_game(seed, variant)
    moves: list[str] = []
    while state.winner is None:
        move = choose(state)
        moves.append(str(move))
        state = play(state, move)
    return state, moves


def couyon_expert(state: GameState) -> Move:
    """The review's expert for the seat to move, from its view, with the stream the review gives it."""
    assert state.to_move is not None
    stream = Stream(state.seed, f"review:{state.move_count}")
    return couyon_review_module.REVIEWER.choose(standard_view(state, state.to_move), stream)


def malmedy_expert(state: GameState) -> Move:
    assert state.to_move is not None
    stream = Stream(state.seed, f"review:{state.move_count}")
    return malmedy_review_module.REVIEWER.choose(malmedy_view(state, state.to_move), stream)


def judged(built: Json) -> list[tuple[str, Json]]:
    """The judged decisions of a couyon or Malmedy review, each as (the seat that made it, its judgement)."""
    found = []
    for deal in built["deals"]:
        found += [(bid["seat"], bid["review"]) for bid in deal["bids"] if "review" in bid]
        found += [
            (card["seat"], card["review"]) for trick in deal["tricks"] for card in trick["cards"] if "review" in card
        ]
    return found


def cards_named(value: Any) -> set[str]:
    """Every card code written in ``value``'s JSON."""
    return set(json.dumps(value).split('"')) & CARD_CODES


GAMES = {
    "couyon": (STANDARD, couyon_expert, review),
    "malmedy": (MALMEDY, malmedy_expert, malmedy_review),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_seat_s_review_judges_its_own_decisions_from_its_view_for_its_team(game: str) -> None:
    variant, expert, build = GAMES[game]
    end, moves = expert_game(variant, f"seat-review-{game}", expert)
    for seat in SEATS:
        built = build(end.seed, moves, True, seat)
        decisions = judged(built)
        # Every decision of the seat is judged, and no other seat's.
        assert len(decisions) == sum(text.startswith(f"{seat}:") for text in moves) > 0
        assert {judged_seat for judged_seat, _ in decisions} == {str(seat)}
        # The seat played as the expert judges from its own view: nothing it did cost its team anything.
        assert all(judgement["cost"] == 0.0 for _, judgement in decisions), (seat, decisions)
        assert built["score"] == end.score_of(seat) and built["winner"] == str(end.winner)
        assert all(list(deal["hands"]) == ["S", "W", "N", "E"] for deal in built["deals"])
    # Partners share a score; the other camp's is its mirror (ruling 8).
    scores = {seat: build(end.seed, moves, True, seat)["score"] for seat in (Seat.S, Seat.W, Seat.N)}
    assert scores[Seat.S] == scores[Seat.N] == 2000 - scores[Seat.W]


def test_a_couyon_card_s_double_dummy_value_is_for_the_team_of_the_seat_that_played_it() -> None:
    end, moves = expert_game(STANDARD, "seat-review-dd", couyon_expert)
    for seat in (Seat.W, Seat.N):
        built = review(end.seed, moves, True, seat)
        tricks = {deal["number"]: deal["tricks"] for deal in built["deals"]}
        state, checked = new_game(end.seed), 0
        for text in moves:
            move = Move.parse(text)
            deal = state.deal
            if move.seat == seat and move.card is not None and len(legal_cards(state)) > 1:
                entry = next(c for c in tricks[deal.number][len(deal.tricks)]["cards"] if c["seat"] == str(seat))
                dd = {option["card"]: option["dd"] for option in entry["review"]["options"]}
                assert deal.trump is not None
                exact = move_values(deal.hands, deal.trump, deal.leader, deal.trick)
                so_far = deal.points[0] - deal.points[1]
                team = 1 if seat.team == Seat.S.team else -1  # The solver counts North-South's points.
                assert {str(CARDS[card]): sign(team * (value + so_far)) for card, value in exact.items()} == {
                    card: sign(value) for card, value in dd.items()
                }
                checked += 1
            state = play(state, move)
        assert checked > 0


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_hidden_review_shows_nothing_its_seat_did_not_see(game: str) -> None:
    variant, expert, build = GAMES[game]
    end, moves = expert_game(variant, f"seat-review-hidden-{game}", expert)
    dealt: dict[int, dict[Seat, list[str]]] = {}
    state = new_game(end.seed, variant)
    for text in moves:
        dealt.setdefault(
            state.deal.number, {seat: [str(c) for c in cards_of(state.deal.hands[seat])] for seat in SEATS}
        )
        state = play(state, Move.parse(text))
    for seat in SEATS:
        built = build(end.seed, moves, False, seat)
        assert built["revealed"] is False
        for deal in built["deals"]:
            hands = dealt[deal["number"]]
            assert deal["hands"] == {str(seat): hands[seat]}
            assert deal["par"] is None
            played = {card["card"] for trick in deal["tricks"] for card in trick["cards"]}
            # No card of another seat's hand that was never played (a deal nobody took, a card left in a hand).
            hidden = {card for other, cards in hands.items() if other != seat for card in cards} - played
            assert not cards_named(deal) & hidden, (seat, deal["number"])
        for _, judgement in judged(built):
            assert "dd_take" not in judgement and "dd_cost" not in judgement
            assert all("dd" not in option for option in judgement.get("options", []))


def coucou_expert_game(variant: Variant, seed: str) -> tuple[CoucouState, list[str]]:
    """A finished game of 6 with 2 tokens each, the review's expert at every seat."""
    reviewer = coucou_review_module.REVIEWER if variant is COUCOU else coucou_review_module.AQC_REVIEWER
    state = new_coucou(seed, 6, 2, variant)
    moves: list[str] = []
    while state.winner is None:
        move = coucou_bot_move(state, reviewer)
        moves.append(str(move))
        state = play_coucou(state, move)
    return state, moves


COUCOU_GAMES = {
    "coucou": (COUCOU, coucou_review, "expert/1"),
    "as-qui-court": (AS_QUI_COURT, as_qui_court_review, "expert/2"),
}


@pytest.mark.parametrize("game", sorted(COUCOU_GAMES))
def test_each_coucou_seat_s_review_is_its_own_and_hides_what_nobody_was_shown(game: str) -> None:
    variant, build, bots = COUCOU_GAMES[game]
    end, moves = coucou_expert_game(variant, f"seat-review-{game}")
    options = {"players": 6, "tokens": 2}
    never_shown = {
        coup.number: {str(card) for card in coup.discards} | ({str(coup.stock)} if coup.turned is None else set())
        for coup in end.finished
    }
    deck = {str(card) for card in DECK_52}
    for seat in range(1, 7):
        whole = build(end.seed, moves, True, options, bots, str(seat))
        assert (whole["place"], whole["score"]) == (end.place_of(seat), end.score_of(seat))
        assert [coup["number"] for coup in whole["coups"]] == [c.number for c in end.finished if seat in c.order]
        decisions = [coup["decision"] for coup in whole["coups"] if coup["decision"] is not None]
        assert len(decisions) == sum(CoucouMove.parse(text).seat == seat for text in moves)
        # The seat chose as the expert does from its own view: no decision differs.
        assert whole["cost"] == 0 and all(d["choice"] == d["expert_choice"] for d in decisions)
        assert all("other" in d and "lost" in d for d in decisions)
        hidden = build(end.seed, moves, False, options, bots, str(seat))
        assert hidden["revealed"] is False and (hidden["place"], hidden["score"]) == (whole["place"], whole["score"])
        for coup in hidden["coups"]:
            written = set(json.dumps(coup).split('"')) & deck
            assert not written & never_shown[coup["number"]], (seat, coup["number"])
            if coup["decision"] is not None:
                assert "other" not in coup["decision"] and "lost" not in coup["decision"]
