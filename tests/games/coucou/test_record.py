"""``coucou-record/1`` reading and the verifier's report (coucou-record-format.md, "A record", "What the verifier prints")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.common.records import RecordError
from couyon.common.stream import Stream
from couyon.games.coucou.game import Move, legal_moves, new_game, play
from couyon.games.coucou.record import FORMAT, Record, parse_record, record_of, report, verify

WORKED_MOVES = ["1:change", "2:change", "3:change", "4:keep", "4:change", "5:change"]

WORKED_REPORT: dict[str, Any] = {
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
    "coup_log": [
        {
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
        },
        # Coup 2 as the contract's prose tells it: dealer 2, order 4 5 2, before 4:AS 5:7C 2:KC, stock 7S,
        # 4 and 5 exchange, 5 takes 7S; 4 and 5 hold 7s: both out.
        {
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
        },
    ],
}


def record(moves: Any = [], **overrides: Any) -> str:  # noqa: B006 (never mutated)
    document: dict[str, Any] = {"format": FORMAT, "players": 5, "tokens": 1, "seed": "coucou", "moves": moves}
    document.update(overrides)
    return json.dumps(document)


def refused_at(text: str | bytes) -> int | None:
    result = verify(text)
    assert result["valid"] is False and set(result) == {"valid", "error", "move"}
    assert isinstance(result["error"], str) and result["error"].count("\n") == 0
    json.dumps(result, ensure_ascii=False).encode("utf-8")  # printable as couyon verify prints it
    move: int | None = result["move"]
    return move


def test_the_worked_record_gives_the_contracts_report() -> None:
    """Contract: the worked record (seed "coucou", 5 players, 1 token) and its printed report, key for key."""
    result = verify(record(WORKED_MOVES))
    assert result == WORKED_REPORT
    assert list(result) == list(WORKED_REPORT)
    assert all(list(coup) == list(WORKED_REPORT["coup_log"][0]) for coup in result["coup_log"])


def test_an_empty_move_list_shows_coup_1_dealt_waiting_for_c0() -> None:
    """Contract: an empty ``moves`` shows coup 1 dealt, waiting for its c0; nulls until the coup ends."""
    result = verify(record())
    assert result["valid"] and not result["finished"]
    assert (result["winner"], result["place"], result["score"], result["coups"]) == (None, None, None, 1)
    assert result["tokens"] == {str(seat): 1 for seat in range(1, 6)} and result["eliminated"] == []
    assert result["coup_log"] == [
        {
            "number": 1,
            "dealer": 5,
            "order": [1, 2, 3, 4, 5],
            "before": {"1": "7S", "2": "7H", "3": "8S", "4": "KS", "5": "JH"},
            "actions": [],
            "stock": None,
            "after": None,
            "losers": None,
            "tokens": None,
            "eliminated": None,
        }
    ]


def test_an_unfinished_record_reports_tokens_after_the_last_finished_coup() -> None:
    """Contract: ``tokens`` after the last finished coup; ``coups`` counts the coup just dealt; place and score null."""
    result = verify(record(WORKED_MOVES[:5]))
    assert result["valid"] and not result["finished"] and result["coups"] == 2
    assert result["tokens"] == {"1": 0, "2": 1, "3": 0, "4": 1, "5": 1}
    assert result["eliminated"] == WORKED_REPORT["eliminated"][:2]
    assert (result["place"], result["score"], result["winner"]) == (None, None, None)
    assert result["coup_log"][1]["actions"] == ["4:exchange"]
    assert [result["coup_log"][1][key] for key in ("stock", "after", "losers", "tokens", "eliminated")] == [None] * 5


def test_extra_keys_are_ignored() -> None:
    """Contract: extra keys are allowed and ignored (e.g. ``bots``, ``player``, ``challenge``)."""
    extras = {"bots": {"2": "expert/1"}, "player": "Marie", "challenge": "2026-12-01", "variant": 7}
    assert verify(record(WORKED_MOVES, **extras)) == WORKED_REPORT


@pytest.mark.parametrize(
    "text",
    [
        b"\xff{}",
        "not json",
        "[1, 2]",
        '"a string"',
        '{"format": "coucou-record/1", "players": 5, "players": 5, "tokens": 1, "seed": "x", "moves": []}',
        record(format="coucou-record/2"),
        record(format=None),
        record(players=True),
        record(players=8.0),
        record(players=4),
        record(players=21),
        record(players="8"),
        record(players=None),
        record(tokens=0),
        record(tokens=11),
        record(tokens=True),
        record(tokens=1.0),
        record(tokens=[3]),
        record(seed=12),
        record(seed=None),
        '{"format": "coucou-record/1", "players": 5, "tokens": 1, "seed": "\\ud800", "moves": []}',
        record(moves={"0": "1:keep"}),
        record(moves="1:keep"),
        record(moves=None),
        json.dumps({"format": FORMAT, "players": 5, "tokens": 1, "moves": []}),
        json.dumps({"format": FORMAT, "players": 5, "seed": "x", "moves": []}),
        json.dumps({"format": FORMAT, "tokens": 1, "seed": "x", "moves": []}),
        json.dumps({"format": FORMAT, "players": 5, "tokens": 1, "seed": "x"}),
        '{"format": "coucou-record/1", "players": 5, "tokens": 1, "seed": "x", "moves": [], "bots": NaN}',
        '{"format": "coucou-record/1", "players": 1' + "0" * 5000 + ', "tokens": 1, "seed": "x", "moves": []}',
    ],
)
def test_a_bad_record_is_refused_with_move_null(text: str | bytes) -> None:
    """Contract: malformed JSON, format, players/tokens not an integer in range (``true`` and ``8.0`` are not),
    seed not a string or with a lone surrogate, moves not a list: ``move`` is null."""
    assert refused_at(text) is None


@pytest.mark.parametrize(
    ("moves", "index"),
    [
        (["1:keep", 2], 1),
        (["1:keep", None], 1),
        (["1:keep", ["2:keep"]], 1),
        (["1keep"], 0),
        (["1:keep:x"], 0),
        (["1::keep"], 0),
        (["01:keep"], 0),
        (["+1:keep"], 0),
        ([" 1:keep"], 0),
        (["1:Keep"], 0),
        (["1:pass"], 0),
        (["1:exchange"], 0),
        (["1:keep", "3:keep"], 1),
        (["2:keep"], 0),
        (["5:keep"], 0),  # the dealer has no move
        (["0:keep"], 0),
        (["6:keep"], 0),
        (["1:keep", "1:keep"], 1),
        ([*WORKED_MOVES[:4], "1:keep"], 4),  # seat 1 is out
        ([*WORKED_MOVES, "2:keep"], 6),  # after the end
        ([*WORKED_MOVES, "2:keep", 3], 6),
        ([*WORKED_MOVES, 3], 6),
        (["\ud800:keep"], 0),
        (["1:keep", "2:\udfff"], 1),
        (["1:keep", "x" * 10_000], 1),
        (["2:keep", 7], 0),  # the first bad move is the one reported
    ],
)
def test_the_first_bad_move_is_named(moves: list[Any], index: int) -> None:
    """Contract: not a string with exactly one ':', the wrong seat or the right one written otherwise ("07"),
    an action other than keep or change, or a move after the game ended; ``move`` is its 0-based index."""
    assert refused_at(record(moves)) == index


def test_refusal_sentences_say_why() -> None:
    """Contract: one clear sentence, never a traceback; a huge or odd value is quoted short and escaped."""
    assert "players" in verify(record(players=True))["error"]
    assert "out of the game" in verify(record([*WORKED_MOVES[:4], "1:keep"]))["error"]
    assert "is over" in verify(record([*WORKED_MOVES, "2:keep"]))["error"]
    assert "turn" in verify(record(["2:keep"]))["error"]
    long_error = verify(record(["1:keep", "x" * 10_000]))["error"]
    assert len(long_error) < 300
    assert "\\ud800" in verify(record(["\ud800:keep"]))["error"]


def test_a_record_round_trips_and_parse_record_checks_every_move() -> None:
    """A record written by ``Record.to_json`` reads back the same; parse_record refuses what verify refuses."""
    state = new_game("round-trip", 9, 2)
    rng = Stream("round-trip", "moves")
    moves: list[Move] = []
    while state.winner is None:
        move = legal_moves(state)[rng.uniform(2)]
        moves.append(move)
        state = play(state, move)
    written = record_of(state, moves, bots={"2": "expert/1"})
    assert parse_record(written.to_json()) == written
    assert written.replay() == state
    assert verify(written.to_json()) == report(state)
    assert json.loads(written.to_json())["bots"] == {"2": "expert/1"}
    with pytest.raises(RecordError) as caught:
        parse_record(Record("round-trip", 9, 2, (*written.moves, "1:keep")).to_json())
    assert caught.value.move == len(moves)


def test_every_prefix_of_a_game_is_a_valid_unfinished_record() -> None:
    """Contract: a record may stop anywhere: valid, unfinished."""
    state = new_game("prefixes", 6, 1)
    rng = Stream("prefixes", "moves")
    moves: list[str] = []
    while state.winner is None:
        result = verify(record(moves, players=6, seed="prefixes"))
        assert result["valid"] and not result["finished"] and result["coups"] == state.coup.number
        move = legal_moves(state)[rng.uniform(2)]
        moves.append(str(move))
        state = play(state, move)
    assert verify(record(moves, players=6, seed="prefixes"))["finished"] is True


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.one_of(st.integers(3, 22), JSON_VALUES),
    tokens=st.one_of(st.integers(0, 11), JSON_VALUES),
    seed=st.one_of(st.text(max_size=6), JSON_VALUES),
    moves=st.one_of(
        st.lists(
            st.one_of(st.sampled_from(["1:keep", "2:change", "3:keep", "07:keep"]), st.text(max_size=5)), max_size=8
        ),
        JSON_VALUES,
    ),
)
def test_any_document_gets_a_report_or_a_refusal(players: Any, tokens: Any, seed: Any, moves: Any) -> None:
    """Contract: never a traceback, whatever the record holds."""
    result = verify(json.dumps({"format": FORMAT, "players": players, "tokens": tokens, "seed": seed, "moves": moves}))
    assert result["valid"] in (True, False)
    if not result["valid"]:
        assert set(result) == {"valid", "error", "move"}
        assert result["move"] is None or (isinstance(moves, list) and 0 <= result["move"] < len(moves))
    json.dumps(result, ensure_ascii=False).encode("utf-8")


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64))
def test_any_bytes_get_a_refusal_or_a_report(data: bytes) -> None:
    """Contract: malformed input is refused in one sentence with ``move`` null."""
    result = verify(data)
    assert result["valid"] is False and result["move"] is None
