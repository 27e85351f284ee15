"""The Malmedy chalk as the bots' objective: what each outcome of a deal is worth in lines.

The deal's winner erases 1 line, plus 1 for a capot, plus 1 for a mite, plus 1 for a
contra and 1 for a recontra; a choosing team that fails also adds 1 line, the couille
(malmedy.md, ruling 10). Lines never go below zero, so near the end of a game an
outcome is worth only the lines it can still erase, and the outcome that ends the
game carries the common game's bonus for the game itself (``objective.GAME_BONUS``).
A value is the change of (other team's lines − own lines) for the team it is given to.
"""

from __future__ import annotations

from couyon.games.couyon.bots.objective import GAME_BONUS
from couyon.games.malmedy.bots.solver import FAILED, FAILED_CAPOT, MADE, MADE_CAPOT

OutcomeValues = tuple[float, float, float, float]
"""The worth of each outcome class (indexed by ``FAILED_CAPOT`` … ``MADE_CAPOT``) to one team."""


def stake_of(mite: bool, contra: int) -> int:
    """Lines the deal's winner erases without a capot: 1, plus the mite, the contra and the recontra."""
    return 1 + mite + contra


def outcome_values(lines: tuple[int, int], stake: int, chooser_team: int, own_team: int) -> OutcomeValues:
    """What each outcome class (for the choosing team) is worth to ``own_team``, given the lines left."""
    chooser_lines = lines[chooser_team]
    other_lines = lines[1 - chooser_team]

    def made(erase: int) -> float:
        erased = min(erase, chooser_lines)
        return erased + (GAME_BONUS if erased == chooser_lines else 0.0)

    def failed(erase: int) -> float:
        erased = min(erase, other_lines)
        return -(erased + 1) - (GAME_BONUS if erased == other_lines else 0.0)

    values = [0.0, 0.0, 0.0, 0.0]
    values[MADE_CAPOT] = made(stake + 1)
    values[MADE] = made(stake)
    values[FAILED] = failed(stake)
    values[FAILED_CAPOT] = failed(stake + 1)
    sign = 1.0 if own_team == chooser_team else -1.0
    return (sign * values[0], sign * values[1], sign * values[2], sign * values[3])


def capot_matters(values: OutcomeValues, chooser_team: int) -> int:
    """The solver's *alive* bits worth searching: a team's capot only where it changes the value (bit 0 NS, bit 1 WE)."""
    chooser_bit = 1 << chooser_team
    other_bit = 1 << (1 - chooser_team)
    return (chooser_bit if values[MADE_CAPOT] != values[MADE] else 0) | (
        other_bit if values[FAILED_CAPOT] != values[FAILED] else 0
    )
