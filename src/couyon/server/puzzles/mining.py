"""``couyon puzzles mine``: seeded bot games mined into the store, resumably (docs/puzzles.md).

The source games of a game are ``SEED:0``, ``SEED:1``, ... (``couyon.common.puzzles.seeds``); those already in
the store (``puzzle_sources``) are skipped, so a second run continues the first and never stores a puzzle twice,
and a run cut short loses only the game it was mining. Each game's puzzles come from its registry entry's miner
(``GameKind.puzzles``), which is deterministic: the same seeds give the same puzzles on any machine.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from couyon.common.kind import GameKind
from couyon.common.puzzles import seeds
from couyon.store.puzzles import PuzzleStore

DEFAULT_GAMES = 10
"""Source games per game of a run without ``--games``: a reduced size (a minute or so for all the games)."""
DEFAULT_SEED = "puzzles"


@dataclass(frozen=True, slots=True)
class MiningRun:
    """What one run mined for one game."""

    game: str
    mined: int
    """Source games mined by this run."""
    skipped: int
    """Source games already in the store."""
    puzzles: int
    """Puzzles this run kept."""
    decisions: int
    candidates: int
    cpu_seconds: float

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "mined": self.mined,
            "skipped": self.skipped,
            "puzzles": self.puzzles,
            "decisions": self.decisions,
            "candidates": self.candidates,
            "cpu_seconds": round(self.cpu_seconds, 2),
        }


def mine_into(store: PuzzleStore, game: GameKind, count: int, seed: str, progress: bool) -> MiningRun:
    """Mine the source games ``seed:0`` to ``seed:count-1`` of ``game`` not yet in ``store``."""
    miner = game.puzzles
    if miner is None:
        raise ValueError(f"{game.id} has no puzzles yet")
    wanted = list(seeds(seed, 0, count))
    done = store.mined_seeds(game.id, wanted)
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=count, initial=len(done), unit="game", file=sys.stderr, desc=f"{game.id} puzzles")
    mined = kept = decisions = candidates = 0
    started = time.process_time()
    try:
        for source in wanted:
            if source in done:
                continue
            found = miner.mine(source)
            if store.add_mined(game.id, source, found):
                mined += 1
                kept += len(found.puzzles)
                decisions += found.decisions
                candidates += found.candidates
            if bar is not None:
                bar.update(1)
                bar.set_postfix(puzzles=kept)
    finally:
        if bar is not None:
            bar.close()
    return MiningRun(game.id, mined, len(done), kept, decisions, candidates, time.process_time() - started)
