"""``couyon verify`` end to end (record-format.md, "What the verifier prints"): the installed command
on every golden record of tests/data/golden, by file and by standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.games.couyon.random_play import mutated, random_record_moves

from couyon.common.records import MAX_RECORD_BYTES
from couyon.common.stream import Stream
from reference.contract import verify as reference_verify

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden"
RECORDS = sorted(path for path in GOLDEN.rglob("*.json") if not path.name.endswith(".expected.json"))
"""Every game's golden records: couyon's at the top, each other game's in its own folder (malmedy/, …)."""
COUYON = Path(sys.executable).with_name("couyon")


def run_verify(argument: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(COUYON), "verify", argument], input=stdin, capture_output=True, timeout=60, check=False)


def expected_output(record: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(record.with_name(record.stem + ".expected.json").read_text("utf-8"))
    return result


def test_golden_set_covers_every_case_the_issue_lists() -> None:
    """Issue 2: golden records include a tie then a doubled deal, a deal nobody takes, and each kind of refusal."""
    names = {record.stem for record in RECORDS if record.parent == GOLDEN}
    required = {
        "finished-game",
        "unfinished-game",
        "tie-then-doubled-deal",
        "tie-nobody-takes-then-doubled-deal",
        "nobody-takes-redeal",
        *(
            "refused-" + kind
            for kind in (
                "not-json",
                "not-utf8",
                "not-an-object",
                "wrong-format",
                "unknown-variant",
                "seed-not-a-string",
                "moves-not-a-list",
                "move-not-a-string",
                "unreadable-move",
                "wrong-seat",
                "card-not-held",
                "forbidden-card",
                "bid-during-play",
                "card-during-bidding",
                "move-after-the-end",
            )
        ),
    }
    assert required <= names
    tie = [
        (deal["outcome"], deal["stake"]) for deal in expected_output(GOLDEN / "tie-then-doubled-deal.json")["deal_log"]
    ]
    after_tie = tie[tie.index(("tie", 1)) + 1]
    assert after_tie in {("made", 2), ("failed", 2)}
    pending = expected_output(GOLDEN / "tie-nobody-takes-then-doubled-deal.json")["deal_log"]
    outcomes = [(deal["outcome"], deal["stake"]) for deal in pending]
    where = outcomes.index(("tie", 1))
    assert outcomes[where + 1] == ("redeal", 2) and outcomes[where + 2] in {("made", 2), ("failed", 2)}
    redeal = expected_output(GOLDEN / "nobody-takes-redeal.json")["deal_log"]
    assert redeal[0]["outcome"] == "redeal" and len(redeal[0]["proposals"]) == 8 and len(redeal) == 2
    assert expected_output(GOLDEN / "finished-game.json")["finished"] is True
    assert expected_output(GOLDEN / "unfinished-game.json")["finished"] is False


@pytest.mark.parametrize("record", RECORDS, ids=lambda path: str(path.relative_to(GOLDEN).with_suffix("")))
def test_couyon_verify_prints_the_golden_output(record: Path) -> None:
    """Contract: the verifier prints one JSON object, exits 0 for a valid record and 1 for a refused one."""
    expected = expected_output(record)
    completed = run_verify(str(record))
    assert completed.returncode == (0 if expected["valid"] else 1)
    assert json.loads(completed.stdout) == expected
    assert completed.stdout.count(b"\n") == 1
    assert completed.stderr == b""


def test_malmedy_golden_set_covers_every_refusal_the_issue_lists() -> None:
    """Issue 10: a mite without the queen of spades or after the first card, a contra by the wrong seat, a common move."""
    names = {record.stem for record in RECORDS if record.parent == GOLDEN / "malmedy"}
    assert {
        "finished-game",
        "finished-game-with-announcements",
        "unfinished-game",
        "refused-mite-without-the-queen-of-spades",
        "refused-mite-after-the-first-card",
        "refused-contra-by-the-wrong-seat",
        "refused-take-in-malmedy",
    } <= names
    announced = expected_output(GOLDEN / "malmedy" / "finished-game-with-announcements.json")["deal_log"]
    assert {deal["contra"] for deal in announced} >= {2} and any(deal["mite"] for deal in announced)


@pytest.mark.parametrize("name", ["finished-game", "refused-not-utf8", "refused-forbidden-card"])
def test_couyon_verify_reads_standard_input(name: str) -> None:
    """Contract: ``couyon verify -`` reads the record from standard input."""
    record = GOLDEN / f"{name}.json"
    completed = run_verify("-", stdin=record.read_bytes())
    assert json.loads(completed.stdout) == expected_output(record)
    assert completed.returncode == (0 if expected_output(record)["valid"] else 1) and completed.stderr == b""


@pytest.mark.parametrize("target", ["missing.json", "."])
def test_couyon_verify_refuses_an_unreadable_file_in_one_sentence(target: str, tmp_path: Path) -> None:
    """Contract: bad input exits 1 with the error object, never a traceback."""
    completed = subprocess.run(
        [str(COUYON), "verify", target], cwd=tmp_path, capture_output=True, timeout=60, check=False
    )
    result = json.loads(completed.stdout)
    assert completed.returncode == 1 and result["valid"] is False and result["move"] is None
    assert target in result["error"] and completed.stderr == b""


def test_couyon_verify_refuses_a_record_over_the_size_cap_without_reading_it_all(tmp_path: Path) -> None:
    """Issue 11: a record over 1 MiB is refused in one sentence (a real game is a few kilobytes)."""
    moves = ["S:pass"] * 200_000
    record = tmp_path / "huge.json"
    record.write_text(json.dumps({"format": "couyon-record/1", "variant": "standard", "seed": "x", "moves": moves}))
    assert record.stat().st_size > MAX_RECORD_BYTES
    for completed in (run_verify(str(record)), run_verify("-", stdin=record.read_bytes())):
        result = json.loads(completed.stdout)
        assert completed.returncode == 1 and completed.stderr == b""
        assert result == {
            "valid": False,
            "error": "the record is larger than 1,048,576 bytes, the most couyon verify reads",
            "move": None,
        }


def test_couyon_verify_writes_utf8_whatever_the_locale(tmp_path: Path) -> None:
    """Contract: never a traceback, even when the terminal's encoding cannot spell a quoted move like "S:é"."""
    record = tmp_path / "accent.json"
    record.write_text(json.dumps({"format": "couyon-record/1", "variant": "standard", "seed": "x", "moves": ["S:é"]}))
    completed = subprocess.run(
        [str(COUYON), "verify", str(record)],
        env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "ascii", "LC_ALL": "C"},
        capture_output=True,
        timeout=60,
        check=False,
    )
    result = json.loads(completed.stdout.decode("utf-8"))
    assert completed.returncode == 1 and (result["valid"], result["move"]) == (False, 0) and "S:é" in result["error"]
    assert completed.stderr == b""


def test_couyon_verify_agrees_with_the_reference_on_random_records(tmp_path: Path) -> None:
    """Issue 2: the independent implementation replays random records through ``couyon verify`` itself."""
    chooser = Stream("cli-cross-check", "mutations")
    for number in range(40):
        seed, moves = random_record_moves(number, "cli-cross-check")
        candidate = moves if number % 2 else mutated(moves, chooser)
        data = json.dumps({"format": "couyon-record/1", "variant": "standard", "seed": seed, "moves": candidate})
        record = tmp_path / f"{number}.json"
        record.write_text(data, "utf-8")
        completed = run_verify(str(record))
        ours, theirs = json.loads(completed.stdout), reference_verify(data.encode("utf-8"))
        assert completed.returncode == (0 if theirs["valid"] else 1) and completed.stderr == b""
        assert ours == theirs if theirs["valid"] else ours["move"] == theirs["move"]
