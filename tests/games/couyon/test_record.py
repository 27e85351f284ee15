"""Records and the verifier (record-format.md): reading, writing, refusals, and a cross-check
against the independent implementation in tests/reference, on thousands of random records."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.couyon.random_play import ALL_MOVE_TEXTS, mutated, play_out, random_record_moves

from couyon.common.records import MAX_RECORD_BYTES, RecordError
from couyon.common.stream import Stream
from couyon.games.couyon.game import PASS, Move, new_game, play, replay
from couyon.games.couyon.record import FORMAT, Record, deal_report, parse_record, record_of, report, verify
from couyon.registry import GAMES
from reference.contract import verify as reference_verify

REPORT_KEYS = ["valid", "finished", "winner", "lines", "deals", "score", "deal_log"]
DEAL_KEYS = ["number", "dealer", "proposals", "trump", "taker", "points", "outcome", "stake", "lines"]


def record_bytes(seed: Any, moves: Any, **changes: Any) -> bytes:
    document = {"format": FORMAT, "variant": "standard", "seed": seed, "moves": moves, **changes}
    return json.dumps(document).encode("utf-8")


def assert_contract_shape(result: dict[str, Any]) -> None:
    """The verifier's output is one of the contract's two shapes, and survives a JSON round trip."""
    assert json.loads(json.dumps(result)) == result
    if result["valid"]:
        assert list(result) == REPORT_KEYS
        assert all(list(deal) == DEAL_KEYS for deal in result["deal_log"])
        assert result["deals"] == len(result["deal_log"]) == result["deal_log"][-1]["number"]
    else:
        assert list(result) == ["valid", "error", "move"]
        assert isinstance(result["error"], str) and result["error"] and "\n" not in result["error"]
        assert result["move"] is None or (isinstance(result["move"], int) and result["move"] >= 0)


def assert_same_as_reference(data: bytes) -> dict[str, Any]:
    """Every field of a report equal to the reference's; for a refusal, validity and the move index."""
    ours = verify(data)
    theirs = reference_verify(data)
    assert_contract_shape(ours)
    if theirs["valid"]:
        assert ours == theirs
    else:
        assert (ours["valid"], ours["move"]) == (False, theirs["move"]), (ours, theirs)
    return ours


# --- the cross-check: 3,000 random records (whole, truncated, mutated) against the reference


@pytest.mark.parametrize("batch", range(10))
def test_verifier_agrees_with_reference_on_random_records(batch: int) -> None:
    """Contract, "What the verifier prints": two independent verifiers agree field for field."""
    chooser = Stream(f"cross-check-{batch}", "mutations")
    refused = accepted = 0
    for number in range(batch * 100, batch * 100 + 100):
        seed, moves = random_record_moves(number, "cross-check")
        variants: list[list[Any]] = [moves, moves[: chooser.uniform(len(moves) + 1)], mutated(moves, chooser)]
        for candidate in variants:
            result = assert_same_as_reference(record_bytes(seed, candidate))
            refused += not result["valid"]
            accepted += result["valid"]
    # The mix must exercise both sides of the verifier, or the comparison proves little.
    assert refused > 20 and accepted > 200


def test_verifier_agrees_with_reference_on_truncations_of_one_game() -> None:
    """Contract, "A record may stop before the game ends": every prefix of a game is valid and reported alike."""
    seed, moves = random_record_moves(0, "prefixes")
    for cut in range(len(moves) + 1):
        assert assert_same_as_reference(record_bytes(seed, moves[:cut]))["valid"]


# --- reading and writing


def test_record_round_trips_through_json_with_extras() -> None:
    """Contract, "A record": extra keys are allowed, kept when written, ignored by the verifier."""
    state = new_game("round trip")
    record = record_of(state, ["W:pass"], bots={"name": "random", "version": 1}, player="Ana")
    again = parse_record(record.to_json())
    assert again == record
    assert json.loads(record.to_json())["format"] == FORMAT
    assert list(json.loads(record.to_json()))[:4] == ["format", "variant", "seed", "moves"]


def test_report_of_empty_record_shows_deal_one_with_its_first_proposal() -> None:
    """Contract: an empty move list already shows deal 1 with its first proposal."""
    result = verify(record_bytes("empty", []))
    state = new_game("empty")
    assert result["deals"] == 1 and result["finished"] is False and result["winner"] is None
    assert result["score"] is None
    assert result["deal_log"] == [
        {
            "number": 1,
            "dealer": str(state.deal.dealer),
            "proposals": [str(state.deal.deck[16])],
            "trump": None,
            "taker": None,
            "points": None,
            "outcome": None,
            "stake": 1,
            "lines": None,  # record-format.md: null while the deal is unfinished, like its outcome
        }
    ]


def test_record_replay_names_first_faulty_move() -> None:
    """Contract: a refusal gives the 0-based index of the faulty move."""
    seed, moves = random_record_moves(3, "faulty")
    with pytest.raises(RecordError) as refusal:
        Record(seed, (*moves[:5], "Q:pass")).replay()
    assert refusal.value.move == 5
    assert report(replay(seed, moves))["valid"] is True


# --- refusals of malformed input: one clear sentence, never an exception


@pytest.mark.parametrize(
    ("data", "move"),
    [
        pytest.param(b"\xff\xfe", None, id="not UTF-8"),
        pytest.param(b"{", None, id="not JSON"),
        pytest.param(b"", None, id="empty"),
        pytest.param(b"[]", None, id="not an object"),
        pytest.param(b'{"a": NaN}', None, id="NaN"),
        pytest.param(b'{"a": -Infinity}', None, id="Infinity"),
        pytest.param(b'{"a": ' + b"1" * 5000 + b"}", None, id="integer too long"),
        pytest.param(b"[" * 100_000 + b"]" * 100_000, None, id="deeply nested"),
        pytest.param(b'{"format": "couyon-record/1", "format": "couyon-record/1"}', None, id="duplicate keys"),
        pytest.param(b"\xef\xbb\xbf" + record_bytes("s", []), None, id="byte order mark"),
        pytest.param(record_bytes("s", [], format="couyon-record/2"), None, id="wrong format"),
        pytest.param(record_bytes("s", [], variant="six-players"), None, id="unknown variant"),
        pytest.param(record_bytes("s", [], variant=None), None, id="variant not a string"),
        pytest.param(record_bytes(5, []), None, id="seed not a string"),
        pytest.param(
            b'{"format": "couyon-record/1", "variant": "standard", "seed": "\\ud800", "moves": []}',
            None,
            id="seed lone surrogate",
        ),
        pytest.param(record_bytes("s", "W:pass"), None, id="moves not a list"),
        pytest.param(record_bytes("s", [None]), 0, id="move not a string"),
        pytest.param(
            b'{"format": "couyon-record/1", "variant": "standard", "seed": "s", "moves": ["\\udc80"]}',
            0,
            id="move lone surrogate",
        ),
        pytest.param(record_bytes("s", ["W:" + "x" * 1_000_000]), 0, id="huge move"),
    ],
)
def test_malformed_record_is_refused_in_one_sentence(data: bytes, move: int | None) -> None:
    """Contract: malformed JSON or format is refused with one clear sentence, never a traceback."""
    result = verify(data)
    assert_contract_shape(result)
    assert result["valid"] is False
    assert result["move"] == move
    assert len(result["error"]) < 300
    assert reference_verify(data)["valid"] is False


def test_whitespace_around_the_record_is_allowed() -> None:
    """Contract: a record is one JSON object; whitespace around a JSON value is part of JSON."""
    assert verify(b"\n  " + record_bytes("s", []) + b" \n")["valid"] is True


def test_huge_move_list_is_refused_at_first_move_after_the_end() -> None:
    """Contract: a move after the game ended is refused; 80,000 of them (under the size cap) cost one refusal."""
    seed, moves = random_record_moves(1, "huge")
    data = record_bytes(seed, [*moves, *["S:pass"] * 80_000])
    assert len(data) < MAX_RECORD_BYTES
    result = verify(data)
    assert result["valid"] is False and result["move"] == len(moves)
    too_large = verify(record_bytes(seed, [*moves, *["S:pass"] * 120_000]))
    assert too_large == {
        "valid": False,
        "error": "the record is larger than 1,048,576 bytes, the most couyon verify reads",
        "move": None,
    }


def test_non_string_move_after_an_illegal_one_reports_the_illegal_one() -> None:
    """Contract: the refusal names the first faulty move, whatever kind of fault a later move has."""
    seed, moves = random_record_moves(2, "order")
    bad = [*moves[:3], "S:take" if moves[3] != "S:take" else "W:take", 42]
    result = verify(record_bytes(seed, bad))
    assert (result["valid"], result["move"]) == (False, 3)
    assert reference_verify(record_bytes(seed, bad))["move"] == 3


# --- property-based fuzzing


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
# Lone surrogates cannot come from st.text(); JSON can still spell them ("\ud800"), so they are added by hand.
lone_surrogates = st.sampled_from(["\ud800", "S:\udc00", "\udfffW:pass"])
move_texts = st.sampled_from(ALL_MOVE_TEXTS) | st.text(max_size=6) | lone_surrogates


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_arbitrary_bytes_never_crash_the_verifier(data: bytes) -> None:
    """Contract: bad input of any kind is refused in the contract's shape, never with an exception."""
    assert_contract_shape(verify(data))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_fuzz_arbitrary_json_never_crashes_the_verifier(document: Any) -> None:
    """Contract: any JSON value that is not a well-formed record is refused in the contract's shape."""
    data = json.dumps(document).encode("utf-8")
    assert_same_as_reference(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(max_size=10) | lone_surrogates,
    moves=st.lists(move_texts | json_values, max_size=12),
    extra=st.dictionaries(st.sampled_from(["bots", "player", "challenge", "format"]), json_values, max_size=2),
)
def test_fuzz_records_of_random_moves_match_reference(seed: str, moves: list[Any], extra: dict[str, Any]) -> None:
    """Contract: a record is accepted exactly when every move is legal, as the reference judges it."""
    document = {"format": FORMAT, "variant": "standard", "seed": seed, "moves": moves, **extra}
    assert_same_as_reference(json.dumps(document).encode("utf-8"))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(number=st.integers(0, 10_000), mutation=st.integers(0, 2**32 - 1), rounds=st.integers(1, 4))
def test_fuzz_mutated_games_are_never_accepted_with_an_illegal_move(number: int, mutation: int, rounds: int) -> None:
    """Contract: the verifier never accepts a record holding a move the rules forbid (reference as judge)."""
    seed, moves = random_record_moves(number, "fuzz")
    chooser = Stream(str(mutation), "fuzz-mutations")
    candidate: list[Any] = moves
    for _ in range(rounds):
        candidate = mutated([m if isinstance(m, str) else "S:pass" for m in candidate], chooser)
    assert_same_as_reference(record_bytes(seed, candidate))


def test_a_finished_deal_is_appended_without_copying_the_history() -> None:
    """Issue 11: each finished deal is appended to the history without copying it (it was quadratic)."""
    state = new_game("long")
    for _ in range(32 * 500):  # 500 deals nobody takes
        assert state.to_move is not None
        state = play(state, Move(state.to_move, PASS))
    history = state.finished_deals
    assert (
        len(history) == 500 and history[-1].number == 500 and [deal.number for deal in history] == list(range(1, 501))
    )
    assert history.appended(history[0])._before is history  # the new history shares the old one
    assert history == tuple(history) and history[10:12] == tuple(history)[10:12]


@pytest.mark.parametrize("kind_id", ["couyon", "malmedy"])
def test_a_game_of_one_deal_records_as_a_valid_unfinished_game(kind_id: str) -> None:
    """docs/clubs.md: a tournament's game of one deal is recorded as ``couyon-record/1`` says (its variant, seed and
    moves; ``deals`` an extra key): valid and unfinished, its deal the one the server played."""
    kind = GAMES[kind_id]
    one, _whole, moves = play_out(kind_id, f"record of one deal {kind_id}", {"level": "expert"})
    text = kind.engine.record_json(one.seed, moves, kind.parse_options({}, one_deal=True), {"player": "Ana"})
    assert list(json.loads(text)) == ["format", "variant", "seed", "moves", "deals", "player"]
    report = kind.verify(text)
    assert (report["valid"], report["finished"], report["winner"], report["score"]) == (True, False, None, None)
    fold = one.variant.fold
    assert report["deal_log"][0] == (deal_report if fold is None else fold.deal_report)(one.finished_deals[0])
    # Deal 2 is dealt in the replay, and no move of it is in the record.
    assert report["deal_log"][1]["number"] == 2 and report["deal_log"][1]["outcome"] is None
    if kind_id == "couyon":
        assert_same_as_reference(text.encode())
