"""Perft counts of the Malmedy play phase, by brute force on the reference rules (no ``couyon`` import).

For each seed, deal 1 is dealt as malmedy.md says and the chooser names the suit of his
first card as trump; from there every legal sequence of moves (cards and the mite,
contra, recontra and pass announcements, each one move) is enumerated one by one (no
memoisation, no shortcut). The depths stay inside deal 1 (its 20 cards, at most 3 announcements). ``python -m reference.malmedy_perft`` (from tests/) rewrites
tests/data/perft_malmedy.json; the engine's own count is then checked against that file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reference.contract import SEATS, ContractStream, dealt_deck, left_of, suit_of
from reference.malmedy_contract import allowed, deal_hands, winning_index

PERFT_SEEDS = [f"malmedy-perft-{number}" for number in range(10)] + ["", "Malmedy ♠ 1923"]
DEPTHS = (1, 2, 4, 8)
"""Depth 12 (12.7 million sequences over the twelve seeds) took 36 s here alone, depth 10 about 4 s: both dropped."""
DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "perft_malmedy.json"


def first_deal(seed: str) -> tuple[dict[str, list[str]], str, str]:
    """The four hands of deal 1, the trump (the suit of the chooser's first card) and the chooser."""
    dealer = SEATS[ContractStream(seed, "dealer").uniform(4)]
    deck = dealt_deck(seed, 1)
    return deal_hands(deck, dealer), suit_of(deck[0]), left_of(dealer)


def trump_move(seed: str) -> str:
    """The one move that reaches the perft position from the start of the record."""
    _, trump, chooser = first_deal(seed)
    return f"{chooser}:trump-{trump}"


def count(
    hands: dict[str, list[str]],
    trump: str,
    mite: str | None,
    asking: str | None,
    leader: str,
    table: list[str],
    depth: int,
) -> int:
    """Legal move sequences of length ``depth`` from this position, enumerated one by one.

    ``mite`` is the announcer's seat or None; ``asking`` is "contra" while the announcer's
    left must answer, "recontra" while the announcer must, else None.
    """
    if depth == 0:
        return 1
    total = 0
    if asking == "contra":
        for answer in ("contra", "pass"):
            total += count(hands, trump, mite, "recontra" if answer == "contra" else None, leader, table, depth - 1)
        return total
    if asking == "recontra":
        for _answer in ("recontra", "pass"):
            total += count(hands, trump, mite, None, leader, table, depth - 1)
        return total
    seat = leader
    for _ in table:
        seat = left_of(seat)
    if mite is None and "QS" in hands[seat] and len(hands[seat]) == 5:
        total += count(hands, trump, seat, "contra", leader, table, depth - 1)
    for card in allowed(hands[seat], table, trump, mite is not None):
        hands[seat].remove(card)
        played = [*table, card]
        if len(played) == 4:
            winner = leader
            for _ in range(winning_index(played, trump, mite is not None)):
                winner = left_of(winner)
            total += count(hands, trump, mite, None, winner, [], depth - 1)
        else:
            total += count(hands, trump, mite, None, leader, played, depth - 1)
        hands[seat].append(card)
    return total


def perft(seed: str) -> dict[str, int]:
    hands, trump, chooser = first_deal(seed)
    return {str(depth): count(hands, trump, None, None, chooser, [], depth) for depth in DEPTHS}


def main() -> None:
    table = {seed: perft(seed) for seed in PERFT_SEEDS}
    DATA_FILE.write_text(json.dumps(table, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    for seed, counts in table.items():
        print(f"{seed!r}: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
