"""The independent coucou verifier in tests/reference (coucou-record-format.md): the contract's test
vectors, its worked record and hand-set coups, the rulings on whole random games, each kind of
refusal; then the engine's ``couyon verify`` (``couyon.registry.verify_record``) against it on
random, truncated, mutated, hand-built and malformed records at every table size."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.registry import verify_record
from reference.contract import ContractStream
from reference.coucou_contract import (
    BAD_ACTIONS,
    BAD_SHAPES,
    NOT_STRINGS,
    RECORD_FAULTS,
    CoucouGame,
    circle,
    dealers_card,
    deck_for,
    faulty_record,
    first_dealer,
    mutated,
    next_right,
    play_coup,
    random_moves,
    record,
    seat_written_otherwise,
    shuffled_deck,
    verify_coucou,
)

REPORT_KEYS = ["valid", "finished", "winner", "tokens", "coups", "eliminated", "place", "score", "coup_log"]
COUP_KEYS = ["number", "dealer", "order", "before", "actions", "stock", "after", "losers", "tokens", "eliminated"]
WORKED_MOVES = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]


def assert_report_shape(result: dict[str, Any]) -> None:
    assert json.loads(json.dumps(result)) == result
    if result["valid"]:
        assert list(result) == REPORT_KEYS
        assert all(list(coup) == COUP_KEYS for coup in result["coup_log"])
        assert result["coups"] == len(result["coup_log"]) == result["coup_log"][-1]["number"]
    else:
        assert list(result) == ["valid", "error", "move"]
        assert isinstance(result["error"], str) and result["error"] and "\n" not in result["error"]


def verified(seed: str, players: int, tokens: int, moves: list[Any], **extra: Any) -> dict[str, Any]:
    result = verify_coucou(record(seed, players, tokens, moves, **extra))
    assert_report_shape(result)
    return result


def refused_at(seed: str, players: int, tokens: int, moves: list[Any]) -> int | None:
    result = verified(seed, players, tokens, moves)
    assert result["valid"] is False
    move: int | None = result["move"]
    return move


# --- the contract's test vectors


def test_stream_starts_with_the_contract_value() -> None:
    """`stream("coucou", "dealer")` starts with x = 0x5988685F."""
    assert ContractStream("coucou", "dealer").u32() == 0x5988685F


@pytest.mark.parametrize(
    ("seed", "players", "dealer"),
    [("coucou", 5, 5), ("coucou", 8, 8), ("2026-12-01", 5, 1), ("2026-12-01", 8, 2)],
)
def test_first_dealer(seed: str, players: int, dealer: int) -> None:
    """First dealer: seat 1 + uniform(N) on stream(seed, "dealer")."""
    assert first_dealer(seed, players) == dealer
    assert verified(seed, players, 3, [])["coup_log"][0]["dealer"] == dealer


@pytest.mark.parametrize(
    ("players", "positions"),
    [(5, "7S 7H 8S KS JC 9H JH QS JS 8C"), (8, "JH 5C QD 6D 10S JS 10H 2D 4H 9C")],
)
def test_coup_one_positions(players: int, positions: str) -> None:
    """Seed "coucou", coup 1, positions 0–9 at N = 5 (32 cards) and N = 8 (52 cards)."""
    deck = shuffled_deck("coucou", 1, players)
    assert deck[:10] == positions.split()
    assert sorted(deck) == sorted(deck_for(players))


def test_canonical_decks() -> None:
    """32 cards up to 6 players, 52 from 7; suits C, D, H, S; ranks weakest first."""
    for players in (5, 6):
        deck = deck_for(players)
        assert len(deck) == 32 and (deck[0], deck[1], deck[7], deck[8], deck[31]) == ("AC", "7C", "KC", "AD", "KS")
    for players in (7, 20):
        deck = deck_for(players)
        assert len(deck) == 52 and (deck[0], deck[1], deck[12], deck[13], deck[51]) == ("AC", "2C", "KC", "AD", "KS")


WORKED_COUP_1 = {
    "number": 1,
    "dealer": 5,
    "order": [1, 2, 3, 4, 5],
    "before": {"1": "7S", "2": "7H", "3": "8S", "4": "KS", "5": "JH"},
    "actions": ["1:exchange", "2:exchange", "3:coucou", "4:keep"],
    "stock": None,
    "after": {"1": "7H", "2": "8S", "3": "7S", "4": "KS", "5": "JH"},
    "losers": [1, 3],
    "tokens": {"1": 0, "2": 1, "3": 0, "4": 1, "5": 1},
    "eliminated": [1, 3],
}
WORKED_COUP_2 = {
    # "Coup 2: dealer 2 (1 is out), order 4 5 2, before 4:AS 5:7C 2:KC (from AS 7C 9S KC 9D), stock top 7S.
    # 4 and 5 exchange; 5 takes 7S from the stock; 4 and 5 hold 7s: both out, place 2."
    "number": 2,
    "dealer": 2,
    "order": [4, 5, 2],
    "before": {"4": "AS", "5": "7C", "2": "KC"},
    "actions": ["4:exchange", "5:stock"],
    "stock": "7S",
    "after": {"4": "7C", "5": "7S", "2": "KC"},
    "losers": [4, 5],
    "tokens": {"1": 0, "2": 1, "3": 0, "4": 0, "5": 0},
    "eliminated": [4, 5],
}


def test_worked_record_full_report() -> None:
    """The worked record's report as printed in the contract, its second coup spelled out from the text."""
    result = verified("coucou", 5, 1, WORKED_MOVES)
    assert result == {
        "valid": True,
        "finished": True,
        "winner": 2,
        "tokens": {"1": 0, "2": 1, "3": 0, "4": 0, "5": 0},
        "coups": 2,
        "eliminated": [
            {"seat": 1, "coup": 1, "place": 4},
            {"seat": 3, "coup": 1, "place": 4},
            {"seat": 4, "coup": 2, "place": 2},
            {"seat": 5, "coup": 2, "place": 2},
        ],
        "place": 4,
        "score": 251,
        "coup_log": [WORKED_COUP_1, WORKED_COUP_2],
    }
    # Coup 1: the dealer got JC 9H JH and kept JH (H after C); the stock top (position 7) was never turned.
    assert shuffled_deck("coucou", 1, 5)[4:8] == ["JC", "9H", "JH", "QS"]
    # Coup 2, three seats in: positions 0–1 to seats 4 and 5, 2–4 to the dealer, 5 the stock.
    assert shuffled_deck("coucou", 2, 5)[:6] == ["AS", "7C", "9S", "KC", "9D", "7S"]
    # Score: floor(1000 × (5 - 4) / 4) + min(1, 50).
    assert result["score"] == 1000 * (5 - 4) // 4 + 1


def test_worked_record_cut_short() -> None:
    """An unfinished record: seat 1 already out, but place and score stay null until the game ends."""
    after_coup_1 = verified("coucou", 5, 1, WORKED_MOVES[:4])
    assert after_coup_1["finished"] is False and after_coup_1["winner"] is None
    assert (after_coup_1["place"], after_coup_1["score"]) == (None, None)
    assert after_coup_1["tokens"] == {"1": 0, "2": 1, "3": 0, "4": 1, "5": 1}
    assert after_coup_1["eliminated"] == [{"seat": 1, "coup": 1, "place": 4}, {"seat": 3, "coup": 1, "place": 4}]
    assert after_coup_1["coups"] == 2
    assert after_coup_1["coup_log"][0] == WORKED_COUP_1
    waiting = {**WORKED_COUP_2, "actions": [], "stock": None}
    waiting.update(after=None, losers=None, tokens=None, eliminated=None)
    assert after_coup_1["coup_log"][1] == waiting
    middle = verified("coucou", 5, 1, WORKED_MOVES[:2])
    assert middle["coups"] == 1 and middle["tokens"] == {str(seat): 1 for seat in range(1, 6)}
    assert middle["coup_log"][0]["actions"] == ["1:exchange", "2:exchange"]
    assert [middle["coup_log"][0][key] for key in ("stock", "after", "losers", "tokens", "eliminated")] == [None] * 5


def test_empty_record_shows_coup_one_waiting_for_its_first_speaker() -> None:
    """An empty `moves` shows coup 1 dealt, waiting for its c0."""
    result = verified("coucou", 8, 3, [])
    deck = shuffled_deck("coucou", 1, 8)
    assert result == {
        "valid": True,
        "finished": False,
        "winner": None,
        "tokens": {str(seat): 3 for seat in range(1, 9)},
        "coups": 1,
        "eliminated": [],
        "place": None,
        "score": None,
        "coup_log": [
            {
                "number": 1,
                "dealer": 8,
                "order": [1, 2, 3, 4, 5, 6, 7, 8],
                "before": {str(p + 1): deck[p] for p in range(7)} | {"8": dealers_card(deck[7:10])},
                "actions": [],
                "stock": None,
                "after": None,
                "losers": None,
                "tokens": None,
                "eliminated": None,
            }
        ],
    }
    assert result["coup_log"][0]["before"]["8"] == "9C"  # JH 5C QD 6D 10S JS 10H to seats 1-7; 2D 4H 9C to the dealer
    assert CoucouGame("coucou", 8, 3).legal() == ["1:keep", "1:change"]


# --- the hand-set examples and the coup logic on cards set by hand


def test_hand_set_example_coucou_keep_exchange_stock_king() -> None:
    """Order 3 4 5 1 2, stock top KH, moves change keep change change: coucou keep exchange stock-king."""
    before = {3: "7C", 4: "KD", 5: "AH", 1: "9S", 2: "QC"}
    coup = play_coup([3, 4, 5, 1, 2], before, "KH", ["change", "keep", "change", "change"])
    assert coup.actions == ["3:coucou", "4:keep", "5:exchange", "1:stock-king"]
    assert coup.after == {3: "7C", 4: "KD", 5: "9S", 1: "AH", 2: "QC"}
    assert coup.stock == "KH"
    assert coup.losers == [1]


def test_hand_set_example_all_the_same_rank() -> None:
    """Order 2 4 1, 2:8H 4:AS 1:8C, stock 8D, moves keep change: all hold 8s, nobody loses."""
    coup = play_coup([2, 4, 1], {2: "8H", 4: "AS", 1: "8C"}, "8D", ["keep", "change"])
    assert coup.actions == ["2:keep", "4:stock"]
    assert coup.after == {2: "8H", 4: "8D", 1: "8C"}
    assert coup.losers == []


def test_a_king_changed_away_travels_right() -> None:
    """Changing away one's own king is legal; the neighbour who now holds it refuses the next change."""
    coup = play_coup([1, 2, 3, 4], {1: "KS", 2: "AH", 3: "9C", 4: "QC"}, "10D", ["change", "change", "change"])
    assert coup.actions == ["1:exchange", "2:exchange", "3:stock"]
    assert coup.after == {1: "AH", 2: "9C", 3: "10D", 4: "QC"} and coup.losers == [1]
    coup = play_coup([1, 2, 3, 4], {1: "KS", 2: "AH", 3: "9C", 4: "QC"}, "10D", ["change", "keep", "change"])
    assert coup.actions == ["1:exchange", "2:keep", "3:stock"]
    coup = play_coup([1, 2, 3, 4], {1: "AS", 2: "KH", 3: "KC", 4: "QC"}, "10D", ["change", "change", "keep"])
    assert coup.actions == ["1:coucou", "2:coucou", "3:keep"]
    assert coup.after == {1: "AS", 2: "KH", 3: "KC", 4: "QC"} and coup.losers == [1]


def test_nobody_changes_with_the_dealer() -> None:
    """c(m-2) changes with the stock, even when the dealer holds a low card; a stock king stays put."""
    coup = play_coup([1, 2, 3], {1: "KD", 2: "5C", 3: "2H"}, "9S", ["keep", "change"])
    assert coup.actions == ["1:keep", "2:stock"] and coup.after == {1: "KD", 2: "9S", 3: "2H"}
    assert coup.losers == [3]
    coup = play_coup([1, 2, 3], {1: "KD", 2: "5C", 3: "2H"}, "KS", ["keep", "change"])
    assert coup.actions == ["1:keep", "2:stock-king"] and coup.after == {1: "KD", 2: "5C", 3: "2H"}
    assert coup.stock == "KS"


def test_two_seats_left_the_non_dealer_changes_with_the_stock() -> None:
    """Ruling 7: with two players left, the non-dealer keeps or changes with the stock."""
    coup = play_coup([7, 2], {7: "3S", 2: "4S"}, "QD", ["change"])
    assert coup.actions == ["7:stock"] and coup.after == {7: "QD", 2: "4S"} and coup.losers == [2]
    coup = play_coup([7, 2], {7: "3S", 2: "4S"}, "QD", ["keep"])
    assert coup.stock is None and coup.losers == [7]


def test_ties_lose_together_and_only_ranks_count() -> None:
    """Ruling 11: every holder of the lowest rank loses; suits never separate two players."""
    coup = play_coup([1, 2, 3, 4], {1: "2S", 2: "2C", 3: "10H", 4: "10D"}, "KS", ["keep", "keep", "keep"])
    assert coup.losers == [1, 2]
    coup = play_coup([4, 1, 2, 3], {4: "AD", 1: "7H", 2: "AC", 3: "AS"}, "QS", ["keep", "keep", "keep"])
    assert coup.losers == [2, 3, 4]


def test_the_dealer_keeps_his_highest_card() -> None:
    """The highest rank; on a tie, the suit that comes last in C, D, H, S."""
    assert dealers_card(["JC", "9H", "JH"]) == "JH"
    assert dealers_card(["2D", "4H", "9C"]) == "9C"
    assert dealers_card(["AS", "AC", "AH"]) == "AS"
    assert dealers_card(["10D", "10C", "9S"]) == "10D"
    assert dealers_card(["KC", "AS", "QS"]) == "KC"


def test_the_circle_turns_right_and_skips_the_seats_out() -> None:
    """Seat s's right neighbour is s + 1 (N's is 1); eliminated seats leave the circle."""
    assert circle(5, [1, 2, 3, 4, 5], 5) == [1, 2, 3, 4, 5]
    assert circle(2, [2, 4, 5], 5) == [4, 5, 2]
    assert circle(20, [3, 20], 20) == [3, 20]
    assert next_right(5, [2, 4, 5], 5) == 2
    assert next_right(3, [1, 2, 4, 5], 5) == 4  # the dealer himself out: the next seat still in
    assert next_right(19, [1, 2, 19], 20) == 1


# --- the rulings on whole random games


def games(count: int, players: int) -> list[tuple[str, int, int, list[str]]]:
    chooser = ContractStream(f"coucou-games-{players}", "tokens")
    found = []
    for number in range(count):
        seed = f"whole-{players}-{number}"
        tokens = 1 + chooser.uniform(10)
        found.append((seed, players, tokens, random_moves(seed, players, tokens)))
    return found


@pytest.mark.parametrize("players", range(5, 21))
def test_random_games_follow_the_rulings(players: int) -> None:
    """Deals, speakers, showdowns, tokens, eliminations, the dealer's turn, the winner and seat 1's score."""
    for seed, n, start, moves in games(4, players):
        result = verified(seed, n, start, moves)
        assert result["valid"] and result["finished"]
        tokens = dict.fromkeys(range(1, n + 1), start)
        dealer = first_dealer(seed, n)
        eliminated = []
        spoken = []
        for coup in result["coup_log"]:
            in_game = [seat for seat in tokens if tokens[seat] > 0]
            assert coup["dealer"] == dealer
            order = [*[seat for seat in in_game if seat > dealer], *[seat for seat in in_game if seat < dealer], dealer]
            assert coup["order"] == order
            deck = shuffled_deck(seed, coup["number"], n)
            m = len(order)
            before = {str(seat): deck[p] for p, seat in enumerate(order[:-1])}
            before[str(dealer)] = max(deck[m - 1 : m + 2], key=lambda card: (deck_for(20).index(card) % 13, card[-1]))
            assert coup["before"] == before
            assert [action.split(":")[0] for action in coup["actions"]] == [str(seat) for seat in order[:-1]]
            spoken += [f"{seat}:" for seat in order[:-1]]
            assert coup["stock"] in (None, deck[m + 2])
            assert (coup["stock"] is None) == (coup["actions"][-1].split(":")[1] not in ("stock", "stock-king"))
            ranks = {seat: deck_for(20).index(card) % 13 for seat, card in coup["after"].items()}
            low = min(ranks.values())
            losers = [] if low == max(ranks.values()) else sorted(int(seat) for seat in ranks if ranks[seat] == low)
            assert coup["losers"] == losers
            for seat in losers:
                tokens[seat] -= 1
            assert coup["tokens"] == {str(seat): tokens[seat] for seat in tokens}
            out = [seat for seat in losers if tokens[seat] == 0]
            assert coup["eliminated"] == out
            still = [seat for seat in tokens if tokens[seat] > 0]
            eliminated += [{"seat": seat, "coup": coup["number"], "place": 1 + len(still)} for seat in out]
            dealer = next(seat for seat in [*range(dealer + 1, n + 1), *range(1, dealer + 1)] if tokens[seat] > 0)
        assert [move.split(":")[0] + ":" for move in moves] == spoken
        assert result["eliminated"] == eliminated
        assert result["tokens"] == {str(seat): tokens[seat] for seat in tokens}
        survivors = [seat for seat in tokens if tokens[seat] > 0]
        assert len(survivors) == 1 and result["winner"] == survivors[0]
        assert len(eliminated) == n - 1 and all(entry["place"] >= 2 for entry in eliminated)
        if result["winner"] == 1:
            assert (result["place"], result["score"]) == (1, 1000 + 10 * tokens[1])
        else:
            mine = next(entry for entry in eliminated if entry["seat"] == 1)
            assert result["place"] == mine["place"]
            assert result["score"] == 1000 * (n - mine["place"]) // (n - 1) + min(mine["coup"], 50)


def test_a_better_place_always_scores_more() -> None:
    """Ruling 16: at every table size, the worst score of a place beats the best of the next place."""
    for n in range(5, 21):
        best_below = 1000 + 10 * 1
        for place in range(2, n + 1):
            best = 1000 * (n - place) // (n - 1) + 50
            worst_above = best_below
            assert best < worst_above
            best_below = 1000 * (n - place) // (n - 1) + 1


def find_coup(predicate: Any, players_range: range = range(5, 21)) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first finished coup of the random games (sizes ``players_range``) that ``predicate`` accepts."""
    for players in players_range:
        for seed, n, tokens, moves in games(6, players):
            result = verified(seed, n, tokens, moves)
            for coup in result["coup_log"]:
                if predicate(coup):
                    return result, coup
    raise AssertionError("no such coup")


def test_a_coup_where_nobody_loses_still_counts_and_passes_the_deal() -> None:
    """Ruling 11: all the same rank: nobody loses, the coup still counts and the deal passes."""
    result, coup = find_coup(lambda coup: coup["losers"] == [])
    assert len({card[:-1] for card in coup["after"].values()}) == 1
    assert coup["eliminated"] == []
    following = result["coup_log"][coup["number"]]
    previous = result["coup_log"][coup["number"] - 2]["tokens"] if coup["number"] > 1 else None
    if previous is not None:
        assert coup["tokens"] == previous
    assert following["dealer"] == coup["order"][0]


def test_an_eliminated_dealer_passes_the_deal_to_his_right() -> None:
    """Ruling 13: the deal passes to the next seat still in, also when the dealer himself just went out."""
    result, coup = find_coup(lambda coup: coup["dealer"] in (coup["eliminated"] or []))
    following = result["coup_log"][coup["number"]] if coup["number"] < result["coups"] else None
    if following is not None:
        still = [int(seat) for seat, count in coup["tokens"].items() if count > 0]
        assert following["dealer"] == next_right(coup["dealer"], still, len(coup["tokens"]))
        assert following["dealer"] not in coup["eliminated"]


def test_a_king_may_be_changed_away() -> None:
    """Both actions are always legal, even holding a king: c0 hands his king to c1, who holds none."""

    def king_given(coup: dict[str, Any]) -> bool:
        return bool(coup["before"][str(coup["order"][0])][:-1] == "K" and coup["actions"][0].endswith(":exchange"))

    _, coup = find_coup(king_given)
    c0, c1 = (str(seat) for seat in coup["order"][:2])
    assert coup["before"][c1][:-1] != "K"
    assert coup["after"][c0] == coup["before"][c1]


# --- records: extra keys, prefixes, refusals


def test_extra_keys_are_ignored() -> None:
    """Extra keys are allowed and ignored (bots, player, challenge)."""
    plain = verified("coucou", 5, 1, WORKED_MOVES)
    extra = {"bots": {"name": "expert", "version": 1}, "player": "ana", "challenge": "2026-12-01", "x": [None]}
    assert verified("coucou", 5, 1, WORKED_MOVES, **extra) == plain


def test_every_prefix_is_a_valid_unfinished_record() -> None:
    """A record may stop anywhere; a record that stops right after a coup's last move shows the next coup."""
    seed, players, tokens, moves = games(1, 9)[0]
    whole = verified(seed, players, tokens, moves)
    for cut in range(len(moves)):
        result = verified(seed, players, tokens, moves[:cut])
        assert result["valid"] and not result["finished"] and result["winner"] is None
        assert result["place"] is None and result["score"] is None
        last = result["coup_log"][-1]
        assert last["after"] is None and last["losers"] is None
        assert last["tokens"] is None and last["eliminated"] is None
        assert result["coup_log"][:-1] == whole["coup_log"][: result["coups"] - 1]
        assert last["number"] == result["coups"]
        assert last["before"] == whole["coup_log"][last["number"] - 1]["before"]
        finished = result["coup_log"][-2]["tokens"] if result["coups"] > 1 else {str(s): tokens for s in range(1, 10)}
        assert result["tokens"] == finished


def moves_until(seed: str, players: int, tokens: int, wanted: Any) -> tuple[list[str], CoucouGame]:
    """The first moves of ``seed``'s random game up to the first position where ``wanted(game)`` holds."""
    moves = random_moves(seed, players, tokens)
    game = CoucouGame(seed, players, tokens)
    for index, move in enumerate(moves):
        if wanted(game):
            return moves[:index], game
        game.play(index, move)
    raise AssertionError("no such position")


def test_wrong_seats_are_refused_at_their_index() -> None:
    """The wrong seat: another seat in the game, the dealer (no move), a seat out, seat 0 or N + 1."""
    seed, players, tokens = "refusals", 12, 2
    moves, game = moves_until(seed, players, tokens, lambda game: len(game.in_game()) < 12 and game.coup.actions)
    speaker = game.coup.speaker
    out = next(seat for seat in range(1, 13) if game.tokens[seat] == 0)
    others = [seat for seat in game.coup.order if seat != speaker]
    for seat in [*others, game.coup.dealer, out, 0, 13, -1]:
        for action in ("keep", "change"):
            assert refused_at(seed, players, tokens, [*moves, f"{seat}:{action}", "junk"]) == len(moves)
    assert verified(seed, players, tokens, [*moves, f"{speaker}:keep"])["valid"]


@pytest.mark.parametrize("seat", [1, 7, 10, 20])
def test_the_right_seat_written_otherwise_is_refused(seat: int) -> None:
    """ "the right one written otherwise: "07"": leading zeros, signs, spaces, other digits."""
    seed, players, tokens = "spelling", 20, 3
    moves, _ = moves_until(seed, players, tokens, lambda game: game.coup.speaker == seat)
    for spelled in seat_written_otherwise(str(seat)):
        assert spelled != str(seat)
        assert refused_at(seed, players, tokens, [*moves, f"{spelled}:keep"]) == len(moves)
    assert verified(seed, players, tokens, [*moves, f"{seat}:change"])["valid"]


def test_unknown_actions_and_shapes_are_refused() -> None:
    """An action other than keep or change; not a string with exactly one colon; not a string."""
    seed, players, tokens = "coucou", 5, 1
    prefix = WORKED_MOVES[:2]
    bad: list[Any] = [
        "3:Keep",
        "3:KEEP",
        "3:keep ",
        "3: keep",
        "3:",
        "3:swap",
        "3:exchange",
        "3:coucou",
        "3:stock",
        "3:garde",
    ]
    bad += ["3keep", "3:keep:", "3::keep", ":3:keep", "", ":", "3:keep\n", "3;keep", "3 : keep"]
    bad += [None, 3, 3.0, True, ["3:keep"], {"3": "keep"}]
    for move in bad:
        assert refused_at(seed, players, tokens, [*prefix, move]) == 2, move


def test_a_move_after_the_end_is_refused() -> None:
    """A move after the game ended is refused at its index, whatever it says."""
    for move in ["1:keep", "2:keep", "2:change", "junk", None]:
        assert refused_at("coucou", 5, 1, [*WORKED_MOVES, move]) == len(WORKED_MOVES)
    seed, players, tokens, moves = games(1, 15)[0]
    assert refused_at(seed, players, tokens, [*moves, moves[-1]]) == len(moves)


def test_the_first_faulty_move_is_named() -> None:
    """Only the first fault counts: later junk is never read."""
    assert refused_at("coucou", 5, 1, ["1:change", "3:keep", None, "x"]) == 1
    assert refused_at("coucou", 5, 1, ["1:change", "2:keep", "3:keep", "4:keep", "5:keep"]) == 4


@pytest.mark.parametrize(("name", "fault"), RECORD_FAULTS, ids=[name for name, _ in RECORD_FAULTS])
def test_record_faults_are_refused_with_move_null(name: str, fault: dict[str, Any]) -> None:
    """The record itself is bad: move is null, even when a move is also bad."""
    for moves in ([], WORKED_MOVES, ["junk"]):
        result = verify_coucou(faulty_record("coucou", 5, 1, moves, fault))
        assert_report_shape(result)
        assert result["valid"] is False and result["move"] is None, name


MALFORMED = [
    pytest.param(b"\xff\xfe", id="not UTF-8"),
    pytest.param(b"{", id="not JSON"),
    pytest.param(b"", id="empty"),
    pytest.param(b"[]", id="not an object"),
    pytest.param(b'"coucou-record/1"', id="a string"),
    pytest.param(b'{"format": "coucou-record/1", "players": NaN, "tokens": 1, "seed": "s", "moves": []}', id="NaN"),
    pytest.param(b"[" * 100_000 + b"]" * 100_000, id="deeply nested"),
    pytest.param(
        b'{"format": "coucou-record/1", "players": 5, "players": 5, "tokens": 1, "seed": "s", "moves": []}',
        id="duplicate keys",
    ),
    pytest.param(b"\xef\xbb\xbf" + record("s", 5, 1, []).encode(), id="byte order mark"),
    pytest.param(
        b'{"format": "coucou-record/1", "players": 5, "tokens": 1, "seed": "\\ud800", "moves": []}',
        id="seed lone surrogate",
    ),
    pytest.param(
        b'{"format": "coucou-record/1", "players": 5e0, "tokens": 1, "seed": "s", "moves": []}', id="players 5e0"
    ),
]


@pytest.mark.parametrize("data", MALFORMED)
def test_malformed_records_are_refused_with_move_null(data: bytes) -> None:
    """Malformed JSON, not an object, a lone surrogate in the seed: refused, move null."""
    for form in (data, data.decode("utf-8", "replace")):
        result = verify_coucou(form)
        assert_report_shape(result)
        assert result["valid"] is False and result["move"] is None


def test_limits_of_players_and_tokens_are_accepted() -> None:
    """players 5 and 20, tokens 1 and 10 are in range."""
    for players in (5, 20):
        for tokens in (1, 10):
            assert verified("limits", players, tokens, [])["valid"]


SELF_FAULTS = ("wrong-seat", "seat-spelling", "bad-action", "not-string", "bad-shape", "after-end")


def test_mutator_makes_faulty_records_the_reference_refuses() -> None:
    """A corrupted move that is itself faulty is refused at its index; no corruption refuses an earlier move."""
    kinds: dict[str, int] = {}
    for number in range(300):
        seed = f"mutate-{number}"
        players = 5 + number % 16
        moves = random_moves(seed, players, 2)
        kind, changed = mutated(moves, players, ContractStream(seed, "mutations"))
        kinds[kind] = kinds.get(kind, 0) + 1
        result = verified(seed, players, 2, changed)
        pairs = enumerate(zip(changed, [*moves, None], strict=False))
        first_change = next((i for i, (a, b) in pairs if a != b), len(changed))
        if kind in SELF_FAULTS:
            assert (result["valid"], result["move"]) == (False, first_change), kind
        elif not result["valid"]:
            assert result["move"] >= first_change
    assert sorted(kinds) == sorted([*SELF_FAULTS, "flip", "drop", "repeat", "swap"])


# --- the engine against the reference: couyon verify (couyon.registry.verify_record) on coucou records


def engine_verify(data: str | bytes) -> dict[str, Any]:
    result: dict[str, Any] = verify_record(data)
    return result


def assert_engine_agrees(data: str | bytes) -> dict[str, Any]:
    """Every field of the engine's report equal to the reference's; for a refusal, the same move index."""
    ours = verify_coucou(data)
    theirs = engine_verify(data)
    assert_report_shape(theirs)
    if ours["valid"]:
        assert theirs == ours
    else:
        assert (theirs["valid"], theirs["move"]) == (False, ours["move"]), (theirs, ours)
    return ours


def test_engine_agrees_on_the_worked_record() -> None:
    """The contract's worked record, whole, cut after every move, and one move too many."""
    for cut in range(len(WORKED_MOVES) + 1):
        assert assert_engine_agrees(record("coucou", 5, 1, WORKED_MOVES[:cut]))["valid"]
    assert assert_engine_agrees(record("coucou", 5, 1, WORKED_MOVES))["score"] == 251
    assert assert_engine_agrees(record("coucou", 5, 1, [*WORKED_MOVES, "2:keep"]))["move"] == 6


@pytest.mark.parametrize(("seed", "players"), [("coucou", 5), ("coucou", 8), ("2026-12-01", 5), ("2026-12-01", 8)])
def test_engine_agrees_on_the_test_vector_seeds(seed: str, players: int) -> None:
    """The vectors' seeds: coup 1 dealt as the contract says, then a whole random game."""
    for tokens in (1, 3, 10):
        assert assert_engine_agrees(record(seed, players, tokens, []))["coup_log"][0]["dealer"] == first_dealer(
            seed, players
        )
        assert assert_engine_agrees(record(seed, players, tokens, random_moves(seed, players, tokens)))["finished"]


GAMES_PER_SIZE = 12


@pytest.mark.parametrize("players", range(5, 21))
def test_engine_agrees_with_reference_on_random_records(players: int) -> None:
    """At every size: whole random games (1 to 10 tokens), a truncation and two corruptions of each."""
    refused = accepted = 0
    for number in range(GAMES_PER_SIZE):
        seed = f"coucou-cross-{players}-{number}"
        chooser = ContractStream(seed, "mutations")
        tokens = 1 + chooser.uniform(10)
        moves = random_moves(seed, players, tokens)
        candidates: list[list[Any]] = [moves, moves[: chooser.uniform(len(moves) + 1)]]
        candidates += [mutated(moves, players, chooser)[1] for _ in range(2)]
        for candidate in candidates:
            result = assert_engine_agrees(record(seed, players, tokens, candidate))
            refused += not result["valid"]
            accepted += result["valid"]
    assert accepted >= 2 * GAMES_PER_SIZE and refused >= GAMES_PER_SIZE // 2


@pytest.mark.parametrize(("players", "tokens"), [(5, 2), (13, 1)])
def test_engine_agrees_on_every_prefix_of_one_game(players: int, tokens: int) -> None:
    """Every prefix of a game is valid and reported alike, coup by coup and move by move."""
    seed = f"coucou-prefixes-{players}"
    moves = random_moves(seed, players, tokens)
    for cut in range(len(moves) + 1):
        assert assert_engine_agrees(record(seed, players, tokens, moves[:cut]))["valid"]


def candidate_moves(players: int, seat: int) -> list[Any]:
    """Move texts to try at a position: every seat 0 … N + 1 with each action, the speaker spelled otherwise,
    bad actions and shapes, non-strings."""
    texts: list[Any] = [f"{other}:{action}" for other in range(players + 2) for action in ("keep", "change")]
    texts += [f"{spelled}:keep" for spelled in seat_written_otherwise(str(seat))]
    texts += [f"{seat}:{action}" for action in BAD_ACTIONS]
    texts += [*BAD_SHAPES, f"{seat}:keep:", f"{seat}keep", *NOT_STRINGS]
    return texts


@pytest.mark.parametrize(("players", "tokens", "length"), [(5, 1, 40), (11, 2, 25)])
def test_engine_accepts_exactly_the_moves_the_reference_accepts(players: int, tokens: int, length: int) -> None:
    """After each of the first moves of a game, every candidate move is accepted by both or by neither."""
    seed = f"coucou-legal-{players}"
    moves = random_moves(seed, players, tokens)[:length]
    game = CoucouGame(seed, players, tokens)
    for cut in range(len(moves) + 1):
        seat = game.coup.speaker if game.winner is None else game.winner  # once over, every move is refused
        assert seat is not None
        for candidate in candidate_moves(players, seat):
            ours = verify_coucou(record(seed, players, tokens, [*moves[:cut], candidate]))
            assert ours["valid"] == (candidate in game.legal())
            theirs = engine_verify(record(seed, players, tokens, [*moves[:cut], candidate]))
            assert (theirs["valid"], theirs.get("move")) == (ours["valid"], ours.get("move")), candidate
        if cut < len(moves):
            game.play(cut, moves[cut])


@pytest.mark.parametrize(("name", "fault"), RECORD_FAULTS, ids=[name for name, _ in RECORD_FAULTS])
def test_engine_refuses_record_faults_with_move_null(name: str, fault: dict[str, Any]) -> None:
    """The record itself is bad: the engine refuses with move null too."""
    for moves in ([], WORKED_MOVES, ["junk"]):
        assert assert_engine_agrees(faulty_record("coucou", 5, 1, moves, fault))["move"] is None, name


@pytest.mark.parametrize("data", MALFORMED)
def test_engine_refuses_malformed_records_with_move_null(data: bytes) -> None:
    """Malformed JSON, not an object, a lone surrogate in the seed: the engine refuses, move null."""
    for form in (data, data.decode("utf-8", "replace")):
        assert_engine_agrees(form)


def test_engine_ignores_extra_keys_and_accepts_the_limits() -> None:
    """Extra keys ignored; players 5 and 20, tokens 1 and 10 accepted."""
    extra = {"bots": {"name": "expert", "version": 1}, "player": "ana", "challenge": "2026-12-01"}
    assert assert_engine_agrees(record("coucou", 5, 1, WORKED_MOVES, **extra))["valid"]
    for players in (5, 20):
        for tokens in (1, 10):
            assert assert_engine_agrees(record("limits", players, tokens, []))["valid"]


FUZZ_MOVES = [f"{seat}:{action}" for seat in range(1, 9) for action in ("keep", "change")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(max_size=6),
    players=st.integers(5, 8),
    tokens=st.integers(1, 2),
    moves=st.lists(st.sampled_from(FUZZ_MOVES) | st.text(max_size=5) | st.none(), max_size=12),
)
def test_fuzz_records_of_random_moves_match_reference(seed: str, players: int, tokens: int, moves: list[Any]) -> None:
    """A record is accepted exactly when every move is legal, as the reference judges it."""
    assert_engine_agrees(record(seed, players, tokens, moves))
