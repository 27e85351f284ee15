"""``couyon verify`` on byte-level mutations of a real finished game's record, and on forged records: it never
crashes, prints one JSON line, exits 0 only for a record that replays, and a forgery carries no false result.

tests/games/couyon/test_record.py already fuzzes ``verify`` with random bytes, random JSON and move-level mutations
against the reference verifier; this adds whole-file byte damage through the command itself.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from couyon.cli import main
from couyon.common.stream import Stream

FINISHED = Path(__file__).parents[1] / "data" / "golden" / "finished-game.json"
COUYON = Path(sys.executable).with_name("couyon")
SUBPROCESS_RUNS = 10


def finished_record() -> dict[str, Any]:
    """The golden finished game, with the extras a server download carries."""
    record: dict[str, Any] = json.loads(FINISHED.read_text("utf-8"))
    return {**record, "bots": "expert/1", "player": "Marie"}


def mutate(data: bytes, chooser: Stream, rounds: int) -> bytes:
    """Damage ``data`` the ways files get damaged: flipped, inserted, deleted, duplicated, swapped bytes, cut end."""
    damaged = bytearray(data)
    for _ in range(rounds):
        kind = chooser.uniform(6)
        at = chooser.uniform(len(damaged) + 1)
        if kind == 0 and at < len(damaged):
            damaged[at] ^= 1 << chooser.uniform(8)
        elif kind == 1:
            damaged[at:at] = bytes(chooser.uniform(256) for _ in range(1 + chooser.uniform(4)))
        elif kind == 2:
            del damaged[at : at + 1 + chooser.uniform(16)]
        elif kind == 3:
            damaged[at:at] = damaged[at : at + 1 + chooser.uniform(32)]
        elif kind == 4 and len(damaged) > 1:
            other = chooser.uniform(len(damaged))
            at = min(at, len(damaged) - 1)
            damaged[at], damaged[other] = damaged[other], damaged[at]
        else:
            del damaged[at:]
    return bytes(damaged)


def check_output(status: int, stdout: bytes) -> dict[str, Any]:
    """One JSON line in the contract's shape, agreeing with the exit status."""
    assert stdout.endswith(b"\n") and stdout.count(b"\n") == 1
    result: dict[str, Any] = json.loads(stdout)
    assert status == (0 if result["valid"] else 1)
    if not result["valid"]:
        assert set(result) == {"valid", "error", "move"}
        assert isinstance(result["error"], str) and "\n" not in result["error"] and len(result["error"]) < 300
    return result


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutation=st.integers(0, 2**32 - 1), rounds=st.integers(1, 5))
def test_damaged_records_never_crash_the_command(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], mutation: int, rounds: int
) -> None:
    data = mutate(json.dumps(finished_record()).encode(), Stream(str(mutation), "damage"), rounds)
    path = tmp_path / "record.json"
    path.write_bytes(data)
    status = main(["verify", str(path)])
    output = capsysbinary.readouterr()
    assert output.err == b""
    check_output(status, output.out)


def test_damaged_records_through_the_installed_command(tmp_path: Path) -> None:
    original = json.dumps(finished_record()).encode()
    outcomes = set()
    for index in range(SUBPROCESS_RUNS):
        data = mutate(original, Stream(str(index), "installed"), 1 + index % 4)
        done = subprocess.run([str(COUYON), "verify", "-"], input=data, capture_output=True, timeout=60, check=False)
        assert done.stderr == b"", done.stderr.decode(errors="replace")
        outcomes.add(check_output(done.returncode, done.stdout)["valid"])
    assert False in outcomes


def forged(change: str) -> dict[str, Any]:
    record = finished_record()
    moves = list(record["moves"])
    if change == "seed":
        record["seed"] = "finished-1"
    elif change == "swapped moves":
        moves[5], moves[6] = moves[6], moves[5]
    elif change == "bot card for another":
        seat, _, card = moves[2].partition(":")
        moves[2] = f"{seat}:{'AS' if card != 'AS' else 'KS'}"
    elif change == "seat renamed":
        moves[0] = "S" + moves[0][1:]
    elif change == "move dropped":
        del moves[10]
    elif change == "extra move":
        moves.append("S:pass")
    record["moves"] = moves
    return record


@pytest.mark.parametrize(
    "change", ["seed", "swapped moves", "bot card for another", "seat renamed", "move dropped", "extra move"]
)
def test_forged_records_are_refused_at_their_first_wrong_move(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes], change: str
) -> None:
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged(change)))
    status = main(["verify", str(path)])
    result = check_output(status, capsysbinary.readouterr().out)
    assert result["valid"] is False and isinstance(result["move"], int)


def test_a_claimed_result_in_a_record_is_ignored(tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """Extra keys cannot carry a result: the verifier prints what the moves give."""
    honest = tmp_path / "honest.json"
    honest.write_text(json.dumps(finished_record()))
    main(["verify", str(honest)])
    truth = json.loads(capsysbinary.readouterr().out)
    claim = {**finished_record(), "score": 99999, "winner": "WE" if truth["winner"] == "NS" else "NS", "valid": True}
    boastful = tmp_path / "boastful.json"
    boastful.write_text(json.dumps(claim))
    assert main(["verify", str(boastful)]) == 0
    assert json.loads(capsysbinary.readouterr().out) == truth
