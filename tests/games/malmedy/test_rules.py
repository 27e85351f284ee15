"""The Malmedy couyon (../shared/spec/malmedy.md): one test per ruling, the worked examples, perft, simulation.

Positions are reached by replaying chosen moves from fixed seeds, or built by hand with
``MalmedyDeal``; each test names the ruling it checks.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.games.full import sized

from couyon.common.errors import GameOverError, IllegalMoveError, InvalidMoveError, OutOfTurnError, ReplayError
from couyon.common.stream import Stream
from couyon.games.couyon.cards import CARDS, SEATS, Card, Seat, Suit, Team, cards_of, mask_of
from couyon.games.couyon.game import (
    CONTRA,
    MITE,
    PASS,
    RECONTRA,
    GameState,
    Move,
    Phase,
    legal_cards,
    legal_moves,
    new_game,
    play,
    replay,
)
from couyon.games.couyon.rules import CARD_POINTS, Outcome
from couyon.games.couyon.view import view
from couyon.games.malmedy.game import MALMEDY, MalmedyDeal, MalmedyView, deal_hands
from couyon.games.malmedy.record import verify
from couyon.games.malmedy.rules import (
    QUEEN_OF_CLUBS,
    QUEEN_OF_SPADES,
    effective_suit,
    lines_erased,
    score_deal,
    trick_winner,
    trump_mask,
)
from couyon.games.malmedy.rules import legal_cards as malmedy_legal_cards
from reference import malmedy_perft as reference_perft


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in text.split())


def hand(text: str) -> int:
    return mask_of(cards(text))


def codes(mask: int) -> set[str]:
    return {str(card) for card in cards_of(mask)}


def move(seat: Seat, action: str) -> Move:
    return Move.parse(f"{seat}:{action}")


def start(seed: str = "malmedy") -> GameState:
    return new_game(seed, MALMEDY)


def chosen(seed: str = "malmedy", suit: str = "H") -> GameState:
    state = start(seed)
    return play(state, move(state.deal.chooser, f"trump-{suit}"))


def with_hands(state: GameState, hands: dict[Seat, str], **changes: object) -> GameState:
    """``state`` with its deal's hands replaced (five cards each, or fewer for a later trick)."""
    masks = [hand(hands[seat]) for seat in SEATS]
    deal: MalmedyDeal = state.deal._replace(hands=(masks[0], masks[1], masks[2], masks[3]), **changes)
    return state._replace(deal=deal)


# --- ruling 1: players, cards, points


def test_ruling_1_same_deck_points_and_seats_as_the_common_game() -> None:
    """Four players in two facing teams, 24 cards A K Q J 10 9 worth 4 3 2 1 0 0, turns S W N E."""
    assert MALMEDY.card_points == tuple(CARD_POINTS) and sum(MALMEDY.card_points) == 40
    assert [seat.left for seat in SEATS] == [Seat.W, Seat.N, Seat.E, Seat.S]
    assert (Seat.S.team, Seat.N.team, Seat.W.team, Seat.E.team) == (Team.NS, Team.NS, Team.WE, Team.WE)


# --- ruling 2: the deal


def test_ruling_2_deal_three_then_a_blind_of_four_then_two_from_the_dealers_left() -> None:
    """Positions 0–2 to the dealer's left, …, 9–11 to the dealer, 12–15 the blind, 16–23 two by two."""
    deck = CARDS  # canonical order, so position p holds card p
    hands, first, blind = deal_hands(deck, Seat.E)
    assert codes(first[Seat.S]) == {str(CARDS[p]) for p in (0, 1, 2)}
    assert codes(first[Seat.E]) == {str(CARDS[p]) for p in (9, 10, 11)}
    assert codes(blind) == {str(CARDS[p]) for p in (12, 13, 14, 15)}
    assert codes(hands[Seat.S]) == {str(CARDS[p]) for p in (0, 1, 2, 16, 17)}
    assert codes(hands[Seat.W]) == {str(CARDS[p]) for p in (3, 4, 5, 18, 19)}
    assert codes(hands[Seat.N]) == {str(CARDS[p]) for p in (6, 7, 8, 20, 21)}
    assert codes(hands[Seat.E]) == {str(CARDS[p]) for p in (9, 10, 11, 22, 23)}


def test_ruling_2_every_card_is_dealt_once_five_to_each_and_four_to_the_blind() -> None:
    for number in range(50):
        deal: MalmedyDeal = start(f"deal-{number}").deal
        masks = [*deal.hands, deal.blind]
        assert [mask.bit_count() for mask in masks] == [5, 5, 5, 5, 4]
        union = 0
        for mask in masks:
            assert not union & mask
            union |= mask
        assert union == (1 << 24) - 1


# --- ruling 3: the chooser names trump


def test_ruling_3_the_dealers_left_names_one_of_four_suits_and_cannot_pass() -> None:
    state = start()
    chooser = state.deal.chooser
    assert chooser == state.deal.dealer.left and state.to_move == chooser and state.phase is Phase.CHOOSING
    assert [str(option.action) for option in legal_moves(state)] == ["trump-C", "trump-D", "trump-H", "trump-S"]
    with pytest.raises(IllegalMoveError, match="must first name the trump"):
        play(state, move(chooser, PASS))
    with pytest.raises(OutOfTurnError):
        play(state, move(chooser.left, "trump-H"))
    after = play(state, move(chooser, "trump-D"))
    assert after.deal.trump is Suit.D and after.phase is Phase.PLAYING


def test_ruling_3_the_chooser_sees_only_his_first_three_cards_before_naming_trump() -> None:
    state = start()
    chooser_view = view(state, state.deal.chooser)
    assert isinstance(chooser_view, MalmedyView)
    assert mask_of(chooser_view.hand) == state.deal.first_cards[state.deal.chooser]
    assert chooser_view.hand_sizes == (3, 3, 3, 3)
    after = play(state, move(state.deal.chooser, "trump-S"))
    assert len(view(after, state.deal.chooser).hand) == 5


# --- ruling 4: the queen of clubs is always a trump


@pytest.mark.parametrize("trump", list(Suit))
def test_ruling_4_queen_of_clubs_is_a_trump_between_ace_and_king(trump: Suit) -> None:
    assert trump_mask(trump, False) >> QUEEN_OF_CLUBS & 1
    assert effective_suit(QUEEN_OF_CLUBS, trump, False) == trump
    ace, king = Card.parse("A" + trump.name), Card.parse("K" + trump.name)
    assert trick_winner((ace, QUEEN_OF_CLUBS), trump, False) == 0
    assert trick_winner((king, QUEEN_OF_CLUBS), trump, False) == 1


def test_ruling_4_queen_of_clubs_is_not_a_club_when_clubs_are_not_trump() -> None:
    # Clubs led, hearts trump: a hand holding only QC among "clubs" is void in clubs but holds a trump.
    assert codes(malmedy_legal_cards(hand("QC 9S AD"), cards("KC"), Suit.H, False)) == {"QC", "9S", "AD"}
    # Hearts led: QC may be played as a trump even while holding hearts.
    assert codes(malmedy_legal_cards(hand("QC 9H AD"), cards("KH"), Suit.H, False)) == {"QC", "9H"}
    # The QC wins a clubs trick as a trump, not as a club.
    assert trick_winner(cards("AC QC"), Suit.D, False) == 1


# --- ruling 5: the mite


def test_ruling_5_mite_makes_the_queen_of_spades_a_trump_above_the_queen_of_clubs() -> None:
    assert not trump_mask(Suit.H, False) >> QUEEN_OF_SPADES & 1
    assert trump_mask(Suit.H, True) >> QUEEN_OF_SPADES & 1
    assert trick_winner(cards("QC QS"), Suit.H, True) == 1
    assert trick_winner(cards("AH QS"), Suit.H, True) == 0
    # Without the mite it is an ordinary spade, and with spades trump a trump in its natural place (below K).
    assert trick_winner(cards("9H QS"), Suit.H, False) == 0
    assert trick_winner(cards("KS QS"), Suit.S, False) == 0
    assert trick_winner(cards("KS QS"), Suit.S, True) == 1


def test_ruling_5_trump_order_with_mite() -> None:
    """A, Q♠, Q♣, K, (Q), J, 10, 9 of trump: each beats every card after it."""
    order = cards("AD QS QC KD QD JD 10D 9D")
    for stronger in range(len(order)):
        for weaker in range(stronger + 1, len(order)):
            assert trick_winner((order[weaker], order[stronger]), Suit.D, True) == 1
            assert trick_winner((order[stronger], order[weaker]), Suit.D, True) == 0


def _to_first_card_of_holder(seed: str) -> GameState:
    """A state where the queen of spades' holder is about to play his first card (seed chosen so)."""
    state = chosen(seed, "H")
    while True:
        seat = state.to_move
        assert seat is not None
        if state.deal.hands[seat] >> QUEEN_OF_SPADES & 1:
            return state
        state = play(state, next(option for option in legal_moves(state) if option.card is not None))


def _seed_with_queen_of_spades_dealt() -> str:
    for number in range(100):
        seed = f"mite-{number}"
        if not start(seed).deal.blind >> QUEEN_OF_SPADES & 1:
            return seed
    raise AssertionError("no seed")


def test_ruling_5_mite_is_offered_to_the_holder_at_his_first_card_only() -> None:
    state = _to_first_card_of_holder(_seed_with_queen_of_spades_dealt())
    holder = state.to_move
    assert holder is not None and legal_moves(state)[0] == move(holder, MITE)
    # Other seats are never offered it; after the holder's first card it is gone.
    card = next(option for option in legal_moves(state) if option.card is not None)
    after = play(state, card)
    while after.to_move != holder:
        assert MITE not in [option.action for option in legal_moves(after)]
        after = play(after, next(option for option in legal_moves(after) if option.card is not None))
    assert MITE not in [option.action for option in legal_moves(after)]
    with pytest.raises(IllegalMoveError, match="only just before his first card"):
        play(after, move(holder, MITE))


def test_ruling_5_mite_without_the_queen_of_spades_is_refused() -> None:
    state = chosen("malmedy", "H")
    seat = state.to_move
    assert seat is not None
    packets = ("9C 10C JC KC AC", "9D 10D JD KD AD", "9H 10H JH KH AH", "QS QH QD 9S 10S")
    # The seat to move gets clubs; the queen of spades sits with the seat on its right.
    state = with_hands(state, {SEATS[(seat + offset) % 4]: packets[offset] for offset in range(4)})
    with pytest.raises(IllegalMoveError, match="without the queen of spades"):
        play(state, move(seat, MITE))


def test_ruling_5_and_6_mite_contra_recontra_then_the_announcers_card() -> None:
    state = _to_first_card_of_holder(_seed_with_queen_of_spades_dealt())
    holder = state.to_move
    assert holder is not None
    state = play(state, move(holder, MITE))
    assert state.deal.mite == holder and state.deal.asking == CONTRA and state.to_move == holder.left
    assert [option.action for option in legal_moves(state)] == [CONTRA, PASS]
    # The announcer's partner cannot answer, nor can the announcer play yet.
    with pytest.raises(OutOfTurnError):
        play(state, move(holder.partner, CONTRA))
    with pytest.raises(IllegalMoveError, match="must answer the mite"):
        play(state, move(holder.left, "recontra"))
    state = play(state, move(holder.left, CONTRA))
    assert state.deal.contra == 1 and state.to_move == holder and state.deal.asking == RECONTRA
    assert [option.action for option in legal_moves(state)] == [RECONTRA, PASS]
    state = play(state, move(holder, RECONTRA))
    assert state.deal.contra == 2 and state.deal.asking is None and state.to_move == holder
    assert all(option.card is not None for option in legal_moves(state))
    with pytest.raises(IllegalMoveError, match="twice"):
        play(state, move(holder, MITE))


def test_ruling_6_a_pass_to_the_mite_gives_the_card_back_to_the_announcer() -> None:
    state = _to_first_card_of_holder(_seed_with_queen_of_spades_dealt())
    holder = state.to_move
    assert holder is not None
    state = play(play(state, move(holder, MITE)), move(holder.left, PASS))
    assert state.deal.contra == 0 and state.deal.asking is None and state.to_move == holder


def test_ruling_5_the_announcers_own_card_is_judged_with_the_queen_of_spades_a_trump() -> None:
    # Spades led, hearts trump: holding QS and one other spade, after the mite QS is a trump (allowed),
    # and with QS as the only spade the announcer is void in spades (anything goes).
    assert codes(malmedy_legal_cards(hand("QS 9S 9C"), cards("AS"), Suit.H, True)) == {"QS", "9S"}
    assert codes(malmedy_legal_cards(hand("QS 9C 9D"), cards("AS"), Suit.H, True)) == {"QS", "9C", "9D"}
    assert codes(malmedy_legal_cards(hand("QS 9C 9D"), cards("AS"), Suit.H, False)) == {"QS"}


# --- ruling 7: free play


def test_ruling_7_lead_anything_including_trumps() -> None:
    assert codes(malmedy_legal_cards(hand("AH 9C QC 10S"), (), Suit.H, False)) == {"AH", "9C", "QC", "10S"}


def test_ruling_7_holding_the_led_suit_play_it_or_any_trump_without_beating() -> None:
    assert codes(malmedy_legal_cards(hand("9D AD 9H QC 9S"), cards("KD"), Suit.H, False)) == {"9D", "AD", "9H", "QC"}


def test_ruling_7_void_in_the_led_suit_play_anything() -> None:
    assert codes(malmedy_legal_cards(hand("9H QC 9S AC"), cards("KD"), Suit.H, False)) == {"9H", "QC", "9S", "AC"}


def test_ruling_7_a_trump_lead_asks_for_trump_and_the_queen_of_clubs_is_one() -> None:
    assert codes(malmedy_legal_cards(hand("9H AC 9S"), cards("QC"), Suit.H, False)) == {"9H"}
    assert codes(malmedy_legal_cards(hand("QC AC 9S"), cards("9H"), Suit.H, False)) == {"QC"}
    assert codes(malmedy_legal_cards(hand("AC 9S"), cards("9H"), Suit.H, False)) == {"AC", "9S"}


def test_ruling_7_a_forbidden_card_is_refused_in_one_sentence() -> None:
    state = chosen("malmedy", "H")
    leader = state.to_move
    assert leader is not None
    hands = {Seat.S: "9D AD 9S JS 10S", Seat.W: "KD QH JH 10H 9C", Seat.N: "AH KH 9H AS KS", Seat.E: "QD JD 10D QC QS"}
    state = with_hands(state, {seat: hands[seat] for seat in SEATS})
    # Make S lead a diamond, then W (holding KD) may not discard a club.
    state = state._replace(to_move=Seat.S, deal=state.deal._replace(leader=Seat.S, chooser=Seat.S))
    state = play(state, move(Seat.S, "9D"))
    with pytest.raises(IllegalMoveError, match=r"W may not play 9C here: the rules allow only"):
        play(state, move(Seat.W, "9C"))
    assert play(state, move(Seat.W, "JH")).deal.trick == cards("9D JH")


# --- ruling 8: trick winner and leads


def test_ruling_8_highest_trump_else_highest_of_the_led_suit() -> None:
    assert trick_winner(cards("9D AD 9H KS"), Suit.H, False) == 2
    assert trick_winner(cards("9D AD KS AC"), Suit.H, False) == 1
    assert trick_winner(cards("9D AS KS AC"), Suit.H, False) == 0


def test_ruling_8_the_chooser_leads_the_first_trick_and_the_winner_the_next() -> None:
    state = chosen("leads", "C")
    assert state.to_move == state.deal.chooser == state.deal.leader
    for _ in range(4):
        state = play(state, next(option for option in legal_moves(state) if option.card is not None))
    winner = state.deal.tricks[0].winner
    assert state.to_move == winner == state.deal.leader


# --- rulings 9 and 10: the result and the lines


def test_ruling_9_choosing_team_makes_it_with_strictly_more_points_equal_fails() -> None:
    made = score_deal((13, 13), Team.NS, (13, 12), (3, 2), False, 0)
    assert made.outcome is Outcome.MADE and made.winner is Team.NS and made.lines == (12, 13)
    equal = score_deal((13, 13), Team.NS, (12, 12), (3, 2), False, 0)
    assert equal.outcome is Outcome.FAILED and equal.winner is Team.WE and equal.lines == (14, 12)


def test_ruling_10_lines_erased_one_plus_capot_mite_contra_recontra() -> None:
    assert lines_erased(False, False, 0) == 1
    assert lines_erased(True, True, 2) == 5
    assert score_deal((3, 13), Team.NS, (28, 0), (5, 0), True, 2).lines == (0, 13)  # never below zero
    # The couille is one line, whatever the bonuses of the winners.
    failed = score_deal((13, 13), Team.WE, (30, 0), (5, 0), True, 1)
    assert failed.outcome is Outcome.FAILED and failed.capot is Team.NS and failed.lines == (9, 14)


def test_worked_examples_of_the_text_table() -> None:
    """malmedy.md, "Worked examples": 13/13 → 12/13 → 12/11 → 9/11 → 9/7 → 10/6."""
    lines = (13, 13)
    lines = score_deal(lines, Team.NS, (23, 13), (4, 1), False, 0).lines
    assert lines == (12, 13)
    lines = score_deal(lines, Team.WE, (0, 30), (0, 5), False, 0).lines
    assert lines == (12, 11)
    lines = score_deal(lines, Team.NS, (30, 0), (5, 0), True, 0).lines
    assert lines == (9, 11)
    lines = score_deal(lines, Team.WE, (10, 20), (2, 3), True, 2).lines
    assert lines == (9, 7)
    lines = score_deal(lines, Team.NS, (10, 20), (2, 3), False, 0).lines
    assert lines == (10, 6)


def test_rulings_10_to_12_game_ends_at_zero_and_scores_from_souths_side() -> None:
    state = start("end")
    while state.winner is None:
        state = play(state, legal_moves(state)[-1])
    assert state.lines[state.winner] == 0 and state.lines[state.winner.other] > 0
    assert state.to_move is None and state.phase is Phase.OVER
    assert state.score == 1000 + 100 * state.lines[Team.WE] - 100 * state.lines[Team.NS]
    with pytest.raises(GameOverError):
        play(state, move(Seat.S, "AS"))


def test_next_deal_is_dealt_at_once_and_the_deal_passes_left() -> None:
    state = chosen("next", "D")
    dealer = state.deal.dealer
    while state.deal.number == 1:
        state = play(state, legal_moves(state)[-1])
    assert state.deal.dealer == dealer.left and state.to_move == state.deal.chooser == dealer.left.left
    assert state.deal.trump is None and len(state.finished_deals) == 1


# --- moves of the other game are refused


def test_common_game_actions_are_refused_in_malmedy_and_the_reverse() -> None:
    state = start()
    with pytest.raises(IllegalMoveError):
        play(state, move(state.deal.chooser, "take"))
    common = new_game("common")
    with pytest.raises(IllegalMoveError, match="during the bidding: take or pass"):
        play(common, move(common.deal.dealer.left, "trump-H"))
    with pytest.raises(InvalidMoveError, match="use trump-C, trump-D, trump-H, trump-S, mite"):
        Move.parse("S:fold", MALMEDY.actions)
    with pytest.raises(ReplayError, match="unknown action 'fold'") as refused:
        replay("x", ["S:fold"], MALMEDY)
    assert refused.value.index == 0


# --- perft: counts computed by the independent reference (tests/reference/malmedy_perft.py)

PERFT_TABLE: dict[str, dict[str, int]] = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "perft_malmedy.json").read_text("utf-8")
)


def _engine_perft(state: GameState, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(_engine_perft(play(state, option), depth - 1) for option in legal_moves(state))


@pytest.mark.parametrize("seed", sorted(PERFT_TABLE))
def test_perft_counts_of_deal_one_match_the_reference(seed: str) -> None:
    state = new_game(seed, MALMEDY)
    state = play(state, Move.parse(reference_perft.trump_move(seed)))
    counts = {str(depth): _engine_perft(state, depth) for depth in reference_perft.DEPTHS}
    assert counts == PERFT_TABLE[seed]


# --- random simulation: invariants over many seeded games

SIMULATED_GAMES = sized(1_500, 500)
"""1,500 games under ``--full`` (tests/games/full.py), the first 500 by default: each announcement still more
than 100 times, and every check of every deal."""


def test_random_games_keep_every_invariant() -> None:
    """Every deal: 24 cards dealt once, 40 points = tricks + blind, 5 tricks, lines per ruling 10; verify agrees."""
    deals = 0
    announcements = {MITE: 0, CONTRA: 0, RECONTRA: 0}
    for number in range(SIMULATED_GAMES):
        seed = f"malmedy-sim-{number}"
        chooser = Stream(seed, "random-play")
        state = new_game(seed, MALMEDY)
        moves: list[str] = []
        lines = (13, 13)
        while state.to_move is not None:
            options = legal_moves(state)
            assert options and all(option.seat == state.to_move for option in options)
            if any(option.card is not None for option in options):
                assert legal_cards(state) == tuple(option.card for option in options if option.card is not None)
            option = options[chooser.uniform(len(options))]
            before = state
            state = play(state, option)
            moves.append(str(option))
            if isinstance(option.action, str) and option.action in announcements:
                announcements[option.action] += 1
            if len(state.finished_deals) > len(before.finished_deals):
                deals += 1
                deal: MalmedyDeal = before.deal
                summary = state.finished_deals[-1]
                blind_points = sum(CARD_POINTS[card] for card in cards_of(deal.blind))
                assert sum(summary.points) + blind_points == 40
                assert sum(summary.tricks) == 5
                expected = score_deal(
                    lines, deal.chooser.team, summary.points, summary.tricks, summary.mite is not None, summary.contra
                )
                assert summary.lines == expected.lines and summary.outcome is expected.outcome
                lines = expected.lines
                if state.winner is None:
                    assert 0 not in lines and state.deal.hands[0].bit_count() == 5
        assert state.winner is not None and state.lines == lines and state.lines[state.winner] == 0
        document = {"format": "couyon-record/1", "variant": "malmedy", "seed": seed, "moves": moves}
        report = verify(json.dumps(document))
        assert report["valid"] and report["finished"] and report["score"] == state.score
    assert deals > SIMULATED_GAMES * 5 and min(announcements.values()) > 100
