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
from functools import cache, lru_cache
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


class KeyReader:
    """Reads the feature key of any hand for one proposal and one set of cards known out, with precomputed masks."""

    __slots__ = ("_masters", "_patterns", "_seconds", "_shift")

    def __init__(self, proposal: int, out: int) -> None:
        trump = proposal // RANKS_PER_SUIT
        self._shift = trump * RANKS_PER_SUIT
        available = top_down(SUIT_MASKS[trump] & ~out)
        patterns = []
        for holding in range(1 << RANKS_PER_SUIT):
            held = holding << self._shift
            patterns.append(sum(1 << index for index, card in enumerate(available) if held >> card & 1))
        self._patterns = tuple(patterns)
        masters = 0
        seconds = 0
        for suit in range(4):
            side = top_down(SUIT_MASKS[suit] & ~out)
            if suit == trump:
                continue
            if side:
                masters |= 1 << side[0]
            if len(side) > 1:
                seconds |= 1 << side[1]
        self._masters = masters
        self._seconds = seconds

    def key(self, hand: int) -> int:
        """Trump pattern from the top, side masters and side second-best cards of ``hand``, packed in an int."""
        pattern = self._patterns[hand >> self._shift & 63]
        return pattern << 4 | (hand & self._masters).bit_count() << 2 | (hand & self._seconds).bit_count()


@lru_cache(maxsize=4096)
def key_reader(proposal: int, out: int) -> KeyReader:
    """The (shared) reader of feature keys for ``proposal`` with the cards ``out`` of every hand."""
    return KeyReader(proposal, out)


def hand_key(hand: int, proposal: int, out: int) -> int:
    """The feature key of ``hand`` taking ``proposal`` as trump, knowing the cards ``out`` of every hand."""
    return key_reader(proposal, out).key(hand)


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


def odds_of_key(key: int) -> OutcomeOdds:
    """The measured odds of a take for a feature key."""
    return _odds_table()[key]


def take_probability(odds: OutcomeOdds, threshold: float) -> float:
    """How likely a sensible player takes with these odds: a soft step at ``threshold`` of the neutral expected lines."""
    margin = odds.expected(NEUTRAL) - threshold
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


def _played_outcome(seed: str) -> tuple[int, int]:
    """Deal 1 of ``seed`` with its first speaker taking the first proposal, played out by experts: key and outcome."""
    from couyon.bots import bot_move
    from couyon.bots.expert import ExpertBot
    from couyon.game import TAKE, Move, new_game, play

    state = new_game(seed)
    deal = state.deal
    taker = state.to_move
    assert taker is not None
    key = hand_key(deal.hands[taker], deal.proposal, 1 << deal.proposal)
    state = play(state, Move(taker, TAKE))
    expert = ExpertBot()
    while not state.finished_deals:
        state = play(state, bot_move(state, expert))
    outcome = state.finished_deals[0].outcome
    assert outcome is not None
    return key, ("made", "tie", "failed").index(outcome.value)


def simulate_played_counts(deals: int, workers: int, seed: str = "bidding-play") -> dict[int, list[int]]:
    """Made/tie/failed counts per key over ``deals`` deals played out by the expert (imperfect information)."""
    import multiprocessing

    counts: dict[int, list[int]] = {}
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for key, outcome in pool.imap_unordered(_played_outcome, (f"{seed}:{i}" for i in range(deals)), chunksize=64):
            counts.setdefault(key, [0, 0, 0])[outcome] += 1
    return counts


def main(argv: list[str]) -> int:
    """Print a new table: ``played DEALS WORKERS`` (the shipped method) or ``solved DEALS`` (double dummy)."""
    method, deals = argv[0], int(argv[1])
    counts = simulate_played_counts(deals, int(argv[2])) if method == "played" else simulate_counts(deals)
    data = {"method": method, "deals": deals, "counts": {str(key): counts[key] for key in sorted(counts)}}
    print(json.dumps(data, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
