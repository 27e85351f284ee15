"""The play-phase solver against a brute-force minimax written straight from the rules module."""

from __future__ import annotations

from collections.abc import Sequence

from couyon.common.stream import Stream
from couyon.games.couyon.bots.solver import move_values, outcome_classes
from couyon.games.couyon.rules import CARD_POINTS, standard_legal_cards, standard_trick_winner


def brute_force(hands: list[int], trump: int, leader: int, trick: Sequence[int]) -> int:
    """NS-minus-WE points still to win with perfect play, by plain minimax over every legal card."""
    if len(trick) == 4:
        winner = (leader + standard_trick_winner(trick, trump)) % 4
        points = sum(CARD_POINTS[card] for card in trick)
        gained = points if winner % 2 == 0 else -points
        return gained if hands[0] == 0 else gained + brute_force(hands, trump, winner, ())
    seat = (leader + len(trick)) % 4
    legal = standard_legal_cards(hands[seat], trick, trump)
    values = []
    for card in range(24):
        if legal >> card & 1:
            rest = list(hands)
            rest[seat] ^= 1 << card
            values.append(brute_force(rest, trump, leader, (*trick, card)))
    return max(values) if seat % 2 == 0 else min(values)


def random_position(stream: Stream) -> tuple[list[int], int, int, tuple[int, ...]]:
    """Hands of 1 to 4 cards, a trump, a leader, and 0 to 3 legal cards already on the table."""
    deck = list(range(24))
    stream.shuffle(deck)
    size = 1 + stream.uniform(4)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        for card in deck[size * seat : size * seat + size]:
            hands[seat] |= 1 << card
    trump = stream.uniform(4)
    leader = stream.uniform(4)
    trick: list[int] = []
    for position in range(stream.uniform(4)):
        seat = (leader + position) % 4
        legal = [card for card in range(24) if standard_legal_cards(hands[seat], trick, trump) >> card & 1]
        card = stream.choice(legal)
        hands[seat] ^= 1 << card
        trick.append(card)
    # Hands not yet to play this trick keep one card more than those that played.
    return hands, trump, leader, tuple(trick)


def test_solver_equals_brute_force_minimax_on_random_positions() -> None:
    stream = Stream("solver-test", "positions")
    for _ in range(250):
        hands, trump, leader, trick = random_position(stream)
        seat = (leader + len(trick)) % 4
        values = move_values(hands, trump, leader, trick)
        legal = standard_legal_cards(hands[seat], trick, trump)
        assert set(values) == {card for card in range(24) if legal >> card & 1}
        for card, value in values.items():
            rest = list(hands)
            rest[seat] ^= 1 << card
            assert value == brute_force(rest, trump, leader, (*trick, card)), (hands, trump, leader, trick, card)


def test_outcome_classes_are_the_sign_of_the_exact_final_difference() -> None:
    stream = Stream("solver-test", "classes")
    for _ in range(250):
        hands, trump, leader, trick = random_position(stream)
        already = stream.uniform(21) - 10
        exact = move_values(hands, trump, leader, trick)
        classes = outcome_classes(hands, trump, leader, trick, already)
        for card, value in exact.items():
            final = value + already
            assert classes[card] == (final > 0) - (final < 0)


def test_a_shared_transposition_table_gives_the_same_values() -> None:
    stream = Stream("solver-test", "table")
    for _ in range(50):
        hands, trump, leader, trick = random_position(stream)
        table: dict[int, tuple[int, int]] = {}
        first = outcome_classes(hands, trump, leader, trick, 0, table)
        assert outcome_classes(hands, trump, leader, trick, 0, table) == first
        # Bounds stored by the narrow searches stay true for a full-window search.
        assert move_values(hands, trump, leader, trick, table=table) == move_values(hands, trump, leader, trick)
