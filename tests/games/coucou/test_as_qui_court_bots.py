"""The three coucou bots at an as qui court table (rulings 22–24): legal moves everywhere, the dealer's ace move
included, and deterministic. Their thresholds are still coucou's (ruling 19): re-fitting them to this deal is a
later step, so no win rate is asserted here."""

from __future__ import annotations

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.games.coucou.bots import BOTS, bot_move
from couyon.games.coucou.entry import GAME
from couyon.games.coucou.game import AS_QUI_COURT, CHANGE, GameState, Move, legal_moves, new_game, play
from couyon.games.coucou.view import view


def bot_game(seed: str, players: int, tokens: int, bot_name: str) -> tuple[GameState, list[Move], int]:
    """A whole as qui court game played by one bot at every seat; also how many dealer moves it made."""
    state = new_game(seed, players, tokens, AS_QUI_COURT)
    bot = BOTS[bot_name]
    moves: list[Move] = []
    dealer_moves = 0
    while state.winner is None:
        move = bot_move(state, bot)
        assert move in legal_moves(state)
        if move.seat == state.coup.dealer:
            dealer_moves += 1
        moves.append(move)
        state = play(state, move)
    return state, moves, dealer_moves


@pytest.mark.parametrize("bot_name", sorted(BOTS))
@pytest.mark.parametrize("players", [5, 8, 13, 20])
def test_bots_play_whole_as_qui_court_games_legally_and_deterministically(bot_name: str, players: int) -> None:
    dealer_moves = 0
    for index in range(6):
        seed = f"aqc-bots-{index}"
        state, moves, made = bot_game(seed, players, 2, bot_name)
        dealer_moves += made
        again, moves_again, _ = bot_game(seed, players, 2, bot_name)
        assert moves_again == moves and again == state
    assert dealer_moves > 0


@pytest.mark.parametrize("bot_name", sorted(BOTS))
def test_a_dealer_handed_an_ace_changes_it_with_the_stock(bot_name: str) -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "AH", 5: "QD"}, "10C", variant=AS_QUI_COURT)
    waiting = played(state, "1:keep 2:keep 3:keep 4:change")
    assert bot_move(waiting, BOTS[bot_name]) == Move(5, CHANGE)
    # The registry's engine (with its history cache) gives the same move from the same view.
    assert GAME.engine.bot_move(waiting, BOTS[bot_name]) == Move(5, CHANGE)
    assert view(waiting, 5).legal_moves == legal_moves(waiting)
