"""Code quality gates of the project (issue 2: ruff and ``mypy --strict`` for the engine run with the tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy", "--strict", "src/couyon"],
    ],
    ids=["ruff check", "ruff format", "mypy strict"],
)
def test_tool_passes(command: list[str]) -> None:
    """Working rules: ruff-clean, ruff-formatted, and ``mypy --strict src/couyon`` without an error."""
    completed = subprocess.run(
        [str(BIN / command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
