"""Bots: legal moves only, deterministic choices and replays, forced moves at once, the registry's seating."""

from __future__ import annotations

import hashlib

from couyon.common.stream import Stream
from couyon.games.couyon.bots import Bot, bot_id, bot_move, bot_rng
from couyon.games.couyon.bots.baseline import BaselineBot, baseline_takes
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.omniscient import OmniscientBot
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.bots.registry import BOTS_BY_ID, TABLE_BOT_ID, bot_by_id
from couyon.games.couyon.cards import Card, mask_of
from couyon.games.couyon.game import GameState, Move, legal_moves, new_game, play
from couyon.games.couyon.view import view


def play_out(seed: str, north_south: Bot, west_east: Bot, max_deals: int = 1000) -> tuple[GameState, list[Move]]:
    """A game between two bot teams, checking that every move is one of the legal moves."""
    state = new_game(seed)
    moves = []
    while state.winner is None and state.deal.number <= max_deals:
        bot = north_south if (state.to_move or 0) % 2 == 0 else west_east
        move = bot_move(state, bot)
        assert move in legal_moves(state), (seed, move)
        moves.append(move)
        state = play(state, move)
    return state, moves


def test_fast_bots_never_make_an_illegal_move_over_thousands_of_games() -> None:
    baseline, random = BaselineBot(), RandomBot()
    for number in range(1500):
        teams = (baseline, random) if number % 2 == 0 else (random, baseline)
        state, _ = play_out(f"legal-{number}", *teams)
        assert state.winner is not None


def test_the_expert_never_makes_an_illegal_move() -> None:
    expert, baseline = ExpertBot(), BaselineBot()
    for number in range(6):
        state, _ = play_out(f"expert-legal-{number}", expert, baseline if number % 2 else expert)
        assert state.winner is not None


def test_the_omniscient_yardstick_plays_legal_moves() -> None:
    omniscient = OmniscientBot()
    for number in range(4):
        state = new_game(f"omniscient-{number}")
        while state.winner is None:
            seat = state.to_move
            assert seat is not None
            move = omniscient.choose_with_state(state, bot_rng(state.seed, seat, state.move_count))
            assert move in legal_moves(state)
            state = play(state, move)


def test_same_view_and_generator_give_the_same_move() -> None:
    expert = ExpertBot()
    state = new_game("determinism")
    for _ in range(60):
        if state.winner is not None:
            break
        seat = state.to_move
        assert seat is not None
        seat_view = view(state, seat)
        first = expert.choose(seat_view, bot_rng(state.seed, seat, state.move_count))
        second = ExpertBot().choose(seat_view, bot_rng(state.seed, seat, state.move_count))
        assert first == second
        state = play(state, first)


def test_a_whole_game_with_bots_replays_identically() -> None:
    expert, baseline = ExpertBot(), BaselineBot()
    first_state, first_moves = play_out("replay", expert, baseline, max_deals=3)
    second_state, second_moves = play_out("replay", ExpertBot(), BaselineBot(), max_deals=3)
    assert first_moves == second_moves
    assert first_state == second_state


def test_a_forced_move_is_returned_without_drawing_randomness() -> None:
    expert = ExpertBot()
    state = new_game("forced")
    checked = 0
    while state.winner is None and checked < 20:
        seat = state.to_move
        assert seat is not None
        options = legal_moves(state)
        if len(options) == 1:
            rng = Stream("forced", "probe")
            assert expert.choose(view(state, seat), rng) == options[0]
            assert rng.next_u32() == Stream("forced", "probe").next_u32()
            checked += 1
        state = play(state, bot_move(state, expert))
    assert checked == 20


def test_the_table_seats_a_registered_bot_and_never_the_omniscient_one() -> None:
    assert TABLE_BOT_ID in BOTS_BY_ID
    assert bot_by_id(TABLE_BOT_ID).name == "expert"
    assert all(bot.name != OmniscientBot.name for bot in BOTS_BY_ID.values())
    assert {bot_id(bot) for bot in BOTS_BY_ID.values()} == set(BOTS_BY_ID)
    # Games recorded with an earlier expert replay with it: every released version stays registered.
    assert {"expert/1", "expert/2", "expert/3"} <= set(BOTS_BY_ID)


RELEASED_GAMES = {
    ("expert/1", "released-a"): "1a9c7bd3fd93aeecfaf6c3d903d80ff086843a9e9082c6d9939e2f6e5e2db193",
    ("expert/1", "released-b"): "6c7011986146d03eecaea36329d0b604087e58a6e1bbc53cb2f83ae87f824f33",
    ("expert/2", "released-a"): "f834d377797bf65eac159c8ed224601693cb60c62c94fc313eef3af04137555f",
    ("expert/2", "released-b"): "6e2042b52a5753743e03bf682fbab672f889334670d01a8c45a431a1a78ca03f",
    ("expert/3", "released-a"): "bd0f9b6e9f27039f02892cbe6b8accb3ef887b9300bdd27390cc0e28fe0a141f",
}
"""SHA-256 of the moves of whole games (the version against the baseline), computed with the code that released it."""


def test_released_expert_versions_still_play_the_moves_they_played_when_released() -> None:
    # A recorded game replays with its recorded bot id: a later speed-up must not change an old version's moves.
    for (identifier, seed), digest in RELEASED_GAMES.items():
        _, moves = play_out(seed, bot_by_id(identifier), BaselineBot())
        assert hashlib.sha256(" ".join(str(move) for move in moves).encode()).hexdigest() == digest, identifier


def cards(*codes: str) -> int:
    return mask_of(Card.parse(code) for code in codes)


def test_baseline_takes_with_two_solid_trumps_or_the_master_with_support() -> None:
    proposal = Card.parse("9H")
    out = cards("9H")
    assert baseline_takes(cards("AH", "KH", "9C", "10D"), proposal, out, speaks_last=False)
    assert baseline_takes(cards("AH", "9C", "10D", "AS"), proposal, out, speaks_last=False)
    assert not baseline_takes(cards("AH", "9C", "10D", "JS"), proposal, out, speaks_last=False)
    assert not baseline_takes(cards("QH", "9C", "10D", "JS"), proposal, out, speaks_last=True)


def test_baseline_counts_a_king_as_master_when_the_ace_was_turned() -> None:
    proposal = Card.parse("AH")
    assert baseline_takes(cards("KH", "QH", "9C", "10D"), proposal, cards("AH"), speaks_last=False)
    assert not baseline_takes(cards("KH", "9C", "10D", "JS"), Card.parse("9H"), cards("9H"), speaks_last=False)


def test_outcomes_are_worth_the_chalk_they_move() -> None:
    assert outcome_utilities((5, 5), 1, 0) == (1.0, 0.0, -2.0)
    assert outcome_utilities((5, 5), 2, 1) == (2.0, 0.0, -4.0)
    # One line left: making wins the game; failing can only erase what the other team has.
    made, tie, failed = outcome_utilities((1, 1), 2, 0)
    assert made == 2.0
    assert tie == 0.0
    assert failed == -4.0
    assert outcome_utilities((3, 5), 2, 0).made == 2.0
