"""How much a take is worth: hand features and the table of outcomes measured offline.

A four-card hand is summed up by what decides the play (product text, "Des astuces"):
which of the trumps still in play it holds, counted from the top (turned proposals
are in no hand, ruling 9, so a king is master when the ace was turned), and how many
masters and second-best cards it holds in the other suits. The shipped table
``data/bidding.json`` gives, per feature key, how often the taker's team made, tied or
failed over simulated deals played out by the expert itself (imperfect information:
double-dummy solving proved some 15 points too optimistic on made), first over all
takes, then per speaking position after the passes the expert's policy makes.
``python -m couyon.games.couyon.bots.bidding first N W`` then ``… explore TABLE N W`` rebuilds it.
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable
from functools import cache, lru_cache
from importlib import resources
from typing import NamedTuple

from couyon.common.cardsets import top_down
from couyon.common.stream import Stream
from couyon.games.couyon.bots.objective import NEUTRAL, OutcomeUtilities
from couyon.games.couyon.cards import RANKS_PER_SUIT, SUIT_MASKS

_SMOOTHING = 20.0
"""Pseudo-counts borrowed from the coarser key when a key was seen in few simulated deals."""


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


def _smoothed(counts: dict[int, list[int]], prior_of: dict[int, OutcomeOdds]) -> dict[int, OutcomeOdds]:
    """Each key's observed frequencies, pulled toward its prior by ``_SMOOTHING`` pseudo-counts."""
    table = {}
    for key, prior in prior_of.items():
        own = counts.get(key, [0, 0, 0])
        total = sum(own) + _SMOOTHING
        table[key] = OutcomeOdds(*((own[i] + _SMOOTHING * prior[i]) / total for i in range(3)))
    return table


@cache
def _odds_tables() -> tuple[dict[int, OutcomeOdds], ...]:
    """Per speaking position, the odds of every key: position counts, backed by all takes, backed by coarser keys."""
    text = resources.files("couyon.games.couyon.bots").joinpath("bidding.json").read_text(encoding="utf-8")
    data = json.loads(text)
    counts = {int(key): value for key, value in data["counts"].items()}
    coarse: dict[int, list[int]] = {}
    for key, (made, tie, failed) in counts.items():
        totals = coarse.setdefault(_coarse_key(key), [0, 0, 0])
        totals[0] += made
        totals[1] += tie
        totals[2] += failed
    overall = [sum(c[i] for c in counts.values()) for i in range(3)]
    coarse_odds = {}
    for key in range(1 << 9):
        parent = coarse.get(_coarse_key(key), overall)
        coarse_odds[key] = OutcomeOdds(*((parent[i] + 1) / (sum(parent) + 3) for i in range(3)))
    unconditional = _smoothed(counts, coarse_odds)
    return tuple(
        _smoothed({int(key): value for key, value in by_position.items()}, unconditional)
        for by_position in data["by_position"]
    )


def take_odds(hand: int, proposal: int, out: int, position: int) -> OutcomeOdds:
    """The measured odds of a take with ``hand`` on ``proposal`` by the ``position``-th speaker of the round."""
    return _odds_tables()[position][hand_key(hand, proposal, out)]


def odds_of_key(key: int, position: int) -> OutcomeOdds:
    """The measured odds of a take for a feature key and a speaking position."""
    return _odds_tables()[position][key]


def take_probability(odds: OutcomeOdds, threshold: float) -> float:
    """How likely a sensible player takes with these odds: a soft step at ``threshold`` of the neutral expected lines."""
    margin = odds.expected(NEUTRAL) - threshold
    return 1.0 / (1.0 + math.exp(-margin / 0.25))


def _first_speaker_take(seed: str) -> tuple[int, int, int]:
    """Deal 1 of ``seed`` taken by its first speaker and played out by experts: position 0, key, outcome."""
    from couyon.games.couyon.bots import bot_move
    from couyon.games.couyon.bots.expert import ExpertBot
    from couyon.games.couyon.game import TAKE, Move, new_game, play

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
    return 0, key, ("made", "tie", "failed").index(outcome.value)


def _explored_take(seed: str) -> tuple[int, int, int]:
    """Deal 1 of ``seed``: speakers bid as the expert until a target speaker, who takes; experts play it out.

    The target position is drawn from the seed, so every position gets takes made
    after the passes the expert's own policy would make. Returns the taker's
    position, its feature key and the outcome (0 made, 1 tie, 2 failed).
    """
    from couyon.games.couyon.bots import bot_move
    from couyon.games.couyon.bots.expert import ExpertBot
    from couyon.games.couyon.game import TAKE, Move, new_game, play

    state = new_game(seed)
    target = Stream(seed, "explore").uniform(4)
    expert = ExpertBot()
    position = 0
    key = 0
    while state.deal.taker is None:
        seat = state.to_move
        assert seat is not None
        deal = state.deal
        key = hand_key(deal.hands[seat], deal.proposal, 1 << deal.proposal)
        move = Move(seat, TAKE) if position == target else bot_move(state, expert)
        state = play(state, move)
        if state.deal.taker is None:
            position += 1
    while not state.finished_deals:
        state = play(state, bot_move(state, expert))
    outcome = state.finished_deals[0].outcome
    assert outcome is not None
    return position, key, ("made", "tie", "failed").index(outcome.value)


def simulate_counts(
    simulate: Callable[[str], tuple[int, int, int]], deals: int, workers: int, seed: str
) -> list[dict[int, list[int]]]:
    """Made/tie/failed counts per speaking position and key, over ``deals`` simulated deals."""
    import multiprocessing

    counts: list[dict[int, list[int]]] = [{}, {}, {}, {}]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        tasks = (f"{seed}:{i}" for i in range(deals))
        for position, key, outcome in pool.imap_unordered(simulate, tasks, chunksize=64):
            counts[position].setdefault(key, [0, 0, 0])[outcome] += 1
    return counts


def main(argv: list[str]) -> int:
    """Print a table: ``first DEALS WORKERS`` (all takes), then ``explore TABLE DEALS WORKERS`` (by position)."""
    if (
        not argv
        or argv[0] not in ("first", "explore")
        or len(argv) != (3 if argv[0] == "first" else 4)
        or not all(value.isdigit() and int(value) > 0 for value in argv[-2:])
    ):
        print(
            "usage: python -m couyon.games.couyon.bots.bidding first DEALS WORKERS | explore TABLE DEALS WORKERS",
            file=sys.stderr,
        )
        return 2
    if argv[0] == "first":
        deals, workers = int(argv[1]), int(argv[2])
        first = simulate_counts(_first_speaker_take, deals, workers, "bidding-play")[0]
        data: dict[str, object] = {
            "unconditional": {"method": "first speaker takes, experts play", "deals": deals},
            "counts": {str(key): first[key] for key in sorted(first)},
            "by_position": [{}, {}, {}, {}],
        }
    else:
        with open(argv[1], encoding="utf-8") as file:
            data = json.load(file)
        deals, workers = int(argv[2]), int(argv[3])
        by_position = simulate_counts(_explored_take, deals, workers, "bidding-explore")
        data["explored_deals"] = deals
        data["by_position"] = [{str(key): counts[key] for key in sorted(counts)} for counts in by_position]
    print(json.dumps(data, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
