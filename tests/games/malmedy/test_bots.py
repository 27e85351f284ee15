"""Malmedy bots: legal moves only, determinism, the baseline's habits, the expert's shortcuts, the solver's values."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import pytest

from couyon.common.stream import Stream
from couyon.games.couyon.bots import Bot, bot_move
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.cards import SEATS, Card, Seat, mask_of
from couyon.games.couyon.game import CONTRA, MITE, PASS, RECONTRA, GameState, Move, legal_moves, new_game, play
from couyon.games.couyon.rules import CARD_POINTS
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot, chosen_suit
from couyon.games.malmedy.bots.expert import Budget, MalmedyExpertBot, choice_likelihood
from couyon.games.malmedy.bots.knowledge import knowledge_of, respects, sample_hands
from couyon.games.malmedy.bots.objective import capot_matters, outcome_values
from couyon.games.malmedy.bots.omniscient import MalmedyOmniscientBot
from couyon.games.malmedy.bots.solver import (
    CAPOT,
    FAILED,
    FAILED_CAPOT,
    MADE,
    MADE_CAPOT,
    Position,
    card_outcomes,
    exact_values,
    outcome_of,
    position_outcome,
)
from couyon.games.malmedy.bots.trump import HANDS, best_suit, hand_index, suit_values
from couyon.games.malmedy.game import MALMEDY, MalmedyDeal, MalmedyView, malmedy_view
from couyon.games.malmedy.rules import legal_cards, trick_winner
from couyon.registry import MALMEDY_GAME


def hand(text: str) -> int:
    return mask_of(Card.parse(code) for code in text.split())


def card(code: str) -> Card:
    return Card.parse(code)


def play_out(seed: str, north_south: Bot, west_east: Bot, max_deals: int = 1000) -> tuple[GameState, list[Move]]:
    """A Malmedy game between two bot teams, checking that every move is one of the legal moves."""
    state = new_game(seed, MALMEDY)
    moves = []
    while state.winner is None and state.deal.number <= max_deals:
        bot = north_south if (state.to_move or 0) % 2 == 0 else west_east
        move = bot_move(state, bot)
        assert move in legal_moves(state), (seed, move)
        moves.append(move)
        state = play(state, move)
    return state, moves


QUICK_EXPERT = MalmedyExpertBot(play_budget=Budget(2, 4, 1_500, 1_500), answer_budget=Budget(2, 4, 1_000, 1_000))
"""The expert's code with a small search, to play many games quickly."""


# --- every bot plays legal moves, and the same seed gives the same moves


def test_fast_bots_never_make_an_illegal_move_over_hundreds_of_games() -> None:
    baseline, random = MalmedyBaselineBot(), RandomBot()
    for number in range(300):
        teams = (
            (baseline, random) if number % 3 == 0 else (random, baseline) if number % 3 == 1 else (baseline, baseline)
        )
        state, _ = play_out(f"malmedy-legal-{number}", *teams)
        assert state.winner is not None


def test_the_expert_never_makes_an_illegal_move() -> None:
    for number in range(8):
        state, _ = play_out(
            f"malmedy-expert-legal-{number}", QUICK_EXPERT, RandomBot() if number % 2 else MalmedyBaselineBot()
        )
        assert state.winner is not None
    state, _ = play_out("malmedy-expert-full", MalmedyExpertBot(), MalmedyBaselineBot(), max_deals=3)
    assert state.deal.number > 3 or state.winner is not None


def test_the_omniscient_yardstick_plays_legal_moves() -> None:
    omniscient = MalmedyOmniscientBot()
    baseline = MalmedyBaselineBot()
    state = new_game("malmedy-omniscient", MALMEDY)
    while state.winner is None and state.deal.number <= 4:
        seat = state.to_move
        assert seat is not None
        if seat % 2 == 0:
            move = omniscient.choose_with_state(state, Stream("omniscient", str(state.move_count)))
        else:
            move = bot_move(state, baseline)
        assert move in legal_moves(state)
        state = play(state, move)


@pytest.mark.parametrize("bot", [RandomBot(), MalmedyBaselineBot(), MalmedyExpertBot()], ids=lambda bot: bot.name)
def test_the_same_seed_gives_the_same_moves(bot: Bot) -> None:
    first_state, first_moves = play_out("malmedy-replay", bot, MalmedyBaselineBot(), max_deals=2)
    second_state, second_moves = play_out("malmedy-replay", type(bot)(), MalmedyBaselineBot(), max_deals=2)
    assert first_moves == second_moves
    assert first_state == second_state


def test_the_registry_seats_the_malmedy_expert_and_never_the_omniscient_one() -> None:
    assert MALMEDY_GAME.table_bot_id in MALMEDY_GAME.bots
    assert isinstance(MALMEDY_GAME.bot(MALMEDY_GAME.table_bot_id), MalmedyExpertBot)
    assert {"random/1", "baseline/1", "expert/1"} <= set(MALMEDY_GAME.bots)
    assert all(bot.name != MalmedyOmniscientBot.name for bot in MALMEDY_GAME.bots.values())


RELEASED_GAMES = {
    ("expert/1", "malmedy-released-a"): "29ea16e6284d744800f02d0508d61ea72e436821a3671e4bf09605482e4e0768",
}
"""SHA-256 of the moves of whole games (the version against the baseline), computed with the code that released it."""


def test_released_expert_versions_still_play_the_moves_they_played_when_released() -> None:
    # A recorded game replays with its recorded bot id: a later speed-up must not change a released version's moves.
    for (identifier, seed), digest in RELEASED_GAMES.items():
        _, moves = play_out(seed, MALMEDY_GAME.bot(identifier), MalmedyBaselineBot())
        assert hashlib.sha256(" ".join(str(move) for move in moves).encode()).hexdigest() == digest, identifier


# --- hand-built positions


def dealt(seed: str = "malmedy-bots", suit: str | None = None, **hands: str) -> GameState:
    """A new Malmedy game with some seats' hands replaced (five cards, the first three being the first packet);
    the other seats give up the cards moved and are made up from the blind. Then the trump, if given."""
    state = new_game(seed, MALMEDY)
    deal: MalmedyDeal = state.deal
    fixed = {Seat.parse(name): text.split() for name, text in hands.items()}
    taken = mask_of(Card.parse(code) for codes in fixed.values() for code in codes)
    masks = [hand(" ".join(fixed[seat])) if seat in fixed else deal.hands[seat] & ~taken for seat in SEATS]
    first = [
        hand(" ".join(fixed[seat][:3])) if seat in fixed else deal.first_cards[seat] & masks[seat] for seat in SEATS
    ]
    pool = [c for c in range(24) if not any(mask >> c & 1 for mask in masks)]
    for seat in SEATS:
        while masks[seat].bit_count() < 5:
            masks[seat] |= 1 << pool.pop()
    deal = deal._replace(
        hands=(masks[0], masks[1], masks[2], masks[3]),
        first_cards=(first[0], first[1], first[2], first[3]),
        blind=mask_of(pool),
    )
    state = state._replace(deal=deal)
    if suit is not None:
        state = play(state, Move(deal.chooser, f"trump-{suit}"))
    return state


def test_dealt_helper_gives_every_seat_five_distinct_cards() -> None:
    state = dealt(S="AH KH QH JH 10H")
    masks = (*state.deal.hands, state.deal.blind)
    assert [mask.bit_count() for mask in masks] == [5, 5, 5, 5, 4]
    assert masks[0] | masks[1] | masks[2] | masks[3] | masks[4] == (1 << 24) - 1


def test_baseline_names_the_suit_of_its_strongest_first_three_cards() -> None:
    assert chosen_suit(hand("AH KH 9S")) == 2
    # The queen of clubs is a trump whatever the choice: the suit is chosen for the other cards.
    assert chosen_suit(hand("QC AD 10S")) == 1


def _view_of(state: GameState, seat: Seat) -> MalmedyView:
    return malmedy_view(state, seat)


def _to_first_card_of(state: GameState, seat: Seat, bot: Bot) -> GameState:
    while state.to_move != seat:
        state = play(state, bot_move(state, bot))
    return state


def test_baseline_announces_mite_with_three_trumps_and_not_with_fewer() -> None:
    baseline = MalmedyBaselineBot()
    state = dealt(suit="H")
    chooser = state.deal.chooser
    strong = dealt(suit="H", **{chooser.name: "QS AH KH 9C 10D"})
    view = _view_of(strong, chooser)
    assert Move(chooser, MITE) in view.legal_moves
    assert baseline.choose(view, Stream("t", "mite")) == Move(chooser, MITE)
    weak = dealt(suit="H", **{chooser.name: "QS AH 9C 10D JD"})
    view = _view_of(weak, chooser)
    assert Move(chooser, MITE) in view.legal_moves
    assert baseline.choose(view, Stream("t", "mite")).action != MITE


def test_baseline_contras_with_three_trumps_and_recontras_with_four() -> None:
    baseline = MalmedyBaselineBot()
    state = dealt(suit="H")
    chooser = state.deal.chooser
    left = chooser.left
    strong = dealt(suit="H", **{chooser.name: "QS AH KH JH 10H", left.name: "QC 9H KD AD AS"})
    after_mite = play(strong, Move(chooser, MITE))
    assert after_mite.to_move == left and after_mite.deal.asking == CONTRA
    # Left holds QC and 9H: two trumps, so no contra.
    assert baseline.choose(_view_of(after_mite, left), Stream("t", "c")) == Move(left, PASS)
    rich = dealt(suit="H", **{chooser.name: "QS AH KH JH 10H", left.name: "QC 9H QH AD AS"})
    after_mite = play(rich, Move(chooser, MITE))
    assert baseline.choose(_view_of(after_mite, left), Stream("t", "c")) == Move(left, CONTRA)
    after_contra = play(after_mite, Move(left, CONTRA))
    assert after_contra.to_move == chooser and after_contra.deal.asking == RECONTRA
    # The announcer holds five trumps (the mite queen of spades and four hearts): recontra.
    assert baseline.choose(_view_of(after_contra, chooser), Stream("t", "r")) == Move(chooser, RECONTRA)


def test_baseline_loads_a_safe_trick_of_its_partner_on_charge() -> None:
    baseline = MalmedyBaselineBot()
    chooser = dealt().deal.chooser
    second, third, fourth = chooser.left, chooser.left.left, chooser.left.left.left

    def third_card(lead: str, fourth_hand: str) -> Card:
        state = dealt(
            suit="H",
            **{
                chooser.name: f"{lead} 9D 10D JD 9C",
                second.name: "9H 10C JC KC AC",
                third.name: "AS KD 10S JS 9S",
                fourth.name: fourth_hand,
            },
        )
        state = play(state, Move(chooser, card(lead)))
        state = play(state, Move(second, card("9H")))
        view = _view_of(state, third)
        assert view.to_move == third
        return baseline.card_for(view)

    # The partner's ace of trump is master: the trick is safe, so the ace of spades goes on it ("on charge").
    assert third_card("AH", "10H QD AD KS QS") == card("AS")
    # His king of trump may still be beaten by the last player (the ace is unseen): give the cheapest card.
    assert third_card("KH", "AH QD AD KS QS") in {card("9S"), card("10S")}


def test_a_forced_move_is_returned_without_drawing_randomness() -> None:
    expert = MalmedyExpertBot()
    state = new_game("malmedy-forced", MALMEDY)
    checked = 0
    while state.winner is None and checked < 12:
        seat = state.to_move
        assert seat is not None
        options = legal_moves(state)
        if len(options) == 1:
            rng = Stream("forced", "probe")
            assert expert.choose(malmedy_view(state, seat), rng) == options[0]
            assert rng.next_u32() == Stream("forced", "probe").next_u32()
            checked += 1
        state = play(state, bot_move(state, QUICK_EXPERT))
    assert checked == 12


def test_the_expert_names_the_trump_its_table_values_most() -> None:
    expert = MalmedyExpertBot()
    chooser = new_game("malmedy-bots", MALMEDY).deal.chooser
    state = dealt(**{chooser.name: "AH KH JH 9C 10D"})
    view = _view_of(state, chooser)
    assert view.trump is None and len(view.hand) == 3
    assert expert.choose(view, Stream("t", "trump")) == Move(chooser, "trump-H")
    assert best_suit(hand("AH KH JH"), (13, 13), chooser % 2) == 2


# --- the trump table


def test_the_trump_table_covers_every_first_three_cards_once() -> None:
    indices = {hand_index(mask_of(trio)) for trio in _trios()}
    assert indices == set(range(HANDS))


def _trios() -> list[tuple[int, int, int]]:
    return [(a, b, c) for a in range(24) for b in range(a + 1, 24) for c in range(b + 1, 24)]


def test_the_trump_table_prefers_the_suit_of_strong_trumps() -> None:
    values = suit_values(hand("AS KS 10S"), (13, 13), 0)
    assert max(range(4), key=lambda suit: values[suit]) == 3
    assert values[3] > 0.0


def test_the_choice_likelihood_favours_hands_with_trumps_in_the_named_suit() -> None:
    assert choice_likelihood(hand("AH KH QH 9C 10D"), 2) > choice_likelihood(hand("AS KS QS 9C 10D"), 2)


# --- what the view proves and the deals drawn from it


def test_the_true_deal_always_agrees_with_what_the_view_proves_and_so_do_the_drawn_ones() -> None:
    baseline, random = MalmedyBaselineBot(), RandomBot()
    for number in range(30):
        state = new_game(f"malmedy-knowledge-{number}", MALMEDY)
        while state.winner is None and state.deal.number <= 2:
            seat = state.to_move
            assert seat is not None
            deal: MalmedyDeal = state.deal
            if deal.trump is not None:
                for observer in SEATS:
                    knowledge = knowledge_of(malmedy_view(state, observer))
                    assert respects(knowledge, deal.hands)
                    drawn = sample_hands(knowledge, Stream("draw", f"{number}:{state.move_count}:{observer}"))
                    assert respects(knowledge, drawn)
            state = play(state, bot_move(state, baseline if number % 2 else random))


def test_a_discard_proves_a_void_in_the_led_suit_but_nothing_about_trumps() -> None:
    state = dealt(suit="H")
    chooser = state.deal.chooser
    second = chooser.left
    state = dealt(
        suit="H",
        **{chooser.name: "AD 9C 10C JC KC", second.name: "9S AH KH QH JH"},
    )
    state = play(state, Move(chooser, card("AD")))
    state = play(state, Move(second, card("9S")))
    knowledge = knowledge_of(malmedy_view(state, chooser.left.left))
    forbidden = knowledge.forbidden[second]
    assert forbidden & hand("9D 10D JD QD KD") == hand("9D 10D JD QD KD")
    assert not forbidden & hand("AH KH QH JH QC")


# --- the objective


def test_outcomes_are_worth_the_lines_ruling_10_moves() -> None:
    # NS choose at 13 all: made 1, made capot 2, failed: WE erase 1 and NS add the couille.
    values = outcome_values((13, 13), 1, 0, 0)
    assert values[MADE] == 1 and values[MADE_CAPOT] == 2 and values[FAILED] == -2 and values[FAILED_CAPOT] == -3
    assert outcome_values((13, 13), 1, 0, 1) == tuple(-value for value in values)
    # A mite with contra and recontra: the winner erases 4 lines (5 with capot).
    assert outcome_values((13, 13), 4, 1, 1)[MADE] == 4
    # Two lines left: a capot erases no more than a plain win, plus the game bonus.
    near_end = outcome_values((2, 13), 2, 0, 0)
    assert near_end[MADE] == near_end[MADE_CAPOT] == 3
    assert capot_matters(near_end, 0) == 2


# --- the solver


def brute_force(hands: list[int], trump: int, mite: bool, leader: int, trick: Sequence[int], alive: int) -> int:
    """The solver's value (NS points minus WE, plus capot) still to come, by plain minimax over every legal card."""
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, trump, mite)) % 4
        points = sum(CARD_POINTS[c] for c in trick)
        gained = points if winner % 2 == 0 else -points
        alive &= 1 if winner % 2 == 0 else 2
        if hands[0] == 0:
            return gained + (CAPOT if alive == 1 else -CAPOT if alive == 2 else 0)
        return gained + brute_force(hands, trump, mite, winner, (), alive)
    seat = (leader + len(trick)) % 4
    legal = legal_cards(hands[seat], trick, trump, mite)
    values = []
    for c in range(24):
        if legal >> c & 1:
            rest = list(hands)
            rest[seat] ^= 1 << c
            values.append(brute_force(rest, trump, mite, leader, (*trick, c), alive))
    return max(values) if seat % 2 == 0 else min(values)


def random_position(stream: Stream) -> Position:
    """Hands of 1 to 3 cards, any trump and mite, a leader, 0 to 3 legal cards on the table, any capot bits."""
    deck = list(range(24))
    stream.shuffle(deck)
    size = 1 + stream.uniform(3)
    hands = [0, 0, 0, 0]
    for seat in range(4):
        for c in deck[size * seat : size * seat + size]:
            hands[seat] |= 1 << c
    trump = stream.uniform(4)
    mite = stream.uniform(2) == 1
    leader = stream.uniform(4)
    trick: list[int] = []
    for position in range(stream.uniform(4)):
        seat = (leader + position) % 4
        legal = [c for c in range(24) if legal_cards(hands[seat], trick, trump, mite) >> c & 1]
        chosen = stream.choice(legal)
        hands[seat] ^= 1 << chosen
        trick.append(chosen)
    return Position(
        (hands[0], hands[1], hands[2], hands[3]),
        trump,
        mite,
        leader,
        tuple(trick),
        stream.uniform(21) - 10,
        stream.uniform(4),
    )


def test_solver_equals_brute_force_minimax_on_random_positions() -> None:
    stream = Stream("malmedy-solver", "positions")
    for _ in range(150):
        position = random_position(stream)
        exact = exact_values(position)
        seat = (position.leader + len(position.trick)) % 4
        for c, value in exact.items():
            rest = list(position.hands)
            rest[seat] ^= 1 << c
            assert value == brute_force(
                rest, position.trump, position.mite, position.leader, (*position.trick, c), position.alive
            )


def test_outcome_classes_are_the_class_of_the_exact_value() -> None:
    stream = Stream("malmedy-solver", "classes")
    for _ in range(150):
        position = random_position(stream)
        exact = exact_values(position)
        seat = (position.leader + len(position.trick)) % 4
        best = max(exact.values()) if seat % 2 == 0 else min(exact.values())
        for chooser_team in (0, 1):
            outcomes = card_outcomes(position, chooser_team)
            assert outcomes == {c: outcome_of(value + position.ns_lead, chooser_team) for c, value in exact.items()}
            assert position_outcome(position, chooser_team) == outcome_of(best + position.ns_lead, chooser_team)


def test_a_position_is_worth_its_best_card_on_full_deals() -> None:
    stream = Stream("malmedy-solver", "full")
    for _ in range(6):
        deck = list(range(24))
        stream.shuffle(deck)
        hands = [sum(1 << c for c in deck[5 * seat : 5 * seat + 5]) for seat in range(4)]
        position = Position(
            (hands[0], hands[1], hands[2], hands[3]), stream.uniform(4), stream.uniform(2) == 1, 0, (), 0, 3
        )
        for chooser_team in (0, 1):
            outcomes = card_outcomes(position, chooser_team)
            best = max(outcomes.values()) if chooser_team == 0 else min(outcomes.values())
            assert position_outcome(position, chooser_team) == best
            assert set(outcomes.values()) <= {FAILED_CAPOT, FAILED, MADE, MADE_CAPOT}
