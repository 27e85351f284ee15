"""As qui court's bots (rulings 22–24; version 2, ``AQC_BOTS``): legal moves everywhere, the dealer's ace move
included, and deterministic; their fitted tables (``AQC_THRESHOLDS``, ``AQC_AFTER_KING``) cover every table; normal
follows its table without information, expert adds the information rule and the lower threshold once a king has
been shown. How well they play is measured (docs/coucou.md), not asserted here."""

from __future__ import annotations

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.games.coucou.bots import AQC_AFTER_KING, AQC_BOTS, AQC_THRESHOLDS, aqc_threshold, bot_move
from couyon.games.coucou.cards import ranks_of
from couyon.games.coucou.entry import AS_QUI_COURT_GAME as GAME
from couyon.games.coucou.game import AS_QUI_COURT, CHANGE, KEEP, GameState, Move, legal_moves, new_game, play
from couyon.games.coucou.view import view


def bot_game(seed: str, players: int, tokens: int, bot_name: str) -> tuple[GameState, list[Move], int]:
    """A whole as qui court game played by one bot at every seat; also how many dealer moves it made."""
    state = new_game(seed, players, tokens, AS_QUI_COURT)
    bot = AQC_BOTS[bot_name]
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


@pytest.mark.parametrize("bot_name", sorted(AQC_BOTS))
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


@pytest.mark.parametrize("bot_name", sorted(AQC_BOTS))
def test_a_dealer_handed_an_ace_changes_it_with_the_stock(bot_name: str) -> None:
    state = hand_set(5, (1, 2, 3, 4, 5), {1: "9S", 2: "8S", 3: "JS", 4: "AH", 5: "QD"}, "10C", variant=AS_QUI_COURT)
    waiting = played(state, "1:keep 2:keep 3:keep 4:change")
    assert bot_move(waiting, AQC_BOTS[bot_name]) == Move(5, CHANGE)
    # The registry's engine (with its history cache) gives the same move from the same view.
    assert GAME.engine.bot_move(waiting, AQC_BOTS[bot_name]) == Move(5, CHANGE)
    assert view(waiting, 5).legal_moves == legal_moves(waiting)


def test_the_fitted_tables_cover_every_table_and_a_shown_king_never_raises_a_threshold() -> None:
    expected = {(52, m) for m in range(2, 21)} | {(32, m) for m in range(2, 7)}
    assert set(AQC_THRESHOLDS) == expected == set(AQC_AFTER_KING)
    for (deck, m), thresholds in AQC_THRESHOLDS.items():
        after = AQC_AFTER_KING[(deck, m)]
        assert len(thresholds) == len(after) == m - 1
        assert all(rank in ranks_of(deck) for rank in (*thresholds, *after))
        assert all(later <= plain for later, plain in zip(after, thresholds, strict=True))
    assert aqc_threshold(52, 8, 3) == 5 and aqc_threshold(52, 8, 3, after_king=True) == 4
    with pytest.raises(ValueError, match="no as qui court threshold"):
        aqc_threshold(52, 8, 7)


# Eight players, 52 cards, dealer 8: seat 1 asks seat 2, who shows his king; seat 4 (position 3) then holds a 4,
# under the plain threshold (5) but at the threshold once a king has been shown (4).
EIGHT = {1: "3C", 2: "KD", 3: "9H", 4: "4S", 5: "QC", 6: "JD", 7: "10S", 8: "8H"}


def test_normal_follows_its_table_and_expert_reads_a_shown_king() -> None:
    state = hand_set(8, range(1, 9), EIGHT, "6C", variant=AS_QUI_COURT)
    shown = played(state, "1:change 2:keep 3:keep")
    assert shown.coup.kings_shown == (2,)
    assert bot_move(shown, AQC_BOTS["normal/2"]) == Move(4, CHANGE)
    assert bot_move(shown, AQC_BOTS["expert/2"]) == Move(4, KEEP)
    assert bot_move(shown, AQC_BOTS["easy/2"]) == Move(4, CHANGE)  # easy changes on 7 or lower
    # Without the shown king, expert/2 follows the plain threshold too.
    plain = played(hand_set(8, range(1, 9), EIGHT | {2: "QD"}, "6C", variant=AS_QUI_COURT), "1:keep 2:keep 3:keep")
    assert bot_move(plain, AQC_BOTS["expert/2"]) == Move(4, CHANGE)


def test_expert_keeps_when_handed_a_higher_card_and_normal_does_not_look() -> None:
    # Seat 3 holds a 3 and changes with seat 4, who held a 2: seat 4 is handed a higher card than he gave.
    cards = EIGHT | {2: "QD", 3: "3H", 4: "2S"}
    state = played(hand_set(8, range(1, 9), cards, "6C", variant=AS_QUI_COURT), "1:keep 2:keep 3:change")
    assert state.coup.card_of(4).rank == 3  # handed a 3 for his 2: seat 3 holds the 2 now, and cannot move it
    assert bot_move(state, AQC_BOTS["expert/2"]) == Move(4, KEEP)
    assert bot_move(state, AQC_BOTS["normal/2"]) == Move(4, CHANGE)
