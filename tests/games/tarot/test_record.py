"""``tarot-record/1`` records and the verifier's report (tarot-record-format.md, "A record", "What the verifier prints")."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.games.tarot.helpers import move_texts, random_game

from couyon.common.errors import ReplayError
from couyon.common.records import RecordError
from couyon.common.stream import Stream
from couyon.games.tarot.cards import Card
from couyon.games.tarot.game import Outcome, replay
from couyon.games.tarot.record import FORMAT, TarotRecord, parse_record, record_of, report, verify

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
PLAYED_KEYS = ["bouts", "points", "needed", "result", "margin", "marque", "scores"]


def record_bytes(players: Any, seed: Any, moves: Any, **changes: Any) -> bytes:
    document = {"format": FORMAT, "players": players, "seed": seed, "moves": moves, **changes}
    return json.dumps(document).encode("utf-8")


def assert_contract_shape(result: dict[str, Any]) -> None:
    """The verifier's output is one of the contract's two shapes, and survives a JSON round trip."""
    assert json.loads(json.dumps(result)) == result
    if not result["valid"]:
        assert list(result) == ["valid", "error", "move"]
        assert isinstance(result["error"], str) and result["error"] and "\n" not in result["error"]
        assert result["move"] is None or (isinstance(result["move"], int) and result["move"] >= 0)
        return
    assert list(result) == REPORT_KEYS
    log = result["deal_log"]
    assert result["deals"] == len(log) == log[-1]["number"]
    assert result["played"] == sum(deal["outcome"] == "played" for deal in log)
    assert result["finished"] == (result["played"] == result["players"])
    assert (result["score"] is None) != result["finished"]
    for deal in log:
        assert list(deal) == DEAL_KEYS
        played = deal["outcome"] == "played"
        assert all((deal[key] is not None) == played for key in PLAYED_KEYS)
        assert isinstance(deal["chelem_announced"], bool) and len(deal["chien"]) in (3, 6)
        if played:
            assert sum(deal["scores"].values()) == 0
            assert deal["points"] * 2 == int(deal["points"] * 2)
    assert all(deal["outcome"] is not None for deal in log[:-1])


# --- whole games


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_finished_game_reports_every_deal(players: int) -> None:
    """Contract: a finished game: finished, n played deals, totals over the played deals, S's score."""
    state, played = random_game(f"record-{players}", players)
    result = verify(record_of(state, played).to_json())
    assert_contract_shape(result)
    assert result["finished"] and result["played"] == players and result["score"] == result["scores"]["S"]
    totals = {seat: 0 for seat in result["scores"]}
    for deal in result["deal_log"]:
        for seat, score in (deal["scores"] or {}).items():
            totals[seat] += score
    assert totals == result["scores"]
    assert result == report(state)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_prefix_of_a_game_is_a_valid_unfinished_record(players: int) -> None:
    """Contract: a record may stop anywhere: it is then valid but unfinished."""
    state, played = random_game(f"prefix-{players}", players)
    texts = move_texts(played)
    for end in range(0, len(texts), 7):
        result = verify(record_bytes(players, state.seed, texts[:end]))
        assert_contract_shape(result)
        assert result["valid"] and not result["finished"] and result["score"] is None
        current = result["deal_log"][-1]
        assert current["outcome"] is None
    final = verify(record_bytes(players, state.seed, texts))
    assert final["finished"]
    refused = verify(record_bytes(players, state.seed, [*texts, "S:pass"]))
    assert refused["move"] == len(texts) and "over" in refused["error"]


def test_an_empty_record_shows_deal_one() -> None:
    """Contract: an empty move list already shows deal 1 (the chien from the deal, everything else null)."""
    result = verify(record_bytes(4, "tarot-exemple", []))
    assert_contract_shape(result)
    assert result["deals"] == 1 and result["scores"] == {"S": 0, "W": 0, "N": 0, "E": 0}
    deal = result["deal_log"][0]
    assert (deal["dealer"], deal["bids"], deal["chien"]) == ("S", [], ["1D", "3H", "KH", "7S", "JS", "14T"])


def test_points_are_whole_or_end_in_a_half() -> None:
    """Contract: points is P / 2, a JSON number whole or ending in .5."""
    for players in (3, 4, 5):
        state, played = random_game(f"points-{players}", players)
        for deal in verify(record_of(state, played).to_json())["deal_log"]:
            if deal["points"] is not None:
                assert isinstance(deal["points"], int) or deal["points"] % 1 == 0.5


def test_the_report_names_the_call_and_the_partner_at_five_only() -> None:
    """Contract: called and partner at 5 players once the call is made, else null."""
    for players in (3, 4, 5):
        state, played = random_game(f"call-{players}", players)
        for deal in verify(record_of(state, played).to_json())["deal_log"]:
            if players < 5 or deal["outcome"] != "played":
                assert deal["called"] is None and deal["partner"] is None
            else:
                assert deal["called"] is not None and deal["partner"] != deal["taker"]


def test_records_round_trip_and_extra_keys_are_ignored() -> None:
    """Contract: extra keys are allowed and ignored."""
    state, played = random_game("round-trip", 4)
    record = record_of(state, played, comment="hello", players_names=["a"])
    assert parse_record(record.to_json()) == record
    assert verify(record.to_json()) == verify(record_of(state, played).to_json())


# --- refusals


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"{", "not valid JSON"),
        (b"\xff\xfe", "not UTF-8"),
        (b"[]", "must be a JSON object"),
        (record_bytes(4, "x", [], format="tarot-record/2"), "format"),
        (record_bytes(4.0, "x", []), '"players"'),
        (record_bytes("4", "x", []), '"players"'),
        (record_bytes(True, "x", []), '"players"'),
        (record_bytes(6, "x", []), '"players"'),
        (record_bytes(2, "x", []), '"players"'),
        (record_bytes(None, "x", []), '"players"'),
        (record_bytes(4, 7, []), '"seed"'),
        (record_bytes(4, "x", "W:pass"), '"moves"'),
        (b'{"format": "tarot-record/1", "players": 4, "seed": "\\ud800", "moves": []}', "lone surrogate"),
        (b'{"format": "tarot-record/1", "players": 4, "players": 4, "seed": "x", "moves": []}', "twice"),
        (b'{"format": "tarot-record/1", "seed": "x", "moves": []}', '"players"'),
    ],
)
def test_a_bad_record_is_refused_with_no_move(data: bytes, why: str) -> None:
    """Contract: malformed JSON, unknown format, players not 3/4/5, seed not a string, moves not a list: move null."""
    result = verify(data)
    assert_contract_shape(result)
    assert result["valid"] is False and result["move"] is None and why in result["error"]


def test_a_move_that_is_not_a_string_is_refused_after_the_moves_before_it() -> None:
    """Contract: the first bad move is named; nothing before it is judged wrong."""
    assert verify(record_bytes(4, "tarot-exemple", ["W:pass", 7]))["move"] == 1
    result = verify(record_bytes(4, "tarot-exemple", ["W:pass", "W:pass", 7]))
    assert result["move"] == 1 and "turn" in result["error"]


@pytest.mark.parametrize(
    ("moves", "index", "why"),
    [
        (["W pass"], 0, "not a move"),
        (["NW:pass"], 0, "names no seat"),
        (["S:pass"], 0, "W's turn"),
        (["W:take"], 0, "unknown action"),
        (["W:KS"], 0, "the bidding comes first"),
        (["W:garde", "N:petite"], 1, "higher than W's garde"),
        (["W:pass", "N:garde", "E:pass", "S:pass", "N:garde"], 4, "bidding is over"),
        (["W:pass", "N:garde", "E:pass", "S:pass", "N:ecart:KH,7S,1D,3H,JS,14T"], 4, "king never"),
        (["W:pass", "N:garde", "E:pass", "S:pass", "N:ecart:7S,1D,3H,JS,14T"], 4, "exactly 6"),
        (["W:pass", "N:garde", "E:pass", "S:pass", "N:chelem"], 4, "écart"),
        (["W:pass", "N:garde-sans", "E:pass", "S:pass", "E:misere-atout"], 4, "misère d'atout"),
        (["W:pass", "N:garde-sans", "E:pass", "S:pass", "W:chelem"], 4, "only the taker (N)"),
        (["W:pass", "N:garde-sans", "E:pass", "S:pass", "E:1C", "N:chelem"], 5, "no longer"),
        (["W:pass", "N:garde", "E:pass", "S:pass", "E:poignee:12T"], 4, "N must first make the écart"),
        (["W:garde", "N:pass", "E:pass", "S:pass", "W:call:KH"], 4, "no call at 4 players"),
        (["W:pass", "N:garde-sans", "E:pass", "S:pass", "E:KS"], 4, "does not hold KS"),
    ],
)
def test_a_move_against_the_rules_is_refused_at_its_index(moves: list[str], index: int, why: str) -> None:
    """Contract: an unknown seat, the wrong seat, an unknown action, an action not allowed now, a card not held."""
    result = verify(record_bytes(4, "tarot-exemple", moves))
    assert_contract_shape(result)
    assert result["move"] == index and why in result["error"], result["error"]
    assert result["error"].startswith(f"move {index} (")


def test_mutated_records_are_refused_at_the_first_move_replay_refuses() -> None:
    """A verifier's refusal names exactly the first move the fold refuses; everything else verifies."""
    chooser = Stream("mutations", "tarot")
    for number in range(60):
        players = 3 + number % 3
        state, played = random_game(f"mutated-{number}", players)
        texts: list[Any] = move_texts(played)
        where = chooser.uniform(len(texts))
        kind = chooser.uniform(4)
        if kind == 0:
            texts[where] = texts[chooser.uniform(len(texts))]
        elif kind == 1:
            del texts[where]
        elif kind == 2:
            texts.insert(where, texts[where])
        else:
            texts[where], texts[where - 1] = texts[where - 1], texts[where]
        result = verify(record_bytes(players, state.seed, texts))
        assert_contract_shape(result)
        try:
            replay(state.seed, players, texts)
        except ReplayError as error:
            assert result["move"] == error.index
        else:
            assert result["valid"]


def test_the_record_reader_and_record_error() -> None:
    """``parse_record`` raises ``RecordError`` with the move index; ``TarotRecord.replay`` too."""
    with pytest.raises(RecordError) as caught:
        TarotRecord(4, "tarot-exemple", ("W:pass", "W:pass")).replay()
    assert caught.value.move == 1
    assert parse_record(record_bytes(5, "s", ["S:pass"])).players == 5


def test_passed_out_and_petit_sec_deals_are_logged_but_not_played() -> None:
    """Contract: outcome redeal or petit-sec, every played key null; the game still needs n played deals."""
    state, played = random_game("logged-4", 4)
    result = verify(record_of(state, played).to_json())
    outcomes = [deal["outcome"] for deal in result["deal_log"]]
    assert outcomes.count("played") == 4 and set(outcomes) <= {str(outcome) for outcome in Outcome}


VOCABULARY = [
    "W:pass",
    "N:garde",
    "E:pass",
    "S:pass",
    "S:garde-contre",
    "N:ecart:2C,3C,4C,9D,JD,3H",
    "E:chelem",
    "E:poignee:2T,4T",
    "E:misere-atout",
    "E:KS",
    "S:1S",
    "NW:call:KH",
    "W:EX",
    "W:",
    ":",
    "",
    "S:ecart:",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.one_of(st.sampled_from([3, 4, 5]), st.integers(), st.floats(allow_nan=False), st.booleans()),
    seed=st.one_of(st.text(max_size=8), st.integers()),
    moves=st.lists(st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=12), st.integers()), max_size=12),
)
def test_verify_never_raises(players: Any, seed: Any, moves: Any) -> None:
    """Contract: bad input is refused in the contract's shape, never with a traceback."""
    assert_contract_shape(verify(json.dumps({"format": FORMAT, "players": players, "seed": seed, "moves": moves})))


@settings(max_examples=100, deadline=None)
@given(data=st.binary(max_size=64))
def test_verify_never_raises_on_bytes(data: bytes) -> None:
    assert_contract_shape(verify(data))


def test_a_move_object_of_the_wrong_shape_is_unreadable() -> None:
    """``play`` checks moves built in code too: a card move holds one card, a bid none."""
    from couyon.common.errors import InvalidMoveError
    from couyon.games.tarot.cards import Seat
    from couyon.games.tarot.game import Move, new_game, play

    state = new_game("x", 4)
    for move in (Move(Seat.W, "card"), Move(Seat.W, "pass", (Card.parse("1C"),)), Move(Seat.W, "ecart")):
        with pytest.raises(InvalidMoveError):
            play(state, move)
