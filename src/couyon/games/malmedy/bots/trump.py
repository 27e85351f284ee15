"""The Malmedy trump choice, measured by simulation: for each first three cards, how each trump turns out.

The chooser names trump after seeing three cards (ruling 2 and 3). For every one of
the 2,024 possible first three cards and every suit, ``TABLE`` holds how often the
choosing team made the deal (with or without capot) or failed it (with or without
the other team capot) over ``WORLDS`` deals of the 21 other cards, each solved exactly
with every hand known (``malmedy_solver``, no mite, the chooser leading), the same
deals for the four suits. Choosing is then a lookup: the suit whose outcome counts are
worth most in lines at the current chalk (``malmedy_objective``). The same lookup
tells the other seats how likely each hand of the chooser is, given the trump he named.

Rebuild ``malmedy_trump_table.py`` with
``python -m couyon.games.malmedy.bots.trump build [WORLDS] [WORKERS] > src/couyon/games/malmedy/bots/trump_table.py``
(deterministic: the deals come from ``Stream("malmedy-trump:<hand>", "worlds")``).
"""

from __future__ import annotations

import multiprocessing
import sys
from functools import cache, lru_cache
from math import comb

from couyon.common.stream import Stream
from couyon.games.couyon.cards import DECK_SIZE, RANKS_PER_SUIT
from couyon.games.malmedy.bots.objective import outcome_values
from couyon.games.malmedy.bots.solver import Position, position_outcome

HANDS = comb(DECK_SIZE, 3)
_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz+/"
"""One character per count (0–63) in the table's text."""
_CLASSES = 4


def hand_index(cards: int) -> int:
    """The combinatorial index (0 … 2,023) of a mask of three cards."""
    index = 0
    position = 1
    mask = cards
    while mask:
        low = mask & -mask
        index += comb(low.bit_length() - 1, position)
        position += 1
        mask ^= low
    return index


def _hand_of_index(index: int) -> int:
    """The mask of three cards with this combinatorial index."""
    cards = 0
    for position in (3, 2, 1):
        card = position - 1
        while comb(card + 1, position) <= index:
            card += 1
        index -= comb(card, position)
        cards |= 1 << card
    return cards


@cache
def table() -> tuple[int, tuple[tuple[int, ...], ...]]:
    """The solved deals per hand, and ``rows[hand_index][4 * suit + outcome]``: how many had that outcome."""
    from couyon.games.malmedy.bots.trump_table import TABLE_TEXT, WORLDS

    values = [_ALPHABET.index(char) for char in TABLE_TEXT]
    rows = tuple(tuple(values[i : i + 4 * _CLASSES]) for i in range(0, len(values), 4 * _CLASSES))
    assert len(rows) == HANDS
    return WORLDS, rows


def suit_values(first_three: int, lines: tuple[int, int], chooser_team: int) -> tuple[float, float, float, float]:
    """Expected lines (other team's minus own, for the choosing team) of naming each suit with these three cards."""
    worlds, rows = table()
    row = rows[hand_index(first_three)]
    values = outcome_values(lines, 1, chooser_team, chooser_team)
    return (
        sum([row[outcome] * values[outcome] for outcome in range(_CLASSES)]) / worlds,
        sum([row[_CLASSES + outcome] * values[outcome] for outcome in range(_CLASSES)]) / worlds,
        sum([row[2 * _CLASSES + outcome] * values[outcome] for outcome in range(_CLASSES)]) / worlds,
        sum([row[3 * _CLASSES + outcome] * values[outcome] for outcome in range(_CLASSES)]) / worlds,
    )


def best_suit(first_three: int, lines: tuple[int, int], chooser_team: int) -> int:
    """The suit worth most (the lowest suit on a tie)."""
    return _best_suit(hand_index(first_three), lines, chooser_team)


@lru_cache(maxsize=1 << 15)
def _best_suit(index: int, lines: tuple[int, int], chooser_team: int) -> int:
    values = suit_values(_hand_of_index(index), lines, chooser_team)
    return max(range(4), key=lambda suit: (values[suit], -suit))


@cache
def neutral_choices() -> tuple[int, ...]:
    """By hand index, the suit named at 13 lines all (the other seats' model of any chooser)."""
    return tuple(_best_suit(index, (13, 13), 0) for index in range(HANDS))


# --- building the table


def _swap_red(cards: int) -> int:
    """Diamonds and hearts exchanged: neither holds a special queen, so their tables mirror each other."""
    clubs = cards & ((1 << RANKS_PER_SUIT) - 1)
    diamonds = cards >> RANKS_PER_SUIT & ((1 << RANKS_PER_SUIT) - 1)
    hearts = cards >> 2 * RANKS_PER_SUIT & ((1 << RANKS_PER_SUIT) - 1)
    spades = cards >> 3 * RANKS_PER_SUIT
    return clubs | hearts << RANKS_PER_SUIT | diamonds << 2 * RANKS_PER_SUIT | spades << 3 * RANKS_PER_SUIT


def measure(task: tuple[int, int]) -> tuple[int, ...]:
    """Outcome counts per suit for the hand of index ``task[0]`` over ``task[1]`` solved deals."""
    index, worlds = task
    first = _hand_of_index(index)
    rest = [card for card in range(DECK_SIZE) if not first >> card & 1]
    rng = Stream(f"malmedy-trump:{index}", "worlds")
    counts = [0] * (4 * _CLASSES)
    for _ in range(worlds):
        deck = list(rest)
        rng.shuffle(deck)
        hands = [first | 1 << deck[0] | 1 << deck[1], 0, 0, 0]
        for seat in (1, 2, 3):
            for card in deck[2 + 5 * (seat - 1) : 7 + 5 * (seat - 1)]:
                hands[seat] |= 1 << card
        for suit in range(4):
            position = Position((hands[0], hands[1], hands[2], hands[3]), suit, False, 0, (), 0, 3)
            counts[_CLASSES * suit + position_outcome(position, 0)] += 1
    return tuple(counts)


def build(worlds: int, workers: int) -> str:
    """The text of ``malmedy_trump_table.py``."""
    if not 1 <= worlds < len(_ALPHABET):
        raise ValueError(f"worlds must be in 1 … {len(_ALPHABET) - 1}")
    canonical = sorted({min(index, hand_index(_swap_red(_hand_of_index(index)))) for index in range(HANDS)})
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        measured = dict(
            zip(canonical, pool.map(measure, [(index, worlds) for index in canonical], chunksize=8), strict=True)
        )
    rows = []
    for index in range(HANDS):
        if index in measured:
            rows.append(measured[index])
            continue
        mirrored = measured[hand_index(_swap_red(_hand_of_index(index)))]
        suits = [mirrored[_CLASSES * suit : _CLASSES * suit + _CLASSES] for suit in range(4)]
        rows.append((*suits[0], *suits[2], *suits[1], *suits[3]))
    text = "".join(_ALPHABET[count] for row in rows for count in row)
    width = 96
    chunks = "\n".join(f'    "{text[i : i + width]}"' for i in range(0, len(text), width))
    return (
        '"""Generated by ``python -m couyon.games.malmedy.bots.trump build`` (see ``malmedy_trump``): do not edit."""\n\n'
        f"WORLDS = {worlds}\n"
        f"TABLE_TEXT = (\n{chunks}\n)\n"
    )


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] != "build":
        print("usage: python -m couyon.games.malmedy.bots.trump build [WORLDS] [WORKERS]", file=sys.stderr)
        sys.exit(2)
    sys.stdout.write(build(int(sys.argv[2]) if len(sys.argv) > 2 else 40, int(sys.argv[3]) if len(sys.argv) > 3 else 2))
