"""How much a take is worth: hand features and the table of outcomes measured offline.

A four-card hand is summed up by what decides the play (product text, "Des astuces"):
which of the trumps still in play it holds, counted from the top (turned proposals
are in no hand, ruling 9, so a king is master when the ace was turned), and how many
masters and second-best cards it holds in the other suits. The shipped table
``data/bidding.json`` gives, per feature key, how often the taker's team made, tied or
failed over simulated deals solved exactly; ``python -m couyon.bots.bidding N`` rebuilds it.
"""

from __future__ import annotations

import json
import math
import sys
from functools import cache
from importlib import resources
from typing import NamedTuple

from couyon.bots.objective import NEUTRAL, OutcomeUtilities
from couyon.bots.solver import outcome_classes
from couyon.cards import RANKS_PER_SUIT, SUIT_MASKS
from couyon.stream import Stream

_SMOOTHING = 20.0
"""Pseudo-counts borrowed from the coarser key when a key was seen in few simulated deals."""


def top_down(mask: int) -> list[int]:
    """The cards of ``mask``, strongest index first."""
    cards = []
    while mask:
        card = mask.bit_length() - 1
        cards.append(card)
        mask ^= 1 << card
    return cards


def hand_key(hand: int, proposal: int, out: int) -> int:
    """The feature key of ``hand`` taking ``proposal`` as trump, knowing the cards ``out`` of every hand."""
    trump = proposal // RANKS_PER_SUIT
    pattern = 0
    for index, card in enumerate(top_down(SUIT_MASKS[trump] & ~out)):
        if hand >> card & 1:
            pattern |= 1 << index
    masters = 0
    seconds = 0
    for suit in range(4):
        if suit == trump:
            continue
        available = top_down(SUIT_MASKS[suit] & ~out)
        if available and hand >> available[0] & 1:
            masters += 1
        if len(available) > 1 and hand >> available[1] & 1:
            seconds += 1
    return pattern << 4 | masters << 2 | seconds


def _coarse_key(key: int) -> int:
    """Trump count, whether the master trump is held, and the side masters."""
    pattern = key >> 4
    return pattern.bit_count() << 3 | (pattern & 1) << 2 | (key >> 2 & 3)


class OutcomeOdds(NamedTuple):
    """Probabilities that the taker's team makes, ties or fails."""

    made: float
    tie: float
    failed: float

    def expected(self, utilities: OutcomeUtilities) -> float:
        return self.made * utilities.made + self.tie * utilities.tie + self.failed * utilities.failed


@cache
def _odds_table() -> dict[int, OutcomeOdds]:
    text = resources.files("couyon.data").joinpath("bidding.json").read_text(encoding="utf-8")
    counts = {int(key): value for key, value in json.loads(text)["counts"].items()}
    coarse: dict[int, list[int]] = {}
    for key, (made, tie, failed) in counts.items():
        totals = coarse.setdefault(_coarse_key(key), [0, 0, 0])
        totals[0] += made
        totals[1] += tie
        totals[2] += failed
    overall = [sum(c[i] for c in counts.values()) for i in range(3)]
    table = {}
    for key in range(1 << 9):
        parent = coarse.get(_coarse_key(key), overall)
        parent_total = sum(parent)
        prior = [(parent[i] + 1) / (parent_total + 3) for i in range(3)]
        own = counts.get(key, [0, 0, 0])
        total = sum(own) + _SMOOTHING
        table[key] = OutcomeOdds(*((own[i] + _SMOOTHING * prior[i]) / total for i in range(3)))
    return table


def take_odds(hand: int, proposal: int, out: int) -> OutcomeOdds:
    """The measured odds of a take with ``hand`` on ``proposal``, the cards ``out`` being in no hand."""
    return _odds_table()[hand_key(hand, proposal, out)]


def take_probability(hand: int, proposal: int, out: int, threshold: float) -> float:
    """How likely a sensible player with ``hand`` takes: a soft step at ``threshold`` of the neutral expected lines."""
    margin = take_odds(hand, proposal, out).expected(NEUTRAL) - threshold
    return 1.0 / (1.0 + math.exp(-margin / 0.25))


def simulate_counts(deals: int, seed: str = "bidding-table") -> dict[int, list[int]]:
    """Made/tie/failed counts per key over ``deals`` random deals, each seat taking the first proposal in turn."""
    stream = Stream(seed, "deals")
    counts: dict[int, list[int]] = {}
    for _ in range(deals):
        deck = list(range(24))
        stream.shuffle(deck)
        hands = [0, 0, 0, 0]
        for seat in range(4):
            for card in deck[4 * seat : 4 * seat + 4]:
                hands[seat] |= 1 << card
        proposal = deck[16]
        trump = proposal // RANKS_PER_SUIT
        for taker in range(4):
            classes = outcome_classes(hands, trump, taker, (), 0)
            sign = max(classes.values()) if taker % 2 == 0 else min(classes.values())
            taker_sign = sign if taker % 2 == 0 else -sign
            entry = counts.setdefault(hand_key(hands[taker], proposal, 1 << proposal), [0, 0, 0])
            entry[0 if taker_sign > 0 else 1 if taker_sign == 0 else 2] += 1
    return counts


def main(argv: list[str]) -> int:
    deals = int(argv[0]) if argv else 50000
    counts = simulate_counts(deals)
    data = {"deals": deals, "counts": {str(key): counts[key] for key in sorted(counts)}}
    print(json.dumps(data, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
