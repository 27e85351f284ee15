"""αμ (expert/4): exact on one deal, PIMC at depth 1, never more optimistic deeper, and legal, deterministic play."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from tests.games.couyon.test_bots import play_out

from couyon.common.stream import Stream
from couyon.games.couyon.bots import bot_move, bot_rng
from couyon.games.couyon.bots.alphamu import AlphaMuBot, AlphaMuSearch, pareto
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.knowledge import knowledge_of, sample_hands
from couyon.games.couyon.bots.objective import outcome_utilities
from couyon.games.couyon.bots.registry import BOTS_BY_ID, TABLE_BOT_ID
from couyon.games.couyon.bots.solver import outcome_classes
from couyon.games.couyon.game import GameState, new_game, play
from couyon.games.couyon.view import SeatView, view


def searched_positions(prefix: str, games: int) -> Iterator[tuple[GameState, SeatView]]:
    """Every card decision with a choice in ``games`` games of expert/3 against the baseline."""
    expert, baseline = ExpertBot(), BaselineBot()
    for number in range(games):
        state = new_game(f"{prefix}-{number}")
        while state.winner is None and state.deal.number <= 2:
            seat = state.to_move
            assert seat is not None
            seat_view = view(state, seat)
            if seat_view.trump is not None and len(seat_view.legal_moves) > 1:
                yield state, seat_view
            state = play(state, bot_move(state, expert if seat % 2 == number % 2 else baseline))


def best_means(fronts: dict[int, list[tuple[int, ...]]]) -> dict[int, float]:
    return {card: max(sum(vector) / len(vector) for vector in front) for card, front in fronts.items()}


def test_pareto_keeps_the_vectors_nothing_beats_everywhere() -> None:
    assert sorted(pareto([(1, -1), (-1, 1), (0, -1), (1, -1), (-1, -1)])) == [(-1, 1), (1, -1)]
    assert pareto([(0, 0), (1, 0), (1, 1)]) == [(1, 1)]


def test_one_deal_alone_gives_the_exact_solver_outcome_at_every_depth() -> None:
    # With a single deal nothing is fused: the tree search (legal cards, tricks, points) must be the solver's answer.
    checked = 0
    for state, seat_view in searched_positions("alphamu-exact", 6):
        deal = state.deal
        assert deal.trump is not None
        points = deal.points[0] - deal.points[1]
        exact = outcome_classes(deal.hands, deal.trump, deal.leader, deal.trick, points)
        sign = 1 if seat_view.seat % 2 == 0 else -1
        search = AlphaMuSearch([deal.hands], seat_view.seat, deal.trump)
        for depth in (1, 2, 3, 4):
            fronts = search.root_fronts(deal.leader, tuple(deal.trick), points, depth)
            assert fronts == {card: [(sign * outcome,)] for card, outcome in exact.items()}
        checked += 1
    assert checked > 30


def test_depth_one_is_pimc_over_the_same_deals() -> None:
    bot = AlphaMuBot(version=4, depth=1, first_trick_worlds=12, worlds=12)
    checked = 0
    for state, seat_view in searched_positions("alphamu-pimc", 3):
        rng_label = f"pimc-{state.move_count}"
        values = bot.card_values(seat_view, Stream("alphamu", rng_label))
        # PIMC by hand: the same draws (the same generator), each solved alone, averaged with the bid weights.
        knowledge = knowledge_of(seat_view)
        weights: dict[tuple[int, int, int, int], float] = {}
        for hands, weight in ExpertBot().draws(seat_view, knowledge, Stream("alphamu", rng_label)):
            if hands in weights or len(weights) < 12:
                weights[hands] = weights.get(hands, 0.0) + weight
            if len(weights) >= 12:
                break
        taker = seat_view.taker
        assert taker is not None
        utilities = outcome_utilities(seat_view.lines, seat_view.stake, taker % 2)
        own = 1 if seat_view.seat % 2 == taker % 2 else -1
        taker_of_ns = 1 if taker % 2 == 0 else -1
        points = seat_view.points[0] - seat_view.points[1]
        expected = dict.fromkeys(values, 0.0)
        for hands, weight in weights.items():
            trick = seat_view.trick
            for card, sign in outcome_classes(hands, knowledge.trump, trick.leader, trick.cards, points).items():
                expected[card] += weight * own * utilities.of_sign(taker_of_ns * sign) / sum(weights.values())
        assert values.keys() == expected.keys()
        assert all(abs(values[card] - expected[card]) < 1e-9 for card in values)
        checked += 1
    assert checked > 15


def test_deeper_search_is_never_more_optimistic_and_changes_nothing_without_a_later_choice() -> None:
    checked = 0
    for state, seat_view in searched_positions("alphamu-depth", 6):
        knowledge = knowledge_of(seat_view)
        rng = Stream("alphamu-depth", str(state.move_count))
        deals = list(dict.fromkeys(sample_hands(knowledge, rng) for _ in range(8)))
        search = AlphaMuSearch(deals, seat_view.seat, knowledge.trump)
        trick = seat_view.trick
        points = seat_view.points[0] - seat_view.points[1]
        means = [best_means(search.root_fronts(trick.leader, tuple(trick.cards), points, depth)) for depth in (1, 2, 3)]
        for shallow, deep in pairwise(means):
            # One card for every deal at a later turn can only cost what PIMC's per-deal guesses promised.
            assert all(deep[card] <= shallow[card] + 1e-9 for card in shallow)
        if len(seat_view.hand) <= 2:
            # Our last card is forced: nothing is left to fuse.
            assert means[0] == means[1] == means[2]
        checked += 1
    assert checked > 30


def test_expert_4_plays_only_legal_moves_and_replays_identically() -> None:
    bot = BOTS_BY_ID["expert/4"]
    assert isinstance(bot, AlphaMuBot)
    for number in range(3):
        first_state, first_moves = play_out(f"alphamu-legal-{number}", bot, ExpertBot(), max_deals=4)
        second_state, second_moves = play_out(f"alphamu-legal-{number}", bot, ExpertBot(), max_deals=4)
        # play_out checks each move against the legal moves.
        assert first_moves == second_moves and first_state == second_state


def test_expert_4_bids_as_expert_3_and_is_registered_but_not_seated() -> None:
    assert TABLE_BOT_ID == "expert/3"
    bot, expert = BOTS_BY_ID["expert/4"], ExpertBot()
    state = new_game("alphamu-bids")
    bids = 0
    while state.deal.trump is None or state.deal.number < 6:
        seat = state.to_move
        assert seat is not None
        seat_view = view(state, seat)
        move = expert.choose(seat_view, bot_rng(state.seed, seat, state.move_count))
        if seat_view.trump is None:
            assert bot.choose(seat_view, bot_rng(state.seed, seat, state.move_count)) == move
            bids += 1
        state = play(state, move)
        if state.winner is not None:
            break
    assert bids > 10


def test_a_later_guess_pimc_counts_on_in_every_deal_costs_its_value_in_alpha_mu() -> None:
    # Game "stat:0" played by expert/3 at every seat, move 119: West to play, eight deals drawn. After card 16
    # PIMC counts on a later guess that only works deal by deal (found among 1,118 decisions: fusion is rare).
    expert = ExpertBot()
    state = new_game("stat:0")
    while state.move_count < 119:
        state = play(state, bot_move(state, expert))
    assert state.to_move is not None
    seat_view = view(state, state.to_move)
    knowledge = knowledge_of(seat_view)
    rng = Stream("f", "0")
    deals = list(dict.fromkeys(sample_hands(knowledge, rng) for _ in range(8)))
    search = AlphaMuSearch(deals, seat_view.seat, knowledge.trump)
    trick = seat_view.trick
    points = seat_view.points[0] - seat_view.points[1]
    pimc = search.root_fronts(trick.leader, tuple(trick.cards), points, 1)
    alpha_mu = search.root_fronts(trick.leader, tuple(trick.cards), points, 3)
    card = 16
    assert len(pimc[card]) == 1 and sum(pimc[card][0]) == 1
    # Two ways to play on, each winning in deals where the other loses: one card for all deals must choose.
    assert len(alpha_mu[card]) == 2 and max(sum(vector) for vector in alpha_mu[card]) == -1
    first, second = alpha_mu[card]
    swapped = [index for index in range(len(deals)) if first[index] != second[index]]
    assert len(swapped) == 2 and {first[swapped[0]], second[swapped[0]]} == {-1, 1}
    # Each deal alone still gets PIMC's answer: the best of the two vectors deal by deal.
    assert tuple(map(max, first, second)) == pimc[card][0]
