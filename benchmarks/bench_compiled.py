"""CPU per bot decision, compiled against interpreted, side by side in one run (not run by pytest).

Usage: ``.venv/bin/python benchmarks/bench_compiled.py [--games N] [--rounds R] [--game couyon|malmedy|tarot]``.
Run it after ``scripts/install`` has compiled the bots (``build/compiled.json``). It copies ``src/``
without its extension modules (that copy runs plain Python), then plays the same games in child
processes, alternating compiled and interpreted in R rounds of N/R games each so that both sides
see the same load, and prints, for each game's table expert, the median and p99 CPU time per
decision (every decision, then the searched ones: more than one legal move, not a bid) on each side
and their ratio. Couyon and Malmedy: expert against baseline as ``benchmarks/bench_bots.py`` plays;
tarot: the table's expert in every other seat of whole games at 3, 4 and 5 players in turn.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))]


def couyon_times(first: int, count: int, variant_name: str, moves: list[str] | None = None) -> list[tuple[float, bool]]:
    """(CPU ms, searched) of each expert decision in games first … first + count − 1; every move into ``moves``."""
    from couyon.games.couyon.arena import ARENA_BOTS
    from couyon.games.couyon.bots import bot_rng
    from couyon.games.couyon.game import new_game, play
    from couyon.games.couyon.rules import STANDARD
    from couyon.games.couyon.view import view
    from couyon.games.malmedy.arena import MALMEDY_ARENA_BOTS
    from couyon.games.malmedy.game import MALMEDY

    factories: dict[str, object] = ARENA_BOTS if variant_name == "couyon" else MALMEDY_ARENA_BOTS  # type: ignore[assignment]
    variant = STANDARD if variant_name == "couyon" else MALMEDY
    times = []
    for number in range(first, first + count):
        names = ("expert", "baseline") if number % 2 == 0 else ("baseline", "expert")
        bots = [factories[name]() for name in names]  # type: ignore[operator]
        state = new_game(f"bench-compiled-{variant_name}:{number}", variant)
        while state.winner is None:
            seat = state.to_move
            assert seat is not None
            seat_view = view(state, seat)
            rng = bot_rng(state.seed, seat, state.move_count)
            started = time.process_time()
            move = bots[seat % 2].choose(seat_view, rng)
            elapsed = (time.process_time() - started) * 1000.0
            if names[seat % 2] == "expert":
                searched = seat_view.trump is not None and len(seat_view.legal_moves) > 1
                if variant_name == "malmedy":
                    searched = searched and seat_view.asking is None
                times.append((elapsed, searched))
            if moves is not None:
                moves.append(repr(move))
            state = play(state, move)
    return times


def tarot_times(first: int, count: int) -> list[tuple[float, bool]]:
    from couyon.games.tarot.bots import bot_rng
    from couyon.games.tarot.bots.registry import TAROT_BOTS_BY_ID, TAROT_TABLE_BOT_ID
    from couyon.games.tarot.cards import SEATS_OF
    from couyon.games.tarot.game import Phase, is_over, new_game, play, to_move
    from couyon.games.tarot.view import view

    expert, baseline = TAROT_BOTS_BY_ID[TAROT_TABLE_BOT_ID], TAROT_BOTS_BY_ID["baseline/1"]
    times = []
    for number in range(first, first + count):
        players = (3, 4, 5)[number % 3]
        state = new_game(f"bench-compiled-tarot:{number}", players)
        seats = SEATS_OF[players]
        while not is_over(state):
            seat = to_move(state)
            assert seat is not None
            mine = (seats.index(seat) + number) % 2 == 0
            seat_view = view(state, seat)
            rng = bot_rng(state.seed, seat, state.move_count)
            started = time.process_time()
            move = (expert if mine else baseline).choose(seat_view, rng)
            elapsed = (time.process_time() - started) * 1000.0
            if mine:
                times.append((elapsed, seat_view.phase is Phase.PLAYING and len(seat_view.legal_moves) > 1))
            state = play(state, move)
    return times


def child(game: str, first: int, count: int) -> None:
    times = tarot_times(first, count) if game == "tarot" else couyon_times(first, count, game)
    solver = __import__("couyon.games.couyon.bots.solver", fromlist=["x"])
    print(json.dumps({"file": solver.__file__, "times": times}))


def run_child(source: Path, game: str, first: int, count: int) -> tuple[str, list[tuple[float, bool]]]:
    env = dict(os.environ, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1")
    result = subprocess.run(
        [sys.executable, __file__, "--child", game, str(first), str(count)],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(result.stdout)
    return answer["file"], [(float(ms), bool(searched)) for ms, searched in answer["times"]]


def plain_copy(folder: Path) -> Path:
    """A copy of ``src/`` without its extension modules, in ``folder``: on ``PYTHONPATH`` it runs plain Python."""
    plain = folder / "src"
    shutil.copytree(ROOT / "src", plain, ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    return plain


def summary(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return percentile(ordered, 0.5), percentile(ordered, 0.99)


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        child(argv[1], int(argv[2]), int(argv[3]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", choices=("couyon", "malmedy", "tarot"), action="append")
    args = parser.parse_args(argv)
    games = args.game or ["couyon", "malmedy", "tarot"]
    with tempfile.TemporaryDirectory() as folder:
        plain = plain_copy(Path(folder))
        for game in games:
            sides: dict[str, list[tuple[float, bool]]] = {"compiled": [], "interpreted": []}
            per_round = max(1, args.games // args.rounds)
            for round_number in range(args.rounds):
                first = round_number * per_round
                for side, source in (("compiled", ROOT / "src"), ("interpreted", plain)):
                    loaded, times = run_child(source, game, first, per_round)
                    expected_compiled = side == "compiled"
                    if loaded.endswith(".py") == expected_compiled:
                        print(f"{side} side loaded {loaded}: run scripts/install first", file=sys.stderr)
                        return 1
                    sides[side].extend(times)
            for subset, keep in (("all", lambda searched: True), ("searched", lambda searched: searched)):
                line = [f"{game:>8} {subset:>8}:"]
                medians = {}
                p99s = {}
                for side, times in sides.items():
                    values = [ms for ms, searched in times if keep(searched)]
                    medians[side], p99s[side] = summary(values)
                    line.append(
                        f"{side} {len(values):5d} decisions median {medians[side]:7.3f} p99 {p99s[side]:7.3f} ms"
                    )
                ratio_median = medians["interpreted"] / medians["compiled"] if medians["compiled"] else float("nan")
                ratio_p99 = p99s["interpreted"] / p99s["compiled"] if p99s["compiled"] else float("nan")
                line.append(f"speed-up median x{ratio_median:.2f} p99 x{ratio_p99:.2f}")
                print("  ".join(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
