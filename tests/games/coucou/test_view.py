"""What a coucou seat may know (ruling 10): its card, public outcomes, what its exchanges told it; nothing else."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.common.stream import Stream
from couyon.games.coucou.cards import Card
from couyon.games.coucou.game import CHANGE, KEEP, GameState, Move, Outcome, legal_moves, new_game, play
from couyon.games.coucou.view import CoucouView, PublicCoup, Swap, view


def card(code: str) -> Card:
    return Card.parse(code)


def five() -> GameState:
    return hand_set(
        5, (1, 2, 3, 4, 5), {1: "AC", 2: "7D", 3: "8H", 4: "9S", 5: "QC"}, stock="JD", discards=("7C", "8D")
    )


def cards_in(value: Any) -> list[Card]:
    """Every card anywhere inside a view's value (dataclasses, tuples)."""
    if isinstance(value, Card):
        return [value]
    if value is None or isinstance(value, int | str):
        return []
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [found for item in dataclasses.fields(value) for found in cards_in(getattr(value, item.name))]
    if isinstance(value, tuple | list):
        return [found for item in value for found in cards_in(item)]
    return []


def test_a_seat_sees_its_own_card_and_no_other() -> None:
    """Ruling 10: before the showdown, no other seat's card; the dealer saw his two discards."""
    state = five()
    for seat in range(1, 6):
        seen = view(state, seat)
        assert seen.coup is not None and seen.coup.card == state.coup.card_of(seat)
        assert seen.coup.known == () and seen.coup.swaps == ()
        assert seen.coup.discards == ((card("7C"), card("8D")) if seat == 5 else ())
        assert set(cards_in(seen)) == {state.coup.card_of(seat), *seen.coup.discards}


def test_an_exchange_tells_both_players_each_others_card_and_nobody_else() -> None:
    """Ruling 10: an exchange is face down: only the two players see what they receive."""
    state = played(five(), "1:change")
    first, second, third = view(state, 1).coup, view(state, 2).coup, view(state, 3).coup
    assert first is not None and second is not None and third is not None
    assert first.card == card("7D") and first.known == ((2, card("AC")),)
    assert first.swaps == (Swap(2, card("AC"), card("7D")),)
    assert second.card == card("AC") and second.known == ((1, card("7D")),)
    assert second.swaps == (Swap(1, card("7D"), card("AC")),)
    assert third.known == () and third.actions == (Outcome.EXCHANGE,)
    assert card("AC") not in cards_in(view(state, 3)) and card("7D") not in cards_in(view(state, 4))


def test_a_known_card_is_followed_as_it_runs_on() -> None:
    """Ruling 10 ("as qui court"): the ace 1 handed to 2 moves on when 2 changes with 3; 1 and 2 both know 3 holds it."""
    state = played(five(), "1:change 2:change")
    first, second, third = view(state, 1).coup, view(state, 2).coup, view(state, 3).coup
    assert first is not None and second is not None and third is not None
    assert first.known == ((3, card("AC")),)
    assert second.card == card("8H") and second.known == ((1, card("7D")), (3, card("AC")))
    assert third.card == card("AC") and third.known == ((2, card("8H")),)
    assert third.swaps == (Swap(2, card("8H"), card("AC")),)


def test_a_coucou_moves_nothing_and_tells_only_the_outcome() -> None:
    """Ruling 8 and 10: a "Coucou !" is public; the king's suit is not."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "KD", 3: "8H", 4: "9S", 5: "QC"}, stock="JD")
    state = played(state, "1:change")
    for seat in range(1, 6):
        seen = view(state, seat).coup
        assert seen is not None and seen.actions == (Outcome.COUCOU,) and seen.known == () and seen.swaps == ()
    assert card("KD") not in cards_in(view(state, 1))


def test_every_card_is_shown_at_the_showdown_but_not_the_deal() -> None:
    """Ruling 10: all cards at the showdown; the stock card once turned; never the discards or a card that left play."""
    state = played(five(), "1:change 2:keep 3:keep 4:change")
    seen = view(state, 3)
    assert seen.history == (
        PublicCoup(
            1,
            5,
            (1, 2, 3, 4, 5),
            (Outcome.EXCHANGE, Outcome.KEEP, Outcome.KEEP, Outcome.STOCK),
            card("JD"),
            (card("7D"), card("AC"), card("8H"), card("JD"), card("QC")),
            (2,),
            (3, 2, 3, 3, 3),
            (),
        ),
    )
    assert card("9S") not in cards_in(seen.history)  # 4's card went face down out of play
    assert card("7C") not in cards_in(seen.history) and card("8D") not in cards_in(seen.history)


def test_the_stock_card_a_player_took_is_public_to_all() -> None:
    """Ruling 9: the stock card is turned face up for all, then taken (with two players left the coup ends there)."""
    state = hand_set(5, (2, 4, 1), {2: "5C", 4: "AS", 1: "9H"}, stock="9D")
    state = played(state, "2:keep 4:change")
    assert all(view(state, seat).history[-1].stock == card("9D") for seat in (1, 2, 4))


def test_only_the_seat_to_move_gets_legal_moves_and_the_seed_never_leaves() -> None:
    """Ruling 10: the browser receives only what seat 1 may know; the seed would reveal every deal."""
    state = new_game("secret-seed", 8, 3)
    speaker = state.to_move
    for seat in range(1, 9):
        seen = view(state, seat)
        assert seen.legal_moves == (legal_moves(state) if seat == speaker else ())
        assert "secret-seed" not in repr(seen)
    with pytest.raises(ValueError):
        view(state, 9)


def test_an_eliminated_seat_still_watches() -> None:
    """Ruling 15: once out, the human may watch the table play on: a view with no card, and his place."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "AC", 2: "9D", 3: "9H", 4: "10S", 5: "QC"}, stock="KH", tokens=1)
    state = played(state, "1:keep 2:keep 3:keep 4:keep")
    seen = view(state, 1)
    assert seen.coup is not None and seen.coup.card is None and seen.coup.position is None and seen.place == 5


def test_random_games_never_show_a_seat_what_it_cannot_know() -> None:
    """Ruling 10 over 64 random games (4 at each size, 2 coups each): every card in a view is the seat's own, a discard it dealt, one it gave or got,
    one it was told of (and that seat does hold it), a turned stock card, or a card of a past showdown."""
    for number in range(64):
        players = 5 + number % 16
        state = new_game(f"view-{number}", players, 1 + number % 2)
        rng = Stream(f"view-{number}", "moves")
        while state.winner is None and state.coup.number <= 2:
            for seat in range(1, players + 1):
                check_view(state, view(state, seat))
            state = play(state, rng.choice(legal_moves(state)))


def check_view(state: GameState, seen: CoucouView) -> None:
    coup = seen.coup
    assert coup is not None
    seat = seen.seat
    truth = state.coup
    assert coup.card == truth.card_of(seat)
    for other, held in coup.known:
        assert other != seat and truth.card_of(other) == held
    allowed = {coup.card, *coup.discards, *(c for swap in coup.swaps for c in swap[1:]), *(c for _, c in coup.known)}
    allowed.update(cards_in(seen.history))
    assert set(cards_in(seen)) <= allowed
    assert (coup.discards != ()) == (seat == truth.dealer)
    assert coup.order == truth.order and coup.actions == truth.actions and coup.number == truth.number


def test_keep_and_change_are_the_only_moves_offered() -> None:
    """Contract: both actions are always legal, even holding a king."""
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "KC", 2: "9D", 3: "9H", 4: "10S", 5: "QC"}, stock="KH")
    assert view(state, 1).legal_moves == (Move(1, KEEP), Move(1, CHANGE))
