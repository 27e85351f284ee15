"""Random as qui court games at every size 5–20: every finished coup checked after the fact against rulings 20–24.

3,200 seeded games (200 at each size, 1 to 3 tokens, a few with 10), each seat's keep/change drawn
from a propensity of its own per game, the dealer's move included. Each coup: dealt at the variant's
positions (the dealer one card, the stock next), its outcomes rule by rule replayed from the deal
(the dealer's left neighbour changing with the dealer, king-shown, the dealer speaking exactly when
he has just received an ace), its kings shown, its losers; tokens, eliminations, places, the deal
passing; one winner; the record read back by ``couyon verify`` reports the same game.
"""

from __future__ import annotations

import json

import pytest

from couyon.common.stream import Stream
from couyon.games.coucou.cards import ACE, KING, deck_size
from couyon.games.coucou.game import (
    AS_QUI_COURT,
    Coup,
    GameState,
    Outcome,
    circle,
    first_dealer,
    legal_moves,
    new_game,
    next_seat_right,
    play,
    shuffled_deck,
)
from couyon.games.coucou.record import record_of, report
from couyon.registry import verify_record

SIZES = range(5, 21)
GAMES_PER_SIZE = 200


def random_game(seed: str, players: int, tokens: int) -> tuple[GameState, list[str]]:
    rng = Stream(seed, "aqc-random-moves")
    propensity = 1 + rng.uniform(7)  # changes in 8, from 1 to 7, one for the whole game
    state = new_game(seed, players, tokens, AS_QUI_COURT)
    moves = []
    while state.winner is None:
        options = legal_moves(state)
        assert [move.seat for move in options] == [state.to_move] * 2
        move = options[1 if rng.uniform(8) < propensity else 0]
        moves.append(str(move))
        state = play(state, move)
    return state, moves


def check_coup_outcomes(coup: Coup) -> None:
    """Replay one finished coup from its deal, rule by rule, and compare with what the engine logged."""
    order, m = coup.order, len(coup.order)
    cards = list(coup.before)
    shown = []
    for position, outcome in enumerate(coup.actions[: m - 1]):
        right = position + 1
        if outcome is Outcome.KEEP:
            continue
        assert outcome in (Outcome.EXCHANGE, Outcome.KING_SHOWN), outcome  # never coucou, never the stock
        if cards[right].rank == KING:
            assert outcome is Outcome.KING_SHOWN
            shown.append(order[right])
        else:
            assert outcome is Outcome.EXCHANGE
            cards[position], cards[right] = cards[right], cards[position]
    assert coup.kings_shown == tuple(shown)
    dealer_moves = coup.actions[m - 2] is Outcome.EXCHANGE and cards[m - 1].rank == ACE
    assert len(coup.actions) == (m if dealer_moves else m - 1)
    if dealer_moves:
        last = coup.actions[m - 1]
        assert last in (Outcome.KEEP, Outcome.STOCK, Outcome.STOCK_KING)
        if last is Outcome.KEEP:
            assert coup.turned is None
        else:
            assert coup.turned == coup.stock
            assert (last is Outcome.STOCK_KING) == (coup.stock.rank == KING)
            if last is Outcome.STOCK:
                cards[m - 1] = coup.stock
    else:
        assert coup.turned is None
    assert tuple(cards) == coup.cards


def check_game(state: GameState) -> None:
    seed, players = state.seed, state.players
    size = deck_size(players)
    tokens = (state.starting_tokens,) * players
    dealer = first_dealer(seed, players)
    assert state.coups == state.finished and state.coup == state.finished[-1]
    for index, coup in enumerate(state.finished):
        assert coup.number == index + 1 and coup.dealer == dealer and coup.variant is AS_QUI_COURT
        order = circle(dealer, tokens)
        assert coup.order == order and order[-1] == dealer
        m = len(order)
        deck = shuffled_deck(seed, coup.number, size)
        assert coup.before == deck[:m] and coup.stock == deck[m] and coup.discards == ()  # ruling 20
        check_coup_outcomes(coup)
        ranks = [card.rank for card in coup.cards]
        lowest = min(ranks)
        expected_losers = (
            () if lowest == max(ranks) else tuple(sorted(s for s, r in zip(order, ranks, strict=True) if r == lowest))
        )
        assert coup.losers == expected_losers
        after = tuple(count - (seat in expected_losers) for seat, count in enumerate(tokens, start=1))
        assert coup.tokens == after and all(count >= 0 for count in after)
        assert coup.eliminated == tuple(seat for seat in expected_losers if after[seat - 1] == 0)
        tokens = after
        if sum(count > 0 for count in tokens) > 1:
            dealer = next_seat_right(dealer, tokens)
    assert [seat for seat in range(1, players + 1) if tokens[seat - 1] > 0] == [state.winner]
    assert state.place_of(state.winner or 0) == 1
    assert len(state.eliminations) == players - 1


@pytest.mark.parametrize("players", SIZES)
def test_random_as_qui_court_games_follow_rulings_20_to_24(players: int) -> None:
    dealer_moves = 0
    for index in range(GAMES_PER_SIZE):
        tokens = 10 if index % 50 == 7 else 1 + index % 3
        seed = f"aqc-sim-{players}-{index}"
        state, moves = random_game(seed, players, tokens)
        check_game(state)
        dealer_moves += sum(len(coup.actions) == len(coup.order) for coup in state.finished)
        if index % 20 == 0:
            written = record_of(state, moves).to_json()
            assert verify_record(written) == report(state, "coucou-record/2")
            assert json.loads(written)["variant"] == "as-qui-court"
    assert dealer_moves > 0  # the dealer's ace move happens at every size
