"""GET /api/games/{id}/review: a finished game judged by the expert and the exact solver, hidden cards kept."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import random
from typing import Any

import pytest
from tests.server.helpers import new_game as start_game
from tests.server.helpers import play_to_end

from couyon.common.stream import Stream
from couyon.games.couyon.bots.omniscient import OmniscientBot
from couyon.games.couyon.bots.solver import move_values
from couyon.games.couyon.cards import CARDS, SEATS, Seat, cards_of
from couyon.games.couyon.game import TAKE, Move, legal_cards, new_game, play
from couyon.games.couyon.review import REVIEWER
from couyon.games.couyon.view import standard_view
from couyon.registry import GAMES


def finished_game(client: Any, mode: str, seed: int) -> tuple[dict[str, Any], str, list[str]]:
    answer = play_to_end(client, start_game(client, mode), random.Random(seed))
    game, moves = client.app.state.store.game(answer["id"])
    return answer, game.seed, moves


def judged_decisions(review: dict[str, Any]) -> list[dict[str, Any]]:
    """South's judged decisions in the order played."""
    found = []
    for deal in review["deals"]:
        found += [bid["review"] for bid in deal["bids"] if "review" in bid]
        found += [card["review"] for trick in deal["tricks"] for card in trick["cards"] if "review" in card]
    return found


def test_the_review_of_a_free_game_holds_the_experts_and_the_solvers_values(make_client: Any) -> None:
    client = make_client()
    answer, seed, moves = finished_game(client, "free", 3)
    response = client.get(f"/api/games/{answer['id']}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["revealed"] is True and review["expert"] == "expert/3"
    assert (review["id"], review["game"], review["score"]) == (answer["id"], "couyon", answer["view"]["score"])
    assert [deal["number"] for deal in review["deals"]] == [d["number"] for d in answer["view"]["deal_log"]]
    state = new_game(seed)
    deals = {deal["number"]: deal for deal in review["deals"]}
    judged_cards = judged_bids = 0
    for text in moves:
        move = Move.parse(text)
        deal = deals[state.deal.number]
        if not state.deal.bids and not state.deal.tricks and not state.deal.trick and move.card is None:
            # The deal as dealt: every hand shown once the game is over.
            assert deal["hands"] == {str(s): [str(c) for c in cards_of(state.deal.hands[s])] for s in SEATS}
        if move.seat == Seat.S:
            seat_view = standard_view(state, Seat.S)
            if move.card is None:
                judged = next(
                    b["review"] for b in deal["bids"] if "review" in b and b["proposal"] == str(state.deal.proposal)
                )
                take, bar = REVIEWER.take_value(seat_view)
                assert (judged["take"], judged["pass"]) == (round(take, 3), bar)
                took = move.action == TAKE
                assert judged["cost"] == round(max(0.0, bar - take if took else take - bar), 3)
                # The omniscient yardstick takes exactly when the solver makes the take.
                omniscient_takes = OmniscientBot().choose_with_state(state, Stream(seed, "test")).action == TAKE
                assert (judged["dd_take"] == "made") == omniscient_takes
                judged_bids += 1
            else:
                trick = deal["tricks"][len(state.deal.tricks)]
                judged = next(c["review"] for c in trick["cards"] if c["seat"] == "S")
                legal = legal_cards(state)
                if len(legal) == 1:
                    assert judged == {"forced": True, "cost": 0.0, "costly": False}
                else:
                    judged_cards += 1
                    totals, weight = REVIEWER.card_totals(seat_view, Stream(seed, f"review:{state.move_count}"))
                    expert = {str(card): round(totals[card] / weight, 3) for card in legal}
                    assert {o["card"]: o["expert"] for o in judged["options"]} == expert
                    assert judged["cost"] == round(max(expert.values()) - expert[str(move.card)], 3)
                    # The expert itself, given the same draws, plays one of the cards the review rates best.
                    chosen = REVIEWER._best_card(seat_view, Stream(seed, f"review:{state.move_count}"))
                    assert expert[str(CARDS[chosen])] >= max(expert.values()) - 0.001
                    # Double dummy: a card is good for South's team exactly when perfect play after it ends with
                    # NS ahead (made by NS or failed by WE): the sign of the full-window solver's exact points.
                    deal_now = state.deal
                    exact = move_values(deal_now.hands, deal_now.trump, deal_now.leader, deal_now.trick)
                    so_far = deal_now.points[0] - deal_now.points[1]
                    dd = {o["card"]: o["dd"] for o in judged["options"]}
                    assert {str(CARDS[c]): sign(v + so_far) for c, v in exact.items()} == {
                        c: sign(v) for c, v in dd.items()
                    }
                    assert judged["dd_cost"] == round(max(dd.values()) - dd[str(move.card)], 3)
        state = play(state, move)
    assert judged_cards > 0 and judged_bids > 0
    decisions = judged_decisions(review)
    costly = [d for d in decisions if d["costly"]]
    assert len(costly) <= 3 and all(d["cost"] >= 0.1 for d in costly)
    if costly:
        assert min(d["cost"] for d in costly) >= max((d["cost"] for d in decisions if not d["costly"]), default=0)
    # A finished game never changes: asking again gives the same review.
    assert client.get(f"/api/games/{answer['id']}/review").json() == review


def sign(value: float) -> int:
    return (value > 0) - (value < 0)


def test_a_daily_review_hides_the_other_hands_until_the_day_is_over(make_client: Any, clock: Any) -> None:
    client = make_client()
    answer, seed, _ = finished_game(client, "daily", 5)
    hidden = client.get(f"/api/games/{answer['id']}/review")
    assert hidden.status_code == 200
    review = hidden.json()
    assert review["revealed"] is False and review["day"] == "2026-11-29"
    assert seed not in hidden.text
    for deal in review["deals"]:
        assert list(deal["hands"]) == ["S"] and deal["par"] is None
        seen = set(deal["hands"]["S"]) | set(deal["proposals"])
        seen |= {card["card"] for trick in deal["tricks"] for card in trick["cards"]}
        # Nothing but what South saw: no card of a hand that was never played (a deal nobody took).
        assert set(json.dumps(deal).split('"')) & {str(card) for card in CARDS} <= seen
    for judged in judged_decisions(review):
        assert "dd_take" not in judged and "dd_cost" not in judged
        assert all("dd" not in option for option in judged.get("options", []))
    clock.advance(dt.timedelta(hours=15))  # Past midnight in Brussels: the day is over.
    revealed = client.get(f"/api/games/{answer['id']}/review").json()
    assert revealed["revealed"] is True
    assert all(list(deal["hands"]) == ["S", "W", "N", "E"] for deal in revealed["deals"])
    assert any(deal["par"] is not None for deal in revealed["deals"])


@pytest.mark.parametrize("game", ["couyon", "malmedy", "coucou"])
def test_a_review_is_refused_for_an_unfinished_or_a_foreign_game(make_client: Any, game: str) -> None:
    owner, stranger = make_client(), make_client()
    started = start_game(owner, "free", game=game)
    unfinished = owner.get(f"/api/games/{started['id']}/review")
    assert unfinished.status_code == 409
    assert unfinished.json()["error"] == {"code": "game_not_over", "message": "The review opens once the game is over."}
    for client, game_id in ((stranger, started["id"]), (owner, "g_nonexistent")):
        refused = client.get(f"/api/games/{game_id}/review")
        assert refused.status_code == 404 and refused.json()["error"]["code"] == "unknown_game"


def test_a_game_without_a_review_says_so(make_client: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "tarot4", dataclasses.replace(GAMES["tarot4"], review=None))
    owner = make_client()
    tarot = start_game(owner, "free", game="tarot4")
    other = owner.get(f"/api/games/{tarot['id']}/review")
    assert other.status_code == 409 and other.json()["error"]["code"] == "no_review"
