"""The compiled bot modules (scripts/compile.py, run by scripts/install): loaded when built, and playing exactly
as the plain Python they are compiled from.

``build/compiled.json`` says what the install did. When it compiled, these tests check that every listed module
is the extension module built from today's source, that bots of every compiled game make the same moves
compiled and interpreted over thousands of decisions, and they run a subset of the engine and bot tests once
more interpreted. The interpreted side is a copy of ``src/`` without the ``.so`` files, run in a subprocess
with that copy first on ``PYTHONPATH``: the importer finds only ``.py`` files there, whatever is installed.
When the install ran interpreted (no C compiler, no headers, a failed build), the whole suite already runs the
plain Python and these tests skip with the reason the install printed.

Run as a script (``python tests/test_compiled.py GAME COUNT``) it prints the moves of the determinism games as
JSON: that is what the interpreted subprocess runs.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATUS = ROOT / "build" / "compiled.json"


def compiled_status() -> dict[str, Any] | None:
    """What scripts/install's compile step wrote, or None when it did not run in this checkout."""
    try:
        status: dict[str, Any] = json.loads(STATUS.read_text())
    except FileNotFoundError:
        return None
    return status


# The games of the determinism check: each one's bots that call the compiled modules, at every seat kind.


def couyon_moves(games: int, variant_name: str = "standard") -> list[list[str]]:
    """Every move of ``games`` games of expert against baseline (couyon, or Malmedy with its own bots)."""
    from couyon.games.couyon.arena import ARENA_BOTS
    from couyon.games.couyon.bots import bot_rng
    from couyon.games.couyon.game import new_game, play
    from couyon.games.couyon.rules import STANDARD
    from couyon.games.couyon.view import view
    from couyon.games.malmedy.arena import MALMEDY_ARENA_BOTS
    from couyon.games.malmedy.game import MALMEDY

    factories: Any = ARENA_BOTS if variant_name == "standard" else MALMEDY_ARENA_BOTS
    variant = STANDARD if variant_name == "standard" else MALMEDY
    played = []
    for number in range(games):
        names = ("expert", "baseline") if number % 2 == 0 else ("baseline", "expert")
        bots = [factories[name]() for name in names]
        state = new_game(f"compiled-{variant_name}:{number}", variant)
        moves = []
        while state.winner is None:
            seat = state.to_move
            assert seat is not None
            move = bots[seat % 2].choose(view(state, seat), bot_rng(state.seed, seat, state.move_count))
            moves.append(str(move))
            state = play(state, move)
        played.append(moves)
    return played


def malmedy_moves(games: int) -> list[list[str]]:
    return couyon_moves(games, "malmedy")


def tarot_moves(games: int) -> list[list[str]]:
    """Every move of ``games`` whole tarot games (3, 4 and 5 players in turn), the table's expert and the baseline."""
    from couyon.games.tarot.bots import bot_rng
    from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
    from couyon.games.tarot.cards import SEATS_OF
    from couyon.games.tarot.game import is_over, new_game, play, to_move
    from couyon.games.tarot.view import view

    expert, baseline = TAROT_BOTS_BY_ID[TAROT_TABLE_BOT_ID], TAROT_BOTS_BY_ID["baseline/1"]
    played = []
    for number in range(games):
        players = (3, 4, 5)[number % 3]
        state = new_game(f"compiled-tarot:{number}", players)
        seats = SEATS_OF[players]
        moves = []
        while not is_over(state):
            seat = to_move(state)
            assert seat is not None
            bot = expert if (seats.index(seat) + number) % 2 == 0 else baseline
            move = bot.choose(view(state, seat), bot_rng(state.seed, seat, state.move_count))
            moves.append(str(move))
            state = play(state, move)
        played.append(moves)
    return played


GAMES: dict[str, tuple[Callable[[int], list[list[str]]], int]] = {
    "couyon": (couyon_moves, 16),
    "malmedy": (malmedy_moves, 8),
    "tarot": (tarot_moves, 6),
}
"""Each game's moves and how many games: each gives over 1,500 bot decisions (see the test's assertion)."""


if __name__ == "__main__":
    play_game, _ = GAMES[sys.argv[1]]
    print(json.dumps(play_game(int(sys.argv[2]))))
    sys.exit(0)


STATUS_NOW = compiled_status()
needs_compiled = pytest.mark.skipif(
    STATUS_NOW is None or not STATUS_NOW.get("compiled"),
    reason=(
        "scripts/install has not run its compile step in this checkout (no build/compiled.json)"
        if STATUS_NOW is None
        else f"the install ran interpreted: {STATUS_NOW.get('reason')}"
    ),
)

INTERPRETED_TESTS = (
    "tests/common/test_stream.py",
    "tests/games/couyon/test_solver.py",
    "tests/games/couyon/test_sampling.py",
    "tests/games/couyon/test_bots.py",
    "tests/games/malmedy/test_bots.py",
    "tests/games/tarot/test_bots.py",
)
INTERPRETED_LEFT_OUT = (
    "not fast_bots_never_make_an_illegal_move and not the_same_seed_gives_the_same_moves"
    " and not expert_and_omniscient_play_deals_legally"
)
"""The engine and bot tests run once more interpreted: those of the compiled modules (the solvers against brute
force, the samplers against the rules, the bots that call them, the pinned moves of whole games each released
version played; the seeded stream's contract). Left out, to keep CI's budget (docs/performance.md): the thousands of random and baseline games
(they exercise the engines' folds, which are not compiled, and take 40 s interpreted), tarot's same seed twice
(the determinism test above plays the same seeds compiled and interpreted, a stronger check) and tarot's whole
deals of the expert and the yardstick (15 s interpreted; the determinism test plays the expert's whole games)."""


@pytest.fixture(scope="module")
def interpreted_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of src/ without any extension module: Python run on it imports only the .py files."""
    copy = tmp_path_factory.mktemp("interpreted") / "src"
    shutil.copytree(ROOT / "src", copy, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    return copy


def interpreted_env(source: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1")


def module_files(env: dict[str, str] | None, names: list[str]) -> list[str]:
    probe = "import importlib, sys\nfor name in sys.argv[1:]:\n    print(importlib.import_module(name).__file__)"
    result = subprocess.run(
        [sys.executable, "-c", probe, *names], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    return result.stdout.split()


@needs_compiled
def test_the_compiled_modules_are_loaded_and_built_from_todays_source() -> None:
    assert STATUS_NOW is not None
    modules: dict[str, str] = STATUS_NOW["modules"]
    assert modules, "the install compiled nothing"
    for name, digest in modules.items():
        module = importlib.import_module(name)
        assert module.__file__ is not None
        assert module.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), (
            f"{name} is loaded from {module.__file__}, not from its compiled module"
        )
        source = Path(module.__file__).with_name(name.rsplit(".", 1)[1] + ".py")
        assert hashlib.sha256(source.read_bytes()).hexdigest() == digest, (
            f"{source} changed since it was compiled: run scripts/install again (its compiled module is stale)"
        )


@needs_compiled
def test_the_copy_without_extension_modules_runs_plain_python(interpreted_source: Path) -> None:
    assert STATUS_NOW is not None
    names = list(STATUS_NOW["modules"])
    files = module_files(interpreted_env(interpreted_source), names)
    assert files == [str(interpreted_source / (name.replace(".", "/") + ".py")) for name in names]


@needs_compiled
@pytest.mark.parametrize("game", sorted(GAMES))
def test_compiled_and_interpreted_bots_make_the_same_moves(game: str, interpreted_source: Path) -> None:
    play_game, count = GAMES[game]
    # The interpreted games play in a subprocess while this process plays the compiled ones (two cores).
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__)), game, str(count)],
        env=interpreted_env(interpreted_source),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    compiled = play_game(count)
    stdout, stderr = process.communicate()
    assert process.returncode == 0, stderr
    interpreted = json.loads(stdout)
    decisions = sum(len(moves) for moves in compiled)
    assert decisions >= 1500, f"only {decisions} bot decisions in the {game} games"
    for number, (ours, theirs) in enumerate(zip(compiled, interpreted, strict=True)):
        assert ours == theirs, f"{game} game {number}: compiled and interpreted bots differ"


@needs_compiled
def test_the_engine_and_bot_tests_pass_interpreted(interpreted_source: Path) -> None:
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-k", INTERPRETED_LEFT_OUT]
    command += INTERPRETED_TESTS
    result = subprocess.run(
        command, env=interpreted_env(interpreted_source), cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
