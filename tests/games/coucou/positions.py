"""Coucou positions set by hand: a coup whose cards and stock are written out, as the contract's examples give them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from couyon.games.coucou.cards import Card
from couyon.games.coucou.game import COUCOU, Coup, GameState, Move, Variant, circle, play


def hand_set(
    players: int,
    order: Iterable[int],
    before: Mapping[int, str],
    stock: str,
    tokens: Mapping[int, int] | int = 3,
    discards: tuple[str, str] = ("AC", "AD"),
    seed: str = "hand-set",
    number: int = 1,
    variant: Variant = COUCOU,
) -> GameState:
    """A game at the start of coup ``number``: ``order`` is c0 … c(m-1) (the dealer last), ``before`` each seat's card.

    Seats outside ``order`` are out (0 tokens); the others have ``tokens`` (one count for all, or by seat).
    The dealt cards are those written here, not the seed's shuffle; later coups are dealt from ``seed``.
    As qui court (``variant``) the dealer has no discards.
    """
    order = tuple(order)
    counts = tokens if isinstance(tokens, Mapping) else dict.fromkeys(order, tokens)
    by_seat = tuple(counts.get(seat, 0) if seat in order else 0 for seat in range(1, players + 1))
    assert order == circle(order[-1], by_seat), f"{order} is not the circle of dealer {order[-1]}"
    cards = tuple(Card.parse(before[seat]) for seat in order)
    coup = Coup(
        number,
        order[-1],
        order,
        cards,
        (Card.parse(discards[0]), Card.parse(discards[1])) if variant is COUCOU else (),
        Card.parse(stock),
        cards,
        (),
        None,
        None,
        None,
        None,
        variant,
    )
    starting = max(by_seat)
    return GameState(seed, players, starting, by_seat, (), coup, (), None, 0, variant)


def played(state: GameState, moves: str) -> GameState:
    """``state`` after the moves written ``"3:change 4:keep …"``."""
    for text in moves.split():
        state = play(state, Move.parse(text))
    return state
