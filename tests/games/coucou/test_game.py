"""The coucou fold: the contract's test vectors, then one test per ruling (coucou-rulings.md) on chosen positions."""

from __future__ import annotations

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.common.stream import Stream
from couyon.games.coucou.cards import DECK_32, DECK_52, Card
from couyon.games.coucou.game import (
    CHANGE,
    KEEP,
    Elimination,
    GameOverError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Outcome,
    OutOfTurnError,
    ReplayError,
    circle,
    first_dealer,
    is_over,
    legal_moves,
    new_game,
    next_seat_right,
    play,
    replay,
    shuffled_deck,
    to_move,
)

WORKED_MOVES = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def by_seat(coup_order: tuple[int, ...], held: tuple[Card, ...]) -> dict[int, str]:
    return {seat: str(card) for seat, card in zip(coup_order, held, strict=True)}


# --- The contract's worked examples (test vectors) ---------------------------------------------


def test_dealer_stream_starts_with_the_contract_value() -> None:
    """Contract: stream("coucou", "dealer") starts with x = 0x5988685F."""
    assert Stream("coucou", "dealer").next_u32() == 0x5988685F


@pytest.mark.parametrize(
    ("seed", "players", "dealer"), [("coucou", 5, 5), ("coucou", 8, 8), ("2026-12-01", 5, 1), ("2026-12-01", 8, 2)]
)
def test_first_dealer_vectors(seed: str, players: int, dealer: int) -> None:
    """Contract: first dealer 5 for N = 5 and 8 for N = 8 with "coucou"; 1 and 2 with "2026-12-01"."""
    assert first_dealer(seed, players) == dealer
    assert new_game(seed, players, 3).coup.dealer == dealer


@pytest.mark.parametrize(
    ("players", "positions"),
    [(5, "7S 7H 8S KS JC 9H JH QS JS 8C"), (8, "JH 5C QD 6D 10S JS 10H 2D 4H 9C")],
)
def test_coup_1_positions_for_seed_coucou(players: int, positions: str) -> None:
    """Contract: seed "coucou", coup 1, positions 0–9 (32 cards for N = 5, 52 for N = 8)."""
    size = 32 if players == 5 else 52
    assert shuffled_deck("coucou", 1, size)[:10] == cards(positions)


def test_worked_record_coup_1() -> None:
    """Contract: dealer 5 gets JC 9H JH and keeps JH (H after C); 1 and 2 exchange, 3 is refused by 4's king."""
    state = replay("coucou", 5, 1, WORKED_MOVES[:4])
    coup = state.finished[0]
    assert (coup.number, coup.dealer, coup.order) == (1, 5, (1, 2, 3, 4, 5))
    assert by_seat(coup.order, coup.before) == {1: "7S", 2: "7H", 3: "8S", 4: "KS", 5: "JH"}
    assert coup.discards == cards("JC 9H") and coup.stock == Card.parse("QS")
    assert coup.actions == (Outcome.EXCHANGE, Outcome.EXCHANGE, Outcome.COUCOU, Outcome.KEEP)
    assert coup.turned is None
    assert by_seat(coup.order, coup.cards) == {1: "7H", 2: "8S", 3: "7S", 4: "KS", 5: "JH"}
    assert (coup.losers, coup.tokens, coup.eliminated) == ((1, 3), (0, 1, 0, 1, 1), (1, 3))


def test_worked_record_coup_2_and_the_end() -> None:
    """Contract: coup 2, dealer 2 (1 is out), order 4 5 2, before 4:AS 5:7C 2:KC (from AS 7C 9S KC 9D), stock 7S;
    4 and 5 exchange, 5 takes 7S from the stock, 4 and 5 hold 7s: both out, place 2; 2 wins; seat 1 scores 251."""
    state = replay("coucou", 5, 1, WORKED_MOVES)
    coup = state.finished[1]
    assert shuffled_deck("coucou", 2, 32)[:6] == cards("AS 7C 9S KC 9D 7S")
    assert (coup.dealer, coup.order) == (2, (4, 5, 2))
    assert by_seat(coup.order, coup.before) == {4: "AS", 5: "7C", 2: "KC"}
    assert coup.actions == (Outcome.EXCHANGE, Outcome.STOCK) and coup.turned == Card.parse("7S")
    assert by_seat(coup.order, coup.cards) == {4: "7C", 5: "7S", 2: "KC"}
    assert coup.losers == (4, 5) and coup.eliminated == (4, 5)
    assert state.winner == 2 and is_over(state) and to_move(state) is None and legal_moves(state) == ()
    assert state.tokens == (0, 1, 0, 0, 0)
    assert state.eliminations == (
        Elimination(1, 1, 4),
        Elimination(3, 1, 4),
        Elimination(4, 2, 2),
        Elimination(5, 2, 2),
    )
    assert state.place_of(1) == 4 and state.score == 251 and state.score_of(2) == 1010


def test_hand_set_example_coucou_keep_exchange_stock_king() -> None:
    """Contract: order 3 4 5 1 2, before 3:7C 4:KD 5:AH 1:9S 2:QC, stock KH, moves change keep change change:
    outcomes coucou keep exchange stock-king, after 3:7C 4:KD 5:9S 1:AH 2:QC, seat 1 loses."""
    state = hand_set(5, (3, 4, 5, 1, 2), {3: "7C", 4: "KD", 5: "AH", 1: "9S", 2: "QC"}, stock="KH")
    state = played(state, "3:change 4:keep 5:change 1:change")
    coup = state.finished[0]
    assert coup.actions == (Outcome.COUCOU, Outcome.KEEP, Outcome.EXCHANGE, Outcome.STOCK_KING)
    assert coup.turned == Card.parse("KH")
    assert by_seat(coup.order, coup.cards) == {3: "7C", 4: "KD", 5: "9S", 1: "AH", 2: "QC"}
    assert coup.losers == (1,) and state.tokens == (2, 3, 3, 3, 3)


def test_hand_set_example_all_eights_nobody_loses() -> None:
    """Contract: order 2 4 1, 2:8H 4:AS 1:8C, stock 8D, moves keep change: all hold 8s, nobody loses."""
    state = hand_set(5, (2, 4, 1), {2: "8H", 4: "AS", 1: "8C"}, stock="8D", tokens=1)
    state = played(state, "2:keep 4:change")
    coup = state.finished[0]
    assert coup.actions == (Outcome.KEEP, Outcome.STOCK) and coup.turned == Card.parse("8D")
    assert coup.losers == () and coup.eliminated == () and state.tokens == (1, 1, 0, 1, 0)
    # Ruling 11: that coup still counts and the deal still passes (to 2, the next seat in at 1's right).
    assert state.coup.number == 2 and state.coup.dealer == 2 and state.coup.order == (4, 1, 2)


# --- Moves and errors -------------------------------------------------------------------------


def test_moves_parse_and_print_round_trip() -> None:
    """Contract: ``"s:keep"`` or ``"s:change"``, s in decimal without leading zeros."""
    for text in ("7:change", "1:keep", "20:keep", "12:change"):
        move = Move.parse(text)
        assert str(move) == text and eval(repr(move)) == move
    assert Move.parse("7:change") == Move(7, CHANGE) and Move.parse("3:keep") == Move(3, KEEP)


@pytest.mark.parametrize(
    "text",
    [
        "07:keep",
        "+7:keep",
        " 7:keep",
        "7 :keep",
        "0:keep",
        "7:Keep",
        "7:keep ",
        "7:swap",
        "7",
        "7:keep:x",
        "7::keep",
        ":keep",
        "7:",
        "٣:keep",
        "x:keep",
        "",
        "99999:keep",
    ],
)
def test_unreadable_moves_raise_invalid_move_error(text: str) -> None:
    """Contract: not exactly one ':', a seat written otherwise ("07"), an action other than keep or change."""
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_a_seat_outside_the_table_is_invalid_and_one_not_to_speak_is_out_of_turn() -> None:
    """Contract: the wrong seat is refused; the server maps the error classes as couyon's."""
    state = new_game("coucou", 5, 1)  # dealer 5, c0 = 1
    with pytest.raises(InvalidMoveError, match="no seat 6"):
        play(state, Move(6, KEEP))
    with pytest.raises(OutOfTurnError, match="seat 1's turn"):
        play(state, Move(2, KEEP))
    with pytest.raises(OutOfTurnError, match="the dealer has no move"):
        play(state, Move(5, KEEP))
    state = play(state, Move(1, KEEP))
    with pytest.raises(OutOfTurnError, match="already spoken"):
        play(state, Move(1, KEEP))
    assert issubclass(OutOfTurnError, IllegalMoveError) and issubclass(GameOverError, IllegalMoveError)


def test_an_eliminated_seat_cannot_speak() -> None:
    """Ruling 12: a seat out of the game leaves the circle."""
    state = replay("coucou", 5, 1, WORKED_MOVES[:4])
    with pytest.raises(OutOfTurnError, match="out of the game"):
        play(state, Move(1, KEEP))


def test_no_move_after_the_end() -> None:
    """Contract: a move after the game ended is refused."""
    state = replay("coucou", 5, 1, WORKED_MOVES)
    with pytest.raises(GameOverError):
        play(state, Move(2, KEEP))
    with pytest.raises(ReplayError) as caught:
        replay("coucou", 5, 1, [*WORKED_MOVES, "2:keep"])
    assert caught.value.index == 6
    with pytest.raises(ReplayError) as caught:
        replay("coucou", 5, 1, [*WORKED_MOVES, "nonsense"])
    assert caught.value.index == 6


def test_states_are_immutable_and_play_returns_a_new_state() -> None:
    """Design: a pure fold over immutable states."""
    state = new_game("coucou", 8, 3)
    after = play(state, Move(1, CHANGE))
    assert state.coup.actions == () and after.coup.actions == (Outcome.EXCHANGE,)
    assert state.move_count == 0 and after.move_count == 1
    with pytest.raises(AttributeError):
        state.winner = 1  # type: ignore[misc]
    assert hash(state) == hash(new_game("coucou", 8, 3))


# --- Rulings ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tokens"), [(4, 3), (21, 3), (8, 0), (8, 11), (True, 3), (8, True), (8.0, 3), (8, 3.0)]
)
def test_ruling_1_players_5_to_20_and_tokens_1_to_10(players: object, tokens: object) -> None:
    """Ruling 1: 5 to 20 players, 1 to 10 tokens each."""
    with pytest.raises(ValueError):
        new_game("x", players, tokens)  # type: ignore[arg-type]


def test_ruling_1_defaults_are_8_players_and_3_tokens() -> None:
    """Ruling 1: the default table is 8 players, 3 tokens each."""
    state = new_game("x")
    assert (state.players, state.starting_tokens, state.tokens) == (8, 3, (3,) * 8)


def test_ruling_2_the_deck_stays_the_starting_one_as_players_drop_out() -> None:
    """Ruling 2: the deck is chosen by the starting count and kept to the end."""
    rng = Stream("ruling-2", "moves")
    state = new_game("ruling-2", 6, 1)
    while state.winner is None:
        state = play(state, rng.choice(legal_moves(state)))
    assert len(state.finished) >= 2
    for coup in state.finished:
        assert set(coup.before) | set(coup.discards) | {coup.stock} <= set(DECK_32)
        assert coup.before[:-1] == shuffled_deck("ruling-2", coup.number, 32)[: len(coup.order) - 1]
    state = new_game("ruling-2", 7, 1)
    assert set(state.coup.before) <= set(DECK_52)


def test_ruling_2_only_ranks_count_suits_never_separate_two_players() -> None:
    """Ruling 2: two aces of different suits both lose."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AS", 2: "AC", 3: "9D", 4: "9H", 5: "KC"}, stock="QC")
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    assert state.finished[0].losers == (1, 2)


def test_ruling_3_the_circle_runs_to_the_right_from_the_dealer() -> None:
    """Ruling 3 and the contract: c0 is the dealer's right-hand neighbour (dealer + 1), the dealer last; N wraps to 1."""
    assert circle(3, (3,) * 5) == (4, 5, 1, 2, 3)
    assert circle(5, (3,) * 5) == (1, 2, 3, 4, 5)
    assert circle(2, (1, 2, 0, 1, 0)) == (4, 1, 2)
    assert next_seat_right(5, (0, 0, 1, 1, 1)) == 3 and next_seat_right(2, (1, 1, 0, 0, 1)) == 5
    state = new_game("2026-12-01", 8, 3)  # dealer 2
    assert state.coup.order == (3, 4, 5, 6, 7, 8, 1, 2) and to_move(state) == 3


def test_ruling_4_every_seat_is_equally_likely_to_deal_first() -> None:
    """Ruling 4: the first dealer is drawn from the seed, every seat equally likely."""
    counts = [0] * 8
    for number in range(4000):
        counts[first_dealer(f"lot-{number}", 8) - 1] += 1
    assert all(400 < count < 600 for count in counts), counts


def test_ruling_5_every_coup_is_a_fresh_deal_from_the_seed_and_its_number() -> None:
    """Ruling 5: coup k deals from stream(seed, "coup:k") whatever happened before; nothing carries over."""
    keep_all = new_game("fresh", 5, 3)
    change_all = keep_all
    for _ in range(4):
        keep_all = play(keep_all, Move(keep_all.coup.speaker or 0, KEEP))
        change_all = play(change_all, Move(change_all.coup.speaker or 0, CHANGE))
    assert keep_all.coup.number == change_all.coup.number == 2
    deck = shuffled_deck("fresh", 2, 32)
    players_in = len(keep_all.coup.order)
    assert keep_all.coup.before[:-1] == deck[: players_in - 1] == change_all.coup.before[: players_in - 1]


def test_ruling_6_the_dealer_keeps_the_highest_of_three_and_has_no_move() -> None:
    """Ruling 6: the dealer gets the last three cards of the round and keeps the highest; he never speaks."""
    state = new_game("coucou", 8, 3)  # dealer 8; his cards are positions 7, 8, 9: 2D 4H 9C
    assert state.coup.before[-1] == Card.parse("9C") and state.coup.discards == cards("2D 4H")
    assert state.coup.stock == shuffled_deck("coucou", 1, 52)[10]
    speakers = []
    while state.coup.number == 1:
        speakers.append(to_move(state))
        state = play(state, Move(to_move(state) or 0, CHANGE))
    assert speakers == [1, 2, 3, 4, 5, 6, 7]
    assert state.finished[0].cards[-1] == Card.parse("9C")


def test_ruling_7_change_swaps_with_the_right_hand_neighbour() -> None:
    """Ruling 7: each player in turn changes with his right-hand neighbour, who speaks next."""
    state = hand_set(6, (1, 2, 3, 4, 5, 6), {1: "AC", 2: "7D", 3: "8H", 4: "9S", 5: "10C", 6: "QC"}, stock="JD")
    state = played(state, "1:change")
    assert state.coup.cards[:2] == cards("7D AC") and state.coup.actions == (Outcome.EXCHANGE,)
    state = played(state, "2:change 3:keep")
    assert state.coup.cards[:4] == cards("7D 8H AC 9S")


def test_ruling_7_the_dealers_left_changes_with_the_stock_not_the_dealer() -> None:
    """Ruling 7: the dealer's left neighbour changes with the top card of the stock; nobody changes with the dealer."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "8C", 2: "8D", 3: "8H", 4: "AS", 5: "7C"}, stock="QH")
    state = played(state, "1:keep 2:keep 3:keep 4:change")
    coup = state.finished[0]
    assert coup.actions[-1] == Outcome.STOCK and coup.cards == cards("8C 8D 8H QH 7C") and coup.turned == coup.stock
    assert coup.losers == (5,)


def test_ruling_7_with_two_players_left_the_non_dealer_changes_with_the_stock() -> None:
    """Ruling 7: with two players left, the non-dealer keeps or changes with the stock; then the showdown."""
    state = hand_set(5, (4, 2), {4: "AS", 2: "5C"}, stock="9D", tokens=2)
    assert legal_moves(state) == (Move(4, KEEP), Move(4, CHANGE))
    state = played(state, "4:change")
    coup = state.finished[0]
    assert coup.actions == (Outcome.STOCK,) and coup.cards == cards("9D 5C") and coup.losers == (2,)


def test_ruling_8_coucou_is_automatic_and_the_asker_keeps_his_card() -> None:
    """Ruling 8: a neighbour holding a king always refuses; nothing moves."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "KD", 3: "8H", 4: "9S", 5: "QC"}, stock="JD")
    state = played(state, "1:change")
    assert state.coup.actions == (Outcome.COUCOU,) and state.coup.cards == state.coup.before


def test_ruling_8_changing_away_your_own_king_is_legal() -> None:
    """Ruling 8: both actions are always legal, even holding a king; changing it away hands it on."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "KC", 2: "AD", 3: "8H", 4: "9S", 5: "QC"}, stock="JD")
    assert Move(1, CHANGE) in legal_moves(state)
    state = played(state, "1:change")
    assert state.coup.cards[:2] == cards("AD KC") and state.coup.actions == (Outcome.EXCHANGE,)


def test_ruling_9_a_king_on_the_stock_stays_there() -> None:
    """Ruling 9: the stock card is turned for all; a king stays there and he keeps his card."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "8C", 2: "8D", 3: "8H", 4: "AS", 5: "7C"}, stock="KH")
    state = played(state, "1:keep 2:keep 3:keep 4:change")
    coup = state.finished[0]
    assert coup.actions[-1] == Outcome.STOCK_KING and coup.turned == Card.parse("KH") and coup.cards == coup.before
    assert coup.losers == (4,)


def test_ruling_9_keeping_leaves_the_stock_face_down() -> None:
    """Contract: ``stock`` is the card turned up, or null when the dealer's left neighbour keeps."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "8C", 2: "8D", 3: "8H", 4: "AS", 5: "7C"}, stock="KH")
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    assert state.finished[0].turned is None


def test_ruling_11_every_holder_of_the_lowest_rank_loses_one_token() -> None:
    """Ruling 11: ties lose together."""
    state = hand_set(
        7, (3, 4, 5, 6, 7, 1, 2), {3: "2C", 4: "2D", 5: "9H", 6: "2S", 7: "QC", 1: "10D", 2: "JS"}, stock="KC"
    )
    state = played(state, "3:keep 4:keep 5:keep 6:keep 7:keep 1:keep")
    assert state.finished[0].losers == (3, 4, 6) and state.tokens == (3, 3, 2, 2, 3, 2, 3)


def test_ruling_11_nobody_loses_when_all_hold_the_same_rank() -> None:
    """Ruling 11: nobody loses when all players still in hold the same rank; the coup counts and the deal passes."""
    state = hand_set(5, (1, 2, 3, 4), {1: "9C", 2: "9D", 3: "9H", 4: "9S"}, stock="KH")
    state = played(state, "1:keep 2:keep 3:keep")
    assert state.finished[0].losers == () and state.tokens == (3, 3, 3, 3, 0)
    assert state.coup.number == 2 and state.coup.dealer == 1


def test_ruling_12_players_out_in_the_same_coup_share_the_place() -> None:
    """Ruling 12: a player with no token leaves after the showdown; those out together share 1 + the players still in."""
    state = hand_set(
        6, (1, 2, 3, 4, 5, 6), {1: "7C", 2: "7D", 3: "9H", 4: "7S", 5: "QC", 6: "KC"}, stock="KH", tokens=1
    )
    state = played(state, "1:keep 2:keep 3:keep 4:keep 5:keep")
    assert state.eliminations == (Elimination(1, 1, 4), Elimination(2, 1, 4), Elimination(4, 1, 4))
    assert (
        state.coup.dealer == 3
        and state.coup.order == (5, 6, 3)
        and state.place_of(1) == 4
        and state.place_of(3) is None
    )


def test_ruling_12_a_player_is_only_out_at_zero_tokens() -> None:
    """Ruling 12 and ruling 18: losing a token is not leaving; a player leaves only at zero."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "8D", 3: "9H", 4: "10S", 5: "QC"}, stock="KH", tokens=2)
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    assert state.tokens[0] == 1 and state.eliminations == () and 1 in state.coup.order


def test_ruling_13_the_deal_passes_right_skipping_a_seat_just_eliminated() -> None:
    """Ruling 13: the deal passes to the next seat still in at the dealer's right, skipping anyone just out."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "9D", 3: "9H", 4: "10S", 5: "QC"}, stock="KH", tokens=1)
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    assert state.finished[0].eliminated == (1,)
    assert state.coup.dealer == 2 and state.coup.order == (3, 4, 5, 2)
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "9D", 3: "9H", 4: "10S", 5: "QC"}, stock="KH", tokens=2)
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    assert state.finished[0].eliminated == () and state.coup.dealer == 1


def test_ruling_13_a_dealer_going_out_passes_the_deal_to_his_right() -> None:
    """Ruling 13: the dealer himself just eliminated: the deal still goes to the next seat in at his right."""
    state = hand_set(5, (3, 4, 5, 1, 2), {3: "9C", 4: "9D", 5: "9H", 1: "10S", 2: "AC"}, stock="KH", tokens=1)
    state = played(state, "3:keep 4:keep 5:keep 1:keep")
    assert state.finished[0].eliminated == (2,) and state.coup.dealer == 3 and state.coup.order == (4, 5, 1, 3)


def test_ruling_14_the_last_player_left_wins() -> None:
    """Ruling 14: the game ends when one player is left; he wins with place 1."""
    state = hand_set(5, (4, 2), {4: "AS", 2: "5C"}, stock="9D", tokens={4: 1, 2: 2})
    state = played(state, "4:keep")
    assert state.winner == 2 and state.place_of(2) == 1 and state.eliminations == (Elimination(4, 1, 2),)
    assert to_move(state) is None and state.coups == state.finished


def test_ruling_16_score_of_the_winner_and_of_the_others() -> None:
    """Ruling 16: winner 1000 + 10 × tokens left; otherwise floor(1000 × (N − place) / (N − 1)) + min(coup, 50)."""
    state = hand_set(8, (1, 2), {1: "KS", 2: "5C"}, stock="9D", tokens={1: 3, 2: 1}, number=60)
    state = played(state, "1:keep")
    assert state.winner == 1 and state.score == 1030
    state = hand_set(8, (1, 2), {1: "AS", 2: "5C"}, stock="9D", tokens={1: 1, 2: 1}, number=60)
    state = played(state, "1:keep")
    assert state.winner == 2 and state.place_of(1) == 2 and state.score == 1000 * 6 // 7 + 50
    assert state.score_of(2) == 1010


def test_ruling_16_score_of_a_seat_out_early() -> None:
    """Ruling 16 with the worked record: seat 1 out in coup 1 at place 4 of 5: 250 + 1."""
    assert replay("coucou", 5, 1, WORKED_MOVES).score == 251
    assert replay("coucou", 5, 1, WORKED_MOVES[:4]).score is None
