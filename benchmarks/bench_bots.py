"""Decision time of each bot in plain CPython, overall and by kind of decision (not run by pytest).

Usage: ``python benchmarks/bench_bots.py [GAMES] [--game couyon|malmedy]``. Plays GAMES
games (default 40) of expert against baseline in one process and prints, per bot and
per kind of decision, the count, median, p99 and maximum in ms, both in wall-clock time
(what a player waits, inflated when other processes share the cores) and in this
process's CPU time (what the bot itself costs). The kinds are bid, forced card and
searched card for the common game; for ``--game malmedy`` (its own expert and
baseline) trump, answer (contra, recontra or pass), forced, and searched by trick
(``searched-1`` … ``searched-4``, a mite decision counted with its trick).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict

from couyon.games.couyon.arena import ARENA_BOTS
from couyon.games.couyon.bots import bot_rng
from couyon.games.couyon.game import new_game, play
from couyon.games.couyon.rules import STANDARD
from couyon.games.couyon.view import view
from couyon.games.malmedy.arena import MALMEDY_ARENA_BOTS
from couyon.games.malmedy.game import MALMEDY, MalmedyView


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[max(0, min(len(ordered) - 1, int(fraction * len(ordered) + 0.999999) - 1))]


def kind_of(seat_view: object) -> str:
    """The kind of decision a view asks for."""
    if isinstance(seat_view, MalmedyView):
        if seat_view.trump is None:
            return "trump"
        if seat_view.asking is not None:
            return "answer"
        if len(seat_view.legal_moves) == 1:
            return "forced"
        return f"searched-{len(seat_view.tricks) + 1}"
    trump = getattr(seat_view, "trump", None)
    return "bid" if trump is None else "forced" if len(getattr(seat_view, "legal_moves", ())) == 1 else "searched"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=40)
    parser.add_argument("--game", choices=("couyon", "malmedy"), default="couyon")
    args = parser.parse_args(argv)
    factories = ARENA_BOTS if args.game == "couyon" else MALMEDY_ARENA_BOTS
    variant = STANDARD if args.game == "couyon" else MALMEDY
    prefix = "bench" if args.game == "couyon" else "bench-malmedy"
    timings: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu_timings: dict[tuple[str, str], list[float]] = defaultdict(list)
    for number in range(args.games):
        names = ("expert", "baseline") if number % 2 == 0 else ("baseline", "expert")
        bots = [factories[name]() for name in names]
        state = new_game(f"{prefix}:{number}", variant)
        while state.winner is None:
            seat = state.to_move
            assert seat is not None
            seat_view = view(state, seat)
            rng = bot_rng(state.seed, seat, state.move_count)
            kind = kind_of(seat_view)
            started, cpu_started = time.perf_counter(), time.process_time()
            move = bots[seat % 2].choose(seat_view, rng)  # type: ignore[union-attr]
            elapsed = (time.perf_counter() - started) * 1000.0
            cpu_elapsed = (time.process_time() - cpu_started) * 1000.0
            for key in ((names[seat % 2], kind), (names[seat % 2], "all")):
                timings[key].append(elapsed)
                cpu_timings[key].append(cpu_elapsed)
            state = play(state, move)
    for clock, table in (("wall", timings), ("cpu", cpu_timings)):
        for (name, kind), values in sorted(table.items()):
            ordered = sorted(values)
            print(
                f"{clock:>4} {name:>9} {kind:>11}: {len(ordered):6d} decisions  median {percentile(ordered, 0.5):7.3f} ms"
                f"  p99 {percentile(ordered, 0.99):7.3f} ms  max {ordered[-1]:7.3f} ms"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
