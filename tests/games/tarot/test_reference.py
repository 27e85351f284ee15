"""The independent tarot verifier in tests/reference (tarot-record-format.md): the contract's known
answers, its card rules, its eight worked scoring examples and the verifier's sample entry, deals
(positions, chien, petit sec, passed-out deals, the end after n played deals), chelems played out
from searched seeds, each kind of refusal, and its legal-move lister against its own ``play``."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.registry import verify_record
from reference.contract import ContractStream, Refusal
from reference.tarot_contract import (
    BOUTS,
    DECK,
    ECART_SIZE,
    INDEX,
    MUTATIONS,
    POIGNEE_SIZES,
    SEATS_OF,
    SIMPLE_ACTIONS,
    SUITS,
    TarotGame,
    all_move_texts,
    allowed,
    callable_cards,
    canonical,
    deal_hands,
    dealt_deck,
    half_points,
    is_trump,
    left_of,
    legal_moves_after,
    mutated,
    petit_sec,
    random_game,
    record,
    replay,
    score_deal,
    strength,
    suit_of,
    trick_winner,
    verify_tarot,
)

REPORT_KEYS = ["valid", "finished", "players", "deals", "played", "scores", "score", "deal_log"]
DEAL_KEYS = [
    "number",
    "dealer",
    "bids",
    "outcome",
    "taker",
    "contract",
    "called",
    "partner",
    "chien",
    "ecart",
    "chelem_announced",
    "poignees",
    "miseres",
    "bouts",
    "points",
    "needed",
    "result",
    "margin",
    "petit_au_bout",
    "chelem",
    "marque",
    "scores",
]
PLAYED_KEYS = DEAL_KEYS[DEAL_KEYS.index("bouts") :]
PLAYERS = (3, 4, 5)


def assert_report_shape(result: dict[str, Any]) -> None:
    assert json.loads(json.dumps(result)) == result
    if not result["valid"]:
        assert list(result) == ["valid", "error", "move"]
        assert isinstance(result["error"], str) and result["error"] and "\n" not in result["error"]
        return
    assert list(result) == REPORT_KEYS
    seats = SEATS_OF[result["players"]]
    assert list(result["scores"]) == list(seats)
    assert result["deals"] == len(result["deal_log"]) == result["deal_log"][-1]["number"]
    for number, entry in enumerate(result["deal_log"], start=1):
        assert list(entry) == DEAL_KEYS and entry["number"] == number
        assert entry["chien"] == canonical(entry["chien"]) and len(entry["chien"]) == (3 if len(seats) == 5 else 6)
        if entry["outcome"] == "played":
            assert all(entry[key] is not None for key in PLAYED_KEYS if key not in ("petit_au_bout", "chelem"))
            assert sum(entry["scores"].values()) == 0
        else:
            assert all(entry[key] is None for key in PLAYED_KEYS)


def refusal(seed: str, players: int, moves: list[Any]) -> dict[str, Any]:
    result = verify_tarot(record(seed, players, moves))
    assert_report_shape(result)
    assert result["valid"] is False
    return result


def accepted(seed: str, players: int, moves: list[Any]) -> dict[str, Any]:
    result = verify_tarot(record(seed, players, moves))
    assert_report_shape(result)
    assert result["valid"] is True, result
    return result


def start_of_play(seed: str, players: int, taker: str, contract: str, call: str | None = None) -> list[str]:
    """Moves of deal 1 up to the first trick: ``taker`` bids ``contract``, the others pass; the call;
    an écart of the weakest cards that may go (the trumps it must hold first)."""
    game = TarotGame(seed, players)
    moves: list[str] = []

    def move(text: str) -> None:
        game.play(len(moves), text)
        moves.append(text)

    assert game.deal.number == 1
    for _ in range(players):
        seat = game.deal.turn
        move(f"{seat}:{contract if seat == taker else 'pass'}")
    if players == 5:
        move(f"{taker}:call:{call or callable_cards(game.deal.dealt[taker])[0]}")
    if game.deal.phase == "ecart":
        hand = game.deal.hands[taker]
        plain = [card for card in hand if not is_trump(card) and card != "EX" and card[:-1] != "K"]
        length = {suit: sum(suit_of(card) == suit for card in plain) for suit in SUITS}
        plain.sort(key=lambda card: (length[suit_of(card) or ""], strength(card)))
        trumps = sorted((card for card in hand if is_trump(card) and card not in BOUTS), key=strength)
        size = ECART_SIZE[players]
        count = max(0, size - len(plain))
        move(f"{taker}:ecart:" + ",".join(trumps[:count] + plain[: size - count]))
    return moves


def first_seed(players: int, wanted: Any, prefix: str = "scan", tries: int = 3000) -> str:
    """The first seed ``prefix-0``, ``prefix-1``, … whose game ``wanted`` accepts (dealt, no move yet)."""
    for number in range(tries):
        seed = f"{prefix}-{number}"
        if wanted(TarotGame(seed, players)):
            return seed
    raise AssertionError(f"no such seed in {tries}")


# --- the contract's known answers


def test_known_answers_of_the_stream_and_the_first_dealer() -> None:
    """Known answers: the dealer stream of "tarot-exemple" and the first dealer at 3, 4 and 5 players."""
    stream = ContractStream("tarot-exemple", "dealer")
    assert [stream.u32() for _ in range(3)] == [2877265072, 1496471837, 2633136245]
    assert {players: TarotGame("tarot-exemple", players).log[0].dealer for players in PLAYERS} == {
        3: "W",
        4: "S",
        5: "NW",
    }


def test_known_answers_of_deal_one() -> None:
    """Known answers: deal 1's shuffle, and what W (4 players), E (3 players) and the chien receive."""
    deck = dealt_deck("tarot-exemple", 1)
    assert deck[:12] == ["4S", "20T", "KD", "1T", "8D", "8S", "10C", "7H", "2D", "4T", "7T", "5T"]
    assert deck[72:] == ["KH", "7S", "1D", "3H", "JS", "14T"]
    hands, chien = deal_hands(deck, "S", SEATS_OF[4])
    assert hands["W"][:3] == ["4S", "20T", "KD"]
    assert hands["S"][:6] == ["4T", "7T", "5T", "9C", "11T", "8T"]
    assert chien == ["KH", "7S", "1D", "3H", "JS", "14T"]
    assert deal_hands(deck, "NW", SEATS_OF[5])[1] == ["3H", "JS", "14T"]
    assert deal_hands(deck, "W", SEATS_OF[3])[0]["E"][:3] == ["4S", "20T", "KD"]
    # The game deals exactly that: the report's chien is the same cards, in the deck's order.
    for players, chien_size in ((3, 6), (4, 6), (5, 3)):
        entry = accepted("tarot-exemple", players, [])["deal_log"][0]
        assert entry["chien"] == canonical(deck[78 - chien_size :])


@pytest.mark.parametrize("players", PLAYERS)
def test_packets_of_three_go_round_from_the_dealers_left(players: int) -> None:
    """Who deals: packet q (positions 3q–3q+2) to the seat (q mod n) + 1 places left of the dealer; the rest is the chien."""
    seats = SEATS_OF[players]
    positions = [str(position) for position in range(78)]
    for dealer in seats:
        hands, chien = deal_hands(positions, dealer, seats)
        size = {3: 24, 4: 18, 5: 15}[players]
        assert all(len(hand) == size for hand in hands.values())
        assert chien == positions[players * size :]
        for places in range(1, players + 1):
            seat = left_of(dealer, seats, places)
            first = 3 * (places - 1)
            assert hands[seat][:6] == [
                str(p) for p in (*range(first, first + 3), *range(first + 3 * players, first + 3 * players + 3))
            ]
    # Literally, at 4 players with S dealing: W has 0–2, 12–14, …; the dealer S has 9–11, 21–23, …
    hands, _ = deal_hands(positions, "S", SEATS_OF[4])
    assert hands["W"][:6] == ["0", "1", "2", "12", "13", "14"]
    assert hands["S"][-3:] == ["69", "70", "71"]


def test_card_order_and_half_points() -> None:
    """Cards: the canonical order, the half-point values and their total of 182."""
    assert len(DECK) == len(set(DECK)) == 78
    assert [DECK[index] for index in (0, 13, 14, 55, 56, 76, 77)] == ["1C", "KC", "1D", "KS", "1T", "21T", "EX"]
    assert [half_points(card) for card in ("1T", "21T", "EX", "KH", "QH", "NH", "JH", "10H", "1H", "20T")] == [
        9,
        9,
        9,
        9,
        7,
        5,
        3,
        1,
        1,
        1,
    ]
    assert sum(half_points(card) for card in DECK) == 182
    assert canonical(["EX", "1T", "KS", "1C", "10C", "2C"]) == ["1C", "2C", "10C", "KS", "1T", "EX"]


# --- the card rules on hand-built tricks


def test_follow_suit_without_having_to_beat() -> None:
    """Legal cards: holding the led suit, any card of it (or the Excuse)."""
    assert allowed(["2C", "KC", "5D", "3T", "EX"], ["7C", "10C"]) == ["2C", "KC", "EX"]
    assert allowed(["2C", "KC", "5D", "3T"], ["EX", "7C"]) == ["2C", "KC"]


def test_void_trump_and_overtrump_if_possible() -> None:
    """Legal cards: void, a trump higher than every trump in the trick if held, else any trump; else anything."""
    assert allowed(["5D", "3T", "12T", "EX"], ["7C", "10T"]) == ["12T", "EX"]
    assert allowed(["5D", "3T", "9T"], ["7C", "10T"]) == ["3T", "9T"]
    assert allowed(["5D", "3T", "12T"], ["7C"]) == ["3T", "12T"]
    assert allowed(["5D", "KH", "EX"], ["7C", "10T"]) == ["5D", "KH", "EX"]
    # Trump led: over if possible, whoever holds the trick (no partner exception).
    assert allowed(["2C", "3T", "15T"], ["10T", "12T"]) == ["15T"]
    assert allowed(["2C", "3T", "5T"], ["10T"]) == ["3T", "5T"]
    assert allowed(["2C", "KH"], ["10T"]) == ["2C", "KH"]


def test_excuse_is_always_legal_and_a_lone_excuse_sets_no_suit() -> None:
    """Legal cards: EX always; if only EX has been played there is no led suit yet; EX is not a trump."""
    hand = ["2C", "KH", "3T", "EX"]
    assert allowed(hand, ["EX"]) == canonical(hand)
    assert allowed(hand, ["EX", "5H"]) == ["KH", "EX"]
    assert allowed(["2C", "3T"], ["EX", "5H"]) == ["3T"]
    assert allowed(hand, []) == canonical(hand)


def test_first_lead_at_five_not_of_the_called_suit() -> None:
    """Legal cards at 5 players: the deal's first card may not be of the called card's suit, unless it is it."""
    hand = ["2H", "KH", "3C", "4T", "EX"]
    assert allowed(hand, [], called="KH") == ["3C", "KH", "4T", "EX"]
    assert allowed(hand, [], called="QH") == ["3C", "4T", "EX"]
    assert allowed(hand, [], called="KD") == canonical(hand)


def test_trick_winner_highest_trump_else_highest_of_the_led_suit() -> None:
    """Trick winner: the highest trump; with none, the highest card of the led suit; EX never (but one case)."""
    assert trick_winner(["7C", "KC", "2C"], False) == 1
    assert trick_winner(["7C", "KD", "2C"], False) == 0
    assert trick_winner(["7C", "KC", "1T", "QC"], False) == 2
    assert trick_winner(["7C", "3T", "21T", "20T"], False) == 2
    assert trick_winner(["EX", "7C", "KC"], False) == 2
    assert trick_winner(["7C", "EX", "2C"], False) == 0
    assert trick_winner(["EX", "7C", "21T"], True) == 0
    assert [strength(card) for card in ("1H", "10H", "JH", "NH", "QH", "KH", "1T", "21T")] == [
        1,
        10,
        11,
        12,
        13,
        14,
        1,
        21,
    ]


def test_callable_cards_kings_then_lower_figures_when_all_above_are_held() -> None:
    """Call: any king; a queen with four kings; a knight with four kings and queens; a jack with all three."""
    kings = ["KC", "KD", "KH", "KS"]
    queens = ["QC", "QD", "QH", "QS"]
    knights = ["NC", "ND", "NH", "NS"]
    jacks = ["JC", "JD", "JH", "JS"]
    assert callable_cards(["2C", "KH", "QH"]) == kings
    assert callable_cards([*kings, "QH"]) == canonical(kings + queens)
    assert callable_cards([*kings, *queens[:3], *knights]) == canonical(kings + queens)
    assert callable_cards([*kings, *queens]) == canonical(kings + queens + knights)
    assert callable_cards([*kings, *queens, *knights]) == canonical(kings + queens + knights + jacks)


def test_petit_sec_is_the_petit_alone_without_the_excuse() -> None:
    """Petit sec: a seat whose only trump is 1T and which does not hold EX."""
    assert petit_sec(["1T", "2C", "KH"])
    assert not petit_sec(["1T", "2C", "EX"])
    assert not petit_sec(["1T", "2T", "2C"])
    assert not petit_sec(["2C", "KH"])


# --- the contract's worked scoring examples, every number


EXAMPLES = {
    # players, taker, partner, contract, attack's half points, bouts, petit au bout, primes, announced,
    # chelem, misère announcers; then needed, result, margin, contract points, petit au bout points,
    # poignée points, chelem points, marque, scores
    "1 40,5 contre 41": (
        (4, "W", None, "petite", 81, 2, None, [], False, None, []),
        (41, "failed", 1, -26, 0, 0, 0, -26, {"W": -78, "S": 26, "N": 26, "E": 26}),
    ),
    "2 41.5 with 2 bouts": (
        (3, "E", None, "garde", 83, 2, None, [], False, None, []),
        (41, "made", 1, 52, 0, 0, 0, 52, {"E": 104, "S": -52, "W": -52}),
    ),
    "3 garde contre, petit au bout": (
        (4, "S", None, "garde-contre", 117, 1, "attack", [], False, None, []),
        (51, "made", 8, 198, 60, 0, 0, 258, {"S": 774, "W": -258, "N": -258, "E": -258}),
    ),
    "4 a poignee won by the other camp": (
        (4, "N", None, "garde-sans", 96, 1, None, [20], False, None, []),
        (51, "failed", 3, -112, 0, -20, 0, -132, {"N": -396, "S": 132, "W": 132, "E": 132}),
    ),
    "5 five players, called partner": (
        (5, "NW", "S", "garde", 88, 2, "defence", [20], False, None, []),
        (41, "made", 3, 56, -20, 20, 0, 56, {"NW": 112, "S": 56, "W": -56, "NE": -56, "E": -56}),
    ),
    "6 misere": (
        (3, "S", None, "petite", 120, 1, None, [], False, None, ["W"]),
        (51, "made", 9, 34, 0, 0, 0, 34, {"S": 58, "W": -14, "E": -44}),
    ),
    "7 alone at five, chelem announced and made": (
        (5, "E", None, "garde-sans", 174, 2, None, [], True, "attack", []),
        (41, "made", 46, 284, 0, 0, 400, 684, {"E": 2736, "S": -684, "W": -684, "NW": -684, "NE": -684}),
    ),
    "8 chelem announced, not made": (
        (4, "E", None, "garde", 122, 3, None, [], True, None, []),
        (36, "made", 25, 100, 0, 0, -200, -100, {"E": -300, "S": 100, "W": 100, "N": 100}),
    ),
    "verifier sample, deal 7": (
        (4, "W", None, "garde", 92, 2, None, [20], False, None, []),
        (41, "made", 5, 60, 0, 20, 0, 80, {"S": -80, "W": 240, "N": -80, "E": -80}),
    ),
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_worked_scoring_example(name: str) -> None:
    """Worked scoring examples 1–8 (and the verifier's sample entry): every number of steps 2 to 9."""
    (players, taker, partner, contract, points, bouts, petit, primes, announced, chelem, miseres), expected = EXAMPLES[
        name
    ]
    numbers = score_deal(
        SEATS_OF[players], taker, partner, contract, points, bouts, petit, primes, announced, chelem, miseres
    )
    keys = [
        "needed",
        "result",
        "margin",
        "contract_points",
        "petit_au_bout_points",
        "poignee_points",
        "chelem_points",
        "marque",
        "scores",
    ]
    assert [numbers[key] for key in keys] == list(expected)
    assert sum(numbers["scores"].values()) == 0


def test_chelem_points_in_every_case() -> None:
    """Scoring step 7: +400 announced and made, +200 unannounced, −200 announced and missed, −200 more to a defence chelem."""

    def chelem_points(announced: bool, chelem: str | None) -> int:
        numbers = score_deal(SEATS_OF[4], "S", None, "petite", 112, 0, None, [], announced, chelem, [])
        return int(numbers["chelem_points"])

    assert chelem_points(True, "attack") == 400
    assert chelem_points(False, "attack") == 200
    assert chelem_points(True, None) == -200
    assert chelem_points(False, None) == 0
    assert chelem_points(False, "defence") == -200
    assert chelem_points(True, "defence") == -400


def test_margin_rounds_half_points_up_and_exactly_needed_makes_by_zero() -> None:
    """Scoring step 3: made if P ≥ 2N; m = ⌈|P − 2N| / 2⌉."""
    for points, result, margin in (
        (82, "made", 0),
        (81, "failed", 1),
        (83, "made", 1),
        (80, "failed", 1),
        (79, "failed", 2),
    ):
        numbers = score_deal(SEATS_OF[4], "S", None, "petite", points, 2, None, [], False, None, [])
        assert (numbers["result"], numbers["margin"]) == (result, margin)


# --- deals as the game deals them


def test_empty_record_shows_deal_one_and_nothing_played() -> None:
    """A record: an empty move list already shows deal 1, every key present, scores all 0."""
    seed = "empty"
    game = TarotGame(seed, 4)
    assert game.deal.number == 1
    result = accepted(seed, 4, [])
    dealer = result["deal_log"][0]["dealer"]
    assert result == {
        "valid": True,
        "finished": False,
        "players": 4,
        "deals": 1,
        "played": 0,
        "scores": {"S": 0, "W": 0, "N": 0, "E": 0},
        "score": None,
        "deal_log": [
            {
                "number": 1,
                "dealer": dealer,
                "bids": [],
                "outcome": None,
                "taker": None,
                "contract": None,
                "called": None,
                "partner": None,
                "chien": canonical(dealt_deck(seed, 1)[72:]),
                "ecart": None,
                "chelem_announced": False,
                "poignees": [],
                "miseres": [],
                **dict.fromkeys(PLAYED_KEYS),
            }
        ],
    }
    assert legal_moves_after(seed, 4, []) == [
        f"{left_of(dealer, SEATS_OF[4])}:{bid}" for bid in ("pass", "petite", "garde", "garde-sans", "garde-contre")
    ]


@pytest.mark.parametrize("players", (4, 5))
def test_petit_sec_annuls_the_deal_and_the_next_dealer_deals(players: int) -> None:
    """Petit sec: the deal ends at once (outcome petit-sec, no bid), is numbered, and the dealer passes left."""
    seed = first_seed(players, lambda game: game.log[0].outcome == "petit-sec", "petit-sec")
    seats = SEATS_OF[players]
    deck = dealt_deck(seed, 1)
    first_dealer = seats[ContractStream(seed, "dealer").uniform(players)]
    hands, chien = deal_hands(deck, first_dealer, seats)
    assert any(petit_sec(hand) for hand in hands.values())
    result = accepted(seed, players, [])
    entries = result["deal_log"]
    assert result["deals"] >= 2 and result["played"] == 0
    assert entries[0]["outcome"] == "petit-sec" and entries[0]["dealer"] == first_dealer
    assert entries[0]["bids"] == [] and entries[0]["taker"] is None and entries[0]["chien"] == canonical(chien)
    assert entries[1]["dealer"] == left_of(first_dealer, seats)
    assert entries[-1]["outcome"] is None
    # The first bid is deal 2's (or later's), from its dealer's left.
    assert legal_moves_after(seed, players, [])[0] == f"{left_of(entries[-1]['dealer'], seats)}:pass"


@pytest.mark.parametrize("players", PLAYERS)
def test_all_pass_is_a_redeal_and_bids_must_rise(players: int) -> None:
    """Bidding: one bid per seat from the dealer's left; all pass is outcome redeal; the dealer passes left."""
    seed = first_seed(players, lambda game: game.deal.number == 1, "redeal")
    seats = SEATS_OF[players]
    dealer = TarotGame(seed, players).deal.dealer
    order = [left_of(dealer, seats, places) for places in range(1, players + 1)]
    moves = [f"{seat}:pass" for seat in order]
    result = accepted(seed, players, moves)
    assert result["deal_log"][0]["outcome"] == "redeal" and result["deal_log"][0]["bids"] == moves
    assert result["deal_log"][0]["taker"] is None and result["played"] == 0
    assert result["deal_log"][1]["dealer"] == left_of(dealer, seats)
    # The highest bid takes; a bid must be above every earlier one, a pass never has to be.
    bids = ["petite", "pass", "garde-sans"] + ["pass"] * (players - 3)
    taken = accepted(seed, players, [f"{seat}:{bid}" for seat, bid in zip(order, bids, strict=True)])
    assert (taken["deal_log"][0]["taker"], taken["deal_log"][0]["contract"]) == (order[2], "garde-sans")
    assert refusal(seed, players, [f"{order[0]}:garde", f"{order[1]}:garde"])["move"] == 1
    assert refusal(seed, players, [f"{order[0]}:garde", f"{order[1]}:petite"])["move"] == 1
    assert refusal(seed, players, [f"{order[1]}:pass"])["move"] == 0


@pytest.mark.parametrize("players", PLAYERS)
def test_the_game_ends_after_n_played_deals(players: int) -> None:
    """The game ends when n deals are played; totals, S's score; nothing may follow; every deal adds up."""
    seed = f"whole-{players}"
    seats = SEATS_OF[players]
    moves = random_game(seed, players)
    result = accepted(seed, players, [*moves])
    assert result["finished"] and result["played"] == players
    entries = result["deal_log"]
    assert sum(entry["outcome"] == "played" for entry in entries) == players
    assert entries[-1]["outcome"] == "played"
    totals = dict.fromkeys(seats, 0)
    dealer = entries[0]["dealer"]
    for entry in entries:
        assert entry["dealer"] == dealer
        dealer = left_of(dealer, seats)
        if entry["outcome"] == "played":
            for seat in seats:
                totals[seat] += entry["scores"][seat]
    assert result["scores"] == totals and result["score"] == totals["S"]
    assert legal_moves_after(seed, players, moves) == []
    after = refusal(seed, players, [*moves, moves[-1]])
    assert after["move"] == len(moves) and "over" in after["error"]
    # One card short, the game is not over and the score is null.
    short = accepted(seed, players, moves[:-1])
    assert not short["finished"] and short["score"] is None and short["played"] == players - 1


@pytest.mark.parametrize("players", PLAYERS)
def test_played_deals_add_up(players: int) -> None:
    """Scoring on random games: 91 points in all, the bouts where they went, the marque from its parts."""
    for number in range(4):
        seed = f"adds-up-{players}-{number}"
        moves = random_game(seed, players, greedy=number % 2 == 1)
        game = replay(seed, players, moves)
        for deal in game.log:
            if deal.outcome != "played":
                continue
            entry = deal.entry()
            assert len(deal.tricks) == {3: 24, 4: 18, 5: 15}[players]
            assert entry["needed"] == {0: 56, 1: 51, 2: 41, 3: 36}[entry["bouts"]]
            assert (entry["result"] == "made") == (entry["points"] >= entry["needed"])
            attack = {deal.taker, deal.partner}
            won = [winner in attack for _, _, winner, _ in deal.tricks]
            assert entry["chelem"] == ("attack" if all(won) else "defence" if not any(won) else None)
            shown = sum(poignee["prime"] for poignee in entry["poignees"])
            petit = {"attack": 10, "defence": -10, None: 0}[entry["petit_au_bout"]]
            multiplier = {"petite": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}[entry["contract"]]
            sign = 1 if entry["result"] == "made" else -1
            base = sign * ((25 + entry["margin"]) * multiplier + shown) + petit * multiplier
            assert entry["marque"] - base in (0, 200, 400, -200, -400)
            in_last = any("1T" in cards for _, cards, _, _ in deal.tricks[-1:])
            assert (entry["petit_au_bout"] is not None) == (
                in_last or (deal.tricks[-1][3] and "1T" in deal.tricks[-2][1])
            )


def test_partner_at_five_is_the_other_holder_of_the_called_card() -> None:
    """Call: the partner is the other seat whose dealt hand holds the card; none if the taker or the chien holds it."""
    found = set()
    for number in range(60):
        seed = f"partner-{number}"
        game = TarotGame(seed, 5)
        if game.deal.number != 1:
            continue
        taker = game.deal.turn
        for card in callable_cards(game.deal.dealt[taker]):
            moves = [f"{taker}:garde-sans"] + [f"{left_of(taker, SEATS_OF[5], k)}:pass" for k in range(1, 5)]
            moves.append(f"{taker}:call:{card}")
            entry = accepted(seed, 5, moves)["deal_log"][0]
            holder = next((seat for seat, hand in game.deal.dealt.items() if card in hand), None)
            where = "chien" if holder is None else "taker" if holder == taker else "other"
            assert entry["called"] == card
            assert entry["partner"] == (holder if where == "other" else None)
            found.add(where)
    assert found == {"chien", "taker", "other"}


# --- the écart, the announcements and the chelem on hand-built hands


def taker_at_ecart(players: int) -> tuple[TarotGame, list[str], str]:
    seed = first_seed(players, lambda game: game.deal.number == 1, "ecart")
    game = TarotGame(seed, players)
    taker = game.deal.turn
    moves = [f"{left_of(taker, game.seats, k)}:{'petite' if k == 0 else 'pass'}" for k in range(players)]
    if players == 5:
        moves.append(f"{taker}:call:KS")
    for index, move in enumerate(moves):
        game.play(index, move)
    assert game.deal.phase == "ecart"
    return game, moves, taker


def test_ecart_no_king_no_bout_and_trumps_only_when_needed() -> None:
    """Écart: exactly 6 different held cards, no king nor bout, at most max(0, k − h) trumps."""
    game, moves, taker = taker_at_ecart(4)
    plain = ["2C", "3C", "4C"]
    trumps = [f"{number}T" for number in range(2, 16)]
    game.deal.hands[taker] = [*plain, "KC", "KD", "KH", "KS", "1T", "21T", "EX", *trumps]  # 24 cards, h = 3

    def ok(cards: list[str]) -> bool:
        trial = copy.deepcopy(game)
        try:
            trial.play(len(moves), f"{taker}:ecart:" + ",".join(cards))
        except Refusal:
            return False
        assert trial.deal.ecart == cards and not set(cards) & set(trial.deal.hands[taker])
        return True

    assert ok([*plain, "2T", "3T", "4T"])
    assert ok(["4T", "2C", "3T", "3C", "2T", "4C"])  # any order
    assert not ok(["2C", "3C", "2T", "3T", "4T", "5T"])  # 4 trumps with 3 other cards to discard
    assert not ok([*plain, "2T", "3T", "KC"])
    assert not ok([*plain, "2T", "3T", "1T"])
    assert not ok([*plain, "2T", "3T", "EX"])
    assert not ok([*plain, "2T", "3T"])
    assert not ok([*plain, "2T", "3T", "4T", "5T"])
    assert not ok([*plain, "2T", "3T", "3T"])
    assert not ok([*plain, "2T", "3T", "9H"])
    # With enough other cards, no trump at all.
    game.deal.hands[taker] = [*plain, "5C", "6C", "7C", "8C", "KC", *trumps[:16]]
    assert ok(["2C", "3C", "4C", "5C", "6C", "7C"])
    assert not ok(["2C", "3C", "4C", "5C", "6C", "2T"])


def first_trick_game(players: int, seed_prefix: str = "announce") -> tuple[TarotGame, list[str]]:
    seed = first_seed(players, lambda game: game.deal.number == 1, seed_prefix)
    game = TarotGame(seed, players)
    moves = start_of_play(seed, players, left_of(game.deal.dealer, game.seats), "garde-sans")
    for index, move in enumerate(moves):
        game.play(index, move)
    return game, moves


def test_poignee_sizes_the_excuse_and_one_per_camp() -> None:
    """Announcements: 10, 13 or 15 trumps at 4; EX only with every trump; once a seat, once a camp."""
    game, moves = first_trick_game(4)
    deal = game.deal
    first = deal.turn
    ten = [f"{number}T" for number in range(2, 12)]
    deal.hands[first] = [*ten, "12T", "EX", "2C", "3C", "4C", "5C", "6C", "7C"]  # 11 trumps and the Excuse

    def ok(seat: str, action: str, trial: TarotGame = game) -> bool:
        try:
            copy.deepcopy(trial).play(len(moves), f"{seat}:{action}")
        except Refusal:
            return False
        return True

    assert ok(first, "poignee:" + ",".join(ten))
    assert ok(first, "poignee:" + ",".join(reversed(ten)))
    assert not ok(first, "poignee:" + ",".join(ten[:9]))
    assert not ok(first, "poignee:" + ",".join([*ten, "12T"]))
    assert not ok(first, "poignee:" + ",".join([*ten[:9], "EX"]))  # a trump of the hand left out
    assert not ok(first, "poignee:" + ",".join([*ten[:9], "2C"]))
    assert not ok(first, "poignee:" + ",".join([*ten[:9], "13T"]))  # not held
    assert not ok(first, "poignee:" + ",".join([*ten[:9], ten[0]]))
    assert not ok(first, "poignee:" + ", ".join(ten))
    deal.hands[first] = [*ten[:9], "EX", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "NC", "QC"]
    assert ok(first, "poignee:" + ",".join([*ten[:9], "EX"]))  # nine trumps, all shown, with the Excuse
    deal.hands[first] = [*ten, "EX", "2C", "3C", "4C", "5C", "6C", "7C", "8C"]
    game.play(len(moves), f"{first}:poignee:" + ",".join(ten))
    moves.append(f"{first}:poignee:" + ",".join(ten))
    assert not ok(first, "poignee:" + ",".join(ten))  # once a seat
    entry = game.report()["deal_log"][0]
    assert entry["poignees"] == [{"seat": first, "cards": canonical(ten), "prime": 20}]
    # The next seat of the same camp (both defending here, the taker plays last) may not show one.
    second = left_of(first, game.seats)
    card = allowed(deal.hands[first], [])[0]
    game.play(len(moves), f"{first}:{card}")
    moves.append(f"{first}:{card}")
    deal.hands[second] = [*[f"{number}T" for number in range(12, 22)], "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D"]
    assert deal.camp(second) == deal.camp(first) == "defence"
    assert not ok(second, "poignee:" + ",".join(deal.hands[second][:10]))
    assert deal.taker is not None
    taker_turn = copy.deepcopy(game)
    taker_turn.deal.turn = deal.taker
    taker_turn.deal.hands[deal.taker] = list(deal.hands[second])
    assert ok(deal.taker, "poignee:" + ",".join(deal.hands[second][:10]), taker_turn)


def test_poignee_sizes_by_player_count() -> None:
    """Announcements: 13/15/18 at 3 players, 10/13/15 at 4, 8/10/13 at 5; primes 20, 30, 40."""
    assert POIGNEE_SIZES == {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}
    for players in PLAYERS:
        game, moves = first_trick_game(players)
        seat = game.deal.turn
        trumps = [f"{number}T" for number in range(1, 22)] + ["EX"]
        game.deal.hands[seat] = trumps[:18] + ["2C"] * (len(game.deal.hands[seat]) - 18)
        for size, prime in zip(POIGNEE_SIZES[players], (20, 30, 40), strict=True):
            trial = copy.deepcopy(game)
            if size > len(game.deal.hands[seat]):
                continue
            trial.play(len(moves), f"{seat}:poignee:" + ",".join(trumps[:size]))
            assert trial.report()["deal_log"][0]["poignees"][0]["prime"] == prime
        for size in {7, 9, 11, 12, 14, 16, 17} - set(POIGNEE_SIZES[players]):
            with pytest.raises(Refusal):
                copy.deepcopy(game).play(len(moves), f"{seat}:poignee:" + ",".join(trumps[:size]))


def test_miseres_on_the_hand_held_then() -> None:
    """Announcements: misère d'atout with no trump (EX allowed), de tête with no J, N, Q, K; each once."""
    game, moves = first_trick_game(4)
    seat = game.deal.turn
    game.deal.hands[seat] = [
        "1C",
        "2C",
        "3C",
        "4C",
        "5C",
        "6C",
        "7C",
        "8C",
        "9C",
        "10C",
        "1D",
        "2D",
        "3D",
        "4D",
        "EX",
        "5D",
        "6D",
        "7D",
    ]
    game.play(len(moves), f"{seat}:misere-atout")
    game.play(len(moves) + 1, f"{seat}:misere-tete")
    with pytest.raises(Refusal):
        copy.deepcopy(game).play(len(moves) + 2, f"{seat}:misere-tete")
    assert game.report()["deal_log"][0]["miseres"] == [{"seat": seat, "kind": "atout"}, {"seat": seat, "kind": "tete"}]
    game.deal.hands[seat][0] = "JC"
    game.deal.hands[seat][1] = "2T"
    other, _ = first_trick_game(4)
    other.deal.hands[seat] = list(game.deal.hands[seat])
    for kind in ("atout", "tete"):
        with pytest.raises(Refusal):
            copy.deepcopy(other).play(len(moves), f"{seat}:misere-{kind}")


@pytest.mark.parametrize("players", PLAYERS)
def test_chelem_only_right_after_the_bidding_call_or_ecart(players: int) -> None:
    """Chelem: only the taker, only as the very first move after step 3 (or 2, or 1); then he leads."""
    seed = first_seed(players, lambda game: game.deal.number == 1, "chelem-timing")
    game = TarotGame(seed, players)
    taker = left_of(game.deal.dealer, game.seats, 2)
    for contract in ("petite", "garde-sans"):
        moves = start_of_play(seed, players, taker, contract)
        if contract == "petite" or players == 5:
            # Before the écart (or the call) is too early.
            assert refusal(seed, players, [*moves[:-1], f"{taker}:chelem"])["move"] == len(moves) - 1
        result = accepted(seed, players, [*moves, f"{taker}:chelem"])
        assert result["deal_log"][0]["chelem_announced"] is True
        assert legal_moves_after(seed, players, [*moves, f"{taker}:chelem"])[-1].startswith(f"{taker}:")
        assert refusal(seed, players, [*moves, f"{taker}:chelem", f"{taker}:chelem"])["move"] == len(moves) + 1
        other = left_of(taker, game.seats)
        assert refusal(seed, players, [*moves, f"{other}:chelem"])["move"] == len(moves)
        first_card = legal_moves_after(seed, players, moves)[-1]
        assert first_card.startswith(f"{other}:")
        assert refusal(seed, players, [*moves, first_card, f"{taker}:chelem"])["move"] == len(moves) + 1
        # Without the announcement, the seat left of the taker leads.
        assert accepted(seed, players, [*moves, first_card])["deal_log"][0]["chelem_announced"] is False


def test_chelem_at_five_the_taker_leads_and_may_not_lead_the_called_suit() -> None:
    """Legal cards at 5: the first card of the first trick, whoever leads, not of the called suit but the called card."""
    seed = first_seed(5, lambda game: game.deal.number == 1, "called-suit")
    game = TarotGame(seed, 5)
    taker = left_of(game.deal.dealer, game.seats)
    hand = game.deal.dealt[taker]
    call = next(
        card for card in callable_cards(hand) if any(suit_of(other) == card[-1] for other in hand if other != card)
    )
    moves = [*start_of_play(seed, 5, taker, "garde-sans", call), f"{taker}:chelem"]
    for card in hand:
        result = verify_tarot(record(seed, 5, [*moves, f"{taker}:{card}"]))
        assert result["valid"] == (suit_of(card) != call[-1] or card == call)


# --- chelems played out from searched seeds


def _power(card: str) -> int:
    return -1 if card == "EX" else (100 + strength(card) if is_trump(card) else strength(card))


def chelem_line(
    seed: str, players: int, taker: str, contract: str, announce: bool, target: str, goal: Any = None
) -> list[str]:
    """Moves of deal 1 in which camp ``target`` wins every trick (and ``goal(deal)`` holds): random playouts
    drawn from the stream, the target playing strong (the Excuse last, the Petit second to last), the rest weak."""
    seats = SEATS_OF[players]
    call = None
    if players == 5:  # the taker calls his first king: alone against four
        call = next(card for card in TarotGame(seed, 5).deal.dealt[taker] if card[0] == "K")
    moves = start_of_play(seed, players, taker, contract, call)
    if announce:
        moves.append(f"{taker}:chelem")
    start = replay(seed, players, moves)
    chooser = ContractStream(seed, "chelem search")
    for _ in range(300):
        game = copy.deepcopy(start)
        line = list(moves)
        deal = game.deal
        while deal.outcome is None and all(deal.camp(winner) == target for _, _, winner, _ in deal.tricks[-1:]):
            seat = deal.turn
            cards = [option.split(":")[1] for option in game.legal() if option.split(":")[1] in INDEX]
            if deal.camp(seat) == target:
                late = {"EX": 2, "1T": 1 if len(deal.hands[seat]) > 2 else -1}
                cards.sort(key=lambda card: (late.get(card, 0), -_power(card)))
                weight = 7
            else:
                cards.sort(key=_power)
                weight = 8
            card = cards[0] if chooser.uniform(10) < weight else cards[chooser.uniform(len(cards))]
            game.play(len(line), f"{seat}:{card}")
            line.append(f"{seat}:{card}")
        if deal.outcome == "played" and deal.entry()["chelem"] == target and (goal is None or goal(deal)):
            assert seats == game.seats
            return line
    raise AssertionError("no chelem found")


CHELEMS = {
    # seed, players, taker, contract, announced, the camp that wins every trick, what the last tricks show;
    # found by scanning seeds for a seat with more high trumps than any other seat holds, then ``chelem_line``.
    "attack, announced, the Excuse led last by the taker": (
        ("chelem-3961", 3, "E", "garde", True, "attack", "excuse"),
        {"points": 91, "bouts": 3, "needed": 36, "margin": 55, "chelem": "attack", "marque": 2 * 80 + 400},
    ),
    "attack, announced, the defence kept its Excuse": (
        ("chelem-4962", 3, "S", "garde", True, "attack", None),
        {"points": 87, "bouts": 2, "needed": 41, "margin": 46, "chelem": "attack", "marque": 2 * 71 + 400},
    ),
    "defence against a taker alone at five, the Excuse led last, the Petit in the trick before": (
        ("ex-55", 5, "S", "garde-contre", False, "defence", "excuse and petit"),
        {"points": 0, "bouts": 0, "margin": 56, "petit_au_bout": "defence", "marque": -6 * 81 - 60 - 200},
    ),
    "defence against an announced chelem at five, the Excuse led last, the Petit in the trick before": (
        ("ex-18", 5, "NW", "garde-sans", True, "defence", "excuse and petit"),
        {"points": 1.5, "bouts": 0, "margin": 55, "petit_au_bout": "defence", "marque": -4 * 80 - 40 - 400},
    ),
}


def last_tricks(deal: Any, shape: str | None) -> bool:
    """``excuse``: the Excuse won the last trick; ``excuse and petit``: and the Petit is in the trick before."""
    if shape is None:
        return True
    return bool(deal.tricks[-1][3]) and (shape == "excuse" or "1T" in deal.tricks[-2][1])


@pytest.mark.parametrize("name", list(CHELEMS))
def test_chelem_played_out(name: str) -> None:
    """Chelem: a camp wins every trick; the Excuse led to the last trick by a camp that won all the others
    wins it, and the Petit in the trick before is then au bout; chelem points +400, −200 and −200."""
    (seed, players, taker, contract, announce, target, shape), expected = CHELEMS[name]
    moves = chelem_line(seed, players, taker, contract, announce, target, lambda deal: last_tricks(deal, shape))
    entry = accepted(seed, players, moves)["deal_log"][0]
    assert {key: entry[key] for key in expected} == expected
    assert entry["chelem_announced"] is announce and entry["outcome"] == "played"
    assert entry["scores"][taker] == (players - 1) * entry["marque"]
    assert all(entry["scores"][seat] == -entry["marque"] for seat in SEATS_OF[players] if seat != taker)


# --- refusals


TARGETED = [kind for kind in MUTATIONS if kind not in ("dropped", "repeated", "swapped", "truncated")]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("kind", TARGETED)
def test_each_kind_of_fault_is_refused_at_its_move(kind: str, players: int) -> None:
    """A record that breaks a rule is refused in one sentence, at the first bad move; nothing before is judged."""
    found = 0
    for number in range(30):
        seed = f"fault-{players}-{number}"
        moves = random_game(seed, players)
        made, changed, where = mutated(seed, players, moves, ContractStream(seed, kind), kind)
        if made != kind:
            continue
        assert where is not None
        result = refusal(seed, players, [*changed, "S:not even read"] if where == len(moves) else changed)
        assert result["move"] == where, (seed, changed[where])
        assert accepted(seed, players, changed[:where])["valid"]
        found += 1
        if found == 3:
            return
    if kind in ("forbidden call", "poignee twice in a camp") and players != 5:
        return  # no call below five; two poignées in a camp are rarer with longer hands
    assert found >= (1 if kind == "poignee twice in a camp" else 3), f"{kind} found {found} times"


@pytest.mark.parametrize(
    ("data", "move"),
    [
        pytest.param(b"\xff\xfe", None, id="not UTF-8"),
        pytest.param(b"{", None, id="not JSON"),
        pytest.param(b"", None, id="empty"),
        pytest.param(b"[]", None, id="not an object"),
        pytest.param(b'{"a": NaN}', None, id="NaN"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, None, id="deeply nested"),
        pytest.param(b'{"format": "tarot-record/1", "format": "tarot-record/1"}', None, id="duplicate keys"),
        pytest.param(b"\xef\xbb\xbf" + record("s", 4, []).encode(), None, id="byte order mark"),
        pytest.param(record("s", 4, [], format="tarot-record/2").encode(), None, id="unknown format"),
        pytest.param(json.dumps({"players": 4, "seed": "s", "moves": []}).encode(), None, id="no format"),
        pytest.param(record("s", 4.0, []).encode(), None, id="players 4.0"),
        pytest.param(record("s", "4", []).encode(), None, id="players string"),
        pytest.param(record("s", True, []).encode(), None, id="players true"),
        pytest.param(record("s", 2, []).encode(), None, id="players 2"),
        pytest.param(record("s", 6, []).encode(), None, id="players 6"),
        pytest.param(record("s", None, []).encode(), None, id="players null"),
        pytest.param(b'{"format": "tarot-record/1", "players": 4e0, "seed": "s", "moves": []}', None, id="players 4e0"),
        pytest.param(
            json.dumps({"format": "tarot-record/1", "seed": "s", "moves": []}).encode(), None, id="no players"
        ),
        pytest.param(record(5, 4, []).encode(), None, id="seed not a string"),
        pytest.param(
            b'{"format": "tarot-record/1", "players": 4, "seed": "\\ud800", "moves": []}',
            None,
            id="seed lone surrogate",
        ),
        pytest.param(record("s", 4, "W:pass").encode(), None, id="moves not a list"),
        pytest.param(record("s", 4, [None]).encode(), 0, id="move not a string"),
        pytest.param(record("s", 4, ["pass"]).encode(), 0, id="move without a colon"),
        pytest.param(record("s", 4, ["W:" + "x" * 100_000]).encode(), 0, id="huge move"),
    ],
)
def test_malformed_record_is_refused(data: bytes, move: int | None) -> None:
    """A record: malformed JSON, format, players, seed or moves is refused (move null); a bad first move at 0."""
    for form in (data, data.decode("utf-8", "replace")):
        result = verify_tarot(form)
        assert_report_shape(result)
        assert result["valid"] is False and result["move"] == move


def test_extra_keys_are_ignored_and_the_seed_may_be_any_text() -> None:
    """A record: extra keys are allowed and ignored; the seed is any UTF-8 string."""
    for seed in ("", "é 🂡", "x" * 1000):
        plain = verify_tarot(record(seed, 5, []))
        assert verify_tarot(record(seed, 5, [], bots={"name": "random"}, variant="x")) == plain
        assert plain["valid"]


@pytest.mark.parametrize("players", PLAYERS)
def test_spelling_is_exact(players: int) -> None:
    """A record: SEAT:ACTION split at the first colon, lower case actions, no spaces; unknown seats refused."""
    seed = first_seed(players, lambda game: game.deal.number == 1, "spelling")
    game = TarotGame(seed, players)
    first = game.deal.turn
    for bad in (
        f"{first}:Pass",
        f"{first}: pass",
        f" {first}:pass",
        f"{first}:pass ",
        f"{first.lower()}:pass",
        f"{first}::pass",
        "X:pass",
        f"{first}:",
    ):
        assert refusal(seed, players, [bad])["move"] == 0
    if players == 3:
        assert refusal(seed, players, ["N:pass"])["move"] == 0
    if players != 5:
        assert refusal(seed, players, ["NW:pass"])["move"] == 0


# --- the reference against itself: ``legal`` against ``play``


@pytest.mark.parametrize("players", PLAYERS)
def test_legal_moves_are_exactly_the_simple_moves_play_accepts(players: int) -> None:
    """Every bid, call, chelem, misère and card text is accepted by ``play`` exactly when ``legal`` lists it,
    and a refused move changes nothing."""
    seed = f"legal-{players}"
    moves = random_game(seed, players)
    game = TarotGame(seed, players)
    texts = all_move_texts(players)
    chooser = ContractStream(seed, "positions")
    for index, move in enumerate([*moves, None]):
        if index > 40 and chooser.uniform(8) != 0 and move is not None:
            game.play(index, move)
            continue
        legal = game.legal()
        before = game.report()
        for candidate in texts:
            if candidate in legal:
                copy.deepcopy(game).play(index, candidate)
            else:
                with pytest.raises(Refusal):
                    game.play(index, candidate)
        assert game.report() == before
        if move is not None:
            action = move.split(":", 1)[1]
            assert move in legal or action.startswith(("ecart:", "poignee:"))
            game.play(index, move)


def rich_seeds(players: int, count: int, prefix: str = "rich") -> list[str]:
    """Seeds whose deal 1 lets a seat show a poignée or announce a misère, or (at five) call a queen."""
    seeds = []
    number = 0
    while len(seeds) < count:
        seed = f"{prefix}-{players}-{number}"
        number += 1
        deal = TarotGame(seed, players).log[0]
        if deal.outcome is not None:
            continue
        for hand in deal.hands.values():
            shown = sum(is_trump(card) or card == "EX" for card in hand)
            kings = all("K" + suit in hand for suit in SUITS)
            if shown >= POIGNEE_SIZES[players][0] or deal.misere_holds_hand(hand) or (players == 5 and kings):
                seeds.append(seed)
                break
    return seeds


@pytest.mark.parametrize("players", PLAYERS)
def test_random_games_use_every_kind_of_move(players: int) -> None:
    """The random player: bids, calls, écarts in any order, poignées, misères, chelems and the Excuse all happen."""
    kinds: dict[str, int] = {}
    for seed in [f"kinds-{players}-{number}" for number in range(6)] + rich_seeds(players, 10):
        for move in random_game(seed, players):
            action = move.split(":", 1)[1]
            kind = action.split(":")[0] if ":" in action else "card" if action in INDEX else action
            kinds[kind] = kinds.get(kind, 0) + 1
            if action == "EX":
                kinds["EX"] = kinds.get("EX", 0) + 1
    expected = {"pass", "petite", "garde", "garde-sans", "garde-contre", "ecart", "chelem", "card", "EX", "poignee"}
    assert expected <= set(kinds)
    assert "misere-tete" in kinds or "misere-atout" in kinds
    assert ("call" in kinds) == (players == 5)


CAMP_SEED = "camp-16422"
"""At five players, S and E both hold 8 trumps or more in deal 1, and E holds KH (found by scanning camp-0, camp-1, …)."""


def test_one_poignee_a_camp_at_five_as_the_table_knows_it() -> None:
    """Announcements: at five the camps of the one poignée a camp are those the table knows: the taker, and
    the called card's holder only once it has been played, against every other seat (the hidden partner
    included); a poignée is refused after one of that camp, whoever holds the called card."""
    game = TarotGame(CAMP_SEED, 5)
    deal = game.deal
    assert deal.number == 1 and deal.dealer == "NW" and "KH" in deal.dealt["E"]
    assert "KC" in deal.dealt["NW"] and "KD" in deal.dealt["S"]
    assert all(sum(is_trump(card) for card in deal.dealt[seat]) >= 8 for seat in ("S", "E"))

    def show(seat: str) -> str:
        return f"{seat}:poignee:" + ",".join([card for card in deal.dealt[seat] if is_trump(card)][:8])

    def to_turn(moves: list[str], seat: str) -> list[str]:
        """Cards from the seat to play up to ``seat``'s turn in the first trick."""
        game = replay(CAMP_SEED, 5, moves)
        while game.deal.turn != seat:
            card = next(option for option in game.legal() if option.split(":")[1] in INDEX)
            game.play(len(moves), card)
            moves = [*moves, card]
        return moves

    # S takes and calls KH: E, his partner not yet known, counts as the defence: E shows, then S too.
    moves = to_turn(start_of_play(CAMP_SEED, 5, "S", "garde-sans", "KH"), "E")
    with_e = to_turn([*moves, show("E")], "S")
    entry = accepted(CAMP_SEED, 5, [*with_e, show("S")])["deal_log"][0]
    assert [poignee["seat"] for poignee in entry["poignees"]] == ["E", "S"] and entry["partner"] == "E"
    # E takes and calls his own king: alone; S defends and both show.
    moves = to_turn(start_of_play(CAMP_SEED, 5, "E", "garde-sans", "KS"), "S")
    with_s = to_turn([*moves, show("S")], "E")
    entry = accepted(CAMP_SEED, 5, [*with_s, show("E")])["deal_log"][0]
    assert [poignee["seat"] for poignee in entry["poignees"]] == ["S", "E"]
    assert entry["partner"] is None
    # W takes: E's KH (E the partner), NW's KC (S and E both defend) or S's own KD (S the partner); E
    # shows before S, whose poignée is refused alike each time.
    refusals = []
    for call, partner in (("KH", "E"), ("KC", "NW"), ("KD", "S")):
        moves = to_turn(start_of_play(CAMP_SEED, 5, "W", "garde-sans", call), "E")
        with_e = to_turn([*moves, show("E")], "S")
        assert accepted(CAMP_SEED, 5, with_e)["deal_log"][0]["partner"] == partner
        refused = refusal(CAMP_SEED, 5, [*with_e, show("S")])
        assert refused["move"] == len(with_e)
        refusals.append(refused["error"])
    assert len(set(refusals)) == 1, refusals


@pytest.mark.parametrize(
    "name", ["poignee-hidden-partner-then-taker-at-five", "refused-poignee-after-the-hidden-partner-at-five"]
)
def test_the_golden_poignees_after_a_hidden_partner(name: str) -> None:
    """Announcements at five: the golden records of a hidden partner's poignée followed by the taker's
    (accepted) or a defender's (refused), read by this reference: the golden report, or the golden move."""
    golden = Path(__file__).resolve().parents[2] / "data" / "golden" / "tarot"
    ours = verify_tarot((golden / f"{name}.json").read_text())
    expected = json.loads((golden / f"{name}.expected.json").read_text())
    if expected["valid"]:
        assert ours == expected, first_difference(expected, ours)
        assert [poignee["seat"] for poignee in ours["deal_log"][0]["poignees"]] == ["W", "NE"]
    else:
        assert (ours["valid"], ours["move"]) == (False, expected["move"])


# --- the engine against the reference: couyon.registry.verify_record on tarot-record/1 records


def engine_verify(data: str | bytes) -> dict[str, Any]:
    result: dict[str, Any] = verify_record(data)
    return result


def first_difference(ours: dict[str, Any], theirs: dict[str, Any]) -> str:
    """The first field where two valid reports differ, for the failure message."""
    for key in ours:
        if key == "deal_log" and isinstance(theirs.get(key), list):
            for mine, other in zip(ours[key], theirs[key], strict=False):
                for field in mine:
                    if mine[field] != other.get(field):
                        return f"deal {mine['number']} {field}: reference {mine[field]!r}, engine {other.get(field)!r}"
        if ours[key] != theirs.get(key):
            return f"{key}: reference {ours[key]!r}, engine {theirs.get(key)!r}"
    return f"keys: reference {sorted(ours)}, engine {sorted(theirs)}"


def assert_engine_agrees(data: str | bytes) -> dict[str, Any]:
    """Every field of the engine's report equal to the reference's (key order free, 46 == 46.0); for a
    refusal, a refusal at the same move (sentences may differ)."""
    ours = verify_tarot(data)
    theirs = engine_verify(data)
    assert json.loads(json.dumps(theirs)) == theirs
    if ours["valid"]:
        assert theirs == ours, first_difference(ours, theirs)
    else:
        assert set(theirs) == {"valid", "error", "move"}, theirs
        assert isinstance(theirs["error"], str) and theirs["error"] and "\n" not in theirs["error"]
        assert (theirs["valid"], theirs["move"]) == (False, ours["move"]), (theirs, ours)
    return ours


@pytest.mark.parametrize("batch", range(6))
@pytest.mark.parametrize("players", PLAYERS)
def test_engine_agrees_with_reference_on_random_records(players: int, batch: int) -> None:
    """Contract, "What the verifier prints": random games (whole, truncated, with faults) a batch."""
    refused = accepted_count = 0
    for number in range(batch * 12, batch * 12 + 12):
        seed = f"tarot-cross-{players}-{number}"
        moves = random_game(seed, players, greedy=number % 3 == 2)
        chooser = ContractStream(seed, "mutations")
        candidates: list[list[Any]] = [moves, moves[: chooser.uniform(len(moves) + 1)]]
        candidates += [mutated(seed, players, moves, chooser)[1] for _ in range(3)]
        for candidate in candidates:
            result = assert_engine_agrees(record(seed, players, candidate))
            refused += not result["valid"]
            accepted_count += result["valid"]
    assert refused > 10 and accepted_count > 20


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_agrees_on_deals_with_poignees_miseres_and_queen_calls(players: int) -> None:
    """Contract: games whose first deal lets a seat show a poignée, announce a misère or call a queen."""
    for seed in rich_seeds(players, 30, "rich-cross"):
        moves = random_game(seed, players)
        chooser = ContractStream(seed, "mutations")
        assert_engine_agrees(record(seed, players, moves))
        for kind in ("poignee the hand cannot show", "misere the hand does not have", "poignee twice in a camp"):
            assert_engine_agrees(record(seed, players, mutated(seed, players, moves, chooser, kind)[1]))


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_agrees_on_every_prefix_of_the_first_deals(players: int) -> None:
    """Contract: every prefix of a game is valid and reported alike, bid by bid and card by card (deals 1–2)."""
    seed = f"tarot-prefixes-{players}"
    moves = random_game(seed, players)
    game = TarotGame(seed, players)
    cut = 0
    while cut <= len(moves) and game.deal.number <= 2:
        assert assert_engine_agrees(record(seed, players, moves[:cut]))["valid"]
        if cut < len(moves):
            game.play(cut, moves[cut])
        cut += 1


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("kind", TARGETED)
def test_engine_refuses_each_kind_of_fault_at_the_same_move(kind: str, players: int) -> None:
    """Contract: the engine refuses each kind of fault at the reference's index."""
    for number in range(2):
        seed = f"tarot-fault-{players}-{number}"
        moves = random_game(seed, players)
        assert_engine_agrees(record(seed, players, mutated(seed, players, moves, ContractStream(seed, kind), kind)[1]))


@pytest.mark.parametrize("name", list(CHELEMS))
def test_engine_agrees_on_the_searched_chelems(name: str) -> None:
    """Chelems, the Excuse winning the last trick and the Petit au bout before it: the engine's numbers."""
    (seed, players, taker, contract, announce, target, shape), expected = CHELEMS[name]
    moves = chelem_line(seed, players, taker, contract, announce, target, lambda deal: last_tricks(deal, shape))
    entry = assert_engine_agrees(record(seed, players, moves))["deal_log"][0]
    assert {key: entry[key] for key in expected} == expected


def test_engine_agrees_on_the_camps_of_poignees_at_five() -> None:
    """Poignées at five by the camps the table knows: the hidden partner's and then the taker's accepted, a
    defender's refused after the hidden partner's or another defender's."""
    game = TarotGame(CAMP_SEED, 5)
    trumps = {seat: [card for card in game.deal.dealt[seat] if is_trump(card)][:8] for seat in ("S", "E")}
    for taker, call in (("S", "KH"), ("E", "KS"), ("W", "KH"), ("W", "KC"), ("W", "KD")):
        moves = start_of_play(CAMP_SEED, 5, taker, "garde-sans", call)
        trial = replay(CAMP_SEED, 5, moves)
        while len(trial.deal.tricks) == 0:
            seat = trial.deal.turn
            if seat in trumps:
                show = f"{seat}:poignee:" + ",".join(trumps[seat])
                assert_engine_agrees(record(CAMP_SEED, 5, [*moves, show]))
                try:
                    trial.play(len(moves), show)
                    moves.append(show)
                except Refusal:
                    pass
            card = next(option for option in trial.legal() if option.split(":")[1] in INDEX)
            trial.play(len(moves), card)
            moves.append(card)
        assert_engine_agrees(record(CAMP_SEED, 5, moves))


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_agrees_on_petit_sec_and_redeals(players: int) -> None:
    """Petit sec and passed-out deals: numbered, dealt by the next dealer, not played."""
    if players > 3:
        seed = first_seed(players, lambda game: game.log[0].outcome == "petit-sec", "petit-sec")
        assert assert_engine_agrees(record(seed, players, []))["deal_log"][0]["outcome"] == "petit-sec"
    seed = first_seed(players, lambda game: game.deal.number == 1, "redeal")
    dealer = TarotGame(seed, players).deal.dealer
    passes = [f"{left_of(dealer, SEATS_OF[players], places)}:pass" for places in range(1, players + 1)]
    assert assert_engine_agrees(record(seed, players, passes))["deal_log"][0]["outcome"] == "redeal"


@pytest.mark.parametrize("players", PLAYERS)
def test_engine_accepts_exactly_the_moves_the_reference_lists(players: int) -> None:
    """At positions of a first deal (the bidding, the call, the écart, the first trick, then one card in
    three), every text of the phase (bids; calls; cards, chelems and misères) from the seat to play, and
    a chelem or a pass from every seat, is accepted by both or by neither; so are a legal écart or poignée
    and faulty ones."""
    seed = first_seed(players, lambda game: game.deal.number == 1, "tarot-legal")
    moves = random_game(seed, players)
    game = TarotGame(seed, players)
    chooser = ContractStream(seed, "positions")
    actions = {
        "bidding": ["pass", "petite", "garde", "garde-sans", "garde-contre"],
        "call": [f"call:{card}" for card in DECK],
        "ecart": [],
        "play": ["chelem", "misere-atout", "misere-tete", *DECK],
    }
    for cut in range(len(moves) + 1):
        deal = game.deal
        if deal.number > 1:
            break
        early = deal.phase != "play" or not deal.tricks
        if early or chooser.uniform(3) == 0:
            seat = deal.turn
            candidates = [f"{seat}:{action}" for action in actions[deal.phase]]
            candidates += [f"{other}:{action}" for other in game.seats for action in ("chelem", "pass")]
            if deal.phase == "ecart" or (deal.phase == "play" and not deal.tricks):
                for kind in ("ecart malformed", "ecart with a king or bout", "poignee the hand cannot show"):
                    fault = mutated(seed, players, moves[:cut], chooser, kind)
                    if fault[2] == cut:
                        candidates.append(fault[1][cut])
                if moves[cut].split(":")[1] in ("ecart", "poignee"):
                    candidates.append(moves[cut])
            legal = game.legal()
            for candidate in candidates:
                text = record(seed, players, [*moves[:cut], candidate])
                ours = verify_tarot(text)
                assert engine_verify(text)["valid"] == ours["valid"], candidate
                if candidate.split(":", 1)[1] in SIMPLE_ACTIONS:
                    assert ours["valid"] == (candidate in legal)
        game.play(cut, moves[cut])


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe",
        b"{",
        b"[]",
        b'{"a": NaN}',
        b'{"format": "tarot-record/1", "format": "tarot-record/1"}',
        b"\xef\xbb\xbf" + record("s", 4, []).encode(),
        record("s", 4, [], format="tarot-record/2").encode(),
        record("s", 4.0, []).encode(),
        record("s", "4", []).encode(),
        record("s", True, []).encode(),
        record("s", 6, []).encode(),
        b'{"format": "tarot-record/1", "players": 4e0, "seed": "s", "moves": []}',
        json.dumps({"format": "tarot-record/1", "seed": "s", "moves": []}).encode(),
        record(5, 4, []).encode(),
        b'{"format": "tarot-record/1", "players": 4, "seed": "\\ud800", "moves": []}',
        record("s", 4, "W:pass").encode(),
        record("s", 4, [None]).encode(),
        record("s", 3, ["N:pass"]).encode(),
        record("s", 4, ["W:" + "x" * 100_000]).encode(),
        record("s", 5, [], bots={"name": "random"}, variant="standard").encode(),
    ],
)
def test_engine_agrees_on_malformed_records(data: bytes) -> None:
    """A record: malformed JSON, format, players, seed or moves; extra keys ignored."""
    assert_engine_agrees(data)
    assert_engine_agrees(data.decode("utf-8", "replace"))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(max_size=6),
    players=st.sampled_from(PLAYERS),
    moves=st.lists(
        st.sampled_from(all_move_texts(5)) | st.sampled_from(all_move_texts(4)) | st.text(max_size=6) | st.none(),
        max_size=8,
    ),
)
def test_fuzz_records_of_random_moves_match_reference(seed: str, players: int, moves: list[Any]) -> None:
    """Contract: a record is accepted exactly when every move is legal, as the reference judges it."""
    assert_engine_agrees(record(seed, players, moves))


@settings(max_examples=100, deadline=None)
@given(players=st.none() | st.booleans() | st.integers(-2, 8) | st.floats(allow_nan=False) | st.text(max_size=2))
def test_fuzz_player_counts_match_reference(players: Any) -> None:
    """Contract: ``players`` is the JSON integer 3, 4 or 5, nothing else."""
    assert_engine_agrees(record("fuzz", players, []))
