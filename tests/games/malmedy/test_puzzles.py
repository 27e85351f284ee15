"""Malmedy's puzzles, checked from their definition (docs/puzzles.md) and not by the miner's own decision code.

As couyon's check (tests/games/couyon/test_puzzles.py): the view holds no hidden card; the best card is found again
on layouts drawn afresh and solved by another path (the omniscient bot's ``true_position`` of the position with the
hidden hands replaced, valued as the review values a card); each failing layout agrees with the view.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.games.full import sized

from couyon.common.puzzles import Puzzle
from couyon.common.stream import Stream
from couyon.games.couyon.cards import CARDS, Card, Seat, mask_of
from couyon.games.couyon.game import GameState
from couyon.games.couyon.puzzles import MARGIN
from couyon.games.malmedy.answers import malmedy_view_json
from couyon.games.malmedy.bots.knowledge import knowledge_of, respects, sample_hands
from couyon.games.malmedy.bots.objective import outcome_values, stake_of
from couyon.games.malmedy.bots.omniscient import true_position
from couyon.games.malmedy.bots.solver import card_outcomes
from couyon.games.malmedy.game import malmedy_view
from couyon.games.malmedy.puzzles import MalmedyPuzzles

PUZZLES = sized(200, 10)
"""Puzzles checked: the first mined of the seeded games ``check:0``, ``check:1``, ...; 200 under ``--full``."""
MINER = MalmedyPuzzles("malmedy")
CHECK_LAYOUTS = 250


@cache
def mined() -> tuple[Puzzle, ...]:
    found: list[Puzzle] = []
    index = 0
    while len(found) < PUZZLES:
        found.extend(MINER.mine(f"check:{index}").puzzles)
        index += 1
    return tuple(found)


def exact(state: GameState, hands: tuple[int, int, int, int]) -> dict[int, float]:
    """Each legal card's value in lines for the seat to move, every hand known: solved and valued as the review does."""
    deal = state.deal._replace(hands=hands)
    chooser_team = deal.chooser % 2
    assert state.to_move is not None
    worth = outcome_values(state.lines, stake_of(deal.mite is not None, deal.contra), chooser_team, state.to_move % 2)
    return {card: worth[outcome] for card, outcome in card_outcomes(true_position(deal), chooser_team).items()}


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(set(), *map(strings, value.values()), *map(strings, value.keys()))
    if isinstance(value, list):
        return set().union(set(), *map(strings, value))
    return set()


def test_mining_is_deterministic() -> None:
    assert [p.to_json() for p in MINER.mine("check:1").puzzles] == [p.to_json() for p in MINER.mine("check:1").puzzles]


def test_the_view_holds_no_hidden_card() -> None:
    for puzzle in mined():
        state = MINER.position(puzzle)
        seat = Seat.parse(puzzle.seat)
        assert state.to_move == seat and puzzle.view == malmedy_view_json(state, seat)
        deal = state.deal
        played = [card for trick in deal.tricks for card in trick.cards]
        seen = deal.hands[seat] | mask_of(played) | mask_of(deal.trick)
        hidden = {str(card) for card in CARDS if not seen >> card & 1}
        assert hidden == MINER.hidden_cards(puzzle)
        current = {key: value for key, value in puzzle.view.items() if key != "deal_log"}
        assert not hidden & strings(current)
        assert not hidden & strings(puzzle.view["deal_log"][-1])


def test_a_fresh_solve_agrees_on_the_best_card() -> None:
    for puzzle in mined():
        state = MINER.position(puzzle)
        knowledge = knowledge_of(malmedy_view(state, Seat.parse(puzzle.seat)))
        rng = Stream(puzzle.seed, "fresh check")
        totals: dict[int, float] = {}
        best_here = 0
        for _ in range(CHECK_LAYOUTS):
            values = exact(state, sample_hands(knowledge, rng))
            for card, value in values.items():
                totals[card] = totals.get(card, 0.0) + value / CHECK_LAYOUTS
            best_here += values[Card.parse(puzzle.best[0])] == max(values.values())
        best = {Card.parse(card) for card in puzzle.best}
        top = max(totals, key=lambda card: totals[card])
        assert top in best, puzzle.id
        assert totals[top] - max(value for card, value in totals.items() if card not in best) >= MARGIN / 2
        assert best_here >= 0.8 * CHECK_LAYOUTS, puzzle.id
        if puzzle.certain:
            assert best_here == CHECK_LAYOUTS, puzzle.id
        assert {value.card for value in puzzle.values} == {str(CARDS[card]) for card in totals}


def test_each_wrong_card_has_a_consistent_layout_where_it_fails() -> None:
    for puzzle in mined():
        state = MINER.position(puzzle)
        seat = Seat.parse(puzzle.seat)
        knowledge = knowledge_of(malmedy_view(state, seat))
        best = Card.parse(puzzle.best[0])
        assert set(puzzle.failures) == {value.card for value in puzzle.values} - set(puzzle.best)
        for card, layout in puzzle.failures.items():
            hands = [0, 0, 0, 0]
            hands[seat] = state.deal.hands[seat]
            for other, held in layout.items():
                hands[Seat.parse(other)] = mask_of(Card.parse(text) for text in held)
            dealt = (hands[0], hands[1], hands[2], hands[3])
            assert respects(knowledge, dealt)
            values = exact(state, dealt)
            assert values[Card.parse(card)] < values[best] == max(values.values())
