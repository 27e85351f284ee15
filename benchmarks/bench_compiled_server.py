"""One server process, and the verifying replay, compiled against interpreted, side by side in one run (not run by pytest).

Usage::

    .venv/bin/python benchmarks/bench_compiled_server.py saturation [--rounds R] [--seconds S] [--players P]
        [--think T] [--floor-ms MS] [--table GAME[:NAME=VALUE,...]] ...
    .venv/bin/python benchmarks/bench_compiled_server.py replay [--games N] [--rounds R] [--table ...] ...

Run it after ``scripts/install`` has compiled the bots (``build/compiled.json``). It copies ``src/`` without its
extension modules (that copy runs plain Python) and alternates the two sources in each round, so that both see
the same load:

- ``saturation`` runs ``benchmarks/bench_server.py`` (its own ``couyon serve`` on SQLite, P players) with
  ``PYTHONPATH`` set to the compiled ``src/`` and to the copy in turn, the side that goes first changing every
  round, and prints for each table and side the moves, moves per second of wall clock, the move p50 and p99, the
  server's CPU time per request and the moves per second of server CPU (what one process would serve with a core
  to itself, the figure that holds on a shared machine). The server holds each answer for its game's floor per
  bot decision (``server/pacing.py``): give ``--floor-ms 0`` to measure the process's own limit;
- ``replay`` plays N free games of each table in a child process (South's moves random, seeded; the table's bot
  at every other seat, through ``GameService``), then times the verifying replay of each finished game
  (``replay_check``, the verdict a ranked finish waits for: every bot move recomputed), and prints the median and the largest CPU time of a replay on
  each side, and a digest of the verdicts, the same on both sides.

A table is a game id of ``/api/catalog`` with its options: ``tarot4``, ``coucou:players=20``.

``saturation --against SRC`` (repeatable) compares this checkout's ``src/`` with other ``src/`` folders instead
(a copy of another commit's, e.g. ``git archive COMMIT src | tar -x -C FOLDER``, then ``scripts/compile.py``
there with ``PYTHONPATH=FOLDER/src``, or not for an interpreted one), each side named by its folder, every round
starting with the next side.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_compiled import plain_copy

ROOT = Path(__file__).resolve().parent.parent
TABLES = ("couyon", "malmedy", "tarot4", "tarot5", "coucou:players=20")
SATURATION_FIGURES = {
    "moves": r"moves (\d+)  games",
    "elapsed": r"elapsed ([\d.]+) s",
    "p50": r"p50 ([\d.]+)  p90",
    "p99": r"p99 ([\d.]+)  max",
    "cpu": r"server CPU ([\d.]+) s",
    "per_request": r"([\d.]+) ms per request",
    "load": r"load average now ([\d.]+)",
}


def table_parts(table: str) -> tuple[str, list[str]]:
    game, _, options = table.partition(":")
    return game, [option for option in options.split(",") if option]


def saturation_run(source: Path, table: str, args: argparse.Namespace) -> dict[str, float]:
    game, options = table_parts(table)
    command = [
        sys.executable,
        str(ROOT / "benchmarks" / "bench_server.py"),
        "--players",
        str(args.players),
        "--seconds",
        str(args.seconds),
        "--moves",
        "1000000",
        "--think",
        str(args.think),
        "--game",
        game,
        *(part for option in options for part in ("--option", option)),
    ]
    environment = dict(os.environ, PYTHONPATH=str(source), PYTHONDONTWRITEBYTECODE="1")
    if args.floor_ms is not None:
        environment["COUYON_ANSWER_FLOOR_MS"] = str(args.floor_ms)
    result = subprocess.run(
        command,
        env=environment,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    figures: dict[str, float] = {}
    for name, pattern in SATURATION_FIGURES.items():
        found = re.search(pattern, result.stdout)
        if found is None:
            raise SystemExit(f"bench_server.py printed no {name} for {table}:\n{result.stdout}{result.stderr[-2000:]}")
        figures[name] = float(found.group(1))
    return figures


def joined(runs: list[dict[str, float]], name: str, spec: str) -> str:
    return ", ".join(format(run[name], spec) for run in runs)


def saturation(sources: dict[str, Path], args: argparse.Namespace) -> None:
    sides = list(sources)
    first = sides[0]
    for table in args.table or TABLES:
        runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
        for round_number in range(args.rounds):
            # Each round starts with the next side (with two, the first goes first every other round).
            order = sides[round_number % len(sides) :] + sides[: round_number % len(sides)]
            for side in order:
                runs[side].append(saturation_run(sources[side], table, args))
        rates = {}
        for side, figures in runs.items():
            moves = sum(run["moves"] for run in figures)
            cpu = sum(run["cpu"] for run in figures)
            rates[side] = moves / cpu, moves / sum(run["elapsed"] for run in figures)
            print(
                f"{table:>18} {side:>11}: {len(figures)} runs, {moves:.0f} moves, {rates[side][1]:.1f} moves/s of "
                f"wall clock, p50 {statistics.median(run['p50'] for run in figures):.1f} ms, p99 "
                f"{joined(figures, 'p99', '.0f')} ms, CPU per request {joined(figures, 'per_request', '.2f')} ms, "
                f"{rates[side][0]:.1f} moves per CPU second; load averages {joined(figures, 'load', '.1f')}",
                flush=True,
            )
        for side in sides[1:]:
            print(
                f"{table:>18}: {first} / {side}, moves per CPU second x{rates[first][0] / rates[side][0]:.2f}, "
                f"moves per wall second x{rates[first][1] / rates[side][1]:.2f}",
                flush=True,
            )


def replay_child(table: str, games: int) -> None:
    """Play ``games`` free games of ``table``, then time each one's verifying replay; JSON on stdout."""
    import random

    from couyon.loadgen import table_options
    from couyon.server.games import GameService, replay_check
    from couyon.store import Store

    game_id, options = table_parts(table)
    parsed = table_options(options)
    assert not isinstance(parsed, str), parsed
    times, verdicts, moves_played = [], [], 0
    with tempfile.TemporaryDirectory(prefix="couyon-bench-") as folder:
        store = Store(f"sqlite:///{folder}/bench.db")
        store.migrate()
        seeds = iter(f"bench-replay-{table}-{number}" for number in range(games))
        service = GameService(store, b"bench" * 8, new_seed=lambda: next(seeds), replay=lambda game, moves: "off")
        for number in range(games):
            rng = random.Random(number)
            answer, _created = service.create("p_bench", "free", False, game_id, parsed)
            view = answer.to_json()["view"]
            while view["winner"] is None:
                answer = service.move("p_bench", answer.game.id, rng.choice(view["legal"]), view["move_number"])
                view = answer.to_json()["view"]
            loaded = store.game(answer.game.id)
            assert loaded is not None
            moves_played += len(loaded[1])
            started = time.process_time()
            verdict = replay_check(*loaded)
            times.append((time.process_time() - started) * 1000)
            verdicts.append(f"{verdict} {hashlib.sha256(chr(10).join(loaded[1]).encode()).hexdigest()}")
    solver = __import__("couyon.games.couyon.bots.solver", fromlist=["x"])
    print(json.dumps({"file": solver.__file__, "times": times, "verdicts": verdicts, "moves": moves_played}))


def replay(sources: dict[str, Path], args: argparse.Namespace) -> None:
    for table in args.table or TABLES:
        times: dict[str, list[float]] = {"compiled": [], "interpreted": []}
        verdicts: dict[str, list[str]] = {"compiled": [], "interpreted": []}
        moves = 0
        per_round = max(1, args.games // args.rounds)
        for round_number in range(args.rounds):
            order = ("compiled", "interpreted") if round_number % 2 == 0 else ("interpreted", "compiled")
            for side in order:
                result = subprocess.run(
                    [sys.executable, __file__, "--replay-child", table, str(per_round)],
                    env=dict(os.environ, PYTHONPATH=str(sources[side]), PYTHONDONTWRITEBYTECODE="1"),
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    check=True,
                )
                answer = json.loads(result.stdout)
                if answer["file"].endswith(".py") == (side == "compiled"):
                    raise SystemExit(f"the {side} side loaded {answer['file']}: run scripts/install first")
                times[side].extend(answer["times"])
                verdicts[side].extend(answer["verdicts"])
                moves += answer["moves"] if side == "compiled" else 0
        same = "the same games" if verdicts["compiled"] == verdicts["interpreted"] else "DIFFERENT games"
        medians = {side: statistics.median(values) for side, values in times.items()}
        print(
            f"{table:>18}: {len(times['compiled'])} games ({moves / len(times['compiled']):.0f} moves each), {same}; "
            + "; ".join(
                f"{side} median {medians[side]:.0f} ms, max {max(values):.0f} ms" for side, values in times.items()
            )
            + f"; x{medians['interpreted'] / medians['compiled']:.2f}; load average {os.getloadavg()[0]:.1f}",
            flush=True,
        )


def main(argv: list[str]) -> int:
    if argv[:1] == ["--replay-child"]:
        replay_child(argv[1], int(argv[2]))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("saturation", "replay"))
    parser.add_argument("--table", action="append", help="GAME[:NAME=VALUE,...]; every game when none is named")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=30, help="saturation: each run's length")
    parser.add_argument("--players", type=int, default=8, help="saturation: concurrent players")
    parser.add_argument("--think", type=float, default=0.0, help="saturation: mean think time between moves, s")
    parser.add_argument(
        "--floor-ms",
        type=int,
        help="saturation: the server's answer floor per bot decision (COUYON_ANSWER_FLOOR_MS; 0 for none: then "
        "the process's own speed bounds the moves; default: each game's own floor, what players wait)",
    )
    parser.add_argument("--games", type=int, default=8, help="replay: games of each table per side")
    parser.add_argument(
        "--against",
        type=Path,
        action="append",
        metavar="SRC",
        help="saturation: compare this checkout's src/ ('this') with another src/ folder (named by its parent "
        "folder; e.g. a copy of another commit's, compiled or not) instead of with the copy without extension "
        "modules; repeatable",
    )
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs", flush=True)
    if args.against is not None:
        if args.mode != "saturation":
            parser.error("--against is for saturation")
        saturation({"this": ROOT / "src"} | {path.resolve().parent.name: path.resolve() for path in args.against}, args)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        sources = {"compiled": ROOT / "src", "interpreted": plain_copy(Path(folder))}
        (saturation if args.mode == "saturation" else replay)(sources, args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
