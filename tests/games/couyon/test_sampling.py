"""Constraints read from a view are true, complete per the rules, and every sampled deal respects them."""

from __future__ import annotations

import pytest

from couyon.common.stream import Stream
from couyon.games.couyon.bots import bot_move, bot_rng
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.knowledge import Knowledge, knowledge_of, respects, sample_hands
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.cards import SEATS, mask_of
from couyon.games.couyon.game import GameState, new_game, play
from couyon.games.couyon.rules import standard_legal_cards
from couyon.games.couyon.view import view


def play_positions(games: int, label: str) -> list[GameState]:
    """Every position where a card is to be played, over ``games`` games between a baseline and a random team."""
    positions = []
    bots = (BaselineBot(), RandomBot())
    for number in range(games):
        state = new_game(f"{label}-{number}")
        while state.winner is None and state.deal.number <= 2:
            if state.deal.trump is not None:
                positions.append(state)
            state = play(state, bot_move(state, bots[(state.to_move or 0) % 2]))
    return positions


def reference_forbidden(state: GameState, seat: int) -> int:
    """Cards ``seat`` cannot hold: any card that, held with the card it played, would have made that card illegal."""
    deal = state.deal
    trump = deal.trump
    assert trump is not None
    forbidden = 0
    tricks = [(trick.leader, trick.cards) for trick in deal.tricks] + [(deal.leader, deal.trick)]
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            if (leader + position) % 4 != seat:
                continue
            before = cards[:position]
            for other in range(24):
                if other != card and not standard_legal_cards(1 << card | 1 << other, before, trump) >> card & 1:
                    forbidden |= 1 << other
    return forbidden


def true_hands(state: GameState) -> tuple[int, int, int, int]:
    hands = state.deal.hands
    return (hands[0], hands[1], hands[2], hands[3])


def test_the_true_deal_respects_every_constraint_and_the_constraints_are_those_of_the_rules() -> None:
    for state in play_positions(40, "constraints"):
        for seat in SEATS:
            knowledge = knowledge_of(view(state, seat))
            assert respects(knowledge, true_hands(state))
            for other in SEATS:
                # Every proven absence, among cards still unknown to this seat, is exactly what the rules imply.
                expected = reference_forbidden(state, other) & knowledge.unknown
                assert knowledge.forbidden[other] & knowledge.unknown == expected


def test_turned_proposals_and_played_cards_are_in_no_sampled_hand() -> None:
    for state in play_positions(10, "public"):
        seat = state.to_move
        assert seat is not None
        knowledge = knowledge_of(view(state, seat))
        public = mask_of(state.deal.proposals) | knowledge.out
        hands = sample_hands(knowledge, Stream("public", str(state.move_count)))
        assert all(hand & public == 0 for hand in hands)


def test_every_sampled_deal_respects_the_view_it_came_from() -> None:
    for state in play_positions(40, "samples"):
        seat = state.to_move
        assert seat is not None
        knowledge = knowledge_of(view(state, seat))
        stream = Stream("samples", str(state.move_count))
        for _ in range(20):
            assert respects(knowledge, sample_hands(knowledge, stream))


@pytest.mark.parametrize("version", [2, 3])
def test_the_experts_weighted_worlds_respect_the_view(version: int) -> None:
    # Version 2 keeps deals resampled by their bid likelihood; version 3 weighs each deal drawn by it.
    expert = ExpertBot(version=version)
    for state in play_positions(8, "expert-worlds"):
        seat = state.to_move
        assert seat is not None
        seat_view = view(state, seat)
        knowledge = knowledge_of(seat_view)
        rng = bot_rng(state.seed, seat, state.move_count)
        if version == 2:
            worlds = list(expert.worlds(seat_view, knowledge, rng).items())
        else:
            worlds = list(expert.draws(seat_view, knowledge, rng))
        assert worlds
        assert all(respects(knowledge, hands) and weight > 0 for hands, weight in worlds)


def test_a_tightly_constrained_view_still_finds_the_only_deal() -> None:
    # Seat 0 sees everything but two hidden cards split between seats 1 and 2, each seat allowed only one of them.
    knowledge = Knowledge(
        seat=0,
        trump=0,
        hand=1 << 0,
        unknown=1 << 5 | 1 << 11,
        hand_sizes=(1, 1, 1, 0),
        forbidden=(0, 1 << 11, 1 << 5, 0),
        played=(0, 0, 0, 0),
        out=((1 << 24) - 1) & ~(1 << 0 | 1 << 5 | 1 << 11),
    )
    stream = Stream("tight", "0")
    for _ in range(10):
        assert sample_hands(knowledge, stream) == (1 << 0, 1 << 5, 1 << 11, 0)
