"""Perft counts of the play phase, by brute force on the reference rules (no ``couyon`` import).

For each seed, deal 1 is dealt as the contract says, the dealer's left takes the first
proposal, and every legal card sequence of the four tricks is enumerated one by one (no
memoisation, no shortcut). ``python -m reference.perft`` (from tests/) rewrites
tests/data/perft.json; the engine's own count is then checked against that file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from reference.contract import SEATS, ContractStream, allowed, dealt_deck, left_of, suit_of, winning_index

PERFT_SEEDS = [f"perft-{number}" for number in range(10)] + ["", "Malmedy ♠ 1923"]
DEPTHS = (1, 2, 4, 8, 12, 16)
DATA_FILE = Path(__file__).resolve().parent.parent / "data" / "perft.json"


def first_deal(seed: str) -> tuple[dict[str, list[str]], str, str]:
    """The four hands of deal 1, the trump of its first proposal and the first leader (the taker)."""
    dealer = SEATS[ContractStream(seed, "dealer").uniform(4)]
    deck = dealt_deck(seed, 1)
    hands: dict[str, list[str]] = {seat: [] for seat in SEATS}
    seat = left_of(dealer)
    for start in range(0, 16, 2):
        hands[seat] += deck[start : start + 2]
        seat = left_of(seat)
    return hands, suit_of(deck[16]), left_of(dealer)


def count(hands: dict[str, list[str]], trump: str, leader: str, table: list[str], depth: int) -> int:
    """Legal card sequences of length ``depth`` from this position, enumerated one by one."""
    if depth == 0:
        return 1
    seat = leader
    for _ in table:
        seat = left_of(seat)
    total = 0
    for card in allowed(hands[seat], table, trump):
        hands[seat].remove(card)
        played = [*table, card]
        if len(played) == 4:
            winner = leader
            for _ in range(winning_index(played, trump)):
                winner = left_of(winner)
            total += count(hands, trump, winner, [], depth - 1)
        else:
            total += count(hands, trump, leader, played, depth - 1)
        hands[seat].append(card)
    return total


def perft(seed: str) -> dict[str, int]:
    hands, trump, leader = first_deal(seed)
    return {str(depth): count(hands, trump, leader, [], depth) for depth in DEPTHS}


def main() -> None:
    table = {seed: perft(seed) for seed in PERFT_SEEDS}
    DATA_FILE.write_text(json.dumps(table, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    for seed, counts in table.items():
        print(f"{seed!r}: {counts}", file=sys.stderr)


if __name__ == "__main__":
    main()
