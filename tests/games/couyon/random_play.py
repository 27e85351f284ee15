"""Random legal play for tests and benchmarks, driven by the contract's stream (never ``random``)."""

from __future__ import annotations

from typing import Any

from couyon.common.stream import Stream
from couyon.games.couyon.cards import CARD_CODES
from couyon.games.couyon.game import PASS, TAKE, GameState, Move, legal_moves, new_game, play
from couyon.registry import GAMES

ALL_MOVE_TEXTS = [f"{seat}:{action}" for seat in "SWNE" for action in ("take", "pass", *CARD_CODES)]
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


def mutated(moves: list[str], chooser: Stream) -> list[Any]:
    """``moves`` with one random corruption: a replaced, dropped, repeated, swapped, appended or junk move."""
    changed: list[Any] = list(moves)
    where = chooser.uniform(len(changed) + 1)
    kind = chooser.uniform(8)
    if kind == 0 and where < len(changed):
        changed[where] = chooser.choice(ALL_MOVE_TEXTS)
    elif kind == 1 and where < len(changed):
        del changed[where]
    elif kind == 2 and where < len(changed):
        changed.insert(where, changed[where])
    elif kind == 3 and where + 1 < len(changed):
        changed[where], changed[where + 1] = changed[where + 1], changed[where]
    elif kind == 4 and where < len(changed):
        changed[where] = chooser.choice(["S:", ":AH", "S:AH:", "X:pass", "s:pass", "S:1H", "S: pass", "", "S:ah"])
    elif kind == 5 and where < len(changed):
        changed[where] = chooser.choice([None, 7, 1.5, True, ["S:pass"], {"S": "pass"}])
    elif kind == 6 and where < len(changed):
        changed[where] = "SWNE"[chooser.uniform(4)] + changed[where][1:]
    else:
        changed.append(chooser.choice(ALL_MOVE_TEXTS))
    return changed


def play_out(kind_id: str, seed: str, options: dict[str, int | str]) -> tuple[Any, Any, list[str]]:
    """A game of one deal of ``kind_id`` played to its end by the table's legal moves in a seeded order, and the
    normal game (the same options but ``deals``) after the same moves."""
    kind = GAMES[kind_id]
    engine = kind.engine
    one = engine.new_game(seed, kind.parse_options(options, one_deal=True))
    chooser = Stream(seed, "test moves")
    moves: list[str] = []
    while not engine.is_over(one):
        legal = engine.legal_moves(one)
        move = legal[chooser.uniform(len(legal))]
        one = engine.play(one, move)
        moves.append(str(move))
    whole = engine.new_game(seed, kind.parse_options(options))
    for text in moves:
        whole = engine.play(whole, engine.parse_move(text, options))
    return one, whole, moves
