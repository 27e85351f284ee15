"""The independent Malmedy verifier in tests/reference (malmedy.md): its rulings, the text's worked
examples played out from a seed, hand-built records (finished, unfinished, each kind of refusal),
its two formulations of the legal moves against each other, its perft data file; then the
engine's ``couyon.games.malmedy.record.verify`` against it on random, truncated, mutated and hand-built records."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.games.malmedy.record import verify as record_verify
from reference.contract import POINTS, ContractStream, Refusal, dealt_deck, left_of, team_of
from reference.malmedy_contract import (
    ALL_MOVE_TEXTS,
    MalmedyGame,
    allowed,
    deal_hands,
    effective_suit,
    legal_moves_after,
    line_changes,
    random_game,
    verify_malmedy,
    winning_index,
)
from reference.malmedy_perft import DEPTHS, PERFT_SEEDS, first_deal, perft, trump_move

REPORT_KEYS = ["valid", "finished", "winner", "lines", "deals", "score", "deal_log"]
DEAL_KEYS = ["number", "dealer", "chooser", "trump", "mite", "contra", "points", "tricks", "outcome", "capot", "lines"]


def record(seed: Any, moves: Any, **changes: Any) -> str:
    return json.dumps({"format": "couyon-record/1", "variant": "malmedy", "seed": seed, "moves": moves, **changes})


def assert_report_shape(result: dict[str, Any]) -> None:
    assert json.loads(json.dumps(result)) == result
    if result["valid"]:
        assert list(result) == REPORT_KEYS
        assert all(list(deal) == DEAL_KEYS for deal in result["deal_log"])
        assert result["deals"] == len(result["deal_log"]) == result["deal_log"][-1]["number"]
    else:
        assert list(result) == ["valid", "error", "move"]
        assert isinstance(result["error"], str) and result["error"] and "\n" not in result["error"]


def refusal(seed: str, moves: list[Any]) -> dict[str, Any]:
    result = verify_malmedy(record(seed, moves))
    assert_report_shape(result)
    assert result["valid"] is False
    return result


# --- the rulings, on the helpers


def test_queen_of_clubs_is_always_a_trump_just_below_the_ace() -> None:
    """Ruling 4: Q♣ belongs to trump (not to clubs) and ranks between the ace and the king of trump."""
    assert effective_suit("QC", "H", False) == "H"
    assert effective_suit("QC", "C", False) == "C"
    assert winning_index(["KH", "QC", "AH"], "H", False) == 2
    assert winning_index(["KH", "QC", "JH"], "H", False) == 1
    assert winning_index(["KC", "QC", "AC"], "C", False) == 2
    assert winning_index(["KC", "QC", "JC"], "C", False) == 1
    # Clubs led, hearts trump: Q♣ is a trump and wins; holding Q♣ alone is being void in clubs.
    assert winning_index(["AC", "QC"], "H", False) == 1
    assert sorted(allowed(["QC", "AD", "KS"], ["9C"], "H", False)) == ["AD", "KS", "QC"]
    assert sorted(allowed(["QC", "9C", "AD"], ["KC"], "H", False)) == ["9C", "QC"]
    # A Q♣ lead asks for trump.
    assert sorted(allowed(["9H", "AC", "AD"], ["QC"], "H", False)) == ["9H"]


def test_mite_queen_of_spades_ranks_between_the_ace_and_the_queen_of_clubs() -> None:
    """Ruling 5: with mite, trump order A, Q♠, Q♣, K, (Q), J, 10, 9; without it Q♠ is a plain spade."""
    order = ["AD", "QS", "QC", "KD", "QD", "JD", "10D", "9D"]
    for stronger in range(len(order)):
        for weaker in range(stronger + 1, len(order)):
            assert winning_index([order[weaker], order[stronger]], "D", True) == 1
            assert winning_index([order[stronger], order[weaker]], "D", True) == 0
    assert winning_index(["KS", "QS"], "D", False) == 0
    assert winning_index(["KS", "QS"], "D", True) == 1
    assert effective_suit("QS", "D", False) == "S" and effective_suit("QS", "D", True) == "D"
    # Spades trump: without mite Q♠ sits in its natural place, below the king; with mite above Q♣.
    assert winning_index(["QS", "KS"], "S", False) == 1
    assert winning_index(["QS", "KS", "QC"], "S", False) == 2
    assert winning_index(["QC", "QS"], "S", True) == 1
    assert winning_index(["QS", "AS"], "S", True) == 1
    # Spades led, hearts trump: a mite Q♠ is no spade, so a hand whose only spade it is may play anything.
    assert sorted(allowed(["QS", "AD"], ["9S"], "H", True)) == ["AD", "QS"]
    assert sorted(allowed(["QS", "AD"], ["9S"], "H", False)) == ["QS"]


def test_free_play_a_card_of_the_led_suit_or_any_trump_else_anything() -> None:
    """Ruling 7: no obligation to beat, to trump or to overtrump; void, any card."""
    hand = ["9C", "AC", "10H", "AD", "KS"]
    assert sorted(allowed(hand, ["KC", "AH"], "H", False)) == ["10H", "9C", "AC"]
    assert sorted(allowed(hand, ["JS"], "H", False)) == ["10H", "KS"]
    assert sorted(allowed(["9C", "AD"], ["JS"], "H", False)) == ["9C", "AD"]
    assert sorted(allowed(hand, [], "H", False)) == sorted(hand)
    # Trump lead: trumps only (when held).
    assert sorted(allowed(hand, ["JH"], "H", False)) == ["10H"]
    # Trick winner: the highest trump, else the highest of the led suit; discards never win.
    assert winning_index(["10C", "AD", "JC", "KS"], "H", False) == 2
    assert winning_index(["10C", "AD", "9H", "KS"], "H", False) == 2


def test_deal_positions_three_blind_then_two() -> None:
    """Record differences: positions 0–2, 3–5, 6–8, 9–11 from the dealer's left, 12–15 blind, then 2 each."""
    deck = [str(position) for position in range(24)]
    hands = deal_hands(deck, "S")
    assert hands == {
        "W": ["0", "1", "2", "16", "17"],
        "N": ["3", "4", "5", "18", "19"],
        "E": ["6", "7", "8", "20", "21"],
        "S": ["9", "10", "11", "22", "23"],
    }
    game = MalmedyGame("deal positions")
    assert game.deal.deck == dealt_deck("deal positions", 1)
    assert game.deal.chooser == left_of(game.deal.dealer)
    assert game.deal.hands[game.deal.chooser][:3] == game.deal.deck[:3]


# --- the text's worked examples (malmedy.md's table)

EXAMPLES = [
    # chooser's team, outcome, capot, the team that announced mite, contra, lines after (NS, WE)
    ("NS", "made", False, None, 0, (12, 13)),
    ("WE", "made", True, None, 0, (12, 11)),
    ("NS", "made", True, "NS", 0, (9, 11)),
    ("WE", "made", False, "WE", 2, (9, 7)),
    ("NS", "failed", False, None, 0, (10, 6)),
]
EXAMPLE_SEED = "table-105"
"""A seed whose first five deals can be played out as the table says (found by ``play_out`` over table-0, -1, …)."""


def test_line_arithmetic_reproduces_the_worked_examples() -> None:
    """Ruling 10 on malmedy.md's table: from 13 all, the five deals leave the lines the text gives."""
    lines = {"NS": 13, "WE": 13}
    for team, outcome, capot, mite, contra, after in EXAMPLES:
        victor, erased, added = line_changes(team, outcome == "made", capot, mite is not None, contra)
        lines[victor] = max(0, lines[victor] - erased)
        lines[team] += added
        assert (lines["NS"], lines["WE"]) == after


def play_deal(
    game: MalmedyGame, moves: list[str], example: tuple[Any, ...], nodes: list[int], number: int
) -> tuple[MalmedyGame, list[str]] | None:
    """Depth-first search for the rest of deal ``number`` played as ``example`` says (within ``nodes``)."""
    team, outcome, capot, mite, contra, _ = example
    loser = team if outcome == "failed" else ("WE" if team == "NS" else "NS")
    nodes[0] -= 1
    deal = game.log[number - 1]
    if nodes[0] < 0 or (capot and deal.tricks[loser]):
        return None
    if deal.outcome is not None:
        entry = deal.entry()
        mite_team = None if entry["mite"] is None else team_of(entry["mite"])
        found = (entry["outcome"], entry["capot"] is not None, mite_team, entry["contra"])
        return (game, moves) if found == (outcome, capot, mite, contra) else None
    options = game.legal()
    if any(option.endswith(":mite") for option in options):
        wanted = mite == team_of(options[0][0])
        options = [option for option in options if option.endswith(":mite") == wanted]
    elif options[0].endswith(":contra"):
        options = [options[0] if contra >= 1 else options[1]]
    elif options[0].endswith(":recontra"):
        options = [options[0] if contra == 2 else options[1]]
    for option in options:
        after = copy.deepcopy(game)
        after.play(len(moves), option)
        found_here = play_deal(after, [*moves, option], example, nodes, number)
        if found_here is not None:
            return found_here
    return None


def play_out(seed: str, budget: int = 20_000) -> list[str] | None:
    """Moves of ``seed`` whose first five deals go as EXAMPLES says (depth-first, ``budget`` nodes a deal), or None."""
    game = MalmedyGame(seed)
    if team_of(game.deal.chooser) != "NS":
        return None
    moves: list[str] = []
    for example in EXAMPLES:
        found = play_deal(game, moves, example, [budget], game.deal.number)
        if found is None:
            return None
        game, moves = found
    return moves


def test_worked_examples_played_out_from_a_seed() -> None:
    """malmedy.md's table: a real record whose first five deals are the five rows, lines included."""
    moves = play_out(EXAMPLE_SEED)
    assert moves is not None
    result = verify_malmedy(record(EXAMPLE_SEED, moves))
    assert_report_shape(result)
    assert result["valid"] and not result["finished"] and result["deals"] == 6
    for entry, (team, outcome, capot, mite, contra, after) in zip(result["deal_log"], EXAMPLES, strict=False):
        assert team_of(entry["chooser"]) == team
        assert entry["outcome"] == outcome
        assert (entry["capot"] is not None, entry["contra"]) == (capot, contra)
        assert (None if entry["mite"] is None else team_of(entry["mite"])) == mite
        assert entry["lines"] == {"NS": after[0], "WE": after[1]}
        if capot:
            assert entry["capot"] == (team if outcome == "made" else None)
            assert entry["tricks"][team] == 5
    assert result["lines"] == {"NS": 10, "WE": 6}
    # Row 4 spells its announcements: WE's mite, NS's contra, WE's recontra, then WE's card.
    fourth = moves.index(f"{result['deal_log'][3]['mite']}:mite")
    announcer = moves[fourth][0]
    assert [move[0] for move in moves[fourth : fourth + 4]] == [announcer, left_of(announcer), announcer, announcer]
    assert [move[2:] for move in moves[fourth : fourth + 3]] == ["mite", "contra", "recontra"]


# --- whole records


def test_empty_record_shows_deal_one_before_the_trump_choice() -> None:
    """Record differences: deal 1 is dealt at once; its entry has zeros and nulls."""
    result = verify_malmedy(record("empty", []))
    assert_report_shape(result)
    game = MalmedyGame("empty")
    assert result == {
        "valid": True,
        "finished": False,
        "winner": None,
        "lines": {"NS": 13, "WE": 13},
        "deals": 1,
        "score": None,
        "deal_log": [
            {
                "number": 1,
                "dealer": game.deal.dealer,
                "chooser": left_of(game.deal.dealer),
                "trump": None,
                "mite": None,
                "contra": 0,
                "points": {"NS": 0, "WE": 0},
                "tricks": {"NS": 0, "WE": 0},
                "outcome": None,
                "capot": None,
                "lines": None,
            }
        ],
    }
    assert legal_moves_after("empty", []) == [f"{game.deal.chooser}:trump-{suit}" for suit in "CDHS"]


@pytest.mark.parametrize("number", range(6))
def test_finished_random_game_adds_up(number: int) -> None:
    """Rulings 9–12 on whole random games: points, tricks, outcomes, lines, the winner and the score."""
    seed = f"whole-{number}"
    moves = random_game(seed)
    result = verify_malmedy(record(seed, moves, bots={"name": "random"}))
    assert_report_shape(result)
    assert result["valid"] and result["finished"]
    assert legal_moves_after(seed, moves) == []
    lines = {"NS": 13, "WE": 13}
    dealer = result["deal_log"][0]["dealer"]
    for entry in result["deal_log"]:
        assert entry["dealer"] == dealer and entry["chooser"] == left_of(dealer)
        dealer = left_of(dealer)
        blind = dealt_deck(seed, entry["number"])[12:16]
        assert entry["points"]["NS"] + entry["points"]["WE"] == 40 - sum(POINTS[card[:-1]] for card in blind)
        assert entry["tricks"]["NS"] + entry["tricks"]["WE"] == 5
        mine = team_of(entry["chooser"])
        theirs = "WE" if mine == "NS" else "NS"
        made = entry["points"][mine] > entry["points"][theirs]
        assert entry["outcome"] == ("made" if made else "failed")
        assert entry["capot"] == next((team for team in lines if entry["tricks"][team] == 5), None)
        victor, erased, added = line_changes(
            mine, made, entry["capot"] is not None, entry["mite"] is not None, entry["contra"]
        )
        lines[victor] = max(0, lines[victor] - erased)
        lines[mine] += added
        assert entry["lines"] == lines
    assert result["lines"] == lines and result["winner"] == next(team for team in lines if lines[team] == 0)
    assert result["score"] == 1000 + 100 * lines["WE"] - 100 * lines["NS"]
    after_end = refusal(seed, [*moves, moves[-1]])
    assert after_end["move"] == len(moves) and after_end["error"] == "the game is over"


def test_unfinished_records_count_only_completed_tricks() -> None:
    """Record differences: points and tricks of completed tricks; outcome and lines null while unfinished."""
    seed = "unfinished"
    moves = random_game(seed)
    cards_in_deal = 0
    for cut in range(len(moves) + 1):
        if cut:
            action = moves[cut - 1].split(":")[1]
            if action.startswith("trump-"):
                cards_in_deal = 0
            elif action not in ("mite", "contra", "recontra", "pass"):
                cards_in_deal += 1
        result = verify_malmedy(record(seed, moves[:cut]))
        assert_report_shape(result)
        assert result["valid"] and result["finished"] == (cut == len(moves))
        last = result["deal_log"][-1]
        if result["finished"] or cards_in_deal == 20:
            continue
        assert last["outcome"] is None and last["lines"] is None and last["capot"] is None
        assert last["tricks"]["NS"] + last["tricks"]["WE"] == cards_in_deal // 4
        if cards_in_deal < 4:
            assert last["points"] == {"NS": 0, "WE": 0}
    # A record that stops right after a deal's last card already shows the next deal.
    game = MalmedyGame(seed)
    for index, move in enumerate(moves):
        game.play(index, move)
        if game.deal.number == 2:
            shown = verify_malmedy(record(seed, moves[: index + 1]))
            assert shown["deals"] == 2 and shown["deal_log"][0]["lines"] is not None
            assert shown["deal_log"][1]["trump"] is None
            break


# --- refusals: hand-built records at each kind of fault


def first_position(wanted: Callable[[MalmedyGame], str | None]) -> tuple[str, list[str], str]:
    """The first position of the random games scan-0, scan-1, … where ``wanted`` proposes a move: seed, moves, move."""
    for number in range(200):
        seed = f"scan-{number}"
        game = MalmedyGame(seed)
        moves = random_game(seed)
        for index, move in enumerate(moves):
            proposed = wanted(game)
            if proposed is not None:
                return seed, moves[:index], proposed
            game.play(index, move)
    raise AssertionError("no such position in 200 random games")


def card_due(game: MalmedyGame) -> bool:
    return game.deal.trump is not None and game.deal.asking is None and game.winner is None


def forbidden_card(game: MalmedyGame) -> str | None:
    deal = game.deal
    if not card_due(game):
        return None
    hand = deal.hands[deal.turn]
    legal = allowed(hand, deal.table, deal.trump or "", deal.mite is not None)
    return next((f"{deal.turn}:{card}" for card in hand if card not in legal), None)


def mite_without_queen(game: MalmedyGame) -> str | None:
    deal = game.deal
    hand = deal.hands[deal.turn]
    return f"{deal.turn}:mite" if card_due(game) and len(hand) == 5 and "QS" not in hand else None


def mite_too_late(game: MalmedyGame) -> str | None:
    deal = game.deal
    hand = deal.hands[deal.turn]
    late = card_due(game) and deal.mite is None and "QS" in hand and len(hand) < 5
    return f"{deal.turn}:mite" if late else None


def mite_again(game: MalmedyGame) -> str | None:
    deal = game.deal
    again = card_due(game) and deal.mite == deal.turn and len(deal.hands[deal.turn]) == 5
    return f"{deal.turn}:mite" if again else None


def answer_when_card_due(word: str) -> Callable[[MalmedyGame], str | None]:
    return lambda game: f"{game.deal.turn}:{word}" if card_due(game) else None


def answer_when_asked(asking: str, word: str) -> Callable[[MalmedyGame], str | None]:
    return lambda game: f"{game.deal.turn}:{word}" if game.deal.asking == asking else None


def card_when_asked(game: MalmedyGame) -> str | None:
    deal = game.deal
    return f"{deal.turn}:{deal.hands[deal.turn][0]}" if deal.asking == "contra" else None


def card_before_trump(game: MalmedyGame) -> str | None:
    deal = game.deal
    return f"{deal.turn}:{deal.hands[deal.turn][0]}" if deal.trump is None else None


def card_not_held(game: MalmedyGame) -> str | None:
    deal = game.deal
    if not card_due(game):
        return None
    other = deal.hands[left_of(deal.turn)]
    return f"{deal.turn}:{other[0]}" if other else None


def wrong_seat(game: MalmedyGame) -> str | None:
    return f"{left_of(game.deal.turn)}:{game.legal()[0].split(':')[1]}"


@pytest.mark.parametrize(
    ("wanted", "error"),
    [
        pytest.param(wrong_seat, "not this seat's turn", id="wrong seat"),
        pytest.param(
            lambda game: f"{game.deal.turn}:pass" if game.deal.trump is None else None,
            "first name trump",
            id="chooser passes",
        ),
        pytest.param(
            lambda game: f"{game.deal.turn}:mite" if game.deal.trump is None else None,
            "first name trump",
            id="mite before trump",
        ),
        pytest.param(card_before_trump, "first name trump", id="card before trump"),
        pytest.param(answer_when_card_due("trump-H"), "already chosen", id="trump twice"),
        pytest.param(card_not_held, "card not held", id="card not held"),
        pytest.param(forbidden_card, "card forbidden", id="card forbidden"),
        pytest.param(mite_without_queen, "without the queen of spades", id="mite without the queen"),
        pytest.param(mite_too_late, "first card", id="mite after a first card"),
        pytest.param(mite_again, "already announced", id="mite twice"),
        pytest.param(answer_when_card_due("contra"), "out of place", id="contra without mite"),
        pytest.param(answer_when_card_due("recontra"), "out of place", id="recontra without contra"),
        pytest.param(answer_when_card_due("pass"), "out of place", id="pass when a card is due"),
        pytest.param(answer_when_asked("contra", "recontra"), "contra or pass", id="recontra before contra"),
        pytest.param(answer_when_asked("contra", "mite"), "contra or pass", id="mite answering a mite"),
        pytest.param(card_when_asked, "contra or pass", id="card instead of the answer"),
        pytest.param(answer_when_asked("recontra", "contra"), "recontra or pass", id="contra twice"),
        pytest.param(lambda game: f"{game.deal.turn}:take", "unreadable move", id="unknown action"),
        pytest.param(lambda game: f"{game.deal.turn}:trump-X", "unreadable move", id="unknown suit"),
    ],
)
def test_refusal_names_the_first_faulty_move(wanted: Callable[[MalmedyGame], str | None], error: str) -> None:
    """Contract: a record breaking a rule is refused in one sentence at the faulty move's index."""
    seed, moves, bad = first_position(wanted)
    assert verify_malmedy(record(seed, moves))["valid"] is True
    result = refusal(seed, [*moves, bad, "S:not even read"])
    assert result["move"] == len(moves)
    assert error in result["error"]


def test_announcers_own_card_is_judged_with_the_queen_of_spades_a_trump() -> None:
    """Ruling 5: spades led, the announcer's only spade the Q♠; after mite he is void and may discard."""

    def spade_lead_to_queen_holder(game: MalmedyGame) -> str | None:
        deal = game.deal
        if not card_due(game) or not deal.table or deal.trump in ("S", None) or deal.mite is not None:
            return None
        hand = deal.hands[deal.turn]
        led = effective_suit(deal.table[0], deal.trump or "", False)
        spades = [card for card in hand if effective_suit(card, deal.trump or "", False) == "S"]
        discards = [card for card in hand if effective_suit(card, deal.trump or "", False) not in ("S", deal.trump)]
        if led == "S" and spades == ["QS"] and len(hand) == 5 and discards:
            return f"{deal.turn}:{discards[0]}"
        return None

    seed, moves, discard = first_position(spade_lead_to_queen_holder)
    seat = discard[0]
    assert refusal(seed, [*moves, discard])["error"] == "card forbidden"
    with_mite = [*moves, f"{seat}:mite", f"{left_of(seat)}:pass", discard]
    result = verify_malmedy(record(seed, with_mite))
    assert result["valid"] and result["deal_log"][-1]["mite"] == seat
    assert legal_moves_after(seed, [*moves, f"{seat}:mite", f"{left_of(seat)}:contra"]) == [
        f"{seat}:recontra",
        f"{seat}:pass",
    ]


def test_contra_comes_from_the_announcers_left_even_after_he_played() -> None:
    """Ruling 6: the player at the announcer's left answers even if he already played to the trick."""

    def mite_after_left_played(game: MalmedyGame) -> str | None:
        deal = game.deal
        seat = deal.turn
        first_card = card_due(game) and deal.mite is None and len(deal.hands[seat]) == 5
        if first_card and "QS" in deal.hands[seat] and len(deal.hands[left_of(seat)]) == 4:
            return f"{seat}:mite"
        return None

    seed, moves, mite = first_position(mite_after_left_played)
    answerer = left_of(mite[0])
    assert legal_moves_after(seed, [*moves, mite]) == [f"{answerer}:contra", f"{answerer}:pass"]
    result = verify_malmedy(record(seed, [*moves, mite, f"{answerer}:contra", f"{mite[0]}:recontra"]))
    assert result["valid"] and result["deal_log"][-1]["contra"] == 2


@pytest.mark.parametrize(
    ("data", "move"),
    [
        pytest.param(b"\xff\xfe", None, id="not UTF-8"),
        pytest.param(b"{", None, id="not JSON"),
        pytest.param(b"", None, id="empty"),
        pytest.param(b"[]", None, id="not an object"),
        pytest.param(b'{"a": NaN}', None, id="NaN"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, None, id="deeply nested"),
        pytest.param(b'{"format": "couyon-record/1", "format": "couyon-record/1"}', None, id="duplicate keys"),
        pytest.param(b"\xef\xbb\xbf" + record("s", []).encode(), None, id="byte order mark"),
        pytest.param(record("s", [], format="couyon-record/2").encode(), None, id="wrong format"),
        pytest.param(record("s", [], variant="standard").encode(), None, id="standard variant"),
        pytest.param(record("s", [], variant=None).encode(), None, id="variant not a string"),
        pytest.param(record(5, []).encode(), None, id="seed not a string"),
        pytest.param(
            b'{"format": "couyon-record/1", "variant": "malmedy", "seed": "\\ud800", "moves": []}',
            None,
            id="seed lone surrogate",
        ),
        pytest.param(record("s", "W:trump-C").encode(), None, id="moves not a list"),
        pytest.param(record("s", [None]).encode(), 0, id="move not a string"),
        pytest.param(record("s", ["W:" + "x" * 100_000]).encode(), 0, id="huge move"),
        pytest.param(record("s", ["W:trump:C"]).encode(), 0, id="two colons"),
    ],
)
def test_malformed_record_is_refused_like_the_standard_reference(data: bytes, move: int | None) -> None:
    """Contract: malformed JSON or format is refused with one sentence, as reference.contract does."""
    for form in (data, data.decode("utf-8", "replace")):
        result = verify_malmedy(form)
        assert_report_shape(result)
        assert result["valid"] is False and result["move"] == move
    if b'"variant": "standard"' not in data:  # the engine's other variant
        assert_engine_agrees(data)


# --- the reference against itself: ``legal`` against ``play``, and the perft counter against both


@pytest.mark.parametrize("number", range(3))
def test_legal_moves_are_exactly_the_moves_play_accepts(number: int) -> None:
    """Every readable move text is accepted by ``play`` exactly when ``legal`` lists it."""
    seed = f"legal-{number}"
    moves = random_game(seed)
    game = MalmedyGame(seed)
    for index, move in enumerate([*moves, None]):
        legal = game.legal()
        before = game.report()
        for candidate in ALL_MOVE_TEXTS:
            if candidate in legal:
                copy.deepcopy(game).play(index, candidate)
            else:
                with pytest.raises(Refusal):
                    game.play(index, candidate)
        assert game.report() == before  # a refused move changes nothing
        if move is not None:
            assert move in legal
            game.play(index, move)


def enumerate_by_replay(game: MalmedyGame, index: int, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for option in game.legal():
        after = copy.deepcopy(game)
        after.play(index, option)
        total += enumerate_by_replay(after, index + 1, depth - 1)
    return total


PERFT_TABLE: dict[str, dict[str, int]] = json.loads(
    (Path(__file__).resolve().parents[2] / "data" / "perft_malmedy.json").read_text("utf-8")
)


@pytest.mark.parametrize("seed", PERFT_SEEDS[:6])
def test_perft_counter_agrees_with_the_verifier_on_short_depths(seed: str) -> None:
    """The perft recursion and the verifier's ``legal``/``play`` count the same sequences (depths 1 to 4)."""
    game = MalmedyGame(seed)
    game.play(0, trump_move(seed))
    hands, trump, chooser = first_deal(seed)
    assert game.deal.hands == hands and game.deal.trump == trump and game.deal.chooser == chooser
    for depth in (1, 2, 3, 4):
        counted = enumerate_by_replay(game, 1, depth)
        if str(depth) in PERFT_TABLE[seed]:
            assert counted == PERFT_TABLE[seed][str(depth)]


def test_perft_data_file_is_what_the_reference_counter_computes() -> None:
    """tests/data/perft_malmedy.json was generated by reference.malmedy_perft; regenerating gives the same."""
    assert set(PERFT_TABLE) == set(PERFT_SEEDS)
    assert all(list(counts) == [str(depth) for depth in DEPTHS] for counts in PERFT_TABLE.values())
    for seed in PERFT_SEEDS[:4]:
        assert perft(seed) == PERFT_TABLE[seed]
    # The counts cross announcements: in every perft deal the queen of spades is in a hand, not the blind.
    assert all(any("QS" in hand for hand in first_deal(seed)[0].values()) for seed in PERFT_SEEDS)


# --- the engine against the reference: couyon.games.malmedy.record.verify on Malmedy records


def engine_verify(data: str | bytes) -> dict[str, Any]:
    result: dict[str, Any] = record_verify(data.encode("utf-8") if isinstance(data, str) else data)
    return result


def assert_engine_agrees(data: str | bytes) -> dict[str, Any]:
    """Every field of the engine's report equal to the reference's; for a refusal, the same move index."""
    ours = verify_malmedy(data)
    theirs = engine_verify(data)
    assert_report_shape(theirs)
    if ours["valid"]:
        assert theirs == ours
    else:
        assert (theirs["valid"], theirs["move"]) == (False, ours["move"]), (theirs, ours)
    return ours


def mutated(moves: list[str], chooser: ContractStream) -> list[Any]:
    """``moves`` with one random corruption: a replaced, dropped, repeated, swapped, appended or junk move."""
    changed: list[Any] = list(moves)
    where = chooser.uniform(len(changed) + 1)
    kind = chooser.uniform(8)
    if kind == 0 and where < len(changed):
        changed[where] = ALL_MOVE_TEXTS[chooser.uniform(len(ALL_MOVE_TEXTS))]
    elif kind == 1 and where < len(changed):
        del changed[where]
    elif kind == 2 and where < len(changed):
        changed.insert(where, changed[where])
    elif kind == 3 and where + 1 < len(changed):
        changed[where], changed[where + 1] = changed[where + 1], changed[where]
    elif kind == 4 and where < len(changed):
        junk = ["S:", ":AH", "S:AH:", "X:mite", "s:pass", "S:1H", "S: pass", "", "S:trump-c", "S:Mite"]
        changed[where] = junk[chooser.uniform(len(junk))]
    elif kind == 5 and where < len(changed):
        changed[where] = [None, 7, 1.5, True, ["S:pass"], {"S": "mite"}][chooser.uniform(6)]
    elif kind == 6 and where < len(changed):
        changed[where] = "SWNE"[chooser.uniform(4)] + changed[where][1:]
    else:
        changed.append(ALL_MOVE_TEXTS[chooser.uniform(len(ALL_MOVE_TEXTS))])
    return changed


@pytest.mark.parametrize("batch", range(5))
def test_engine_agrees_with_reference_on_random_records(batch: int) -> None:
    """Contract, "What the verifier prints": 300 random Malmedy records (whole, truncated, mutated) a batch."""
    refused = accepted = 0
    for number in range(batch * 100, batch * 100 + 100):
        seed = f"malmedy-cross-{number}"
        moves = random_game(seed)
        chooser = ContractStream(seed, "mutations")
        for candidate in (moves, moves[: chooser.uniform(len(moves) + 1)], mutated(moves, chooser)):
            result = assert_engine_agrees(record(seed, candidate))
            refused += not result["valid"]
            accepted += result["valid"]
    assert refused > 20 and accepted > 200


def test_engine_agrees_with_reference_on_every_prefix_of_one_game() -> None:
    """Contract: every prefix of a game is valid and reported alike, deal by deal and trick by trick."""
    seed = "malmedy-prefixes"
    moves = random_game(seed)
    for cut in range(len(moves) + 1):
        assert assert_engine_agrees(record(seed, moves[:cut]))["valid"]


def test_engine_agrees_on_the_worked_examples() -> None:
    """malmedy.md's table, played out: the engine gives the same five deals and lines."""
    moves = play_out(EXAMPLE_SEED)
    assert moves is not None
    assert assert_engine_agrees(record(EXAMPLE_SEED, moves))["lines"] == {"NS": 10, "WE": 6}


@pytest.mark.parametrize(
    "wanted",
    [
        wrong_seat,
        card_before_trump,
        answer_when_card_due("trump-H"),
        card_not_held,
        forbidden_card,
        mite_without_queen,
        mite_too_late,
        mite_again,
        answer_when_card_due("contra"),
        answer_when_card_due("recontra"),
        answer_when_card_due("pass"),
        answer_when_asked("contra", "recontra"),
        answer_when_asked("contra", "mite"),
        card_when_asked,
        answer_when_asked("recontra", "contra"),
    ],
)
def test_engine_refuses_the_hand_built_faults_at_the_same_move(wanted: Callable[[MalmedyGame], str | None]) -> None:
    """Contract: the engine refuses each kind of fault at the same index as the reference."""
    seed, moves, bad = first_position(wanted)
    assert assert_engine_agrees(record(seed, [*moves, bad]))["valid"] is False


@pytest.mark.parametrize("number", range(4))
def test_engine_accepts_exactly_the_moves_the_reference_lists(number: int) -> None:
    """After each of the first moves of a game, every readable move text is accepted by both or by neither."""
    seed = f"malmedy-legal-{number}"
    moves = random_game(seed)[:30]
    for cut in range(len(moves) + 1):
        legal = legal_moves_after(seed, moves[:cut])
        for candidate in ALL_MOVE_TEXTS:
            assert engine_verify(record(seed, [*moves[:cut], candidate]))["valid"] == (candidate in legal), candidate


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(max_size=6),
    moves=st.lists(st.sampled_from(ALL_MOVE_TEXTS) | st.text(max_size=5) | st.none(), max_size=10),
)
def test_fuzz_records_of_random_moves_match_reference(seed: str, moves: list[Any]) -> None:
    """Contract: a record is accepted exactly when every move is legal, as the reference judges it."""
    assert_engine_agrees(record(seed, moves))
