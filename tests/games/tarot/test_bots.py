"""The tarot bots: legal and deterministic at 3, 4 and 5 players; the baseline's habits on hand-built tables."""

from __future__ import annotations

import pytest
from tests.games.tarot.helpers import cards, moves, table

from couyon.common.errors import IllegalMoveError
from couyon.common.stream import Stream
from couyon.games.tarot.bots import TarotBot, bot_id, bot_move, bot_rng, bots_entry
from couyon.games.tarot.bots.baseline import BaselineTarotBot
from couyon.games.tarot.bots.expert import TABLE_PASS_BELOW, ExpertTarotBot, distinct_candidates
from couyon.games.tarot.bots.habits import BID_THRESHOLDS, contract_for_count, hand_count
from couyon.games.tarot.bots.knowledge import LCG_INCREMENT, LCG_MULTIPLIER, DealSampler, knowledge_of, lcg_next
from couyon.games.tarot.bots.omniscient import OmniscientTarotBot
from couyon.games.tarot.bots.playout import marque_of, next_card, playout
from couyon.games.tarot.bots.race import survivors
from couyon.games.tarot.bots.random_bot import RandomTarotBot
from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, tarot_bot_by_id
from couyon.games.tarot.bots.worlds import true_position
from couyon.games.tarot.cards import CARDS, KING_MASK, SEATS_OF, SUIT_MASKS, Seat, mask_of
from couyon.games.tarot.game import (
    CARD,
    ECART,
    PASS,
    GameState,
    Move,
    Phase,
    is_over,
    new_game,
    play,
    poignee_sizes,
    to_move,
)
from couyon.games.tarot.record import record_of, verify
from couyon.games.tarot.scoring import Contract
from couyon.games.tarot.view import view

PLAYER_COUNTS = (3, 4, 5)


def play_deal(state: GameState, bots: list[TarotBot | OmniscientTarotBot]) -> tuple[GameState, list[Move]]:
    """The current deal played to its end (``play`` refuses any illegal move), bot ``bots[j]`` at seat j."""
    seats = SEATS_OF[state.players]
    finished = len(state.finished_deals)
    played: list[Move] = []
    while len(state.finished_deals) == finished and not is_over(state):
        seat = to_move(state)
        assert seat is not None
        bot = bots[seats.index(seat)]
        if isinstance(bot, OmniscientTarotBot):
            move = bot.choose_with_state(state, bot_rng(state.seed, seat, state.move_count))
        else:
            move = bot_move(state, bot)
        played.append(move)
        state = play(state, move)
    return state, played


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_random_and_baseline_play_whole_games_legally(players: int) -> None:
    for number in range(6):
        state = new_game(f"bots-legal-{players}-{number}", players)
        bots: list[TarotBot | OmniscientTarotBot] = [
            BaselineTarotBot() if (seat + number) % 2 else RandomTarotBot() for seat in range(players)
        ]
        while not is_over(state):
            state, _ = play_deal(state, bots)
        assert sum(state.totals) == 0


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_expert_and_omniscient_play_deals_legally(players: int) -> None:
    for number in range(2):
        state = new_game(f"bots-expert-{players}-{number}", players)
        bots: list[TarotBot | OmniscientTarotBot] = [ExpertTarotBot() for _ in range(players)]
        bots[number % players] = OmniscientTarotBot()
        bots[(number + 1) % players] = BaselineTarotBot()
        state, played = play_deal(state, bots)
        assert len(state.finished_deals) >= 1
        assert any(move.action == CARD for move in played) or state.finished_deals[-1].outcome == "redeal"


def test_a_passed_out_deal_and_every_announcement_path_are_played_by_the_random_bot() -> None:
    """Many random deals: bids of every kind, écarts drawn among all valid ones, announcements."""
    actions: set[str] = set()
    for number in range(40):
        players = PLAYER_COUNTS[number % 3]
        state = new_game(f"bots-random-{number}", players)
        state, played = play_deal(state, [RandomTarotBot() for _ in range(players)])
        actions |= {move.action for move in played}
    assert {"pass", "garde", "garde-contre", ECART, CARD} <= actions


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_the_same_seed_gives_the_same_moves(players: int) -> None:
    seed = f"bots-determinism-{players}"
    first = play_deal(
        new_game(seed, players), [ExpertTarotBot(), BaselineTarotBot(), *[ExpertTarotBot()] * (players - 2)]
    )
    second = play_deal(
        new_game(seed, players), [ExpertTarotBot(), BaselineTarotBot(), *[ExpertTarotBot()] * (players - 2)]
    )
    assert first[1] == second[1]
    # A bot's move depends on the view and its generator only: the same call twice gives the same move.
    state = new_game(seed, players)
    seat = to_move(state)
    assert seat is not None
    seen = view(state, seat)
    assert ExpertTarotBot().choose(seen, Stream(seed, "x")) == ExpertTarotBot().choose(seen, Stream(seed, "x"))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_expert_3_bids_as_expert_2_unless_the_hand_is_below_its_cutoff(players: int) -> None:
    # expert/3 passes a hand whose count is below TABLE_PASS_BELOW without simulating (the first cutoff
    # while petite is open, the second over a petite); otherwise it bids exactly as expert/2.
    table_bot, reference = tarot_bot_by_id("expert/3"), tarot_bot_by_id("expert/2")
    open_petite, outbid = TABLE_PASS_BELOW[players]
    branches = set()
    for number in range(12):
        seed = f"bots-expert3-{players}-{number}"
        state = new_game(seed, players)
        if number % 2:
            first = to_move(state)
            assert first is not None
            state = play(state, Move(first, "petite"))
        seat = to_move(state)
        assert seat is not None
        seen = view(state, seat)
        weak = hand_count(mask_of(seen.hand), players) < (outbid if number % 2 else open_petite)
        branches.add(weak)
        expected = Move(seat, PASS) if weak else reference.choose(seen, Stream(seed, "bid"))
        assert table_bot.choose(seen, Stream(seed, "bid")) == expected
    assert branches == {True, False}


def test_bot_ids_go_into_records() -> None:
    assert sorted(TAROT_BOTS_BY_ID) == [
        "baseline/1",
        "expert/1",
        "expert/2",
        "expert/3",
        "expert/4",
        "expert/5",
        "random/1",
    ]
    assert {tarot_bot_by_id(f"expert/{version}").name for version in (1, 2, 3)} == {"expert"}
    with pytest.raises(ValueError, match="unknown tarot bot"):
        tarot_bot_by_id("omniscient/1")
    state = new_game("bots-record", 3)
    bots = {seat: BaselineTarotBot() for seat in SEATS_OF[3][1:]}
    entry = bots_entry(bots)
    assert entry == {"W": "baseline/1", "E": "baseline/1"}
    finished, played = play_deal(state, [BaselineTarotBot() for _ in range(3)])
    record = record_of(finished, played, bots=entry)
    assert verify(record.to_json())["valid"]
    assert '"bots": {"W": "baseline/1", "E": "baseline/1"}' in record.to_json()
    assert bot_id(ExpertTarotBot()) == "expert/1"


# --- the baseline's habits on hand-built tables


def baseline_move(state: GameState, seat: str) -> Move:
    return BaselineTarotBot().choose(view(state, Seat(seat)), Stream("baseline", "test"))


def test_the_baseline_bids_by_its_point_count() -> None:
    strong = "21T 20T 15T 12T 9T 7T 5T 1T EX KS KH QH 2C 3C 4C 5D 6D 7D"
    # 21: 10, Excuse 8, Petit with 8 trumps 9, trumps 16 + 2 from the 16 up, kings 12, queen 3,
    # king and queen of hearts 1, singleton spade 3: 64, a garde (56 to 70).
    assert hand_count(mask_of(cards(strong)), 4) == 64
    assert contract_for_count(64) is Contract.GARDE
    assert [contract_for_count(threshold) for threshold in BID_THRESHOLDS] == list(Contract)
    assert contract_for_count(BID_THRESHOLDS[0] - 1) is None
    state = table(4, "E", {"S": strong})
    assert baseline_move(state, "S") == Move(Seat.S, "garde")
    weak = "2C 3C 4C 5C 6D 7D 8D 9D 2H 3H 4H 5H 6S 7S 8S 9S 2T 3T"
    assert hand_count(mask_of(cards(weak)), 4) == 4
    assert baseline_move(table(4, "E", {"S": weak}), "S") == Move(Seat.S, "pass")
    # A garde already bid: the same hand may not bid garde again, so it passes.
    later = moves(table(4, "N", {"S": strong}), "E:garde")
    assert baseline_move(later, "S") == Move(Seat.S, "pass")
    # Counts are scaled to an 18-card hand: the same cards count less in a hand of 24.
    assert hand_count(mask_of(cards(strong)), 3) == pytest.approx(64 * 18 / 24)


def test_the_baseline_ecart_keeps_kings_and_makes_a_void() -> None:
    hand = "KS KH KD 2S 3S 4S 5S 6H 7H 8H 2C 3C 10T 11T 12T 13T 14T 15T"
    state = moves(table(4, "E", {"S": hand}, chien="4C 9D 10D 16T 17T 18T"), "S:garde", "W:pass", "N:pass", "E:pass")
    assert state.deal.phase is Phase.ECART
    move = baseline_move(state, "S")
    assert move.action == ECART
    ecart = mask_of(move.cards)
    assert not ecart & KING_MASK
    kept = mask_of(cards(hand + " 4C 9D 10D 16T 17T 18T")) & ~ecart
    assert not kept & SUIT_MASKS[0], "the clubs, a short suit without its king, are all discarded"
    assert kept & KING_MASK == mask_of(cards("KS KH KD"))
    assert play(state, move).deal.phase is Phase.PLAYING


DEFENDER_E = "21T 20T 19T 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND QD KD 1H"
"""E, a defender at W's garde, holds no club: he must trump a club lead."""


def first_trick(south: str, north: str, *played: str) -> GameState:
    """W takes a garde (dealer S, so W speaks first), discards the listed écart, and the first trick begins."""
    state = table(4, "S", {"S": south, "N": north, "E": DEFENDER_E})
    state = moves(state, "W:garde", "N:pass", "E:pass", "S:pass")
    ecart = next(move for move in view(state, Seat.W).legal_moves if move.action == ECART)
    return moves(play(state, ecart), *played)


def test_the_baseline_loads_a_trick_its_partner_wins_for_sure() -> None:
    # N leads a club, E trumps with the 21 (nobody can beat it): S follows with its king, not its two.
    state = first_trick("KC 2C", "3C", "N:3C", "E:21T")
    assert to_move(state) is Seat.S
    assert BaselineTarotBot.card_for(view(state, Seat.S)) == CARDS[13]  # KC


def test_the_baseline_saves_its_petit_under_a_partners_sure_trump() -> None:
    # N leads a trump, E overtrumps with the 21; S cannot beat it and plays its Petit, which E's trick keeps.
    state = first_trick("1T 2T 3T", "4T", "N:4T", "E:21T")
    assert BaselineTarotBot.card_for(view(state, Seat.S)) == CARDS[56]  # 1T


def test_the_baseline_saves_its_petit_when_it_wins_for_sure() -> None:
    # Three players: S takes; W leads a club and E follows; S, void in clubs and last to play, trumps
    # with the Petit, which nobody can take any more.
    south = "1T 2T 3T 1D 2D 3D 4D 5D 6D 7D 8D 9D 10D JD ND QD KD 1H 2H 3H 4H 5H 6H 7H"
    west = "1C 2C 3C 4C 5C 6C 7C KH 1S 2S 3S 4S 5S 6S 7S 8S 9S 10S JS NS QS KS 4T 5T"
    state = table(3, "E", {"S": south, "W": west}, chien="8H 9H 10H JH NH QH")
    state = moves(state, "S:garde", "W:pass", "E:pass")
    ecart = next(move for move in view(state, Seat.S).legal_moves if move.action == ECART)
    state = moves(play(state, ecart), "W:1C", "E:8C")
    assert BaselineTarotBot.card_for(view(state, Seat.S)) == CARDS[56]  # 1T


# --- what the search relies on


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_sampled_deals_agree_with_the_view_and_the_true_deal_does(players: int) -> None:
    for number in range(3):
        state = new_game(f"bots-sampling-{players}-{number}", players)
        bots: list[TarotBot | OmniscientTarotBot] = [BaselineTarotBot() for _ in range(players)]
        seats = SEATS_OF[players]
        finished = len(state.finished_deals)
        while len(state.finished_deals) == finished:
            deal = state.deal
            if deal.phase is Phase.PLAYING and deal.contract is not None and deal.taker is not None:
                for index, seat in enumerate(seats):
                    knowledge = knowledge_of(view(state, seat))
                    pile = deal.chien if not deal.contract.takes_chien else 0 if index == deal.taker else deal.ecart
                    truth = [*deal.hands, pile or 0]
                    for holder, held in enumerate(truth):
                        if holder == index:
                            continue
                        assert knowledge.required[holder] & ~held == 0
                        assert held & ~knowledge.required[holder] & ~knowledge.allowed[holder] == 0
                        assert held.bit_count() == knowledge.sizes[holder]
                    drawn = DealSampler(knowledge).draw(bot_rng(state.seed, seat, state.move_count))
                    union = 0
                    for holder, held in enumerate(drawn):
                        assert not union & held
                        union |= held
                        if holder != index:
                            assert held.bit_count() == knowledge.sizes[holder]
                            assert held & ~knowledge.allowed[holder] & ~knowledge.required[holder] == 0
            state, _ = play_deal_step(state, bots)


def test_the_samplers_generator_on_limbs_is_the_64_bit_lcg() -> None:
    state = 0x0123456789ABCDEF
    for start in (0, 1, (1 << 64) - 1, (1 << 32) - 1, 1 << 32, 1 << 48, state):
        state = start
        limbs = tuple(start >> shift & 0xFFFF for shift in (0, 16, 32, 48))
        for _ in range(50):
            state = (state * LCG_MULTIPLIER + LCG_INCREMENT) % (1 << 64)
            limbs = lcg_next(*limbs)
            assert sum(limb << shift for limb, shift in zip(limbs, (0, 16, 32, 48), strict=True)) == state


def test_expert_5_plays_its_cards_as_expert_1() -> None:
    fifth, first = tarot_bot_by_id("expert/5"), tarot_bot_by_id("expert/1")
    assert isinstance(fifth, ExpertTarotBot) and isinstance(first, ExpertTarotBot)
    assert (fifth.budget, fifth.pass_below, first.pass_below) == (first.budget, TABLE_PASS_BELOW, None)
    state = new_game("bots-expert-5", 4)
    compared = 0
    while compared < 6 and not is_over(state):
        seat = to_move(state)
        assert seat is not None
        seat_view = view(state, seat)
        if seat_view.phase is Phase.PLAYING and len(seat_view.legal_moves) > 1:
            chosen = [bot.choose(seat_view, bot_rng(state.seed, seat, state.move_count)) for bot in (fifth, first)]
            assert chosen[0] == chosen[1]
            compared += 1
        state = play(state, BaselineTarotBot().choose(seat_view, bot_rng(state.seed, seat, state.move_count)))
    assert compared == 6


def play_deal_step(state: GameState, bots: list[TarotBot | OmniscientTarotBot]) -> tuple[GameState, Move]:
    seat = to_move(state)
    assert seat is not None
    bot = bots[SEATS_OF[state.players].index(seat)]
    assert not isinstance(bot, OmniscientTarotBot)
    move = bot_move(state, bot)
    return play(state, move), move


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_a_playout_scores_the_deal_as_the_engine_does(players: int) -> None:
    """Playing the habits' card through the engine at every turn ends on the marque the playout predicted."""
    for number in range(4):
        state = new_game(f"bots-playout-{players}-{number}", players)
        baseline = BaselineTarotBot()
        finished = len(state.finished_deals)
        predicted: list[int] = []
        while len(state.finished_deals) == finished:
            move = bot_move(state, baseline)
            if state.deal.phase is Phase.PLAYING and move.action == CARD:
                position = true_position(state)
                if state.deal.tricks:
                    predicted.append(marque_of(position.contract, playout(position), position.primes, False))
                move = Move(move.seat, CARD, (CARDS[next_card(position)],))
            state = play(state, move)
        result = state.finished_deals[finished].result
        if result is not None:
            assert set(predicted) <= {result.marque.marque}


def test_equivalent_low_cards_are_searched_once() -> None:
    state = first_trick("KC 2C", "3C", "N:3C", "E:21T")
    knowledge = knowledge_of(view(state, Seat.S))
    hand = mask_of(cards("1D 2D 4D 5D 10D JD"))
    # With 3D played, 1D, 2D, 4D and 5D win and lose the same tricks: only 1D is searched; 6D to 9D are
    # still out, so 10D is not 5D; JD is worth more.
    played = knowledge._replace(out=hand | mask_of(cards("3D")))
    assert distinct_candidates(hand, played) == list(cards("1D 10D JD"))
    # With 3D still out, 4D is not 2D.
    live = knowledge._replace(out=hand)
    assert distinct_candidates(hand, live) == list(cards("1D 4D 10D JD"))


def test_the_card_race_drops_only_a_card_clearly_behind_the_leader() -> None:
    # 10, 11 and 12 played out in the same six deals: 10 leads 11 by 5 in every deal (no spread: far more than
    # any number of standard errors), 12 by 5 on average with deals on both sides (too close to call).
    values: dict[int, list[float]] = {
        10: [20, 30, 10, 20, 30, 10],
        11: [15, 25, 5, 15, 25, 5],
        12: [40, 5, 10, 0, 30, 5],
    }
    assert survivors([10, 11, 12], values, 6, 1.0) == [10, 12]
    # The first of two equal totals leads; a card level with it stays.
    assert survivors([11, 10], {11: [1, 2], 10: [2, 1]}, 2, 1.0) == [11, 10]
    # Only the last ``worlds`` deals count: over the last two, 11 is level with 10.
    assert survivors([10, 11], {10: [9, 9, 1, 1], 11: [0, 0, 1, 1]}, 2, 1.0) == [10, 11]
    with pytest.raises(ValueError, match="same deals"):
        survivors([10, 11], {10: [1, 2], 11: [1]}, 2, 1.0)


ISSUE_19_SEED = "75d758e44cf3211df607f5b2a02159c6"
"""A free game at five in which the one poignée per camp told South who the partner was (issue 19)."""


def test_the_table_bots_poignee_tells_south_nothing_of_the_partner() -> None:
    """Ruling 10: deal 1 of this free game at five, South passing and expert/3 (the table's bot) at every
    other seat: NW takes, calls NE's KS, and E shows a poignée before South. South's poignée (its sizes, the
    listed moves, the refusal) was refused because E defends, and would have been allowed had E held the
    called card; now the answer is the same with the partner as dealt and with E in his place."""
    bot = tarot_bot_by_id("expert/3")
    state = new_game(ISSUE_19_SEED, 5)
    while not (to_move(state) == Seat.S and state.deal.phase is Phase.PLAYING):
        move = Move.parse("S:pass", 5) if to_move(state) == Seat.S else bot_move(state, bot)
        state = play(state, move)
    seats = SEATS_OF[5]
    deal = state.deal
    assert deal.taker is not None and deal.partner is not None
    assert (seats[deal.taker], seats[deal.partner], str(deal.called)) == (Seat.NW, Seat.NE, "KS")
    assert [seats[seat] for seat, _, _ in deal.poignees] == [Seat.E] and not deal.tricks
    trumps = [card for card in view(state, Seat.S).hand if card.is_trump]
    assert len(trumps) >= 8
    shown = Move.parse("S:poignee:" + ",".join(map(str, trumps[:8])), 5)
    answers = set()
    for partner in (Seat.NE, Seat.E):
        trial = state._replace(deal=deal._replace(partner=seats.index(partner)))
        listed = tuple(move for move in view(trial, Seat.S).legal_moves if move.action == "poignee")
        with pytest.raises(IllegalMoveError) as refusal:
            play(trial, shown)
        answers.add((poignee_sizes(trial), listed, str(refusal.value)))
    assert len(answers) == 1
