"""Random legal play for tests and benchmarks, driven by the contract's stream (never ``random``)."""

from __future__ import annotations

from couyon.game import PASS, TAKE, GameState, Move, legal_moves, new_game, play
from couyon.stream import Stream

TAKE_ONE_IN = 6
"""During bidding a random player takes one time in six, so that some deals see all eight proposals refused."""


def random_moves(seed: str, chooser: Stream, max_moves: int = 100_000) -> tuple[GameState, list[Move]]:
    """Play a whole game from ``seed`` with uniformly random legal cards; the final state and the moves."""
    state = new_game(seed)
    moves: list[Move] = []
    while state.to_move is not None and len(moves) < max_moves:
        options = legal_moves(state)
        if options[0].action in (TAKE, PASS):
            move = options[0] if chooser.uniform(TAKE_ONE_IN) == 0 else options[1]
        else:
            move = options[chooser.uniform(len(options))]
        moves.append(move)
        state = play(state, move)
    return state, moves


def random_record_moves(number: int, label: str = "records") -> tuple[str, list[str]]:
    """The seed and move texts of random game ``number`` of a reproducible series."""
    seed = f"{label}-{number}"
    _, moves = random_moves(seed, Stream(seed, "random-play"))
    return seed, [str(move) for move in moves]
