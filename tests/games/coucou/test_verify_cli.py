"""``couyon verify`` on coucou records end to end (coucou-record-format.md, "What the verifier prints"): the installed
command on every golden record of tests/data/golden/coucou, by file and by standard input."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from tests.games.coucou.test_record import WORKED_REPORT

from reference.as_qui_court_contract import verify_record_2

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "coucou"
RECORDS = sorted(path for path in GOLDEN.glob("*.json") if not path.name.endswith(".expected.json"))
COUYON = Path(sys.executable).with_name("couyon")


def run_verify(argument: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(COUYON), "verify", argument], input=stdin, capture_output=True, timeout=120, check=False)


def expected_output(record: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(record.with_name(record.stem + ".expected.json").read_text("utf-8"))
    return result


@pytest.fixture(scope="module")
def outputs() -> dict[str, subprocess.CompletedProcess[bytes]]:
    """Every golden record through the installed command once, a few at a time (each start imports the server)."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(
            zip((path.stem for path in RECORDS), pool.map(lambda path: run_verify(str(path)), RECORDS), strict=True)
        )


def test_golden_set_covers_the_contracts_cases() -> None:
    """Contract: valid finished and unfinished records, an empty move list, an all-equal showdown, each kind of refusal."""
    names = {record.stem for record in RECORDS}
    assert {
        "worked-record",
        "empty-moves",
        "unfinished-mid-coup",
        "finished-expert-table",
        "finished-twenty-players",
        "nobody-loses-same-rank",
        "unicode-seed",
        "refused-not-json",
        "refused-players-true",
        "refused-players-float",
        "refused-tokens-out-of-range",
        "refused-seed-lone-surrogate",
        "refused-moves-not-a-list",
        "refused-move-not-a-string",
        "refused-move-leading-zero",
        "refused-move-wrong-seat",
        "refused-move-unknown-action",
        "refused-move-after-the-end",
    } <= names
    assert expected_output(GOLDEN / "worked-record.json") == WORKED_REPORT
    same_rank = expected_output(GOLDEN / "nobody-loses-same-rank.json")["coup_log"]
    assert any(coup["losers"] == [] for coup in same_rank)
    assert expected_output(GOLDEN / "unfinished-mid-coup.json")["coup_log"][-1]["after"] is None


@pytest.mark.parametrize("record", RECORDS, ids=lambda path: path.stem)
def test_couyon_verify_prints_the_golden_output(
    record: Path, outputs: dict[str, subprocess.CompletedProcess[bytes]]
) -> None:
    """Contract: one JSON object on one line; exit status 0 for a valid record, 1 for a refused one; no traceback."""
    expected = expected_output(record)
    completed = outputs[record.stem]
    assert completed.returncode == (0 if expected["valid"] else 1)
    assert json.loads(completed.stdout) == expected
    assert completed.stdout.count(b"\n") == 1
    assert completed.stderr == b""


def test_couyon_verify_reads_a_coucou_record_on_standard_input() -> None:
    """Contract: ``couyon verify -`` reads the record from standard input."""
    record = GOLDEN / "worked-record.json"
    completed = run_verify("-", stdin=record.read_bytes())
    assert completed.returncode == 0 and completed.stderr == b""
    assert json.loads(completed.stdout) == WORKED_REPORT


def test_golden_set_covers_as_qui_court() -> None:
    """Rulings 20–24, the contract's last section: coucou-record/2 records of both variants through the installed
    command (``test_couyon_verify_prints_the_golden_output`` runs each), each one also agreeing with the
    independent /2 reference."""
    names = {record.stem for record in RECORDS}
    wanted = {
        "as-qui-court-empty-moves",
        "as-qui-court-finished",
        "as-qui-court-finished-32-cards",
        "as-qui-court-finished-twenty-players",
        "as-qui-court-finished-expert-table",
        "as-qui-court-unfinished-waiting-for-the-dealer",
        "as-qui-court-variant-coucou",
        "refused-as-qui-court-variant-missing",
        "refused-as-qui-court-variant-unknown",
        "refused-as-qui-court-players-float",
        "refused-as-qui-court-dealer-move-without-an-ace",
        "refused-as-qui-court-dealer-move-out-of-turn",
        "refused-as-qui-court-move-wrong-seat",
        "refused-as-qui-court-move-leading-zero",
        "refused-as-qui-court-move-king-shown",
        "refused-as-qui-court-move-not-a-string",
        "refused-as-qui-court-move-after-the-end",
    }
    assert wanted <= names
    for name in wanted:
        expected = expected_output(GOLDEN / f"{name}.json")
        reference = verify_record_2((GOLDEN / f"{name}.json").read_bytes())
        if expected["valid"]:
            assert expected == reference, name
        else:
            assert (reference["valid"], reference["move"]) == (False, expected["move"]), name
    waiting = expected_output(GOLDEN / "as-qui-court-unfinished-waiting-for-the-dealer.json")["coup_log"][-1]
    assert waiting["after"] is None and len(waiting["actions"]) == len(waiting["order"]) - 1
    assert waiting["actions"][-1].endswith(":exchange") and waiting["before"][str(waiting["dealer"])]
    finished = expected_output(GOLDEN / "as-qui-court-finished.json")
    assert finished["variant"] == "as-qui-court" and finished["finished"]
    assert any(len(coup["actions"]) == len(coup["order"]) for coup in finished["coup_log"])  # the dealer spoke
    assert any(coup["kings_shown"] for coup in finished["coup_log"])
    expert_output = expected_output(GOLDEN / "as-qui-court-finished-expert-table.json")["coup_log"]
    assert any(coup["stock"] is not None for coup in expert_output)  # the dealer changed with the stock
    assert expected_output(GOLDEN / "as-qui-court-variant-coucou.json")["variant"] == "coucou"
