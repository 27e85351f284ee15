"""The well-posedness test of a puzzle (``couyon.common.puzzles.judge``) on values written by hand."""

from __future__ import annotations

from couyon.common.puzzles import MIN_LAYOUTS, Puzzle, judge


def test_a_card_best_nearly_everywhere_by_a_margin_is_well_posed() -> None:
    verdict = judge(["A", "B"], {(1.0, -2.0): 180, (0.0, 0.0): 15, (-2.0, 1.0): 5}, 0.5, exhaustive=False)
    assert verdict.best == ("A",)
    assert verdict.share == 195 / 200
    assert verdict.well_posed and not verdict.certain
    assert [value.best_share for value in verdict.values] == [0.975, 0.1]


def test_equal_cards_form_one_group_and_certain_needs_every_layout() -> None:
    verdict = judge(["A", "B", "C"], {(1.0, 1.0, 0.0): 7, (0.0, 0.0, 0.0): 2}, 0.5, exhaustive=True)
    assert verdict.best == ("A", "B")
    assert verdict.share == 1.0
    assert verdict.well_posed and verdict.certain
    assert not judge(["A", "B", "C"], {(1.0, 1.0, 0.0): 7, (0.0, 0.0, 0.0): 2}, 0.5, exhaustive=False).well_posed


def test_no_clear_best_is_refused() -> None:
    assert not judge(["A", "B"], {(1.0, 0.0): 170, (0.0, 1.0): 30}, 0.5, exhaustive=False).well_posed  # 85% best
    assert not judge(["A", "B"], {(1.0, 0.0): 60, (0.0, 0.0): 140}, 0.5, exhaustive=False).well_posed  # lead 0.3
    assert not judge(["A", "B"], {(1.0, 1.0): MIN_LAYOUTS}, 0.5, exhaustive=True).well_posed  # nothing to find
    assert not judge(["A", "B"], {(1.0, -2.0): MIN_LAYOUTS - 1}, 0.5, exhaustive=False).well_posed  # too few drawn


def test_a_puzzle_round_trips_and_its_question_hides_the_answer() -> None:
    verdict = judge(["A", "B"], {(1.0, -2.0): 200}, 0.5, exhaustive=False)
    puzzle = Puzzle(
        "couyon",
        {},
        "s:1",
        ("S:pass",),
        "S",
        {"hand": ["A", "B"]},
        "B",
        verdict.best,
        verdict.values,
        "lines",
        200,
        False,
        False,
        verdict.share,
        verdict.margin,
        ("attack",),
        {"B": {"W": ["X"]}},
    )
    assert Puzzle.from_json(puzzle.to_json()) == puzzle
    assert set(puzzle.question_json()) == {"id", "game", "seat", "view"}  # No themes: they tell of the best cards.
    assert puzzle.id == Puzzle.from_json(puzzle.to_json()).id
