"""The chalk as the bots' objective: what each outcome of a deal is worth in lines.

Made, the taker's team erases ``stake`` lines; failed, it adds ``stake`` and the other
team erases ``stake``; a tie moves nothing ("La marque à la craie"; rulings 5 and 6).
Lines never go below zero, so near the end of a game an outcome is worth only the
lines it can still erase, and the outcome that ends the game carries a bonus for the
game itself.
"""

from __future__ import annotations

from typing import NamedTuple

GAME_BONUS = 1.0
"""Extra worth, in lines, of the outcome that ends the game (winning it, or losing it)."""


class OutcomeUtilities(NamedTuple):
    """The change in line difference (other team's lines minus own) for the taker's team."""

    made: float
    tie: float
    failed: float

    def of_sign(self, sign: int) -> float:
        """Utility of a final points difference of this sign for the taker's team."""
        return self.made if sign > 0 else self.failed if sign < 0 else self.tie


def outcome_utilities(lines: tuple[int, int], stake: int, taker_team: int) -> OutcomeUtilities:
    """What made, tie and failed are worth to the taker's team, given the lines left and the stake."""
    own = lines[taker_team]
    other = lines[1 - taker_team]
    erased = min(stake, own)
    made = erased + (GAME_BONUS if own == erased else 0.0)
    other_erased = min(stake, other)
    failed = -(stake + other_erased) - (GAME_BONUS if other == other_erased else 0.0)
    return OutcomeUtilities(made, 0.0, failed)


NEUTRAL = outcome_utilities((5, 5), 1, 0)
"""The worth of each outcome at the start of a game, with a single stake."""
