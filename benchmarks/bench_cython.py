"""mypyc against Cython's pure-Python mode on one solver, side by side in one run (not run by pytest).

Usage: ``.venv/bin/python benchmarks/bench_cython.py [--games N] [--rounds R] [--callgrind]``. It needs Cython
(``.venv/bin/python -m pip install cython``: not a dependency of the project) and a C compiler. In a temporary
folder it makes four copies of ``src/`` without extension modules and builds couyon's solver
(``games/couyon/bots/solver.py``, nothing else) in each a different way:

- ``interpreted``: nothing built, plain Python;
- ``mypyc``: the solver compiled by mypyc from the unchanged source (what ``scripts/compile.py`` does);
- ``cython``: the solver compiled by Cython from the unchanged source (its ``int`` annotations are Python ints);
- ``cython-typed``: Cython with C types for the search, given by an augmenting ``solver.pxd`` (Cython's pure-Python
  mode: the ``.py`` keeps running interpreted), the source unchanged too (it once needed a starred call into the
  search spelt out, which Cython refuses for a C function; the search takes none since its hands are ints).

Then it plays the same couyon games (expert against baseline, as ``benchmarks/bench_compiled.py``) in child
processes, R rounds of N/R games, the four variants in turn in each round so that all see the same load, and prints
each variant's CPU time per expert decision (median and p99 of every decision, then of the searched cards), the
ratio to the interpreted side, and a digest of every move played: the four must play the same moves. With
``--callgrind`` it also counts the instructions of ``benchmarks/fixed_workload.py couyon`` (200 first-trick solves,
nothing but the solver) with valgrind for each variant: the count with two runs minus the count with one.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_compiled import couyon_times, plain_copy, summary

ROOT = Path(__file__).resolve().parent.parent
SOLVER = "couyon/games/couyon/bots/solver.py"
VARIANTS = ("interpreted", "mypyc", "cython", "cython-typed")

TYPED_DECLARATIONS = """\
# Cython's augmenting declarations for solver.py: C types for the search, the .py unchanged.
cimport cython

cdef int RANKS_PER_SUIT
cdef tuple SUIT_MASKS, ABOVE_MASKS, CARD_POINTS, _SUIT_OF, _POINTS_OF_CHUNK
cdef int _INFINITY
cdef long _SUIT_CHUNK

@cython.locals(left=long, at_stake=int, key=long, lower=int, upper=int, value=int)
cdef int _trick_start(long h0, long h1, long h2, long h3, int trump, int leader, int alpha, int beta, dict table)

@cython.locals(winner=int)
cdef int _next_trick(long h0, long h1, long h2, long h3, int trump, int leader, int offset, int alpha, int beta,
                     dict table)

@cython.locals(winner=int, best=int, points=int, card=int)
cdef int _last_trick(long h0, long h1, long h2, long h3, int trump, int leader)

@cython.locals(offset=int, gained=int, seat=int, legal=long, led_suit=int, following=long, trumps=long,
               maximizing=bint, best=int, remaining=long, card=int, bit=long, suit=int, new_high_led=int,
               new_high_led_position=int, new_high_trump=int, new_high_trump_position=int, value=int)
cdef int _play(long hand, long h1, long h2, long h3, int trump, int leader, int position, int high_led,
               int high_led_position, int high_trump, int high_trump_position, int points, int alpha, int beta,
               dict table)
"""

MYPYC_PROGRAM = """
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(name="bench-mypyc", packages=[], ext_modules=mypycify([sys.argv[1]], opt_level="3"),
      script_args=["build_ext", "--inplace", "--build-temp", "../build-temp", "--build-lib", "../build-lib"])
"""

CYTHON_PROGRAM = """
import os
import sys
from Cython.Build import cythonize
from setuptools import Extension, setup

extension = Extension(sys.argv[1].removesuffix(".py").replace("/", "."), [sys.argv[1]], extra_compile_args=["-O3"])
directives = {"language_level": 3, "annotation_typing": sys.argv[2] == "annotations"}
setup(name="bench-cython", ext_modules=cythonize([extension], compiler_directives=directives, build_dir=os.path.abspath("../cython-c")),
      script_args=["build_ext", "--inplace", "--build-temp", os.path.abspath("../build-temp")])
"""


def build(variant: str, source: Path) -> float:
    """Build the solver of this copy of src/ the variant's way; the build's wall-clock seconds."""
    started = time.monotonic()
    if variant == "mypyc":
        program = [MYPYC_PROGRAM, SOLVER]
    elif variant == "cython":
        program = [CYTHON_PROGRAM, SOLVER, "annotations"]
    elif variant == "cython-typed":
        (source / SOLVER).with_suffix(".pxd").write_text(TYPED_DECLARATIONS)
        program = [CYTHON_PROGRAM, SOLVER, "declarations"]
    else:
        return 0.0
    result = subprocess.run(
        [sys.executable, "-c", *program],
        cwd=source,
        env=dict(os.environ, MYPYPATH=str(source)),
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"the {variant} build failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return time.monotonic() - started


def child(first: int, count: int) -> None:
    moves: list[str] = []
    times = couyon_times(first, count, "couyon", moves)
    solver = __import__("couyon.games.couyon.bots.solver", fromlist=["x"])
    print(json.dumps({"file": solver.__file__, "times": times, "moves": moves}))


def run_child(source: Path, first: int, count: int) -> tuple[str, list[tuple[float, bool]], list[str]]:
    result = subprocess.run(
        [sys.executable, __file__, "--child", str(first), str(count)],
        env=dict(os.environ, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(result.stdout)
    return answer["file"], [(float(ms), bool(searched)) for ms, searched in answer["times"]], answer["moves"]


def instructions(source: Path, repeat: int) -> tuple[int, str]:
    """valgrind's count of instructions of the fixed couyon workload run ``repeat`` times, and its answers."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            str(ROOT / "benchmarks" / "fixed_workload.py"),
            "couyon",
            str(repeat),
        ],
        env=dict(os.environ, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    collected = re.search(r"Collected : (\d+)", result.stderr)
    if collected is None:
        raise SystemExit(f"valgrind printed no count:\n{result.stderr[-2000:]}")
    return int(collected.group(1)), result.stdout.split("answers ")[-1].strip()


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(int(argv[1]), int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--callgrind", action="store_true", help="also count instructions with valgrind")
    args = parser.parse_args(argv)
    try:
        import Cython
    except ImportError:
        print("Cython is not installed here: .venv/bin/python -m pip install cython", file=sys.stderr)
        return 1
    print(f"Cython {Cython.__version__}, load average {os.getloadavg()[0]:.1f}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        sources = {}
        for variant in VARIANTS:
            sources[variant] = plain_copy(Path(folder) / variant)
            seconds = build(variant, sources[variant])
            print(f"{variant:>12}: built in {seconds:.1f} s of wall clock", flush=True)
        sides: dict[str, list[tuple[float, bool]]] = {variant: [] for variant in VARIANTS}
        played: dict[str, list[str]] = {variant: [] for variant in VARIANTS}
        per_round = max(1, args.games // args.rounds)
        for round_number in range(args.rounds):
            for variant in VARIANTS:
                loaded, times, moves = run_child(sources[variant], round_number * per_round, per_round)
                if loaded.endswith(".py") != (variant == "interpreted"):
                    print(f"the {variant} side loaded {loaded}", file=sys.stderr)
                    return 1
                sides[variant].extend(times)
                played[variant].extend(moves)
        print(f"load average after the games {os.getloadavg()[0]:.1f}")
        medians: dict[tuple[str, str], float] = {}
        for variant in VARIANTS:
            digest = hashlib.sha256("\n".join(played[variant]).encode()).hexdigest()[:16]
            line = [f"{variant:>12}: moves {len(played[variant])} digest {digest}"]
            for subset in ("all", "searched"):
                values = [ms for ms, searched in sides[variant] if searched or subset == "all"]
                median, p99 = summary(values)
                medians[variant, subset] = median
                speed_up = medians["interpreted", subset] / median if median else float("nan")
                line.append(f"{subset} {len(values)}: median {median:.3f} p99 {p99:.3f} ms (x{speed_up:.2f})")
            print("  ".join(line), flush=True)
        if args.callgrind:
            for variant in VARIANTS:
                once, answers_once = instructions(sources[variant], 1)
                twice, answers_twice = instructions(sources[variant], 2)
                print(
                    f"{variant:>12}: fixed workload {(twice - once) / 1e6:.1f} M instructions "
                    f"(answers {answers_once}, {answers_twice})",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
