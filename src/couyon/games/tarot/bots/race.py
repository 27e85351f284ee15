"""The card race's cut: which cards stay in the race after each deal played out (``ExpertTarotBot.card_search``).

Compiled with the search (scripts/compile.py): the test runs after every deal once the race has its first deals,
over all the deals so far, so the interpreted version of it cost about a tenth of a compiled expert/5 decision.
Its sums are of lists, so they call the builtin ``sum`` as the interpreted code did (docs/performance.md, "What the
compiled code must keep"): the same cards are kept, compiled or not.
"""

from __future__ import annotations

import math


def survivors(active: list[int], values: dict[int, list[float]], worlds: int, z: float) -> list[int]:
    """The cards not clearly worse than the leader, paired world by world over the last ``worlds`` deals.

    The leader is the first card of the highest total; another card leaves the race when the leader's mean lead
    over it is positive and more than ``z`` standard errors.
    """
    recent = {card: values[card][-worlds:] for card in active}
    leader = active[0]
    best = sum(recent[leader])
    for card in active[1:]:
        total = sum(recent[card])
        if total > best:
            leader, best = card, total
    top = recent[leader]
    kept = [leader]
    for card in active:
        if card == leader:
            continue
        other = recent[card]
        if len(other) != len(top):
            raise ValueError("every card in the race is played out in the same deals")
        differences = [top[i] - other[i] for i in range(len(top))]
        mean = sum(differences) / worlds
        spread = sum([(d - mean) ** 2 for d in differences]) / (worlds - 1)
        if mean > z * math.sqrt(spread / worlds) and mean > 0:
            continue
        kept.append(card)
    return kept
