"""The marque and the répartition (ruling 15; tarot-record-format.md, "Scoring a played deal" and its worked examples)."""

from __future__ import annotations

import pytest

from couyon.games.tarot.scoring import NEEDED, Camp, Contract, deal_scores, marque, poignee_prime


def half(points: float) -> int:
    return round(points * 2)


def test_needed_points_by_bouts() -> None:
    """Ruling 15a: 56, 51, 41, 36 for 0 to 3 bouts."""
    assert NEEDED == (56, 51, 41, 36)


@pytest.mark.parametrize(
    ("points", "bouts", "made", "margin"),
    [
        (40.5, 2, False, 1),
        (41, 2, True, 0),
        (41.5, 2, True, 1),
        (55.5, 0, False, 1),
        (36, 3, True, 0),
        (0, 0, False, 56),
    ],
)
def test_margin_rounds_the_half_point_up_for_the_winner(points: float, bouts: int, made: bool, margin: int) -> None:
    """Ruling 15b: 40.5 against 41 fails by 1, 41.5 makes by 1, exactly N makes by 0."""
    result = marque(Contract.PETITE, half(points), bouts)
    assert (result.made, result.margin) == (made, margin)


def test_multipliers() -> None:
    """Ruling 15c: M = 1, 2, 4, 6."""
    assert [contract.multiplier for contract in Contract] == [1, 2, 4, 6]
    assert [marque(contract, half(51), 1).marque for contract in Contract] == [25, 50, 100, 150]


def test_example_1_forty_and_a_half_against_forty_one() -> None:
    """Worked example 1: 4 players, W petite, 40.5 with 2 bouts: −26; W −78, the others +26."""
    result = marque(Contract.PETITE, half(40.5), 2)
    assert (result.needed, result.made, result.margin, result.contract_points, result.marque) == (
        41,
        False,
        1,
        -26,
        -26,
    )
    assert deal_scores(4, result.marque, taker=1, partner=None) == (26, -78, 26, 26)


def test_example_2_forty_one_and_a_half() -> None:
    """Worked example 2: 3 players, E garde, 41.5 with 2 bouts: S = 52; E +104, S and W −52."""
    result = marque(Contract.GARDE, half(41.5), 2)
    assert (result.made, result.margin, result.marque) == (True, 1, 52)
    assert deal_scores(3, result.marque, taker=2, partner=None) == (-52, -52, 104)


def test_example_3_garde_contre_and_petit_au_bout() -> None:
    """Worked example 3: 4 players, S garde contre, 58.5 with 1 bout, petit au bout to the attack: S = 258."""
    result = marque(Contract.GARDE_CONTRE, half(58.5), 1, petit_au_bout=Camp.ATTACK)
    assert (result.needed, result.margin, result.contract_points, result.petit_au_bout_points) == (51, 8, 198, 60)
    assert result.marque == 258
    assert deal_scores(4, 258, taker=0, partner=None) == (774, -258, -258, -258)


def test_example_4_a_poignee_won_by_the_other_camp() -> None:
    """Worked example 4: 4 players, N garde sans shows a simple poignée, 48 with 1 bout: S = −132."""
    result = marque(Contract.GARDE_SANS, half(48), 1, poignee_primes=poignee_prime(4, 10) or 0)
    assert (result.made, result.margin, result.contract_points, result.poignee_points) == (False, 3, -112, -20)
    assert result.marque == -132
    assert deal_scores(4, -132, taker=2, partner=None) == (132, 132, -396, 132)


def test_example_5_five_players_called_partner() -> None:
    """Worked example 5: NW garde with S as partner, E's simple poignée, petit au bout to the defence: S = 56."""
    result = marque(Contract.GARDE, half(44), 2, petit_au_bout=Camp.DEFENCE, poignee_primes=poignee_prime(5, 8) or 0)
    assert (result.margin, result.contract_points, result.petit_au_bout_points, result.poignee_points) == (
        3,
        56,
        -20,
        20,
    )
    assert result.marque == 56
    # Seats S, W, NW, NE, E: NW takes, S is the partner.
    assert deal_scores(5, 56, taker=2, partner=0) == (56, -56, 112, -56, -56)


def test_example_6_misere() -> None:
    """Worked example 6: 3 players, S petite, 60 with 1 bout, W's misère de tête: S +58, W −14, E −44."""
    result = marque(Contract.PETITE, half(60), 1)
    assert (result.margin, result.marque) == (9, 34)
    assert deal_scores(3, 34, taker=0, partner=None) == (68, -34, -34)
    assert deal_scores(3, 34, taker=0, partner=None, misere_announcers=[1]) == (58, -14, -44)


def test_example_7_alone_at_five_chelem_announced_and_made() -> None:
    """Worked example 7: E garde sans alone, chelem announced and made, 87 with 2 bouts: S = 684, E +2736."""
    result = marque(Contract.GARDE_SANS, half(87), 2, chelem_announced=True, chelem=Camp.ATTACK)
    assert (result.margin, result.contract_points, result.chelem_points, result.marque) == (46, 284, 400, 684)
    assert deal_scores(5, 684, taker=4, partner=None) == (-684, -684, -684, -684, 2736)


def test_example_8_chelem_announced_not_made() -> None:
    """Worked example 8: 4 players, E garde, chelem announced, 61 with 3 bouts: S = −100, E −300."""
    result = marque(Contract.GARDE, half(61), 3, chelem_announced=True)
    assert (result.margin, result.contract_points, result.chelem_points, result.marque) == (25, 100, -200, -100)
    assert deal_scores(4, -100, taker=3, partner=None) == (100, 100, 100, -300)


@pytest.mark.parametrize(
    ("announced", "chelem", "points"),
    [
        (False, None, 0),
        (False, Camp.ATTACK, 200),
        (True, Camp.ATTACK, 400),
        (True, None, -200),
        (False, Camp.DEFENCE, -200),
        (True, Camp.DEFENCE, -400),
    ],
)
def test_chelem_points(announced: bool, chelem: Camp | None, points: int) -> None:
    """Ruling 15f: +400 announced and made, +200 unannounced, −200 announced and missed, −200 more to a defence chelem."""
    assert marque(Contract.PETITE, half(60), 1, chelem_announced=announced, chelem=chelem).chelem_points == points


def test_chelem_and_poignee_primes_are_never_multiplied() -> None:
    """The rule book: poignée and chelem primes are fixed; petit au bout is multiplied."""
    result = marque(
        Contract.GARDE_CONTRE, half(60), 1, poignee_primes=30, chelem=Camp.ATTACK, petit_au_bout=Camp.ATTACK
    )
    assert (result.poignee_points, result.chelem_points, result.petit_au_bout_points) == (30, 200, 60)


def test_poignee_sizes_and_primes() -> None:
    """Ruling 10: 13/15/18 at 3, 10/13/15 at 4, 8/10/13 at 5; primes 20/30/40."""
    assert [poignee_prime(3, size) for size in (13, 15, 18, 14)] == [20, 30, 40, None]
    assert [poignee_prime(4, size) for size in (10, 13, 15, 9)] == [20, 30, 40, None]
    assert [poignee_prime(5, size) for size in (8, 10, 13, 12)] == [20, 30, 40, None]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_repartition_sums_to_zero(players: int) -> None:
    """Ruling 15: a deal's scores always sum to zero, misères included."""
    for marque_value in (-684, -26, 0, 1, 258):
        for taker in range(players):
            partners = [None, *(seat for seat in range(players) if seat != taker)] if players == 5 else [None]
            for partner in partners:
                scores = deal_scores(players, marque_value, taker, partner, misere_announcers=[taker, 0, 0])
                assert sum(scores) == 0
