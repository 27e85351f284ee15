"""Coucou bots (ruling 19): easy's fixed threshold, normal's table, expert's information rule; views only, deterministic."""

from __future__ import annotations

import hashlib

import pytest
from tests.games.coucou.positions import hand_set, played

from couyon.common.stream import Stream
from couyon.games.coucou.bots import (
    BOTS,
    TABLE_BOT_ID,
    EasyBot,
    ExpertBot,
    NormalBot,
    bot_move,
    bot_rng,
    normal_threshold,
)
from couyon.games.coucou.game import CHANGE, KEEP, GameState, Move, new_game, play
from couyon.games.coucou.view import CoucouView, view
from couyon.registry import GAMES

RULING_19_52 = {2: 9, 3: 9, 4: 8, 5: 7, 6: 7, 7: 6, 8: 6, 9: 5, 10: 5, 11: 5} | dict.fromkeys(range(12, 17), 4)
RULING_19_52 |= dict.fromkeys(range(17, 21), 3)
RULING_19_32 = {2: 10, 3: 10, 4: 10, 5: 9, 6: 9}


def decision(bot: EasyBot | NormalBot | ExpertBot, state: GameState) -> str:
    seat = state.to_move
    assert seat is not None
    return str(bot.choose(view(state, seat), Stream("unused", "unused")).action)


def test_normal_thresholds_are_ruling_19s_table() -> None:
    """Ruling 19: keep if the rank is at least t, by deck and players still in (m)."""
    for players_in, threshold in RULING_19_52.items():
        assert normal_threshold(52, players_in, first_to_speak=False) == threshold
    for players_in, threshold in RULING_19_32.items():
        assert normal_threshold(32, players_in, first_to_speak=False) == threshold


def test_the_first_to_speak_keeps_one_rank_lower_where_the_ruling_says() -> None:
    """Ruling 19: one rank lower for the first to speak when 3 ≤ m ≤ 8 (52 cards) or m = 4 (32 cards)."""
    for players_in, threshold in RULING_19_52.items():
        lower = threshold - 1 if 3 <= players_in <= 8 else threshold
        assert normal_threshold(52, players_in, first_to_speak=True) == lower
    for players_in, threshold in RULING_19_32.items():
        lower = 9 if players_in == 4 else threshold
        assert normal_threshold(32, players_in, first_to_speak=True) == lower
    # With two players left the first to speak is the dealer's left neighbour: no change.
    assert normal_threshold(52, 2, first_to_speak=True) == 9


def eight(cards: dict[int, str]) -> GameState:
    """Eight players, dealer 8, seat 1 first to speak."""
    return hand_set(8, range(1, 9), cards, stock="3C")


BASE = {1: "6C", 2: "6D", 3: "9H", 4: "10S", 5: "JC", 6: "QD", 7: "2H", 8: "KS"}


@pytest.mark.parametrize(
    ("first", "easy", "normal"),
    [("4C", CHANGE, CHANGE), ("5C", CHANGE, KEEP), ("6C", CHANGE, KEEP), ("7C", CHANGE, KEEP), ("8C", KEEP, KEEP)],
)
def test_easy_and_normal_at_eight_players_first_to_speak(first: str, easy: str, normal: str) -> None:
    """Ruling 19: easy changes on 7 or lower; normal at m = 8 keeps 6 and up, the first to speak 5 and up."""
    state = eight(BASE | {1: first})
    assert decision(EasyBot(), state) == easy
    assert decision(NormalBot(), state) == normal
    assert decision(ExpertBot(), state) == normal


def test_normal_at_eight_players_after_the_first() -> None:
    """Ruling 19: at m = 8 a later speaker keeps 6 and up, changes a 5."""
    state = played(eight(BASE | {2: "5D"}), "1:keep")
    assert decision(NormalBot(), state) == CHANGE
    state = played(eight(BASE | {2: "6D"}), "1:keep")
    assert decision(NormalBot(), state) == KEEP


def test_every_level_keeps_a_king() -> None:
    """Ruling 19: always keep a king (ruling 8: changing it away is legal, no bot does it)."""
    for bot in BOTS.values():
        assert bot.choose(view(eight(BASE | {1: "KC"}), 1), Stream("x", "y")) == Move(1, KEEP)


def test_expert_keeps_whenever_handed_a_higher_card() -> None:
    """Ruling 19, Expert: the information rule — handed a higher card, the left neighbour holds the lower: keep."""
    state = played(eight(BASE | {1: "2C", 2: "4D"}), "1:change")  # 2 is handed 2C for his 4D
    assert decision(ExpertBot(), state) == decision(NormalBot(), state) == CHANGE  # handed a lower card: the table
    state = played(eight(BASE | {1: "4C", 2: "2D"}), "1:change")  # 2 is handed 4C for his 2D
    assert view(state, 2).coup is not None
    assert decision(NormalBot(), state) == CHANGE and decision(EasyBot(), state) == CHANGE
    assert decision(ExpertBot(), state) == KEEP


def test_bots_decide_on_the_view_alone() -> None:
    """Ruling 17: a decision depends only on what the seat knows: other hidden cards changed, same view, same move."""
    one = eight(BASE | {3: "2H", 4: "AC"})
    other = eight(BASE | {3: "QH", 4: "KH"})
    assert view(one, 1) == view(other, 1)
    for bot in BOTS.values():
        assert bot_move(one, bot) == bot_move(other, bot)


def test_bot_rng_is_the_rulings_stream() -> None:
    """Ruling 17: a bot that randomises draws from stream(seed, "bot:<coup>:<seat>")."""
    mine, contract = bot_rng("daily", 3, 5), Stream("daily", "bot:3:5")
    assert [mine.next_u32() for _ in range(5)] == [contract.next_u32() for _ in range(5)]


def test_the_bots_are_named_for_records_and_expert_sits_at_the_daily_table() -> None:
    """Ruling 17: records name the bot version; the daily challenge plays Expert bots."""
    assert sorted(BOTS) == ["easy/1", "expert/1", "normal/1"] and TABLE_BOT_ID == "expert/1"


def whole_game(bot_id: str, seed: str, players: int = 8, tokens: int = 3) -> tuple[GameState, list[str]]:
    state = new_game(seed, players, tokens)
    moves = []
    while state.winner is None:
        move = bot_move(state, BOTS[bot_id])
        moves.append(str(move))
        state = play(state, move)
    return state, moves


@pytest.mark.parametrize(
    ("bot_id", "winner", "coups", "digest"),
    [
        ("easy/1", 8, 18, "01e8ba3560304c87"),
        ("normal/1", 5, 18, "b1e9a074f6439fe9"),
        ("expert/1", 2, 19, "b2194c6a79690d99"),
    ],
)
def test_whole_games_are_pinned(bot_id: str, winner: int, coups: int, digest: str) -> None:
    """Ruling 17: bots are deterministic; a change in their moves is a new bot version (these pins catch one)."""
    state, moves = whole_game(bot_id, "2026-12-01")
    assert (state.winner, len(state.finished)) == (winner, coups)
    assert hashlib.sha256(" ".join(moves).encode()).hexdigest()[:16] == digest
    assert whole_game(bot_id, "2026-12-01")[1] == moves


class Watching:
    """Expert, recording every view it is handed."""

    name = "expert"
    version = 1

    def __init__(self) -> None:
        self.views: list[CoucouView] = []

    def choose(self, seat_view: CoucouView, rng: Stream) -> Move:
        self.views.append(seat_view)
        return ExpertBot().choose(seat_view, rng)


def test_the_servers_bots_are_handed_exactly_the_seats_view() -> None:
    """The server's engine reuses the public history between decisions: each view it hands a bot is
    ``view(state, seat)``, through a whole 20-seat game played twice at once (the second refolded from the
    first's moves, so its coups are other objects of equal value)."""
    engine = GAMES["coucou"].engine
    watching = Watching()
    first = second = engine.new_game("handed", {"players": 20})
    decisions = 0
    while first.winner is None:
        for state in (first, second):
            move = engine.bot_move(state, watching)
            assert watching.views.pop() == view(state, state.to_move)
        first, second = play(first, move), engine.play(second, Move.parse(str(move)))
        decisions += 1
    assert second == first and len(first.finished) > 30 and decisions > 400
