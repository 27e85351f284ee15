"""The independent ``coucou-record/2`` verifier in tests/reference (coucou-record-format.md, "As qui court"):
its worked example, then the engine's ``couyon verify`` (``couyon.registry.verify_record``) against it on
random records of both variants, whole, cut anywhere and with one move changed, and on broken headers."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.registry import verify_record
from reference.as_qui_court_contract import AsQuiCourtGame, Coup, random_moves, record, verify_record_2
from reference.contract import ContractStream
from reference.coucou_contract import mutated
from reference.coucou_contract import random_moves as coucou_random_moves

REPORT_KEYS = ["valid", "variant", "finished", "winner", "tokens", "coups", "eliminated", "place", "score", "coup_log"]
AQC_COUP_KEYS = [
    *("number", "dealer", "order", "before", "actions", "stock", "kings_shown"),
    *("after", "losers", "tokens", "eliminated"),
]


def test_reference_plays_the_contracts_worked_example() -> None:
    """Contract, last section: the hand-set coup, the dealer changing (stock-king) or keeping, or not yet moved."""
    for last, outcome in (("change", "stock-king"), ("keep", "keep"), (None, None)):
        coup = Coup(1, 2, [3, 4, 5, 1, 2], {3: "7C", 4: "KD", 5: "AH", 1: "9S", 2: "QC"}, "KH")
        for action in ("change", "keep", "change", "change", last):
            if action is not None:
                coup.move(action)
        entry = coup.entry()
        assert entry["actions"][:4] == ["3:king-shown", "4:keep", "5:exchange", "1:exchange"]
        assert entry["kings_shown"] == [4]
        assert coup.hands == {3: "7C", 4: "KD", 5: "9S", 1: "QC", 2: "AH"}
        if last is None:
            assert coup.speaker == 2
        else:
            assert entry["actions"][4] == f"2:{outcome}" and coup.speaker is None
            assert coup.showdown() == [2]
            assert entry["stock"] == ("KH" if last == "change" else None)


def test_reference_report_shape_and_a_refused_variant() -> None:
    result = verify_record_2(record("as-qui-court", "shape", 7, 2, random_moves("shape", 7, 2)))
    assert list(result) == REPORT_KEYS and result["finished"]
    assert all(list(coup) == AQC_COUP_KEYS for coup in result["coup_log"])
    refused = verify_record_2(record("hère", "shape", 7, 2, []))
    assert (refused["valid"], refused["move"]) == (False, None)


def assert_engine_agrees(data: str) -> dict[str, Any]:
    """The engine's whole report equal to the reference's; for a refusal, the same move index and no traceback."""
    ours = verify_record_2(data)
    theirs: dict[str, Any] = verify_record(data)
    assert json.loads(json.dumps(theirs)) == theirs
    if ours["valid"]:
        assert theirs == ours
    else:
        assert list(theirs) == ["valid", "error", "move"]
        assert (theirs["valid"], theirs["move"]) == (False, ours["move"]), (theirs, ours)
        assert isinstance(theirs["error"], str) and "\n" not in theirs["error"] and "Traceback" not in theirs["error"]
    return ours


SIZES = range(5, 21)
GAMES_PER_SIZE = 10


@pytest.mark.parametrize("players", SIZES)
def test_engine_agrees_with_the_reference_on_random_records(players: int) -> None:
    """Both variants at every size: whole, cut at a random move, and with one move changed (3 × 10 a size)."""
    valid = refused = 0
    for index in range(GAMES_PER_SIZE):
        seed = f"aqc-ref-{players}-{index}"
        tokens = 1 + index % 3
        chooser = ContractStream(seed, "aqc-ref-cut")
        for variant in ("as-qui-court", "coucou"):
            if variant == "as-qui-court":
                moves = random_moves(seed, players, tokens)
            else:
                moves = coucou_random_moves(seed, players, tokens)
            cut = moves[: chooser.uniform(len(moves) + 1)]
            _, changed = mutated(moves, players, chooser)
            for moves_given in (moves, cut, changed):
                result = assert_engine_agrees(record(variant, seed, players, tokens, moves_given))
                valid += result["valid"]
                refused += not result["valid"]
    assert valid and refused


@pytest.mark.parametrize(("players", "tokens"), [(5, 1), (9, 2), (20, 1)])
def test_engine_agrees_on_every_prefix_of_one_game(players: int, tokens: int) -> None:
    """Cut anywhere: every prefix of one as qui court game is a valid unfinished record the two agree on."""
    seed = f"aqc-prefix-{players}"
    moves = random_moves(seed, players, tokens)
    for cut in range(len(moves) + 1):
        assert assert_engine_agrees(record("as-qui-court", seed, players, tokens, moves[:cut]))["valid"]


@pytest.mark.parametrize("players", [5, 8, 13])
def test_engine_and_reference_accept_exactly_the_same_next_moves(players: int) -> None:
    """At each step of a game, every candidate move text (each seat, keep or change, the dealer's included)."""
    seed = f"aqc-candidates-{players}"
    moves = random_moves(seed, players, 2)
    game = AsQuiCourtGame(seed, players, 2)
    for step in range(0, len(moves), max(1, len(moves) // 25)):
        prefix = moves[:step]
        for seat in range(1, players + 1):
            for action in ("keep", "change"):
                assert_engine_agrees(record("as-qui-court", seed, players, 2, [*prefix, f"{seat}:{action}"]))
    assert game.legal()


HEADER_FAULTS: list[dict[str, Any]] = [
    {"variant": None},
    {"variant": "Coucou"},
    {"variant": "as qui court"},
    {"variant": 1},
    {"variant": ["as-qui-court"]},
    {"players": True},
    {"players": 21},
    {"players": 8.0},
    {"tokens": 0},
    {"seed": 7},
    {"moves": "1:keep"},
]


@pytest.mark.parametrize("fault", HEADER_FAULTS, ids=lambda fault: json.dumps(fault))
def test_engine_refuses_header_faults_with_move_null(fault: dict[str, Any]) -> None:
    document = json.loads(record("as-qui-court", "faults", 8, 3, []))
    for key, value in fault.items():
        if value is None:
            del document[key]
        else:
            document[key] = value
    result = assert_engine_agrees(json.dumps(document))
    assert result["valid"] is False and result["move"] is None


FUZZ_MOVES = [f"{seat}:{action}" for seat in range(1, 9) for action in ("keep", "change")]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.integers(0, 30),
    players=st.integers(5, 8),
    cut=st.floats(0, 1),
    where=st.floats(0, 1),
    replacement=st.sampled_from(FUZZ_MOVES) | st.text(max_size=5) | st.none(),
    variant=st.sampled_from(["as-qui-court", "coucou"]),
)
def test_fuzz_one_move_of_a_real_game_replaced(
    game: int, players: int, cut: float, where: float, replacement: Any, variant: str
) -> None:
    """A real as qui court game cut anywhere, one move replaced by any text: the engine judges as the reference."""
    seed = f"aqc-fuzz-{game}"
    moves: list[Any] = random_moves(seed, players, 2)
    moves = moves[: int(cut * len(moves))]
    if moves:
        moves[min(int(where * len(moves)), len(moves) - 1)] = replacement
    assert_engine_agrees(record(variant, seed, players, 2, moves))
