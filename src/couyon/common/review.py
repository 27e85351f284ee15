"""What every game's review shares: which of a player's decisions it marks as his costliest."""

from __future__ import annotations

from couyon.common.kind import Json

COSTLY_MARKS = 3
"""How many decisions of a game are marked as the costliest, at most."""


def mark_costliest(decisions: list[Json], least: float) -> None:
    """Mark ``costly`` the (at most ``COSTLY_MARKS``) decisions of largest expert cost, from ``least`` (in the game's
    unit: couyon's lines, tarot's points)."""
    for decision in decisions:
        decision["costly"] = False
    ranked = sorted((d for d in decisions if d["cost"] >= least), key=lambda d: -d["cost"])
    for decision in ranked[:COSTLY_MARKS]:
        decision["costly"] = True
