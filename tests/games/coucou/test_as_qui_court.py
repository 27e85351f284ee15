"""As qui court (rulings 20–24; coucou-record-format.md, last section): the variant as a parameter of coucou's fold.

The contract's worked example, one test per ruling on hand-built positions, the views (kings shown to
every seat, whether the dealer has a move) and the ``coucou-record/2`` record, both variants.
"""

from __future__ import annotations

import json

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.games.coucou.answers import coucou_events_of, coucou_view_json
from couyon.games.coucou.cards import Card
from couyon.games.coucou.game import (
    AS_QUI_COURT,
    COUCOU,
    GameState,
    Move,
    Outcome,
    OutOfTurnError,
    first_dealer,
    legal_moves,
    new_game,
    play,
    replay,
    shuffled_deck,
)
from couyon.games.coucou.record import FORMAT, FORMAT_2, coup_report, record_of, verify
from couyon.games.coucou.view import view
from couyon.registry import RECORD_VERIFIERS, verify_record

WORKED_ORDER = (3, 4, 5, 1, 2)
WORKED_BEFORE = {3: "7C", 4: "KD", 5: "AH", 1: "9S", 2: "QC"}
WORKED_MOVES = "3:change 4:keep 5:change 1:change"


def worked(stock: str = "KH") -> GameState:
    return hand_set(5, WORKED_ORDER, WORKED_BEFORE, stock, tokens=3, variant=AS_QUI_COURT)


def cards_of(state: GameState) -> dict[int, str]:
    coup = state.finished[-1] if state.finished else state.coup
    return {seat: str(card) for seat, card in zip(coup.order, coup.cards, strict=True)}


# --- the contract's worked example (a test vector)


@pytest.mark.parametrize("dealer_move", ["2:change", "2:keep"])
def test_worked_example(dealer_move: str) -> None:
    """Contract: king-shown, keep, exchange, exchange handing the dealer an ace; he changes (stock-king) or keeps."""
    waiting = played(worked(), WORKED_MOVES)
    assert waiting.to_move == 2 and waiting.coup.speaker == 2
    assert legal_moves(waiting) == (Move.parse("2:keep"), Move.parse("2:change"))
    entry = coup_report(waiting.coup)
    assert entry["actions"] == ["3:king-shown", "4:keep", "5:exchange", "1:exchange"]
    assert entry["kings_shown"] == [4] and entry["after"] is None and entry["stock"] is None
    over = play(waiting, Move.parse(dealer_move))
    coup = over.finished[-1]
    entry = coup_report(coup)
    outcome = "stock-king" if dealer_move == "2:change" else "keep"
    assert entry["actions"] == ["3:king-shown", "4:keep", "5:exchange", "1:exchange", f"2:{outcome}"]
    assert entry["stock"] == ("KH" if dealer_move == "2:change" else None)
    assert entry["after"] == {"1": "QC", "2": "AH", "3": "7C", "4": "KD", "5": "9S"}
    assert entry["kings_shown"] == [4]
    assert entry["losers"] == [2]
    assert list(entry) == [
        *("number", "dealer", "order", "before", "actions", "stock", "kings_shown"),
        *("after", "losers", "tokens", "eliminated"),
    ]


# --- ruling 20: the dealer takes one card


@pytest.mark.parametrize("players", [5, 6, 7, 12, 20])
def test_ruling_20_the_dealer_takes_one_card_and_the_next_is_the_stock(players: int) -> None:
    state = new_game("ruling 20", players, 3, AS_QUI_COURT)
    coucou = new_game("ruling 20", players, 3)
    deck = shuffled_deck("ruling 20", 1, state.deck_size)
    coup = state.coup
    assert coup.dealer == coucou.coup.dealer == first_dealer("ruling 20", players)
    assert coup.order == coucou.coup.order
    assert coup.before == deck[:players] and coup.stock == deck[players] and coup.discards == ()
    # Coucou's dealer keeps the best of positions m-1 … m+1 and the stock is m+2: not the variant's deal.
    assert coucou.coup.stock == deck[players + 2]


# --- ruling 21: the dealer's left neighbour changes with the dealer


def test_ruling_21_the_dealers_left_neighbour_changes_with_the_dealer() -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "7H", 5: "QD"}, "AC", variant=AS_QUI_COURT)
    over = played(state, "1:keep 2:keep 3:keep 4:change")
    coup = over.finished[-1]
    assert coup.actions[-1] is Outcome.EXCHANGE and coup.turned is None
    assert cards_of(over) == {1: "9S", 2: "8S", 3: "JS", 4: "QD", 5: "7H"}
    assert coup.losers == (5,)


def test_ruling_21_the_dealer_cannot_refuse_unless_he_holds_a_king() -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "7H", 5: "KD"}, "AC", variant=AS_QUI_COURT)
    over = played(state, "1:keep 2:keep 3:keep 4:change")
    coup = over.finished[-1]
    assert coup.actions[-1] is Outcome.KING_SHOWN and coup.kings_shown == (5,)
    assert cards_of(over)[4] == "7H" and coup.losers == (4,)


def test_ruling_21_with_two_players_left_the_non_dealer_changes_with_the_dealer() -> None:
    state = hand_set(5, (4, 2), {4: "8H", 2: "JC"}, "AD", variant=AS_QUI_COURT)
    over = played(state, "4:change")
    coup = over.finished[-1]
    assert coup.actions == (Outcome.EXCHANGE,) and coup.turned is None
    assert cards_of(over) == {4: "JC", 2: "8H"} and coup.losers == (2,)


# --- ruling 22: the dealer moves last, only after just receiving an ace


def test_ruling_22_the_dealer_who_received_an_ace_may_take_the_stock() -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "AH", 5: "QD"}, "10C", variant=AS_QUI_COURT)
    waiting = played(state, "1:keep 2:keep 3:keep 4:change")
    assert waiting.to_move == 5 and waiting.finished == ()
    over = play(waiting, Move.parse("5:change"))
    coup = over.finished[-1]
    assert coup.actions[-1] is Outcome.STOCK and coup.turned == Card.parse("10C")
    assert cards_of(over) == {1: "9S", 2: "8S", 3: "JS", 4: "QD", 5: "10C"}
    assert coup.losers == (2,)


def test_ruling_22_a_king_on_the_stock_stays_and_he_keeps_his_ace() -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "AH", 5: "QD"}, "KC", variant=AS_QUI_COURT)
    over = played(state, "1:keep 2:keep 3:keep 4:change 5:change")
    coup = over.finished[-1]
    assert coup.actions[-1] is Outcome.STOCK_KING and coup.turned == Card.parse("KC")
    assert cards_of(over)[5] == "AH" and coup.losers == (5,)


def test_ruling_22_an_ace_for_an_ace_still_gives_the_dealer_his_move() -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "AH", 5: "AD"}, "7C", variant=AS_QUI_COURT)
    waiting = played(state, "1:keep 2:keep 3:keep 4:change")
    assert waiting.to_move == 5 and cards_of(waiting)[5] == "AH"


@pytest.mark.parametrize(
    ("dealer_card", "last_move", "why"),
    [
        ("AD", "4:keep", "his left neighbour kept (he was dealt an ace: that is no receiving)"),
        ("KD", "4:change", "he showed a king"),
        ("QD", "4:change", "he received an 8, not an ace"),
    ],
)
def test_ruling_22_no_move_for_the_dealer_otherwise_and_his_move_is_refused(
    dealer_card: str, last_move: str, why: str
) -> None:
    card_4 = "8H"
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: card_4, 5: dealer_card}, "7C",
                     variant=AS_QUI_COURT)  # fmt: skip
    over = played(state, f"1:keep 2:keep 3:keep {last_move}")
    assert len(over.finished) == 1, why
    assert len(over.finished[0].actions) == 4
    assert over.coup.number == 2 and over.coup.dealer == 1
    for action in ("keep", "change"):
        with pytest.raises(OutOfTurnError, match="last coup's dealer, had no move"):
            play(over, Move.parse(f"5:{action}"))


def test_ruling_22_a_move_of_another_seat_while_the_dealer_is_to_speak_is_refused() -> None:
    waiting = played(worked(), WORKED_MOVES)
    with pytest.raises(OutOfTurnError, match="seat 2's turn"):
        play(waiting, Move.parse("3:keep"))


def test_a_dealer_moving_before_his_turn_is_told_he_speaks_last() -> None:
    with pytest.raises(OutOfTurnError, match="dealer speaks last"):
        play(worked(), Move.parse("2:keep"))


# --- ruling 23: a king is shown, not announced, and every seat sees it


def test_ruling_23_a_king_is_shown_to_every_seat_and_nobody_says_coucou() -> None:
    shown = played(worked(), "3:change")
    coup = shown.coup
    assert coup.actions == (Outcome.KING_SHOWN,) and coup.kings_shown == (4,)
    for seat in range(1, 6):
        coup_view = view(shown, seat).coup
        assert coup_view is not None
        assert coup_view.kings_shown == ((4, Card.parse("KD")),)
        if seat != 4:
            assert (4, Card.parse("KD")) in coup_view.known
    # At coucou the same refusal is a "Coucou !": the king's rank is told, his card stays hidden.
    coucou = played(hand_set(5, WORKED_ORDER, WORKED_BEFORE, "KH"), "3:change")
    assert coucou.coup.actions == (Outcome.COUCOU,) and coucou.coup.kings_shown == ()
    assert all(seat != 4 for seat, _ in (view(coucou, 3).coup or pytest.fail()).known)


def test_a_shown_king_changed_away_is_followed_by_every_seat() -> None:
    state = played(worked(), "3:change 4:change")
    # 4 changed his shown king with 5: everyone saw the two cards change hands, so the king is now 5's.
    assert cards_of(state)[5] == "KD"
    for seat in (1, 2, 3):
        seen = view(state, seat).coup
        assert seen is not None and (5, Card.parse("KD")) in seen.known


# --- the view of the dealer: whether he has a move


def test_the_dealers_view_says_whether_he_has_a_move() -> None:
    start = worked()
    assert (view(start, 2).coup or pytest.fail()).dealer_has_move is None
    waiting = played(start, WORKED_MOVES)
    dealer_view = view(waiting, 2)
    assert dealer_view.coup is not None and dealer_view.coup.dealer_has_move is True
    assert dealer_view.legal_moves == (Move.parse("2:keep"), Move.parse("2:change"))
    assert dealer_view.coup.card == Card.parse("AH")
    assert (view(waiting, 3).coup or pytest.fail()).dealer_has_move is True
    coucou = new_game("x", 5, 1)
    assert (view(coucou, coucou.coup.dealer).coup or pytest.fail()).dealer_has_move is False


# --- ruling 24 and the record: coucou-record/2, both variants


def test_ruling_24_the_variant_has_its_own_format_and_coucou_keeps_coucou_record_1() -> None:
    moves = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]
    coucou = replay("coucou", 5, 1, moves)
    assert json.loads(record_of(coucou, moves).to_json())["format"] == FORMAT
    as_qui_court = new_game("coucou", 5, 1, AS_QUI_COURT)
    written = json.loads(record_of(as_qui_court, []).to_json())
    assert list(written)[:2] == ["format", "variant"]
    assert (written["format"], written["variant"]) == (FORMAT_2, "as-qui-court")
    assert RECORD_VERIFIERS[FORMAT_2] is verify and RECORD_VERIFIERS[FORMAT] is verify


def test_a_coucou_variant_record_2_reports_the_record_1_report_with_its_variant() -> None:
    moves = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]
    one = {"format": FORMAT, "players": 5, "tokens": 1, "seed": "coucou", "moves": moves}
    first = verify_record(json.dumps(one))
    second = verify_record(json.dumps({**one, "format": FORMAT_2, "variant": "coucou"}))
    assert list(second) == ["valid", "variant", *list(first)[1:]]
    assert second == {"variant": "coucou", **first}
    assert "kings_shown" not in second["coup_log"][0]


@pytest.mark.parametrize("variant", [None, "", "Coucou", "as qui court", 2, ["coucou"], True])
def test_a_record_2_without_a_known_variant_is_refused_with_move_null(variant: object) -> None:
    document = {"format": FORMAT_2, "players": 5, "tokens": 1, "seed": "x", "moves": ["9:keep"]}
    if variant is not None:
        document["variant"] = variant
    result = verify_record(json.dumps(document))
    assert result["valid"] is False and result["move"] is None and "variant" in result["error"]


def test_a_record_1_is_always_coucou_whatever_its_variant_key() -> None:
    document = {"format": FORMAT, "variant": "as-qui-court", "players": 5, "tokens": 1, "seed": "coucou", "moves": []}
    result = verify_record(json.dumps(document))
    assert "variant" not in result and "kings_shown" not in result["coup_log"][0]
    assert len(result["coup_log"][0]["before"]) == 5
    assert (
        result["coup_log"][0]["before"]
        == verify_record(json.dumps({**document, "variant": 0}))["coup_log"][0]["before"]
    )


def test_the_unfinished_worked_record_waits_for_the_dealer() -> None:
    # The worked example's cards are set by hand; a seeded game shows the same wait in the report.
    state = new_game("wait", 8, 3, AS_QUI_COURT)
    moves: list[str] = []
    index = 0
    while state.coup.speaker != state.coup.dealer:
        move = legal_moves(state)[1 if index % 3 else 0]
        moves.append(str(move))
        state = play(state, move)
        index += 1
    document = {"format": FORMAT_2, "variant": "as-qui-court", "players": 8, "tokens": 3, "seed": "wait"}
    result = verify_record(json.dumps({**document, "moves": moves}))
    last = result["coup_log"][-1]
    assert result["valid"] and not result["finished"] and last["after"] is None
    assert len(last["actions"]) == len(last["order"]) - 1 and last["actions"][-1].endswith(":exchange")
    refused = verify_record(json.dumps({**document, "moves": [*moves, moves[0]]}))
    assert refused["move"] == len(moves) and refused["valid"] is False
    assert state.variant is AS_QUI_COURT and new_game("wait", 8, 3).variant is COUCOU


def test_the_api_view_shows_kings_shown_and_the_dealers_move_only_at_as_qui_court() -> None:
    shown = played(worked(), "3:change")
    seat_one = coucou_view_json(shown, 1)["coup"]
    assert seat_one["kings_shown"] == [{"seat": 4, "card": "KD"}] and seat_one["dealer_has_move"] is None
    assert seat_one["known"]["4"] == "KD"
    events = coucou_events_of(worked(), Move.parse("3:change"), shown)
    assert events == [{"type": "king-shown", "seat": 3, "with": 4, "king": "KD"}]
    waiting = played(worked(), WORKED_MOVES)
    assert coucou_view_json(waiting, 1)["coup"]["dealer_has_move"] is True
    coucou = coucou_view_json(played(hand_set(5, WORKED_ORDER, WORKED_BEFORE, "KH"), "3:change"), 1)["coup"]
    assert "kings_shown" not in coucou and "dealer_has_move" not in coucou
