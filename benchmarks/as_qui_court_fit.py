"""As qui court (rulings 20–24): fit the bots' keep-or-change thresholds to this deal by fictitious play.

Usage: ``python benchmarks/as_qui_court_fit.py [--deals N] [--rounds R] [--players 2 3 … 20] [--seed S]``
(not run by pytest; prints the tables ``couyon.games.coucou.bots`` holds for as qui court).

One coup with m players still in, ranks only (four of each; 32 cards for tables of 5–6, 52 above):
positions 0 … m − 2 speak in turn, each keeps or changes with its right-hand neighbour (the dealer for
m − 2), a king refuses and is shown; the dealer, handed an ace, changes with the stock (a king there
stays). A seat's policy is a threshold: keep a rank at least t. t depends on m, the seat's position and
what it saw: ``plain`` (nothing, or handed a lower card) or ``stuck`` (a king was shown earlier in the
coup, so a player before it holds a card he wanted rid of). Handed a higher card, a seat always keeps
(ruling 10's information rule: the one who handed it now holds a lower card that can no longer move).

Each round plays ``--deals`` deals with the current policies; at every position it also plays the other
action from the same cards, the later seats following their policies, so each (m, position, context,
rank) gets the mean loss difference keep − change. The policy of the next round keeps a rank where
the running mean over all rounds so far (fictitious play) says keeping loses less. The thresholds are
the lowest rank from which keeping is better for every higher rank. The randomness is Python's
``random.Random(seed)``: a measurement, not the engine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

PLAIN, STUCK = 0, 1


def ranks_of(deck: int) -> int:
    return 8 if deck == 32 else 13


def deck_for(m_start: int) -> int:
    return 32 if m_start <= 6 else 52


def play_from(
    cards: list[int],
    m: int,
    start: int,
    stuck: bool,
    handed: tuple[int, int] | None,
    policy: dict[tuple[int, int], int],
    first_action: bool | None,
    king: int,
) -> list[int]:
    """Play positions ``start`` … m − 2 and the dealer; ``first_action`` forces the move at ``start`` (True: keep)."""
    cards = list(cards)
    for p in range(start, m - 1):
        card = cards[p]
        if p == start and first_action is not None:
            keep = first_action
        elif handed is not None and handed[1] > handed[0]:
            keep = True
        else:
            keep = card == king or card >= policy[(p, STUCK if stuck else PLAIN)]
        handed = None
        if not keep:
            right = cards[p + 1]
            if right == king:
                stuck = True
            else:
                cards[p], cards[p + 1] = right, card
                handed = (right, card)  # the right-hand neighbour gave ``right`` and got ``card``
    if handed is not None and cards[m - 1] == 0 and cards[m] != king:
        cards[m - 1] = cards[m]  # the dealer, handed an ace, changes with the stock
    return cards


def losses_of(cards: list[int], m: int) -> list[int]:
    hand = cards[:m]
    low = min(hand)
    if low == max(hand):
        return [0] * m
    return [int(card == low) for card in hand]


def fit(m: int, deck: int, deals: int, rounds: int, rng: random.Random) -> dict[tuple[int, int], int]:
    rank_count = ranks_of(deck)
    king = rank_count - 1
    pack = [rank for rank in range(rank_count) for _ in range(4)]
    policy = {(p, context): 0 for p in range(m - 1) for context in (PLAIN, STUCK)}
    # Start from "keep the middle rank and up".
    policy = {key: rank_count // 2 for key in policy}
    sums: dict[tuple[int, int, int], float] = defaultdict(float)
    counts: dict[tuple[int, int, int], int] = defaultdict(int)
    for _ in range(rounds):
        for _ in range(deals):
            cards = rng.sample(pack, m + 1)
            stuck = False
            handed: tuple[int, int] | None = None
            for p in range(m - 1):
                card = cards[p]
                if handed is not None and handed[1] > handed[0]:
                    keep_now = True
                else:
                    context = STUCK if stuck else PLAIN
                    kept = play_from(cards, m, p, stuck, handed, policy, True, king)
                    changed = play_from(cards, m, p, stuck, handed, policy, False, king)
                    key = (p, context, card)
                    sums[key] += losses_of(kept, m)[p] - losses_of(changed, m)[p]
                    counts[key] += 1
                    keep_now = card == king or card >= policy[(p, context)]
                handed = None
                if not keep_now:
                    right = cards[p + 1]
                    if right == king:
                        stuck = True
                    else:
                        cards[p], cards[p + 1] = right, card
                        handed = (right, card)
        policy = thresholds(m, rank_count, sums, counts, policy)
    return policy


def thresholds(
    m: int,
    rank_count: int,
    sums: dict[tuple[int, int, int], float],
    counts: dict[tuple[int, int, int], int],
    old: dict[tuple[int, int], int],
) -> dict[tuple[int, int], int]:
    """The lowest rank from which keeping loses less at every higher rank (a king is always kept)."""
    new = {}
    for (p, context), previous in old.items():
        threshold = rank_count - 1
        for rank in range(rank_count - 2, -1, -1):
            n = counts.get((p, context, rank), 0)
            if n == 0:
                if rank >= previous:
                    threshold = rank
                    continue
                break
            if sums[(p, context, rank)] / n <= 0:
                threshold = rank
            else:
                break
        new[(p, context)] = threshold
    return new


RANK_NAMES = {
    32: ["A", "7", "8", "9", "10", "J", "Q", "K"],
    52: ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"],
}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000, help="deals per round and table (default 4,000)")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--players", type=int, nargs="+", default=list(range(2, 21)))
    parser.add_argument("--seed", default="as-qui-court-fit")
    parser.add_argument("--deck", type=int, choices=(32, 52), nargs="+", default=[52, 32])
    args = parser.parse_args(argv)
    started = time.process_time()
    for deck in args.deck:
        for m in args.players:
            if deck == 32 and m > 6:
                continue
            policy = fit(m, deck, args.deals, args.rounds, random.Random(f"{args.seed}:{deck}:{m}"))
            names = RANK_NAMES[deck]
            plain = [names[policy[(p, PLAIN)]] for p in range(m - 1)]
            stuck = [names[policy[(p, STUCK)]] for p in range(m - 1)]
            print(f"{deck} m={m:2d} plain {' '.join(plain)} | stuck {' '.join(stuck)}", flush=True)
    print(f"{time.process_time() - started:.0f} s of CPU", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
