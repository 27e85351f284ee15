"""Couyon's puzzles, checked from their definition (docs/puzzles.md) and not by the miner's own decision code.

Each mined puzzle is replayed from its source game; the seat's view must hold no hidden card; the best card is found
again on layouts drawn afresh by the bots' sampler and solved by another path (the review's double-dummy values of
the true position with the hidden hands replaced), and each wrong card's failing layout is checked to agree with the
view and to show that card doing worse than the best one.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.games.full import sized

from couyon.common.puzzles import Puzzle
from couyon.common.stream import Stream
from couyon.games.couyon.answers import view_json
from couyon.games.couyon.bots.knowledge import knowledge_of, respects, sample_hands
from couyon.games.couyon.cards import CARDS, Card, Seat, mask_of
from couyon.games.couyon.game import GameState, Move, new_game, play
from couyon.games.couyon.puzzles import MARGIN, THEMES, CouyonPuzzles, layouts
from couyon.games.couyon.review import _double_dummy
from couyon.games.couyon.view import standard_view
from couyon.registry import COUYON, verify_record

PUZZLES = sized(200, 12)
"""Puzzles checked: the first mined of the seeded games ``check:0``, ``check:1``, ...; 200 under ``--full``."""
MINER = CouyonPuzzles("couyon")
CHECK_LAYOUTS = 300


@cache
def mined() -> tuple[Puzzle, ...]:
    """The puzzles of the first seeded games of ``check``, at least ``PUZZLES`` of them."""
    found: list[Puzzle] = []
    index = 0
    while len(found) < PUZZLES:
        found.extend(MINER.mine(f"check:{index}").puzzles)
        index += 1
    return tuple(found)


def position(puzzle: Puzzle) -> GameState:
    state = new_game(puzzle.seed)
    for text in puzzle.moves:
        state = play(state, Move.parse(text))
    return state


def with_hands(state: GameState, hands: tuple[int, int, int, int]) -> GameState:
    return state._replace(deal=state.deal._replace(hands=hands))


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*map(strings, value.values()), *map(strings, value.keys())) if value else set()
    if isinstance(value, list):
        return set().union(*map(strings, value)) if value else set()
    return set()


def test_mining_is_deterministic() -> None:
    first = [puzzle.to_json() for puzzle in MINER.mine("check:0").puzzles]
    assert first == [puzzle.to_json() for puzzle in MINER.mine("check:0").puzzles]


def test_the_view_is_the_seats_and_holds_no_hidden_card() -> None:
    for puzzle in mined():
        state = position(puzzle)
        seat = Seat.parse(puzzle.seat)
        assert state.to_move == seat
        assert puzzle.view == view_json(state, seat)
        # The source game up to the decision is a record ``couyon verify`` replays.
        assert verify_record(COUYON.engine.record_json(puzzle.seed, puzzle.moves, puzzle.options, {}))["valid"]
        deal = state.deal
        played = [card for trick in deal.tricks for card in trick.cards]
        seen = deal.hands[seat] | mask_of(deal.proposals) | mask_of(played) | mask_of(deal.trick)
        hidden = {str(card) for card in CARDS if not seen >> card & 1}
        assert len(hidden) == 24 - seen.bit_count() > 0
        assert hidden == MINER.hidden_cards(puzzle)
        # Earlier deals are public once over (their deal_log entries); the deal in play shows only what the seat saw.
        current = {key: value for key, value in puzzle.view.items() if key != "deal_log"}
        assert not hidden & strings(current)
        assert not hidden & strings(puzzle.view["deal_log"][-1])
        assert puzzle.question_json()["view"] == puzzle.view
        assert "best" not in puzzle.question_json() and "seed" not in puzzle.question_json()


def test_a_fresh_solve_agrees_on_the_best_card() -> None:
    for puzzle in mined():
        state = position(puzzle)
        knowledge = knowledge_of(standard_view(state, Seat.parse(puzzle.seat)))
        rng = Stream(puzzle.seed, "fresh check")
        totals: dict[int, float] = {}
        best_here = 0
        best = {Card.parse(card) for card in puzzle.best}
        for _ in range(CHECK_LAYOUTS):
            values = _double_dummy(with_hands(state, sample_hands(knowledge, rng)))
            for card, value in values.items():
                totals[card] = totals.get(card, 0.0) + value / CHECK_LAYOUTS
            best_here += values[Card.parse(puzzle.best[0])] == max(values.values())
        # The best cards were equal on every layout judged; drawn afresh, they may differ on a few.
        top = max(totals, key=lambda card: totals[card])
        assert top in best, puzzle.id
        others = [value for card, value in totals.items() if card not in best]
        assert totals[top] - max(others) >= MARGIN / 2, puzzle.id  # sampling noise: the mined margin is MARGIN or more
        assert best_here >= 0.8 * CHECK_LAYOUTS, puzzle.id
        if puzzle.certain:
            assert best_here == CHECK_LAYOUTS, puzzle.id
        assert {value.card for value in puzzle.values} == {str(CARDS[card]) for card in totals}
        assert puzzle.played not in puzzle.best
        assert set(puzzle.themes) <= set(THEMES)
        assert {"attack", "defence"} & set(puzzle.themes)


def test_each_wrong_card_has_a_consistent_layout_where_it_fails() -> None:
    for puzzle in mined():
        state = position(puzzle)
        seat = Seat.parse(puzzle.seat)
        knowledge = knowledge_of(standard_view(state, seat))
        best = Card.parse(puzzle.best[0])
        wrong = {value.card for value in puzzle.values} - set(puzzle.best)
        assert set(puzzle.failures) == wrong
        for card, layout in puzzle.failures.items():
            hands = [0, 0, 0, 0]
            hands[seat] = state.deal.hands[seat]
            for other, held in layout.items():
                hands[Seat.parse(other)] = mask_of(Card.parse(text) for text in held)
            dealt = (hands[0], hands[1], hands[2], hands[3])
            assert respects(knowledge, dealt)
            values = _double_dummy(with_hands(state, dealt))
            assert values[Card.parse(card)] < values[best] == max(values.values())


def test_layouts_are_every_consistent_deal_once() -> None:
    puzzle = next(puzzle for puzzle in mined() if puzzle.exhaustive)
    state = position(puzzle)
    knowledge = knowledge_of(standard_view(state, Seat.parse(puzzle.seat)))
    found = layouts(MINER.decision(state, Move(state.to_move, puzzle.played)), 10**6)
    assert found is not None and len(found) == puzzle.layouts
    assert len(set(found)) == len(found)
    assert all(respects(knowledge, hands) for hands in found)
    assert state.deal.hands in set(found)
    rng = Stream("layouts", "all")
    assert all(sample_hands(knowledge, rng) in set(found) for _ in range(200))
    assert layouts(MINER.decision(state, Move(state.to_move, puzzle.played)), len(found) - 1) is None
