"""Random coucou games at every size 5–20: after the fact, every coup is checked against the contract, rewritten here.

1,600 seeded games of uniform keep/change (100 at each size; 1 to 3 tokens, and a few
with 10), so kings are changed away too. Each finished coup: dealt from its own
shuffle at the contract's positions with distinct cards, its circle and dealer, its
outcomes rule by rule from the deal, its losers; tokens only go down and only the
losers'; eliminations and places; then exactly one winner and ruling 16's score for
every seat.
"""

from __future__ import annotations

import pytest

from couyon.common.stream import Stream
from couyon.games.coucou.cards import KING, deck_size
from couyon.games.coucou.game import (
    GameState,
    Outcome,
    circle,
    first_dealer,
    legal_moves,
    new_game,
    next_seat_right,
    play,
    replay,
    shuffled_deck,
)

SIZES = range(5, 21)
GAMES_PER_SIZE = 100


def random_game(seed: str, players: int, tokens: int) -> tuple[GameState, list[str]]:
    rng = Stream(seed, "random-moves")
    state = new_game(seed, players, tokens)
    moves = []
    while state.winner is None:
        move = legal_moves(state)[rng.uniform(2)]
        moves.append(str(move))
        state = play(state, move)
    return state, moves


def check_game(state: GameState) -> None:
    seed, players = state.seed, state.players
    size = deck_size(players)
    tokens = (state.starting_tokens,) * players
    dealer = first_dealer(seed, players)
    places: list[int] = []
    assert state.coups == state.finished and state.coup == state.finished[-1]
    for index, coup in enumerate(state.finished):
        assert coup.number == index + 1 and coup.dealer == dealer
        order = circle(dealer, tokens)
        assert coup.order == order and order[-1] == dealer and len(order) >= 2
        players_in = len(order)
        deck = shuffled_deck(seed, coup.number, size)
        # The contract's positions: 0 … m-2 to c0 … c(m-2), m-1 … m+1 to the dealer who keeps the highest, m+2 the stock.
        assert coup.before[:-1] == deck[: players_in - 1]
        dealers_three = deck[players_in - 1 : players_in + 2]
        assert coup.before[-1] == max(dealers_three)
        assert sorted((coup.before[-1], *coup.discards)) == sorted(dealers_three)
        assert coup.stock == deck[players_in + 2]
        dealt = (*coup.before, *coup.discards, coup.stock)
        assert len(set(dealt)) == len(dealt) == players_in + 3
        assert len(coup.actions) == players_in - 1
        cards = list(coup.before)
        for position, outcome in enumerate(coup.actions):
            if position < players_in - 2:
                assert outcome in (Outcome.KEEP, Outcome.EXCHANGE, Outcome.COUCOU)
                if outcome is not Outcome.KEEP:
                    assert (outcome is Outcome.COUCOU) == (cards[position + 1].rank == KING)
                if outcome is Outcome.EXCHANGE:
                    cards[position], cards[position + 1] = cards[position + 1], cards[position]
            else:
                assert outcome in (Outcome.KEEP, Outcome.STOCK, Outcome.STOCK_KING)
                assert (coup.turned is None) == (outcome is Outcome.KEEP)
                if outcome is not Outcome.KEEP:
                    assert coup.turned == coup.stock
                    assert (outcome is Outcome.STOCK_KING) == (coup.stock.rank == KING)
                if outcome is Outcome.STOCK:
                    cards[position] = coup.stock
        assert tuple(cards) == coup.cards
        ranks = [card.rank for card in cards]
        expected_losers = (
            ()
            if min(ranks) == max(ranks)
            else tuple(sorted(seat for seat, rank in zip(order, ranks, strict=True) if rank == min(ranks)))
        )
        assert coup.losers == expected_losers
        assert coup.tokens is not None and coup.eliminated is not None
        after = tuple(count - (seat in expected_losers) for seat, count in enumerate(tokens, start=1))
        assert coup.tokens == after and min(after) >= 0
        assert all(new <= old for new, old in zip(after, tokens, strict=True))
        assert coup.eliminated == tuple(seat for seat in expected_losers if after[seat - 1] == 0)
        still_in = sum(1 for count in after if count > 0)
        assert still_in >= 1
        places.extend(1 + still_in for _ in coup.eliminated)
        tokens = after
        if index < len(state.finished) - 1:
            dealer = next_seat_right(dealer, tokens)
        else:
            assert still_in == 1
    # Exactly one winner, everyone else out exactly once, places from the eliminations, the score formula.
    assert state.tokens == tokens and state.winner is not None and tokens[state.winner - 1] > 0
    assert sum(1 for count in tokens if count > 0) == 1
    assert sorted(e.seat for e in state.eliminations) == [s for s in range(1, players + 1) if s != state.winner]
    assert [e.place for e in state.eliminations] == places
    assert places == sorted(places, reverse=True) and all(2 <= place <= players for place in places)
    assert [(e.coup, e.seat) for e in state.eliminations] == sorted((e.coup, e.seat) for e in state.eliminations)
    scores = {}
    for seat in range(1, players + 1):
        place = state.place_of(seat)
        assert place is not None
        if seat == state.winner:
            expected = 1000 + 10 * tokens[seat - 1]
        else:
            out = next(e for e in state.eliminations if e.seat == seat)
            expected = (1000 * (players - place)) // (players - 1) + min(out.coup, 50)
        assert state.score_of(seat) == expected
        scores[seat] = (place, expected)
    for place, score in scores.values():
        for other_place, other_score in scores.values():
            if place < other_place:
                assert score > other_score  # ruling 16: a better place always scores more


@pytest.mark.parametrize("players", SIZES)
def test_random_games_follow_the_contract(players: int) -> None:
    """Contract and rulings 5–16 on 100 random games at this size."""
    coups = 0
    for number in range(GAMES_PER_SIZE):
        tokens = 10 if number == 0 else 1 + number % 3
        state, _ = random_game(f"simulation-{players}-{number}", players, tokens)
        check_game(state)
        coups += len(state.finished)
    assert coups >= GAMES_PER_SIZE * 2


def test_replaying_the_move_texts_gives_the_same_game() -> None:
    """Design: a game is its seed plus its moves; replaying them folds to an equal state."""
    for players in (5, 9, 20):
        state, moves = random_game(f"replay-{players}", players, 3)
        assert replay(state.seed, players, 3, moves) == state
        assert state.move_count == len(moves) == sum(len(coup.order) - 1 for coup in state.finished)
