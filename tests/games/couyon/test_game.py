"""The game as a fold over moves (game.py): dealing, bidding, play, scoring and the end, on
positions built by replaying chosen moves or by writing the state out by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.games.couyon.random_play import play_out

from couyon.common.errors import GameOverError, IllegalMoveError, InvalidMoveError, OutOfTurnError, ReplayError
from couyon.games.couyon.cards import SEATS, Card, Seat, Suit, Team, cards_of, mask_of
from couyon.games.couyon.game import (
    PASS,
    TAKE,
    GameState,
    Move,
    Phase,
    Trick,
    first_dealer,
    legal_cards,
    legal_moves,
    new_game,
    play,
    replay,
    shuffled_deck,
)
from couyon.games.couyon.rules import Outcome
from couyon.registry import GAMES
from reference import perft as reference_perft
from reference.contract import ContractStream, dealt_deck


def move(seat: Seat, action: str) -> Move:
    return Move.parse(f"{seat}:{action}")


def passes(state: GameState, count: int) -> GameState:
    for _ in range(count):
        assert state.to_move is not None
        state = play(state, move(state.to_move, PASS))
    return state


def play_lowest_legal(state: GameState, count: int) -> GameState:
    for _ in range(count):
        assert state.to_move is not None
        state = play(state, legal_moves(state)[0])
    return state


def last_trick(
    hands: dict[Seat, str],
    *,
    leader: Seat,
    taker: Seat,
    trump: Suit = Suit.S,
    points: tuple[int, int] = (0, 0),
    lines: tuple[int, int] = (5, 5),
    stake: int = 1,
) -> GameState:
    """A hand-built position: three tricks played (worth ``points``), one card left in each hand."""
    state = new_game("hand-built")
    masks = tuple(mask_of([Card.parse(hands[seat])]) for seat in SEATS)
    played = Trick(leader, (), leader)
    deal = state.deal._replace(
        hands=masks,
        trump=trump,
        taker=taker,
        tricks=(played, played, played),
        leader=leader,
        points=points,
        stake=stake,
    )
    return state._replace(deal=deal, lines=lines, to_move=leader)


def finish(state: GameState, cards: str) -> GameState:
    """Play the last trick: ``cards`` in playing order from the leader."""
    for code in cards.split():
        assert state.to_move is not None
        state = play(state, move(state.to_move, code))
    return state


# --- dealing


def test_first_dealer_is_drawn_from_the_dealer_stream() -> None:
    """Contract: first dealer = SEATS[uniform(4)] on stream(seed, "dealer")."""
    for seed in ("a", "b", "c", "dé", ""):
        assert str(first_dealer(seed)) == "SWNE"[ContractStream(seed, "dealer").uniform(4)]
        assert new_game(seed).deal.dealer == first_dealer(seed)


def test_deck_of_deal_k_is_shuffled_on_its_own_stream() -> None:
    """Contract: deal k uses Fisher–Yates on stream(seed, "deal:" + k)."""
    for number in (1, 2, 10):
        assert [str(card) for card in shuffled_deck("seed", number)] == dealt_deck("seed", number)


def test_deal_two_plus_two_from_the_dealers_left_at_the_contract_positions() -> None:
    """Contract: positions 0–1 to the dealer's left, 2–3 next, 4–5 next, 6–7 dealer, then 8–15 the same way."""
    for seed in ("one", "two", "three", "four", "five"):
        state = new_game(seed)
        deck, dealer = state.deal.deck, state.deal.dealer
        for offset in range(1, 5):
            seat = SEATS[(dealer + offset) % 4]
            first, second = 2 * (offset - 1), 8 + 2 * (offset - 1)
            expected = {deck[first], deck[first + 1], deck[second], deck[second + 1]}
            assert set(cards_of(state.deal.hands[seat])) == expected


def test_hands_of_four_and_eight_cards_never_dealt() -> None:
    """Rule book: four cards each; the 17th card and the seven talon cards are never dealt."""
    deal = new_game("talon").deal
    assert [hand.bit_count() for hand in deal.hands] == [4, 4, 4, 4]
    held = deal.hands[0] | deal.hands[1] | deal.hands[2] | deal.hands[3]
    assert held & mask_of(deal.deck[16:]) == 0 and held.bit_count() == 16


def test_seventeenth_card_proposes_trump() -> None:
    """Contract: position 16 is the first turned card; an empty record already shows it."""
    state = new_game("retourne")
    assert state.deal.proposals == (state.deal.deck[16],)
    assert state.phase is Phase.BIDDING and state.deal.trump is None


def test_talon_proposals_follow_positions_17_to_23_in_order() -> None:
    """Contract: positions 17 … 23 are turned one by one, in order, when a round finds no taker."""
    state = new_game("talon order")
    deck = state.deal.deck
    for turned in range(1, 8):
        state = passes(state, 4)
        assert state.deal.proposals == deck[16 : 17 + turned]
    assert len(state.deal.proposals) == 8


# --- bidding


def test_bidding_starts_at_the_dealers_left_and_goes_clockwise() -> None:
    """Rule book: starting with the dealer's left, each in turn takes or passes."""
    state = new_game("bidding")
    dealer = state.deal.dealer
    spoken = []
    for _ in range(4):
        assert state.to_move is not None
        spoken.append(state.to_move)
        state = play(state, move(state.to_move, PASS))
    assert spoken == [dealer.left, dealer.left.left, dealer.partner.left, dealer]
    assert state.to_move == dealer.left  # the next proposal starts again from the dealer's left


def test_first_taker_wins_and_trump_is_the_proposed_suit() -> None:
    """Rule book: the first who accepts becomes the taker; the proposed card's suit is trump."""
    state = passes(new_game("first taker"), 5)  # a whole round, then the dealer's left passes the second card
    seat = state.to_move
    assert seat is not None
    state = play(state, move(seat, TAKE))
    assert state.deal.taker == seat and state.phase is Phase.PLAYING
    assert state.deal.trump == state.deal.proposals[1].suit and len(state.deal.proposals) == 2
    with pytest.raises(IllegalMoveError, match="bidding is over"):
        play(state, move(seat, TAKE))


def test_partner_plays_with_the_taker() -> None:
    """Rule book: the taker's partner plays with the taker without a say; the partner's tricks count for the taker."""
    state = last_trick({Seat.S: "9H", Seat.W: "10H", Seat.N: "AH", Seat.E: "JH"}, leader=Seat.S, taker=Seat.S)
    state = finish(state, "9H 10H AH JH")
    summary = state.finished_deals[-1]
    assert (summary.taker, summary.points, summary.outcome, state.lines) == (Seat.S, (5, 0), Outcome.MADE, (4, 5))


def test_full_redeal_with_next_dealer_after_eight_proposals_without_taker() -> None:
    """Rule book and ruling 1: after the eighth proposal without a taker, deal again; the next seat deals."""
    state = new_game("redeal")
    dealer = state.deal.dealer
    state = passes(state, 31)
    assert state.deal.number == 1 and state.to_move == dealer
    state = passes(state, 1)
    assert state.deal.number == 2 and state.deal.dealer == dealer.left
    assert state.deal.deck == shuffled_deck("redeal", 2) and state.deal.proposals == (state.deal.deck[16],)
    summary = state.finished_deals[0]
    assert (summary.outcome, summary.trump, summary.taker, summary.points) == (Outcome.REDEAL, None, None, None)
    assert len(summary.proposals) == 8 and state.lines == (5, 5) and state.to_move == dealer.left.left


# --- play


def test_taker_leads_the_first_trick() -> None:
    """Ruling 2: the taker leads the first trick, whoever dealt."""
    state = passes(new_game("taker leads"), 2)
    taker = state.to_move
    assert taker is not None
    state = play(state, move(taker, TAKE))
    assert state.to_move == taker and state.deal.leader == taker
    assert len(legal_cards(state)) == 4


def test_trick_winner_leads_the_next_trick() -> None:
    """Ruling 2: after the first trick, the winner of the previous trick leads."""
    state = new_game("winner leads")
    state = play(state, move(state.deal.dealer.left, TAKE))
    for _ in range(3):
        state = play_lowest_legal(state, 4)
        assert state.to_move == state.deal.tricks[-1].winner == state.deal.leader


def test_each_trick_has_one_card_per_seat_in_clockwise_order() -> None:
    """Rule book: four tricks of four cards, played clockwise from the leader."""
    state = new_game("clockwise")
    state = play(state, move(state.deal.dealer.left, TAKE))
    state = play_lowest_legal(state, 12)
    for trick in state.deal.tricks:
        assert [seat for seat, _ in trick.played_by()] == [SEATS[(trick.leader + i) % 4] for i in range(4)]


def test_card_points_go_to_the_trick_winners_team() -> None:
    """Rule book: each team totals the figures of the tricks it won; no bonus for the last trick."""
    state = last_trick(
        {Seat.S: "AH", Seat.W: "KH", Seat.N: "QS", Seat.E: "JH"}, leader=Seat.S, taker=Seat.W, points=(3, 4)
    )
    state = finish(state, "AH KH QS JH")
    assert state.finished_deals[-1].points == (3 + 4 + 3 + 2 + 1, 4)


def test_card_not_held_is_refused() -> None:
    """Contract: a card not in the player's hand is refused."""
    state = last_trick({Seat.S: "AH", Seat.W: "KH", Seat.N: "QS", Seat.E: "JH"}, leader=Seat.S, taker=Seat.W)
    with pytest.raises(IllegalMoveError, match="does not hold AS"):
        play(state, move(Seat.S, "AS"))


def test_no_partner_exemption_in_play() -> None:
    """Ruling 4: North, void in the led suit while partner South holds the trick with the ace, must still trump."""
    state = last_trick({Seat.S: "AH", Seat.W: "9H", Seat.N: "9S", Seat.E: "10H"}, leader=Seat.S, taker=Seat.S)
    north_hand = mask_of([Card.parse("9S"), Card.parse("KD")])
    state = state._replace(deal=state.deal._replace(hands=(*state.deal.hands[:2], north_hand, state.deal.hands[3])))
    state = finish(state, "AH 9H")
    assert state.to_move == Seat.N and legal_cards(state) == (Card.parse("9S"),)
    with pytest.raises(IllegalMoveError, match="may not play KD here: the rules require one of 9S"):
        play(state, move(Seat.N, "KD"))


def test_forbidden_card_is_refused_naming_the_allowed_ones() -> None:
    """Ruling 3: a card the obligations forbid is refused, and the message lists the allowed cards."""
    state = last_trick({Seat.S: "QH", Seat.W: "KH", Seat.N: "QS", Seat.E: "JH"}, leader=Seat.S, taker=Seat.W)
    west_hand = mask_of([Card.parse("KH"), Card.parse("9H"), Card.parse("9S")])
    state = state._replace(deal=state.deal._replace(hands=(state.deal.hands[0], west_hand, *state.deal.hands[2:])))
    state = play(state, move(Seat.S, "QH"))
    with pytest.raises(IllegalMoveError, match="may not play 9H here: the rules require one of KH"):
        play(state, move(Seat.W, "9H"))
    with pytest.raises(IllegalMoveError, match="may not play 9S here"):
        play(state, move(Seat.W, "9S"))


def test_out_of_turn_bid_during_play_and_card_during_bidding_are_refused() -> None:
    """Contract: wrong seat, a bid during play and a card during bidding are all refused."""
    state = new_game("errors")
    wrong = state.deal.dealer  # the dealer speaks last
    with pytest.raises(OutOfTurnError):
        play(state, move(wrong, PASS))
    assert state.to_move is not None
    with pytest.raises(IllegalMoveError, match="during the bidding"):
        play(state, move(state.to_move, "AS"))
    state = play(state, move(state.to_move, TAKE))
    assert state.to_move is not None
    with pytest.raises(IllegalMoveError, match="bidding is over"):
        play(state, move(state.to_move, PASS))


@pytest.mark.parametrize("text", ["S", "S:", "X:pass", "S:AX", "s:pass", "S:take:", "", "S:Pass"])
def test_unreadable_move_is_refused(text: str) -> None:
    """Contract: a move is SEAT:ACTION with a known seat and take, pass or a card."""
    with pytest.raises(InvalidMoveError):
        Move.parse(text)


def test_move_text_round_trips() -> None:
    """Contract: moves are written SEAT:ACTION; parse and print are inverse, repr is valid code."""
    for text in ("W:pass", "E:take", "S:10H", "N:AS"):
        parsed = Move.parse(text)
        assert str(parsed) == text and eval(repr(parsed)) == parsed


# --- scoring across deals


def test_made_deal_erases_a_line_and_passes_the_deal_left() -> None:
    """Rule book and ruling 1: made, the taker's team erases a line; the next seat deals."""
    state = last_trick({Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.N)
    dealer = state.deal.dealer
    state = finish(state, "AH 9H KH 10H")
    assert state.finished_deals[-1].outcome is Outcome.MADE and state.lines == (4, 5)
    assert state.deal.number == 2 and state.deal.dealer == dealer.left and state.deal.stake == 1


def test_failed_deal_costs_twice() -> None:
    """Rule book: failed, the taker's team adds a line and the other erases one."""
    state = last_trick({Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.E)
    state = finish(state, "AH 9H KH 10H")
    assert state.finished_deals[-1].outcome is Outcome.FAILED and state.lines == (4, 6)


def test_tie_then_doubled_deal() -> None:
    """Rule book, "la craie dans le trou": a tie scores nothing and the next deal is played for two lines."""
    state = last_trick(
        {Seat.S: "9H", Seat.W: "10H", Seat.N: "9C", Seat.E: "9D"}, leader=Seat.S, taker=Seat.S, points=(7, 7)
    )
    state = finish(state, "9H 10H 9C 9D")
    summary = state.finished_deals[-1]
    assert (summary.outcome, summary.stake, summary.lines, state.lines) == (Outcome.TIE, 1, (5, 5), (5, 5))
    assert state.deal.stake == 2 and state.deal.number == 2
    assert state.deal_log[-1].stake == 2


def test_doubled_stake_stays_pending_through_redeals() -> None:
    """Ruling 5: deals where nobody takes keep the pending doubled stake for the next deal."""
    state = new_game("pending")
    state = state._replace(deal=state.deal._replace(stake=2))
    state = passes(state, 32)
    assert state.finished_deals[-1].outcome is Outcome.REDEAL and state.finished_deals[-1].stake == 2
    assert state.deal.stake == 2
    state = passes(state, 32)
    assert state.deal.stake == 2 and state.deal.number == 3


def test_doubled_stake_is_never_cumulative() -> None:
    """Ruling 5: a tie on a doubled deal keeps the stake at 2, never 4."""
    state = last_trick({Seat.S: "9H", Seat.W: "10H", Seat.N: "9C", Seat.E: "9D"}, leader=Seat.S, taker=Seat.W, stake=2)
    state = finish(state, "9H 10H 9C 9D")
    assert state.finished_deals[-1].outcome is Outcome.TIE and state.deal.stake == 2 and state.lines == (5, 5)


def test_doubled_stake_resets_after_made_or_failed() -> None:
    """Ruling 5: a made or failed deal scores the doubled stake, then the stake returns to 1."""
    made = last_trick({Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.S, stake=2)
    made = finish(made, "AH 9H KH 10H")
    assert made.lines == (3, 5) and made.deal.stake == 1 and made.finished_deals[-1].stake == 2
    failed = last_trick({Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.W, stake=2)
    failed = finish(failed, "AH 9H KH 10H")
    assert failed.lines == (3, 7) and failed.deal.stake == 1


def test_lines_above_five_and_never_below_zero() -> None:
    """Ruling 6: a failed take adds lines past five; the winner's erasure stops at zero."""
    state = last_trick(
        {Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.E, lines=(1, 8), stake=2
    )
    state = finish(state, "AH 9H KH 10H")
    assert state.lines == (0, 10) and state.winner is Team.NS


# --- the end of the game and the score


def test_game_ends_when_a_team_reaches_zero() -> None:
    """Rule book: the first team to erase all its lines wins; no deal follows and no move is accepted."""
    state = last_trick(
        {Seat.S: "AH", Seat.W: "9H", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.W, lines=(5, 1)
    )
    state = finish(state, "AH 9H KH 10H")
    # Failing at one line left adds a line to the taker's team and ends nothing.
    assert (state.finished_deals[-1].outcome, state.winner, state.lines) == (Outcome.FAILED, None, (4, 2))
    ended = last_trick(
        {Seat.S: "9H", Seat.W: "AH", Seat.N: "KH", Seat.E: "10H"}, leader=Seat.S, taker=Seat.W, lines=(5, 1)
    )
    ended = finish(ended, "9H AH KH 10H")
    assert (ended.winner, ended.phase, ended.to_move, ended.lines) == (Team.WE, Phase.OVER, None, (5, 0))
    assert ended.deal_log == ended.finished_deals and legal_moves(ended) == ()
    with pytest.raises(GameOverError):
        play(ended, move(Seat.S, PASS))


def test_score_is_1000_plus_100_per_other_line_minus_100_per_own_line() -> None:
    """Ruling 8: South's score = 1000 + 100 × WE lines − 100 × NS lines, once the game is over."""
    over = new_game("score")._replace(winner=Team.NS, to_move=None)
    assert over._replace(lines=(0, 5)).score == 1500
    assert over._replace(lines=(0, 1)).score == 1100
    assert over._replace(lines=(0, 8)).score == 1800  # above 1500: the other team added lines
    lost = over._replace(winner=Team.WE)
    assert lost._replace(lines=(5, 0)).score == 500
    assert lost._replace(lines=(13, 0)).score == -300  # below zero in a very long loss
    assert new_game("score").score is None


def test_replay_names_the_index_of_the_faulty_move() -> None:
    """Contract: the verifier's refusal carries the 0-based index of the move at fault."""
    state = new_game("replay")
    moves = [f"{state.to_move}:pass", f"{state.deal.dealer}:pass"]
    with pytest.raises(ReplayError) as error:
        replay("replay", moves)
    assert error.value.index == 1


# --- perft: the number of legal card sequences of deal 1's play phase, from tests/data/perft.json

PERFT_TABLE: dict[str, dict[str, int]] = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "perft.json").read_text("utf-8")
)


def engine_perft(state: GameState, depth: int) -> int:
    """Legal card sequences of length ``depth``, enumerated with the engine's own legal_moves and play."""
    if depth == 0:
        return 1
    return sum(engine_perft(play(state, option), depth - 1) for option in legal_moves(state))


@pytest.mark.parametrize("seed", sorted(PERFT_TABLE))
def test_perft_counts_of_the_play_phase_match_the_data_file(seed: str) -> None:
    """Rule book, "Les obligations": the engine allows exactly the card sequences counted independently."""
    state = new_game(seed)
    state = play(state, move(state.deal.dealer.left, TAKE))  # fixed rule: the first bidder takes
    counts = {str(depth): engine_perft(state, depth) for depth in reference_perft.DEPTHS}
    assert counts == PERFT_TABLE[seed]


def test_perft_data_file_is_what_the_reference_counter_computes() -> None:
    """The data file was generated by the reference brute force; regenerating gives the same numbers."""
    assert set(PERFT_TABLE) == set(reference_perft.PERFT_SEEDS)
    for seed in reference_perft.PERFT_SEEDS[:4]:
        assert reference_perft.perft(seed) == PERFT_TABLE[seed]


@pytest.mark.parametrize("kind_id", ["couyon", "malmedy"])
@pytest.mark.parametrize("seed", ["one deal", "one deal, again", "a third"])
def test_a_game_of_one_deal_is_over_after_deal_1_and_a_normal_game_goes_on(kind_id: str, seed: str) -> None:
    """docs/clubs.md, "A tournament's length": a tournament in deals plays games of one deal (``GameKind.one_deal``)."""
    one, whole, moves = play_out(kind_id, seed, {"level": "beginner"})
    engine = GAMES[kind_id].engine
    # The same deal, the same outcome and lines; the game of one deal stops there, with no side out.
    assert one.finished_deals == whole.finished_deals and len(one.finished_deals) == 1
    assert (one.over, one.phase, one.to_move, one.winner, engine.legal_moves(one)) == (True, Phase.OVER, None, None, ())
    assert one.deal_log == one.finished_deals and one.lines == whole.lines
    assert engine.score(one) == (1000 + 100 * one.lines[Team.WE] - 100 * one.lines[Team.NS], 1)
    with pytest.raises(GameOverError, match="its last deal is done"):
        play(one, engine.legal_moves(whole)[0])
    # The normal game deals deal 2 and waits for its first move: not over, no score.
    assert (whole.over, whole.deal.number, engine.score(whole), whole.variant.deals) == (False, 2, None, None)
    assert whole.to_move is not None and engine.legal_moves(whole)
    assert one.move_count == whole.move_count == len(moves)


def test_a_game_of_one_deal_nobody_takes_is_over_with_the_redeal_and_no_lines_moved() -> None:
    kind = GAMES["couyon"]
    state = kind.engine.new_game("nobody takes", kind.parse_options({}, one_deal=True))
    while state.to_move is not None:
        state = play(state, move(state.to_move, PASS))
    assert [deal.outcome for deal in state.finished_deals] == [Outcome.REDEAL]
    assert (state.lines, kind.score(state), state.move_count) == ((5, 5), (1000, 1), 32)
