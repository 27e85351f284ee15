"""Self-play tuning of the expert's take thresholds: duplicate matches of threshold variants.

Usage: ``python benchmarks/tune_bidding.py OPPONENT DEALS T1,T2,T3,T4 [T1,T2,T3,T4 ...]``
where OPPONENT is an arena bot name (``expert`` for self-play against the shipped
thresholds, or ``baseline``). Prints the arena's mean line difference and 95% interval
per variant; the variant with the best mean becomes ``expert.TAKE_THRESHOLDS``.
"""

from __future__ import annotations

import functools
import sys

from couyon.games.couyon import arena
from couyon.games.couyon.bots.expert import ExpertBot


def main(argv: list[str]) -> int:
    opponent, deals, *variants = argv
    for text in variants:
        thresholds = tuple(float(value) for value in text.split(","))
        name = f"expert[{text}]"
        arena.ARENA_BOTS[name] = functools.partial(ExpertBot, thresholds=thresholds)
        report = arena.run_arena(name, opponent, int(deals), "tune", workers=2, progress=False)
        low, high = report["ci95"]
        print(
            f"{text:>24}  vs {opponent}: {report['mean_line_difference']:+.4f} [{low:+.4f}, {high:+.4f}]"
            f"  matches {report['matches_won']}/{report['matches_lost']}/{report['matches_tied']}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
