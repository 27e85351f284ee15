"""The long coucou request, in-process: seat 1 goes out and the server plays the table to its end.

Plays ``--games`` free games of ``--players`` seats through ``GameService`` on a temporary SQLite
database, seat 1 always changing, and measures each request's thread CPU time and wall time, with
the answer's JSON as the app writes it (no HTTP, no gzip). The final request of a game (the one
that ends it; seat 1 out, or seat 1's last move when it wins) is reported apart from the others;
so is the verifying replay of each finished game (``verified_replay``, which recomputes every bot
move), run here in the same thread. Thread CPU time is what the request itself cost, whatever the
load of the machine; wall time also counts the time the thread waited for a core.

    .venv/bin/python benchmarks/bench_coucou_final.py --players 20 --games 40
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from couyon.server.app import _json
from couyon.server.games import GameService, verified_replay
from couyon.store import Store


def summary(name: str, values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    return f"{name}: n {len(values)}  p50 {statistics.median(values):.2f}  p90 {p90:.2f}  max {ordered[-1]:.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=20, help="seats at the table (default 20)")
    parser.add_argument("--games", type=int, default=40, help="games played (default 40)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="couyon-bench-") as folder:
        store = Store(f"sqlite:///{folder}/bench.db")
        store.migrate()
        seeds = iter(f"bench-final-{number}" for number in range(args.games))
        service = GameService(store, b"bench" * 8, new_seed=lambda: next(seeds), replay=lambda game, moves: "off")
        cpu: dict[str, list[float]] = {"final": [], "other": [], "replay": []}
        wall: dict[str, list[float]] = {"final": [], "other": [], "replay": []}
        moves_after: list[int] = []
        for _ in range(args.games):
            answer, _created = service.create("p_bench", "free", False, "coucou", {"players": args.players})
            while answer.state.winner is None:
                before = answer.state.move_count
                started_cpu, started = time.thread_time(), time.perf_counter()
                answer = service.move("p_bench", answer.game.id, "change", before)
                _json(answer.to_json())
                kind = "final" if answer.state.winner is not None else "other"
                cpu[kind].append((time.thread_time() - started_cpu) * 1000)
                wall[kind].append((time.perf_counter() - started) * 1000)
                if kind == "final":
                    moves_after.append(answer.state.move_count - before - 1)
            loaded = store.game(answer.game.id)
            assert loaded is not None
            started_cpu, started = time.thread_time(), time.perf_counter()
            verified_replay(*loaded)
            cpu["replay"].append((time.thread_time() - started_cpu) * 1000)
            wall["replay"].append((time.perf_counter() - started) * 1000)
    print(
        f"coucou, {args.players} seats, {args.games} games, seat 1 always changes; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; bot moves in the final request: median "
        f"{statistics.median(moves_after):.0f}, max {max(moves_after)}"
    )
    for kind, name in (("final", "final request"), ("other", "other requests"), ("replay", "verifying replay")):
        print(summary(f"{name} CPU", cpu[kind]))
        print(summary(f"{name} wall", wall[kind]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
