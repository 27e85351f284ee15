"""The review of a finished tarot game: every decision of the seat judged, the same each time, nothing hidden leaked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.tarot.helpers import move_texts, random_game

from couyon.common.cardsets import cards_in
from couyon.common.stream import Stream
from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
from couyon.games.tarot.bots.rules import legal_mask
from couyon.games.tarot.cards import CARD_BY_CODE, CARD_CODES, SEATS_OF, Seat, mask_of
from couyon.games.tarot.game import BIDS, CARD, ECART, callable_mask, new_game, play, to_move
from couyon.games.tarot.review import REVIEWER, review_at, tarot_review
from couyon.games.tarot.view import view


def seat_moves(review: dict[str, Any], seat: str = "S") -> list[dict[str, Any]]:
    """Every move the review lists for ``seat`` (bids, call, écart, announcements made or let pass, cards), in
    each deal's order: bids, écart, announcements, then the tricks."""
    found: list[dict[str, Any]] = []
    for deal in review["deals"]:
        found += [bid for bid in deal["bids"] if bid["seat"] == seat]
        if deal["ecart"] is not None and deal["ecart"]["seat"] == seat:
            found.append(deal["ecart"])
        found += [one for one in deal["announcements"] if one["seat"] == seat]
        found += [card for trick in deal["tricks"] for card in trick["cards"] if card["seat"] == seat]
    return found


def expert_game(seed: str, players: int) -> list[str]:
    """A game with South played by the review's expert on the streams the review gives it, the others by the table's
    bot as at a table."""
    state = new_game(seed, players)
    table = TAROT_BOTS_BY_ID[TAROT_TABLE_BOT_ID]
    moves: list[str] = []
    while not state.over:
        seat = to_move(state)
        assert seat is not None
        label = f"tarot-review:{state.move_count}" if seat == Seat.S else f"table:{state.move_count}"
        bot = REVIEWER if seat == Seat.S else table
        move = bot.choose(view(state, seat), Stream(seed, label))
        moves.append(str(move))
        state = play(state, move)
    return moves


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_decision_of_the_seat_is_judged_with_the_expert_and_the_true_deal(players: int) -> None:
    state, played = random_game(f"review-{players}", players)
    review = tarot_review(players, state.seed, move_texts(played), True)
    assert (review["players"], review["seat"], review["revealed"]) == (players, "S", True)
    assert review["score"] == state.score and review["expert"] == f"{REVIEWER.name}/{REVIEWER.version}"
    made = [move for move in played if move.seat == Seat.S]
    listed = [entry for entry in seat_moves(review) if not entry.get("announcement", "").startswith("no-")]
    assert len(listed) == len(made) and all("review" in entry for entry in seat_moves(review))
    for entry, move in zip(listed, made, strict=True):
        if move.action == CARD:
            assert entry["card"] == CARD_CODES[move.cards[0]]
        elif move.action in BIDS:
            assert entry["bid"] == move.action
        elif move.action != ECART:
            assert entry.get("announcement", "call" if "call" in entry else None) == move.action
    judged = [entry["review"] for entry in seat_moves(review)]
    for decision in judged:
        assert decision["cost"] >= 0.0
        if decision["forced"]:
            continue
        names = [next(iter(option.values())) for option in decision["options"]]
        assert decision["choice"] in names and decision["expert_choice"] in names
        assert all("expert" in option and "dd" in option for option in decision["options"])
        best = max(option["dd"] for option in decision["options"])
        chosen = next(option for option in decision["options"] if next(iter(option.values())) == decision["choice"])
        assert decision["dd_cost"] == pytest.approx(best - chosen["dd"])
    assert [deal["number"] for deal in review["deals"]] == [deal.number for deal in state.finished_deals]
    assert all(deal["result"] is not None for deal in review["deals"])


def test_the_same_game_gives_the_same_review_and_the_kinds_hook_is_the_review() -> None:
    state, played = random_game("review-same", 4)
    moves = move_texts(played)
    first = tarot_review(4, state.seed, moves, True)
    assert json.dumps(first) == json.dumps(tarot_review(4, state.seed, moves, True))
    assert review_at(4)(state.seed, moves, True, {"level": "expert"}, "expert/3") == first
    assert review_at(4)(state.seed, moves, False, {}, "expert/3", "S") == tarot_review(4, state.seed, moves, False)


@pytest.mark.parametrize("players", [4, 5])
def test_south_playing_as_the_reviewing_expert_costs_nothing(players: int) -> None:
    moves = expert_game(f"review-expert-{players}", players)
    review = tarot_review(players, f"review-expert-{players}", moves, False)
    judged = [entry["review"] for entry in seat_moves(review)]
    assert judged and all(decision["cost"] == 0.0 for decision in judged)
    assert all(decision["choice"] == decision["expert_choice"] for decision in judged if not decision["forced"])
    # The judgement is the expert's and can fail: another card than the expert's costs what its values say.
    cards = [e["review"] for e in seat_moves(review) if "card" in e and not e["review"]["forced"]]
    assert any(len({option["expert"] for option in decision["options"]}) > 1 for decision in cards)


def _hidden_free(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The review without what the whole table saw: the cards played, the poignées shown, the calls, each deal's
    result (the chien and écart shown at the deal's end, ruling 19)."""
    kept = []
    for deal in review["deals"]:
        copy = {key: value for key, value in deal.items() if key not in ("result", "tricks", "announcements", "bids")}
        copy["judged"] = [entry.get("review") for entry in seat_moves(review) if entry in _entries(deal)]
        kept.append(copy)
    return kept


def _entries(deal: dict[str, Any]) -> list[dict[str, Any]]:
    cards = [card for trick in deal["tricks"] for card in trick["cards"]]
    return [*deal["bids"], *deal["announcements"], *([deal["ecart"]] if deal["ecart"] else []), *cards]


def _card_codes(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set().union(*(_card_codes(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(_card_codes(item) for item in value))
    if isinstance(value, str):
        return {code for code in value.split(",") if code in CARD_BY_CODE}
    return set()


def _seen_by_south(number: int, review: dict[str, Any]) -> set[str]:
    """South's dealt hand, the cards its hand lets it call at five (the rules', not anyone's hand) and the chien
    when South took it on petite or garde (it saw it before its écart)."""
    deal = next(one for one in review["deals"] if one["number"] == number)
    seen = set(deal["hands"].get("S", []))
    seen |= {CARD_CODES[card] for card in cards_in(callable_mask(mask_of(CARD_BY_CODE[code] for code in seen)))}
    result = deal["result"]
    if result and result["taker"] == "S" and result["contract"] in ("petite", "garde"):
        seen |= set(result["chien"])
    return seen


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_review_not_revealed_holds_no_other_hand_and_no_chien_before_it_is_shown(players: int) -> None:
    state, played = random_game(f"review-leak-{players}", players)
    moves = move_texts(played)
    hidden = tarot_review(players, state.seed, moves, False)
    shown = tarot_review(players, state.seed, moves, True)
    text = json.dumps(hidden)
    assert '"dd"' not in text and '"dd_cost"' not in text and '"chien"' not in json.dumps(_hidden_free(hidden))
    for deal in hidden["deals"]:
        assert list(deal["hands"]) in ([], ["S"])
        ecart = deal["ecart"]
        if ecart is not None and ecart["seat"] != "S":
            assert "cards" not in ecart
    # South's judgements and hands name only cards South held or saw: the chien when it took it, not before.
    hidden_deals = _hidden_free(hidden)
    for deal, pruned in zip(hidden["deals"], hidden_deals, strict=True):
        assert _card_codes(pruned) <= _seen_by_south(deal["number"], hidden)
    # The check can fail: the revealed review shows every hand and the chien.
    leaks = [
        _card_codes(pruned) - _seen_by_south(deal["number"], hidden)
        for deal, pruned in zip(shown["deals"], _hidden_free(shown), strict=True)
    ]
    assert any(leaks)
    everyone = {str(seat) for seat in SEATS_OF[players]}
    assert all(set(deal["hands"]) == everyone for deal in shown["deals"] if deal["hands"])


def test_a_cards_values_are_the_expert_searchs_and_an_equal_card_is_worth_the_one_kept() -> None:
    state, played = random_game("review-equal", 4)
    review = tarot_review(4, state.seed, move_texts(played), False)
    judged = iter(e["review"] for e in seat_moves(review) if "card" in e)
    replayed = new_game(state.seed, 4)
    checked = dropped = 0
    for move in played:
        if move.seat == Seat.S and move.action == CARD:
            decision = next(judged)
            seat_view = view(replayed, Seat.S)
            legal = legal_mask(seat_view)
            if not decision["forced"] and seat_view.taker != Seat.S:
                rng = Stream(state.seed, f"tarot-review:{replayed.move_count}")
                search = REVIEWER.card_search(seat_view, legal, rng)
                means = search.means()
                kept = -1
                for option, card in zip(decision["options"], cards_in(legal), strict=True):
                    kept = card if card in means else kept
                    assert option == {"card": CARD_CODES[card], "expert": round(means[kept], 3)}
                choice = REVIEWER.card_choice(seat_view, search)
                assert decision["expert_choice"] == CARD_CODES[choice]
                # A card the race could not tell from the expert's costs nothing; one it dropped, the difference.
                kept = max(card for card in means if card <= move.cards[0])
                lost = 0.0 if kept in search.active else round(max(0.0, means[choice] - means[kept]), 3)
                assert decision["cost"] == lost
                dropped += kept not in search.active
                checked += 1
        replayed = play(replayed, move)
    assert checked > 10 and dropped > 0


@pytest.mark.parametrize(("seed", "announced"), [("review-kinds-66", "poignee"), ("review-kinds-83", "chelem")])
def test_an_announcement_is_judged_against_the_experts_the_largest_poignee_and_no_chelem(
    seed: str, announced: str
) -> None:
    state, played = random_game(seed, 4)
    review = tarot_review(4, state.seed, move_texts(played), True)
    entries = [entry for entry in seat_moves(review) if entry.get("announcement") == announced]
    assert entries
    for entry in entries:
        decision = entry["review"]
        names = [option[announced] for option in decision["options"]]
        if announced == "poignee":
            assert names[0] == "none" and decision["choice"] == str(len(entry["cards"]))
            assert decision["expert_choice"] == names[-1]
            # A prime counts for the deal's winner: with every hand known, each size moves the score by its prime.
            primes = {"none": 0, "10": 20, "13": 30, "15": 40}
            base = decision["options"][0]["dd"]
            per_prime = {(o["dd"] - base) / primes[o["poignee"]] for o in decision["options"][1:]}
            assert len(per_prime) == 1 and per_prime <= {-3.0, -1.0, 1.0, 3.0}
        else:
            assert names == ["no", "yes"] and decision["choice"] == "yes" and decision["expert_choice"] == "no"
            no, yes = (option["expert"] for option in decision["options"])
            assert decision["cost"] == max(0.0, round(no - yes, 3))


def test_a_review_may_be_written_from_another_seat() -> None:
    state, played = random_game("review-seat", 5)
    review = review_at(5)(state.seed, move_texts(played), False, {}, "expert/3", "NE")
    assert review["seat"] == "NE" and review["score"] == state.score_of(Seat.NE)
    made = [move for move in played if move.seat == Seat.NE]
    listed = [entry for entry in seat_moves(review, "NE") if not entry.get("announcement", "").startswith("no-")]
    assert len(listed) == len(made) and all("review" in entry for entry in seat_moves(review, "NE"))
    assert not any("review" in entry for entry in seat_moves(review, "S"))
    assert all(list(deal["hands"]) in ([], ["NE"]) for deal in review["deals"])
