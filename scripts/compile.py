"""Compile the bots' hot modules with mypyc, next to their sources (run by scripts/install).

Usage: ``.venv/bin/python scripts/compile.py [--clean | --interpreted REASON]``. mypyc reads the same typed Python
the interpreter runs (the code is ``mypy --strict`` clean) and writes one extension module
per source (``solver.cpython-311-x86_64-linux-gnu.so`` beside ``solver.py``) plus one shared
library at the root of ``src/`` (``<hash>__mypyc...so``). Python's importer prefers an
extension module to the ``.py`` of the same name, so the editable install, which points at
``src/``, loads the compiled ones; a copy of ``src/`` without the ``.so`` files runs plain
Python (tests/test_compiled.py does that to prove both give the same moves).

It never fails the install: on any problem (no C compiler, no Python headers, no mypyc, a
build error) it removes what it built, prints one line saying Couyon runs interpreted, and
exits 0. What happened is written to ``build/compiled.json`` (read by tests/test_compiled.py),
the compiler's output to ``build/compile.log``. ``--clean`` only removes the built modules;
``--interpreted REASON`` removes them and records that Couyon runs plain Python on purpose
(``COUYON_INTERPRETED=1 scripts/install`` does that).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "src"
BUILD = ROOT / "build"
STATUS = BUILD / "compiled.json"
LOG = BUILD / "compile.log"

# What pays (docs/performance.md has the profile): the inner loops of the bots' searches.
MODULES = (
    "couyon/common/cardsets.py",
    "couyon/games/couyon/bots/solver.py",
    "couyon/games/couyon/bots/knowledge.py",
    "couyon/games/malmedy/bots/solver.py",
    "couyon/games/malmedy/bots/knowledge.py",
    "couyon/games/tarot/bots/habits.py",
    "couyon/games/tarot/bots/playout.py",
    "couyon/games/tarot/bots/knowledge.py",
    "couyon/games/tarot/bots/worlds.py",
    # What the searches call around those loops (a third of a compiled couyon decision, a quarter of Malmedy's).
    "couyon/common/stream.py",
    "couyon/games/couyon/bots/expert.py",
    "couyon/games/couyon/bots/bidding.py",
    "couyon/games/couyon/bots/objective.py",
    "couyon/games/malmedy/bots/expert.py",
    "couyon/games/malmedy/bots/trump.py",
    "couyon/games/tarot/bots/race.py",
)


def module_name(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def source_digest(path: str) -> str:
    return hashlib.sha256((SOURCE / path).read_bytes()).hexdigest()


def built_files() -> list[Path]:
    """Every extension module this script may have written under src/ (including stale ones)."""
    return sorted(SOURCE.glob("*__mypyc*.so")) + sorted(SOURCE.glob("couyon/**/*.so"))


def clean() -> None:
    for path in built_files():
        path.unlink()


def write_status(status: dict[str, object]) -> None:
    BUILD.mkdir(exist_ok=True)
    STATUS.write_text(json.dumps(status, indent=2) + "\n")


def missing_tool() -> str | None:
    """Why no build can be tried here, or None."""
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]})"
    include = sysconfig.get_paths()["include"]
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers ({include}/Python.h)"
    for tool in ("mypyc", "setuptools"):
        if importlib.util.find_spec(tool) is None:
            return f"no {tool} in this Python"
    return None


BUILD_PROGRAM = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="couyon-compiled",
    packages=[],
    ext_modules=mypycify(sys.argv[1:], opt_level="3"),
    script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc-temp", "--build-lib", "build/mypyc-lib"],
)
"""


def build() -> str | None:
    """Build every module in place; the reason it failed, or None."""
    BUILD.mkdir(exist_ok=True)
    env = dict(os.environ, MYPYPATH=str(SOURCE))
    with LOG.open("w") as log:
        result = subprocess.run(
            [sys.executable, "-c", BUILD_PROGRAM, *(f"src/{path}" for path in MODULES)],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            check=False,
        )
    if result.returncode != 0:
        return f"the build failed (exit {result.returncode}, see {LOG.relative_to(ROOT)})"
    # The build writes the modules next to their sources: check each one loads as compiled code.
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    print(importlib.import_module(name).__file__)"
    loaded = subprocess.run(
        [sys.executable, "-c", probe, *(module_name(path) for path in MODULES)],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(SOURCE)),
        capture_output=True,
        text=True,
        check=False,
    )
    files = loaded.stdout.split()
    if loaded.returncode != 0 or len(files) != len(MODULES) or not all(name.endswith(".so") for name in files):
        with LOG.open("a") as log:
            log.write(loaded.stdout + loaded.stderr)
        return f"the built modules do not load (see {LOG.relative_to(ROOT)})"
    return None


def main(argv: list[str]) -> int:
    clean()
    if argv == ["--clean"]:
        STATUS.unlink(missing_ok=True)
        return 0
    if argv[:1] == ["--interpreted"]:
        asked = " ".join(argv[1:]) or "asked for plain Python"
        write_status({"compiled": False, "reason": asked})
        print(f"Couyon runs interpreted (plain Python, slower bots): {asked}.")
        return 0
    started = time.monotonic()
    try:
        reason = missing_tool() or build()
    except Exception as error:  # never fail the install: whatever went wrong, run interpreted
        reason = f"the build stopped ({type(error).__name__}: {error})"
    seconds = round(time.monotonic() - started, 1)
    if reason is not None:
        clean()
        write_status({"compiled": False, "reason": reason})
        print(f"Couyon runs interpreted (plain Python, slower bots): {reason}.")
        return 0
    write_status(
        {
            "compiled": True,
            "seconds": seconds,
            "modules": {module_name(path): source_digest(path) for path in MODULES},
        }
    )
    print(f"Compiled {len(MODULES)} bot modules with mypyc in {seconds:.0f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
