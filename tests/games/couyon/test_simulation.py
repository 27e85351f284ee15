"""Random-simulation invariants over 10,000 seeded games of random legal play (issue 2, "How it
must be shown"): choices come from the contract's stream, so every failure replays exactly. The
full 10,000 run under ``pytest --full`` (tests/games/full.py); by default the first 2,000, in
batches of the same size and with the same checks."""

from __future__ import annotations

import pytest
from tests.games.full import sized

from couyon.common.stream import Stream
from couyon.games.couyon.cards import DECK_SIZE, TEAMS, mask_of
from couyon.games.couyon.game import PASS, TAKE, DealSummary, GameState, Move, legal_moves, new_game, play
from couyon.games.couyon.rules import CARD_POINTS, Outcome

PER_BATCH = 500
BATCHES = sized(20, 4)
"""10,000 games under ``--full``; 2,000 by default (the first four batches, each as large and as checked)."""
GAMES = PER_BATCH * BATCHES
TAKE_ONE_IN = 6
"""A random bidder takes one time in six, so a few percent of deals go through all eight proposals."""


def check_fresh_deal(state: GameState) -> None:
    """Every card dealt once, four to each hand at the contract's positions, the 17th card proposed."""
    deal = state.deal
    assert sorted(deal.deck) == list(range(DECK_SIZE))
    assert [hand.bit_count() for hand in deal.hands] == [4, 4, 4, 4]
    assert deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3] == mask_of(deal.deck[:16])
    assert deal.proposals == (deal.deck[16],) and deal.bids == () and deal.tricks == ()
    assert state.to_move == deal.dealer.left


def check_scoring(log: tuple[DealSummary, ...], final: GameState) -> None:
    """Lines and stakes follow the scoring rules deal after deal, and the game ends exactly at zero."""
    lines, stake = (5, 5), 1
    for index, deal in enumerate(log):
        assert deal.number == index + 1 and deal.stake == stake
        if index:
            assert deal.dealer == log[index - 1].dealer.left
        assert 1 <= len(deal.proposals) <= 8
        if deal.outcome is Outcome.REDEAL:
            assert len(deal.proposals) == 8 and deal.points is None and deal.lines == lines
            continue
        assert deal.taker is not None and deal.points is not None and deal.trump == deal.proposals[-1].suit
        mine, theirs = deal.taker.team, deal.taker.team.other
        expected = list(lines)
        if deal.points[mine] > deal.points[theirs]:
            assert deal.outcome is Outcome.MADE
            expected[mine] = max(0, lines[mine] - stake)
            stake = 1
        elif deal.points[mine] < deal.points[theirs]:
            assert deal.outcome is Outcome.FAILED
            expected[mine] = lines[mine] + stake
            expected[theirs] = max(0, lines[theirs] - stake)
            stake = 1
        else:
            assert deal.outcome is Outcome.TIE
            stake = 2
        lines = (expected[0], expected[1])
        assert deal.lines == lines
        # The game ends exactly when a team reaches zero: never before the last deal, always at it.
        assert (0 in lines) == (index == len(log) - 1)
    assert final.lines == lines and final.winner is not None and final.lines[final.winner] == 0
    assert final.score == 1000 + 100 * lines[1] - 100 * lines[0]


def simulate(number: int, counters: dict[str, int]) -> None:
    seed = f"simulation-{number}"
    chooser = Stream(seed, "random-play")
    state = new_game(seed)
    check_fresh_deal(state)
    trick_seats: list[int] = []
    dealt_points = sum(CARD_POINTS[card] for card in state.deal.deck[:16])
    while state.to_move is not None:
        options = legal_moves(state)
        if state.deal.trump is None:
            assert [option.action for option in options] == [TAKE, PASS]
            chosen = options[0] if chooser.uniform(TAKE_ONE_IN) == 0 else options[1]
        else:
            assert options and all(option.card is not None for option in options)
            chosen = options[chooser.uniform(len(options))]
            trick_seats.append(chosen.seat)
        number_before = state.deal.number
        state = play(state, Move(chosen.seat, chosen.action))
        if len(trick_seats) == 4:
            # Each trick has one card per seat, clockwise from its leader.
            assert trick_seats == [(trick_seats[0] + i) % 4 for i in range(4)]
            trick_seats = []
        if state.deal.number != number_before or state.winner is not None:
            finished = state.finished_deals[-1]
            assert trick_seats == []
            if finished.points is not None:
                # All sixteen dealt cards are played: the deal's points are exactly the figures dealt.
                assert sum(finished.points) == dealt_points
                counters["played"] += 1
                counters["ties"] += finished.outcome is Outcome.TIE
            else:
                counters["redeals"] += 1
            if state.winner is None:
                check_fresh_deal(state)
                dealt_points = sum(CARD_POINTS[card] for card in state.deal.deck[:16])
    check_scoring(state.finished_deals, state)
    assert len(state.finished_deals) == state.deal.number
    assert all(state.lines[team] >= 0 for team in TEAMS)
    counters["games"] += 1


@pytest.mark.parametrize("batch", range(BATCHES))
def test_random_games_keep_every_invariant(batch: int) -> None:
    """Issue 2 invariants over the PER_BATCH seeded random games of this batch (all rules at once)."""
    counters = {"games": 0, "played": 0, "ties": 0, "redeals": 0}
    per_batch = PER_BATCH
    for number in range(batch * per_batch, (batch + 1) * per_batch):
        simulate(number, counters)
    assert counters["games"] == per_batch
    # The batch must reach the rare cases, or its invariants on them prove nothing.
    assert counters["ties"] > 0 and counters["redeals"] > 0
