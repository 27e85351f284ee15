"""``couyon verify`` on tarot records end to end (tarot-record-format.md, "What the verifier prints"): the
registry hands ``tarot-record/1`` to the tarot verifier; the installed command prints each golden record's
expected output (tests/data/golden/tarot, written by ``python -m tarot.make_golden`` from tests/)."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from couyon.games.tarot.record import verify
from couyon.registry import RECORD_VERIFIERS, verify_record

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "golden" / "tarot"
RECORDS = sorted(path for path in GOLDEN.glob("*.json") if not path.name.endswith(".expected.json"))
COUYON = Path(sys.executable).with_name("couyon")


def expected_output(record: Path) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(record.with_name(record.stem + ".expected.json").read_text("utf-8"))
    return result


def run_verify(argument: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([str(COUYON), "verify", argument], input=stdin, capture_output=True, timeout=60, check=False)


def test_the_registry_knows_the_tarot_format() -> None:
    """Brief: ``couyon verify`` reads tarot records through ``RECORD_VERIFIERS``."""
    assert RECORD_VERIFIERS["tarot-record/1"] is verify


def test_golden_set_covers_every_case_the_contract_lists() -> None:
    """Contract: valid (finished, unfinished, passed out, petit sec) and each kind of refusal it names."""
    names = {record.stem for record in RECORDS}
    required = {
        "empty-moves",
        "empty-moves-after-petit-sec",
        "redeal",
        "finished-3",
        "finished-4",
        "finished-5",
        "unfinished-5",
        "poignee-at-five",
        "misere-at-five",
        "chelem-announced-at-five",
        "extra-keys",
        *(
            "refused-" + kind
            for kind in (
                "not-json",
                "not-utf8",
                "not-an-object",
                "players-not-an-integer",
                "players-a-string",
                "players-a-boolean",
                "players-six",
                "seed-not-a-string",
                "seed-lone-surrogate",
                "moves-not-a-list",
                "move-not-a-string",
                "unreadable-move",
                "unknown-seat",
                "wrong-seat",
                "unknown-action",
                "bid-not-higher",
                "card-during-bidding",
                "call-queen-without-kings",
                "ecart-with-a-king",
                "ecart-with-a-bout",
                "ecart-with-a-trump",
                "chelem-late",
                "poignee-wrong-size",
                "poignee-excuse-without-every-trump",
                "misere-with-a-trump",
                "announcement-after-the-first-trick",
                "card-not-held",
                "card-not-legal",
                "first-lead-in-the-called-suit",
                "move-after-the-end",
            )
        ),
    }
    assert required <= names
    log = expected_output(GOLDEN / "empty-moves-after-petit-sec.json")["deal_log"]
    assert log[0]["outcome"] == "petit-sec" and log[-1]["outcome"] is None
    assert expected_output(GOLDEN / "redeal.json")["deal_log"][0]["outcome"] == "redeal"
    assert all(expected_output(GOLDEN / f"finished-{n}.json")["finished"] for n in (3, 4, 5))
    assert not expected_output(GOLDEN / "unfinished-5.json")["finished"]


@pytest.mark.parametrize("record", RECORDS, ids=lambda path: path.stem)
def test_the_registry_gives_the_golden_output(record: Path) -> None:
    """Contract: the report or refusal, as a JSON value, equal to the golden file."""
    assert verify_record(record.read_bytes()) == expected_output(record)


# tests/games/couyon/test_verify_cli.py runs the command on every golden record of every game; here, one of each kind.
THROUGH_THE_COMMAND = [
    GOLDEN / f"{name}.json"
    for name in (
        "finished-3",
        "finished-4",
        "finished-5",
        "unfinished-5",
        "empty-moves-after-petit-sec",
        "refused-not-json",
        "refused-players-a-boolean",
        "refused-move-not-a-string",
        "refused-ecart-with-a-king",
        "refused-move-after-the-end",
    )
]


def test_couyon_verify_prints_the_golden_output() -> None:
    """Contract: the command prints one JSON object, exits 0 for a valid record and 1 for a refused one."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = pool.map(lambda path: run_verify(str(path)), THROUGH_THE_COMMAND)
        completed = dict(zip(THROUGH_THE_COMMAND, runs, strict=True))
    for record, process in completed.items():
        expected = expected_output(record)
        assert process.returncode == (0 if expected["valid"] else 1), record.stem
        assert json.loads(process.stdout) == expected, record.stem
        assert process.stdout.count(b"\n") == 1 and process.stderr == b"", record.stem


@pytest.mark.parametrize("name", ["finished-5", "refused-not-utf8", "refused-card-not-legal"])
def test_couyon_verify_reads_standard_input(name: str) -> None:
    """Contract: ``couyon verify -`` reads the record from standard input."""
    record = GOLDEN / f"{name}.json"
    completed = run_verify("-", stdin=record.read_bytes())
    assert json.loads(completed.stdout) == expected_output(record)
    assert completed.returncode == (0 if expected_output(record)["valid"] else 1) and completed.stderr == b""
