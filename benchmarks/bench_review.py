"""Cost of building the review of a whole finished game (``couyon.games.couyon.review``), not run by pytest.

Usage: ``python benchmarks/bench_review.py [GAMES] [--game couyon|malmedy|coucou|tarot …] [--players N] [--tokens T]``.
Plays GAMES games (default 40) of couyon (or of couyon de Malmedy: ``couyon.games.malmedy.review``) as
the server hosts them (the game's table expert in W, N and E) with South played by that expert in
even games and by random legal moves in odd ones, then builds each game's review with every hand
revealed and hidden, and prints the deals, the JSON's size and the CPU time of one review (median,
p99, maximum), in ms of this process's CPU. ``--game coucou`` does the same with coucou
(``couyon.games.coucou.review``) at a table of ``--players`` (default 8) with ``--tokens`` each (default
3): the expert at every other seat, seat 1 the expert or random; its "deals" are the coups seat 1
played. ``--game tarot`` plays tarot at ``--players`` (default 4) as its tables do (the table expert at every
seat, South the expert or random) and builds ``couyon.games.tarot.review``'s review. Several games after
``--game`` (and several counts after ``--players``) are measured one after the other in the same run, so their
times compare on a busy machine.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from couyon.common.stream import Stream
from couyon.games.coucou import bots as coucou_bots
from couyon.games.coucou import game as coucou_game
from couyon.games.coucou.review import coucou_review
from couyon.games.couyon.bots import bot_move
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.cards import Seat
from couyon.games.couyon.game import legal_moves, new_game, play
from couyon.games.couyon.review import review
from couyon.games.couyon.rules import STANDARD, Variant
from couyon.games.malmedy.bots.expert import MalmedyExpertBot
from couyon.games.malmedy.game import MALMEDY
from couyon.games.malmedy.review import malmedy_review
from couyon.games.tarot import game as tarot_game
from couyon.games.tarot.bots import bot_move as tarot_bot_move
from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
from couyon.games.tarot.cards import Seat as TarotSeat
from couyon.games.tarot.review import tarot_review

Review = Callable[[str, Sequence[str], bool], dict[str, Any]]
GAMES: dict[str, tuple[Variant, Any, Review]] = {
    "couyon": (STANDARD, ExpertBot(), review),
    "malmedy": (MALMEDY, MalmedyExpertBot(), malmedy_review),
}


def finished_game(game: str, seed: str, random_south: bool) -> list[str]:
    variant, expert, _ = GAMES[game]
    state = new_game(seed, variant)
    rng = Stream(seed, "bench-south")
    moves = []
    while state.winner is None:
        if state.to_move == Seat.S and random_south:
            legal = legal_moves(state)
            move = legal[rng.uniform(len(legal))]
        else:
            move = bot_move(state, expert)
        moves.append(str(move))
        state = play(state, move)
    return moves


def coucou_moves(seed: str, random_seat_one: bool, players: int, tokens: int) -> list[str]:
    """A finished coucou game: the expert at every seat, seat 1 at random when ``random_seat_one``."""
    state = coucou_game.new_game(seed, players, tokens)
    rng = Stream(seed, "bench-seat-one")
    expert = coucou_bots.ExpertBot()
    moves = []
    while state.winner is None:
        if state.to_move == 1 and random_seat_one:
            legal = coucou_game.legal_moves(state)
            move = legal[rng.uniform(len(legal))]
        else:
            move = coucou_bots.bot_move(state, expert)
        moves.append(str(move))
        state = coucou_game.play(state, move)
    return moves


def tarot_moves(seed: str, random_south: bool, players: int) -> list[str]:
    """A finished tarot game: the table's expert at every seat, South at random when ``random_south``."""
    state = tarot_game.new_game(seed, players)
    rng = Stream(seed, "bench-south")
    expert = TAROT_BOTS_BY_ID[TAROT_TABLE_BOT_ID]
    moves = []
    while not state.over:
        if tarot_game.to_move(state) == TarotSeat.S and random_south:
            legal = [move for move in tarot_game.legal_moves(state) if move.seat == TarotSeat.S]
            move = legal[rng.uniform(len(legal))]
        else:
            move = tarot_bot_move(state, expert)
        moves.append(str(move))
        state = tarot_game.play(state, move)
    return moves


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))]


def main(games: int, game: str, players: int | None, tokens: int) -> None:
    if game == "coucou":
        players = players or coucou_game.DEFAULT_PLAYERS
        print(f"coucou: {players} players, {tokens} tokens each")
    if game == "tarot":
        players = players or 4
        print(f"tarot: {players} players")
    table = {"players": players, "tokens": tokens}
    for revealed in (True, False):
        times: list[float] = []
        deals: list[int] = []
        sizes: list[int] = []
        for number in range(games):
            seed = f"bench-review-{number}"
            if game == "coucou":
                assert players is not None
                moves = coucou_moves(seed, number % 2 == 1, players, tokens)
                started = time.process_time()
                built = coucou_review(seed, moves, revealed, table, "expert/1")
                times.append((time.process_time() - started) * 1000)
                deals.append(len(built["coups"]))
            elif game == "tarot":
                assert players is not None
                moves = tarot_moves(seed, number % 2 == 1, players)
                started = time.process_time()
                built = tarot_review(players, seed, moves, revealed)
                times.append((time.process_time() - started) * 1000)
                deals.append(len(built["deals"]))
            else:
                moves = finished_game(game, seed, random_south=number % 2 == 1)
                started = time.process_time()
                built = GAMES[game][2](seed, moves, revealed)
                times.append((time.process_time() - started) * 1000)
                deals.append(len(built["deals"]))
            sizes.append(len(json.dumps(built, separators=(",", ":"))))
        times.sort()
        print(
            f"{game} revealed={revealed}: {games} games, {min(deals)}-{max(deals)} deals, "
            f"JSON {min(sizes)}-{max(sizes)} bytes; review CPU ms median {percentile(times, 0.5):.0f}, "
            f"p99 {percentile(times, 0.99):.0f}, max {times[-1]:.0f}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=40)
    parser.add_argument("--game", nargs="+", choices=[*sorted(GAMES), "coucou", "tarot"], default=["couyon"])
    parser.add_argument("--players", type=int, nargs="+", help="coucou (default 8) and tarot (default 4) only")
    parser.add_argument("--tokens", type=int, default=coucou_game.DEFAULT_TOKENS, help="coucou only")
    arguments = parser.parse_args()
    for game in arguments.game:
        counts = arguments.players if game in ("coucou", "tarot") and arguments.players else [None]
        for players in counts:
            main(arguments.games, game, players, arguments.tokens)
