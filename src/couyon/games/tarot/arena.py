"""Duplicate deals between two tarot bots, to measure strength and speed (``couyon arena --game tarot``).

Deal ``i`` of a run is the first deal of the game ``"<seed>:<i>"`` at n players (3, 4 or
5): its cards and dealer depend only on that seed. It is played n times, bot A holding
seat j at table j and bot B every other seat. A's result on the deal is its mean score
over the n seats minus B's mean score in the same seats on the same deal (B's score in
seat j is its mean over the n − 1 tables where it held j):

    d = (1/n) Σ_j s_j(j) − (1/n) Σ_j mean_{k≠j} s_k(j)

where s_k(j) is seat j's score at table k. The seat's luck (its cards, its place after
the dealer) cancels in the difference. Each deal's scores sum to zero, so d is also
Σ_j s_j(j) / (n − 1): A's total over its n seats, shared among the others. A deal passed
out by everyone scores 0 at that table. Deals are independent, so the 95% interval is
the mean ± 1.96 standard errors of the per-deal results. Decision times are measured in
wall-clock time (what a player waits, inflated when other processes share the cores)
and in the deciding thread's CPU time (what the bot itself costs).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Callable, Generator, Sequence
from typing import Any, NamedTuple

from couyon.games.tarot.bots import TarotBot, bot_rng
from couyon.games.tarot.bots.registry import TAROT_ARENA_BOTS, TAROT_BOTS_BY_ID, OmniscientPlayer, Player
from couyon.games.tarot.cards import PLAYER_COUNTS, SEATS_OF
from couyon.games.tarot.game import GameState, Move, is_over, new_game, play, to_move
from couyon.games.tarot.view import view


def arena_bot(name: str) -> Player:
    """The tarot bot called ``name``: an arena name (the current version) or a registry id ``name/version``."""
    factory: Callable[[], Player] | None = TAROT_ARENA_BOTS.get(name)
    if factory is not None:
        return factory()
    found = TAROT_BOTS_BY_ID.get(name)
    if found is None:
        raise ValueError(f"unknown bot {name!r}; the tarot arena knows {', '.join(known_bots())}")
    return found


def known_bots() -> list[str]:
    return [*TAROT_ARENA_BOTS, *sorted(TAROT_BOTS_BY_ID)]


def decide(bot: Player, state: GameState) -> Move:
    """The bot's move for the seat to move: from its view, or from the state for the omniscient yardstick."""
    seat = to_move(state)
    assert seat is not None
    rng = bot_rng(state.seed, seat, state.move_count)
    if isinstance(bot, OmniscientPlayer):
        return bot.choose_with_state(state, rng)
    player: TarotBot = bot
    return player.choose(view(state, seat), rng)


class TableResult(NamedTuple):
    """One table of a deal: each seat's score, the taker (seat index or None) and whether the contract was made."""

    scores: tuple[int, ...]
    taker: int | None
    made: bool | None
    times: tuple[tuple[float, float, int], ...]
    """(wall ms, CPU ms, seat index) of each decision."""


def play_table(seed: str, players: int, bots: Sequence[Player]) -> TableResult:
    """Play the first deal of the game ``seed`` with ``bots[j]`` at seat j; the scores and decision times."""
    state = new_game(seed, players)
    seats = SEATS_OF[players]
    finished = len(state.finished_deals)
    times: list[tuple[float, float, int]] = []
    while len(state.finished_deals) == finished and not is_over(state):
        seat = to_move(state)
        assert seat is not None
        index = seats.index(seat)
        started, cpu_started = time.perf_counter(), time.thread_time()
        move = decide(bots[index], state)
        times.append(((time.perf_counter() - started) * 1000.0, (time.thread_time() - cpu_started) * 1000.0, index))
        state = play(state, move)
    summary = state.finished_deals[finished]
    if summary.result is None:
        return TableResult((0,) * players, None, None, tuple(times))
    assert summary.taker is not None
    return TableResult(summary.result.scores, seats.index(summary.taker), summary.result.marque.made, tuple(times))


class DuplicateResult(NamedTuple):
    """One deal played at its n tables."""

    difference: float
    a_mean: float
    b_mean: float
    a_takes: int
    a_made: int
    b_takes: int
    b_made: int
    a_times: tuple[tuple[float, float], ...]
    b_times: tuple[tuple[float, float], ...]


def play_duplicate(task: tuple[str, int, str, str]) -> DuplicateResult:
    """Deal ``seed`` at n tables, A at seat j of table j and B elsewhere (task: seed, players, A, B)."""
    seed, players, name_a, name_b = task
    bot_a = arena_bot(name_a)
    bot_b = arena_bot(name_b)
    tables = []
    for seat in range(players):
        bots = [bot_b] * players
        bots[seat] = bot_a
        tables.append(play_table(seed, players, bots))
    a_scores = [tables[seat].scores[seat] for seat in range(players)]
    b_scores = [
        statistics.fmean(tables[other].scores[seat] for other in range(players) if other != seat)
        for seat in range(players)
    ]
    a_mean = statistics.fmean(a_scores)
    b_mean = statistics.fmean(b_scores)
    a_takes = a_made = b_takes = b_made = 0
    a_times: list[tuple[float, float]] = []
    b_times: list[tuple[float, float]] = []
    for seat, table in enumerate(tables):
        if table.taker is not None:
            if table.taker == seat:
                a_takes += 1
                a_made += bool(table.made)
            else:
                b_takes += 1
                b_made += bool(table.made)
        for wall, cpu, who in table.times:
            (a_times if who == seat else b_times).append((wall, cpu))
    return DuplicateResult(
        a_mean - b_mean, a_mean, b_mean, a_takes, a_made, b_takes, b_made, tuple(a_times), tuple(b_times)
    )


def _duplicates(
    seed: str, players: int, name_a: str, name_b: str, workers: int
) -> Generator[DuplicateResult, None, None]:
    """Deal results in deal order, computed ahead in batches across ``workers`` processes."""
    start = 0
    if workers == 1:
        while True:
            yield play_duplicate((f"{seed}:{start}", players, name_a, name_b))
            start += 1
    batch = 4 * workers
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with context.Pool(workers) as pool:
        while True:
            tasks = [(f"{seed}:{index}", players, name_a, name_b) for index in range(start, start + batch)]
            yield from pool.imap(play_duplicate, tasks)
            start += batch


def run_tarot_arena(
    name_a: str,
    name_b: str,
    deals: int,
    seed: str,
    players: int = 4,
    workers: int | None = None,
    progress: bool = True,
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals at ``players`` players; return the report as a dict."""
    if players not in PLAYER_COUNTS:
        raise ValueError(f"tarot is played by 3, 4 or 5 players, not {players}")
    for name in (name_a, name_b):
        arena_bot(name)
    if deals < 1:
        raise ValueError(f"--deals must be at least 1, got {deals}")
    workers = workers or os.cpu_count() or 1
    results: list[DuplicateResult] = []
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=deals, unit="deal", file=sys.stderr, desc=f"{name_a} vs {name_b} ({players} players)")
    produced = _duplicates(seed, players, name_a, name_b, workers)
    try:
        for result in produced:
            results.append(result)
            if bar is not None:
                bar.update(1)
            if len(results) >= deals:
                break
    finally:
        produced.close()
        if bar is not None:
            bar.close()
    return tarot_report(name_a, name_b, seed, players, results)


def tarot_report(
    name_a: str, name_b: str, seed: str, players: int, results: Sequence[DuplicateResult]
) -> dict[str, Any]:
    differences = [result.difference for result in results]
    count = len(differences)
    mean = statistics.fmean(differences)
    half_width = 1.96 * statistics.stdev(differences) / math.sqrt(count) if count > 1 else math.inf
    tables = count * players
    return {
        "game": "tarot",
        "players": players,
        "bot_a": name_a,
        "bot_b": name_b,
        "seed": seed,
        "deals": count,
        "mean_score_difference": round(mean, 4),
        "ci95": [round(mean - half_width, 4), round(mean + half_width, 4)],
        "a_mean_score": round(statistics.fmean(result.a_mean for result in results), 4),
        "b_mean_score": round(statistics.fmean(result.b_mean for result in results), 4),
        "deals_won": sum(1 for value in differences if value > 0),
        "deals_lost": sum(1 for value in differences if value < 0),
        "deals_tied": sum(1 for value in differences if value == 0),
        "takes": {
            "a": _takes(sum(r.a_takes for r in results), sum(r.a_made for r in results), tables),
            "b": _takes(sum(r.b_takes for r in results), sum(r.b_made for r in results), tables),
        },
        "decision_ms": {
            "a": _timing(name_a, [t for result in results for t in result.a_times]),
            "b": _timing(name_b, [t for result in results for t in result.b_times]),
        },
    }


def _takes(takes: int, made: int, tables: int) -> dict[str, Any]:
    return {"tables": tables, "taken": takes, "made": made}


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def _timing(name: str, values: list[tuple[float, float]]) -> dict[str, Any]:
    wall = sorted(value[0] for value in values)
    cpu = sorted(value[1] for value in values)
    return {
        "bot": name,
        "decisions": len(values),
        "median_ms": round(_percentile(wall, 0.5), 4),
        "p99_ms": round(_percentile(wall, 0.99), 4),
        "cpu_median_ms": round(_percentile(cpu, 0.5), 4),
        "cpu_p99_ms": round(_percentile(cpu, 0.99), 4),
        "cpu_max_ms": round(cpu[-1], 4) if cpu else 0.0,
    }


def format_tarot_report(report: dict[str, Any]) -> str:
    """The report as a few human-readable lines."""
    low, high = report["ci95"]
    lines = [
        f"{report['bot_a']} vs {report['bot_b']} (tarot, {report['players']} players), seed {report['seed']!r}",
        f"duplicate deals: {report['deals']}  mean score difference per deal (A − B, same seats): "
        f"{report['mean_score_difference']:+.2f}  95% CI [{low:+.2f}, {high:+.2f}]",
        f"mean score per deal and seat: A {report['a_mean_score']:+.2f}, B {report['b_mean_score']:+.2f}",
        f"deals won/lost/tied by A: {report['deals_won']}/{report['deals_lost']}/{report['deals_tied']}",
    ]
    for side, takes in report["takes"].items():
        lines.append(f"{side.upper()} took {takes['taken']} times and made {takes['made']} ({takes['tables']} tables)")
    for side, timing in report["decision_ms"].items():
        lines.append(
            f"{side.upper()} = {timing['bot']}: {timing['decisions']} decisions, wall median {timing['median_ms']:.3f} ms"
            f" p99 {timing['p99_ms']:.3f} ms; CPU median {timing['cpu_median_ms']:.3f} ms"
            f" p99 {timing['cpu_p99_ms']:.3f} ms max {timing['cpu_max_ms']:.3f} ms"
        )
    return "\n".join(lines)


def run_tarot_arena_command(args: argparse.Namespace) -> int:
    """``couyon arena --game tarot``: run and print; bad arguments give one sentence and exit status 2."""
    players = 4 if args.players is None else args.players
    try:
        report = run_tarot_arena(
            args.bot_a,
            args.bot_b,
            args.deals,
            args.seed,
            players=players,
            workers=args.workers,
            progress=not args.no_progress,
        )
    except ValueError as error:
        print(f"couyon arena: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_tarot_report(report))
    return 0
