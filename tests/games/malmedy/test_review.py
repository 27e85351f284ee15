"""GET /api/games/{id}/review of a Malmedy game: judged by the Malmedy expert and solver, hidden cards kept."""

from __future__ import annotations

import datetime as dt
import json
import random
from typing import Any

from tests.server.helpers import new_game as start_game
from tests.server.helpers import play_to_end, send_move

from couyon.common.stream import Stream
from couyon.games.couyon.cards import CARDS, SUITS, Seat, cards_of
from couyon.games.couyon.game import MITE, Move, new_game, play
from couyon.games.malmedy.bots.expert import MITE_OFFSET, RAISE
from couyon.games.malmedy.bots.objective import outcome_values, stake_of
from couyon.games.malmedy.bots.omniscient import MalmedyOmniscientBot
from couyon.games.malmedy.bots.solver import Position, alive_bits, position_outcome
from couyon.games.malmedy.bots.trump import suit_values
from couyon.games.malmedy.game import MALMEDY, MalmedyDeal, malmedy_view
from couyon.games.malmedy.review import REVIEWER


def judged_moves(review: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """South's judged moves, each as (action, review): a deal's calls, then its cards."""
    found = []
    for deal in review["deals"]:
        found += [(bid["call"], bid["review"]) for bid in deal["bids"] if "review" in bid]
        found += [
            (card["card"], card["review"]) for trick in deal["tricks"] for card in trick["cards"] if "review" in card
        ]
    return found


def judgement_of(entry: dict[str, Any], deal: MalmedyDeal, move: Move, calls_before: int) -> dict[str, Any]:
    """The review of South's ``move`` in the deal's ``entry``: its call after ``calls_before`` others, or its card."""
    if move.card is None:
        bid = [bid for bid in entry["bids"] if bid["seat"] == "S"][calls_before]
        assert bid["call"] == str(move.action)
        return dict(bid["review"])
    card = next(card for card in entry["tricks"][len(deal.tricks)]["cards"] if card["seat"] == "S")
    assert card["card"] == str(move.card)
    return dict(card["review"])


def expert_move(state: Any) -> Move:
    """The move the review's expert makes for South, with the stream the review gives it."""
    return REVIEWER.choose(malmedy_view(state, Seat.S), Stream(state.seed, f"review:{state.move_count}"))


def test_south_playing_as_the_reviewing_expert_costs_nothing_and_the_values_are_the_bots(make_client: Any) -> None:
    client = make_client()
    answer = start_game(client, "free", game="malmedy")
    game, _ = client.app.state.store.game(answer["id"])
    state = new_game(game.seed, MALMEDY)
    while answer["view"]["winner"] is None:
        _, moves = client.app.state.store.game(answer["id"])
        for text in moves[state.move_count :]:
            state = play(state, Move.parse(text))
        move = str(expert_move(state)).split(":", 1)[1]
        assert move in answer["view"]["legal"]
        response = send_move(client, answer, move)
        assert response.status_code == 200, response.text
        answer = response.json()
    response = client.get(f"/api/games/{answer['id']}/review")
    assert response.status_code == 200, response.text
    review = response.json()
    assert (review["game"], review["expert"], review["revealed"]) == ("malmedy", "expert/1", True)
    assert review["score"] == answer["view"]["score"]
    judged = [judgement for _, judgement in judged_moves(review)]
    assert judged and all(j["cost"] == 0.0 for j in judged)
    assert all(
        j["expert_choice"] == action.removeprefix("trump-") for action, j in judged_moves(review) if not j["forced"]
    )


def test_the_review_of_a_random_game_holds_the_malmedy_experts_and_solvers_values(make_client: Any) -> None:
    client = make_client()
    answer = start_game(client, "free", game="malmedy")
    rng = random.Random(7)
    while answer["view"]["winner"] is None:
        # South calls mite and raises whenever it may (so those decisions get judged), else plays at random.
        legal = answer["view"]["legal"]
        calls = [call for call in legal if call in ("mite", "contra", "recontra")]
        response = send_move(client, answer, calls[0] if calls else rng.choice(legal))
        assert response.status_code == 200, response.text
        answer = response.json()
    game, moves = client.app.state.store.game(answer["id"])
    review = client.get(f"/api/games/{answer['id']}/review").json()
    assert [deal["number"] for deal in review["deals"]] == [d["number"] for d in answer["view"]["deal_log"]]
    entries = {deal["number"]: deal for deal in review["deals"]}
    state = new_game(game.seed, MALMEDY)
    kinds = set()
    calls = 0
    for text in moves:
        move = Move.parse(text)
        deal: MalmedyDeal = state.deal
        if move.seat == Seat.S:
            judgement = judgement_of(entries[deal.number], deal, move, calls)
            calls += move.card is None
            rng = Stream(game.seed, f"review:{state.move_count}")
            seat_view = malmedy_view(state, Seat.S)
            chooser_team = deal.chooser % 2
            if deal.trump is None:
                kinds.add("trump")
                values = suit_values(deal.first_cards[Seat.S], state.lines, 0)
                expected = {str(SUITS[suit]): round(value, 3) for suit, value in enumerate(values)}
                assert {o["suit"]: o["expert"] for o in judgement["options"]} == expected
                # The best suit double-dummy is the one the omniscient bot names.
                dd = {o["suit"]: o["dd"] for o in judgement["options"]}
                named = MalmedyOmniscientBot().choose_with_state(state, rng).action
                assert dd[str(named).removeprefix("trump-")] == max(dd.values())
            elif deal.asking is not None:
                kinds.add(deal.asking)
                solved = REVIEWER.raise_value(seat_view, rng)
                expert = {o["call"]: o.get("expert") for o in judgement["options"]}
                assert expert[deal.asking] == (round(solved.means[RAISE], 3) if solved.deals else None)
                # Raising gains double-dummy exactly when the omniscient bot raises.
                dd = {o["call"]: o["dd"] for o in judgement["options"]}
                raises = MalmedyOmniscientBot().choose_with_state(state, rng).action == deal.asking
                # (Equal when the lines left already cap the stake.)
                assert raises if dd[deal.asking] > 0 else not raises if dd[deal.asking] < 0 else True
            elif len(seat_view.legal_moves) == 1:
                assert judgement == {"forced": True, "cost": 0.0, "costly": False}
            else:
                kinds.add("card")
                solved = REVIEWER.card_values(seat_view, rng)
                expert = {o["card"]: o.get("expert") for o in judgement["options"]}
                if solved.deals:
                    cards = {str(CARDS[c]): round(v, 3) for c, v in solved.means.items() if c < MITE_OFFSET}
                    assert {c: v for c, v in expert.items() if c != MITE} == cards
                    if MITE in expert:
                        mite_best = max(v for c, v in solved.means.items() if c >= MITE_OFFSET)
                        assert expert[MITE] == round(mite_best, 3)
                    choice = judgement["expert_choice"]
                    assert judgement["cost"] == round(max(0.0, expert[choice] - expert[str(move.action)]), 3)
                else:
                    assert set(expert.values()) == {None} and judgement["cost"] == 0.0
                # The best card double-dummy is worth what the solver says of the position itself.
                mite = deal.mite is not None
                assert deal.trump is not None
                position = Position(
                    deal.hands,
                    deal.trump,
                    mite,
                    int(deal.leader),
                    deal.trick,
                    deal.points[0] - deal.points[1],
                    alive_bits(deal.trick_counts),
                )
                worth = outcome_values(state.lines, stake_of(mite, deal.contra), chooser_team, 0)
                dd = {o["card"]: o["dd"] for o in judgement["options"] if o["card"] != MITE}
                assert max(dd.values()) == round(worth[position_outcome(position, chooser_team)], 3)
                if move.action == MITE:
                    kinds.add(MITE)
                    # The mite is worth its best card solved with the queen of spades a trump (no contra).
                    with_mite = outcome_values(state.lines, stake_of(True, 0), chooser_team, 0)
                    best = with_mite[position_outcome(position._replace(mite=True), chooser_team)]
                    assert {o["card"]: o["dd"] for o in judgement["options"]}[MITE] == round(best, 3)
                chosen = judgement["options"][[o["card"] for o in judgement["options"]].index(str(move.action))]
                assert judgement["dd_cost"] == round(max(o["dd"] for o in judgement["options"]) - chosen["dd"], 3)
        after = play(state, move)
        calls = 0 if after.deal.number != deal.number else calls
        state = after
    assert len(judged_moves(review)) == sum(1 for text in moves if text.startswith("S:"))
    assert {"trump", "card"} <= kinds
    assert (MITE in kinds) == ("S:mite" in moves)  # South called it whenever it was offered.
    costly = [j for _, j in judged_moves(review) if j["costly"]]
    assert len(costly) <= 3 and all(j["cost"] >= 0.1 for j in costly)


def test_a_daily_malmedy_review_hides_what_south_did_not_see_until_the_day_is_over(
    make_client: Any, clock: Any
) -> None:
    client = make_client()
    answer = play_to_end(client, start_game(client, "daily", game="malmedy"), random.Random(5))
    hidden = client.get(f"/api/games/{answer['id']}/review")
    assert hidden.status_code == 200, hidden.text
    review = hidden.json()
    assert review["revealed"] is False
    for deal in review["deals"]:
        assert list(deal["hands"]) == ["S"] and deal["par"] is None
        seen = set(deal["hands"]["S"]) | {card["card"] for trick in deal["tricks"] for card in trick["cards"]}
        # The blind and every card never played stay out.
        assert set(json.dumps(deal).split('"')) & {str(card) for card in CARDS} <= seen
    for _, judgement in judged_moves(review):
        assert "dd_cost" not in judgement
        assert all("dd" not in option for option in judgement.get("options", []))
    clock.advance(dt.timedelta(hours=15))  # Past midnight in Brussels: the day is over.
    revealed = client.get(f"/api/games/{answer['id']}/review").json()
    assert revealed["revealed"] is True
    assert all(list(deal["hands"]) == ["S", "W", "N", "E"] for deal in revealed["deals"])
    assert all(deal["par"] in ("made", "failed") for deal in revealed["deals"])
    first = revealed["deals"][0]
    state = new_game(client.app.state.store.game(answer["id"])[0].seed, MALMEDY)
    assert first["hands"]["W"] == [str(card) for card in cards_of(state.deal.hands[Seat.W])]
