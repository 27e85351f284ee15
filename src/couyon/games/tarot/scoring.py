"""The score of a played tarot deal (ruling 15; tarot-record-format.md, "Scoring a played deal").

Everything is counted in half points until the margin, so the arithmetic stays on integers:
the attack's points P are ``half_points / 2``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import NamedTuple


class Contract(enum.Enum):
    """A bid above ``pass``, weakest first (ruling 5); its value is the record's spelling."""

    PETITE = "petite"
    GARDE = "garde"
    GARDE_SANS = "garde-sans"
    GARDE_CONTRE = "garde-contre"

    def __str__(self) -> str:
        return self.value

    @property
    def multiplier(self) -> int:
        """M: petite 1, garde 2, garde sans 4, garde contre 6 (ruling 15c)."""
        return _MULTIPLIERS[self]

    @property
    def strength(self) -> int:
        """0 for petite up to 3 for garde contre: a bid must be stronger than every earlier one."""
        return _STRENGTHS[self]

    @property
    def takes_chien(self) -> bool:
        """Petite and garde: the taker takes the chien in hand and makes an écart (ruling 8)."""
        return self in (Contract.PETITE, Contract.GARDE)


CONTRACTS = tuple(Contract)
_MULTIPLIERS = {Contract.PETITE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
_STRENGTHS = {contract: index for index, contract in enumerate(CONTRACTS)}


class Camp(enum.StrEnum):
    """The taker with his partner, or the others (ruling 15)."""

    ATTACK = "attack"
    DEFENCE = "defence"

    def __str__(self) -> str:
        return self.value


NEEDED = (56, 51, 41, 36)
"""Points the attack needs with 0, 1, 2 or 3 bouts (ruling 15a)."""

POIGNEE_SIZES: dict[int, tuple[int, int, int]] = {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
"""Simple, double and triple poignée by number of players (ruling 10)."""
POIGNEE_PRIMES = (20, 30, 40)


def poignee_prime(players: int, size: int) -> int | None:
    """The prime of a poignée of ``size`` cards at ``players``, or None if no poignée has that size."""
    sizes = POIGNEE_SIZES[players]
    return POIGNEE_PRIMES[sizes.index(size)] if size in sizes else None


class Marque(NamedTuple):
    """Every number of the contract's steps 2 to 8, for one played deal."""

    half_points: int
    """The attack's card points P, in half points (the defence has 182 − P)."""
    bouts: int
    needed: int
    made: bool
    margin: int
    contract_points: int
    petit_au_bout_points: int
    poignee_points: int
    chelem_points: int

    @property
    def marque(self) -> int:
        """S: contract points + petit au bout + poignées + chelem (step 8)."""
        return self.contract_points + self.petit_au_bout_points + self.poignee_points + self.chelem_points


def marque(
    contract: Contract,
    half_points: int,
    bouts: int,
    *,
    petit_au_bout: Camp | None = None,
    poignee_primes: int = 0,
    chelem_announced: bool = False,
    chelem: Camp | None = None,
) -> Marque:
    """The deal's marque S seen from the attack (ruling 15 a–f), from the attack's half points and bouts."""
    needed = NEEDED[bouts]
    difference = half_points - 2 * needed
    made = difference >= 0
    # "Arrondi au point entier supérieur": a half point counts as a whole one for the winning camp.
    margin = (abs(difference) + 1) // 2
    sign = 1 if made else -1
    multiplier = contract.multiplier
    petit = 0 if petit_au_bout is None else (10 if petit_au_bout is Camp.ATTACK else -10) * multiplier
    chelem_points = 0
    if chelem is Camp.ATTACK:
        chelem_points = 400 if chelem_announced else 200
    elif chelem_announced:
        chelem_points = -200
    if chelem is Camp.DEFENCE:
        chelem_points -= 200
    return Marque(
        half_points,
        bouts,
        needed,
        made,
        margin,
        sign * (25 + margin) * multiplier,
        petit,
        sign * poignee_primes,
        chelem_points,
    )


def deal_scores(
    players: int, marque: int, taker: int, partner: int | None, misere_announcers: Iterable[int] = ()
) -> tuple[int, ...]:
    """Each seat's score for the deal, by seat index: the répartition of S, then the misères (ruling 15, 11).

    Defenders −S; the taker (n − 1)·S, or 2S with a partner at five, the partner S; each misère
    pays its announcer 10 from every other seat. The scores always sum to zero.
    """
    scores = [-marque] * players
    if partner is None:
        scores[taker] = (players - 1) * marque
    else:
        scores[taker] = 2 * marque
        scores[partner] = marque
    for announcer in misere_announcers:
        for seat in range(players):
            scores[seat] += 10 * (players - 1) if seat == announcer else -10
    return tuple(scores)
