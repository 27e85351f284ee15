"""Duplicate matches between two bots, to measure strength and speed (``couyon arena``).

A *match* is one game from the seed ``"<seed>:<index>"`` played twice: once with bot A
holding North–South and bot B West–East, once with the teams' seats swapped. Deal k of
a seed is the same cards and the same dealer at both tables (the deck and the dealer
depend only on the seed and k), so a *duplicate deal* is deal number k of a match: A's
result on it is the lines A's team gained at both tables together, where a team's line
gain in a deal is the change of (other team's lines − own lines). A table whose game
ended before deal k adds nothing. A match's margin is the sum of its duplicate deals,
which is A's final line margin at both tables; A wins the match when it is positive.
Matches are played until at least the requested number of duplicate deals is reached.

``--game malmedy`` plays the couyon de Malmedy the same way (both teams start at 13
lines, ruling 10), with that game's bots: the names ``random``, ``baseline``,
``expert`` and ``omniscient`` (the current version of each), or an id of its registry
entry (``couyon.registry.MALMEDY_GAME.bots``). Without ``--game`` nothing changes.
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
from collections.abc import Callable, Generator
from typing import Any, NamedTuple

from couyon.games.couyon.bots import Bot, bot_rng
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.omniscient import OmniscientBot
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.bots.registry import BOTS_BY_ID, bot_by_id
from couyon.games.couyon.game import GameState, Move, new_game, play
from couyon.games.couyon.rules import STANDARD, Variant
from couyon.games.couyon.view import view
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.expert import MalmedyExpertBot
from couyon.games.malmedy.bots.omniscient import MalmedyOmniscientBot
from couyon.games.malmedy.game import MALMEDY

Player = Bot | OmniscientBot | MalmedyOmniscientBot
"""A bot, or a yardstick that reads the whole state (only the arena seats one)."""

ARENA_BOTS: dict[str, Callable[[], Bot | OmniscientBot]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "expert": ExpertBot,
    "omniscient": OmniscientBot,
}
"""Bots the arena can seat, by name; only the arena may seat the omniscient yardstick.

A registry id (``expert/2``) seats that exact version, to compare a new version with a released one.
"""


MALMEDY_ARENA_BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomBot,
    "baseline": MalmedyBaselineBot,
    "expert": MalmedyExpertBot,
    "omniscient": MalmedyOmniscientBot,
}
"""The Malmedy bots the arena can seat by name (``--game malmedy``); ids go to the game's registry entry."""

GAMES = ("couyon", "malmedy")
"""The games the arena plays (``--game``): the common couyon (the default) and the couyon de Malmedy."""
_VARIANTS: dict[str, Variant] = {"couyon": STANDARD, "malmedy": MALMEDY}
TAROT = "tarot"
"""``--game tarot``: French tarot at ``--players`` 3, 4 or 5, with its own bots and duplicate deals
(``couyon.games.tarot.arena``); the other options keep their meaning."""


def _malmedy_registry_ids() -> list[str]:
    from couyon.registry import MALMEDY_GAME

    return sorted(MALMEDY_GAME.bots)


def arena_bot(name: str, game: str = "couyon") -> Player:
    """The bot called ``name``: an arena name (the current version) or a registry id ``name/version``."""
    if game == "malmedy":
        factory = MALMEDY_ARENA_BOTS.get(name)
        if factory is not None:
            return factory()
        from couyon.registry import MALMEDY_GAME

        bot: Bot = MALMEDY_GAME.bot(name)
        return bot
    factory_of_game = ARENA_BOTS.get(name)
    return factory_of_game() if factory_of_game is not None else bot_by_id(name)


class MatchResult(NamedTuple):
    """Both tables of one match: A's result per duplicate deal and both bots' decision times."""

    deal_results: tuple[int, ...]
    a_times: tuple[float, ...]
    b_times: tuple[float, ...]


def _decide(bot: Player, state: GameState) -> Move:
    seat = state.to_move
    assert seat is not None
    rng = bot_rng(state.seed, seat, state.move_count)
    if isinstance(bot, (OmniscientBot, MalmedyOmniscientBot)):
        return bot.choose_with_state(state, rng)
    return bot.choose(view(state, seat), rng)


def play_game(
    seed: str, north_south: Player, west_east: Player, variant: Variant = STANDARD
) -> tuple[list[int], int, list[float], list[float]]:
    """Play a whole game; return NS's line gain per deal, the winning team and each side's decision times in ms."""
    state = new_game(seed, variant)
    times: tuple[list[float], list[float]] = ([], [])
    while state.winner is None:
        seat = state.to_move
        assert seat is not None
        bot = north_south if seat % 2 == 0 else west_east
        started = time.perf_counter()
        move = _decide(bot, state)
        times[seat % 2].append((time.perf_counter() - started) * 1000.0)
        state = play(state, move)
    gains = []
    before = (state.variant.starting_lines, state.variant.starting_lines)
    for summary in state.finished_deals:
        after = summary.lines
        gains.append((after[1] - after[0]) - (before[1] - before[0]))
        before = after
    return gains, int(state.winner), times[0], times[1]


def play_match(task: tuple[str, str, str] | tuple[str, str, str, str]) -> MatchResult:
    """Both tables of the match on ``seed``, A first holding North–South, then West–East (task: seed, A, B[, game])."""
    seed, name_a, name_b = task[:3]
    game = task[3] if len(task) == 4 else "couyon"
    variant = _VARIANTS[game]
    bot_a = arena_bot(name_a, game)
    bot_b = arena_bot(name_b, game)
    gains_first, _, a_first, b_first = play_game(seed, bot_a, bot_b, variant)
    gains_second, _, b_second, a_second = play_game(seed, bot_b, bot_a, variant)
    length = max(len(gains_first), len(gains_second))
    results = tuple(
        (gains_first[k] if k < len(gains_first) else 0) - (gains_second[k] if k < len(gains_second) else 0)
        for k in range(length)
    )
    return MatchResult(results, tuple(a_first + a_second), tuple(b_first + b_second))


def _percentile(sorted_values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def _task(
    seed: str, index: int, name_a: str, name_b: str, game: str
) -> tuple[str, str, str] | tuple[str, str, str, str]:
    return (f"{seed}:{index}", name_a, name_b) if game == "couyon" else (f"{seed}:{index}", name_a, name_b, game)


def _matches(
    seed: str, name_a: str, name_b: str, workers: int, game: str = "couyon"
) -> Generator[MatchResult, None, None]:
    """Match results in seed-index order, computed ahead in batches across ``workers`` processes."""
    batch = max(1, 2 * workers)
    start = 0
    if workers == 1:
        while True:
            yield play_match(_task(seed, start, name_a, name_b, game))
            start += 1
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    with context.Pool(workers) as pool:
        while True:
            tasks = [_task(seed, index, name_a, name_b, game) for index in range(start, start + batch)]
            yield from pool.imap(play_match, tasks)
            start += batch


def run_arena(
    name_a: str,
    name_b: str,
    deals: int,
    seed: str,
    workers: int | None = None,
    progress: bool = True,
    game: str = "couyon",
) -> dict[str, Any]:
    """Play duplicate matches until ``deals`` duplicate deals are reached; return the report as a dict."""
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the arena plays {', '.join(GAMES)}")
    names, ids = (ARENA_BOTS, BOTS_BY_ID) if game == "couyon" else (MALMEDY_ARENA_BOTS, _malmedy_registry_ids())
    for name in (name_a, name_b):
        if name not in names and name not in ids:
            known = ", ".join([*sorted(names), *sorted(ids)])
            raise ValueError(f"unknown bot {name!r}; the arena knows {known}")
    if deals < 1:
        raise ValueError(f"--deals must be at least 1, got {deals}")
    workers = workers or os.cpu_count() or 1
    deal_results: list[int] = []
    match_margins: list[int] = []
    match_sizes: list[int] = []
    a_times: list[float] = []
    b_times: list[float] = []
    bar = None
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        bar = tqdm(total=deals, unit="deal", file=sys.stderr, desc=f"{name_a} vs {name_b}")
    matches = _matches(seed, name_a, name_b, workers, game)
    try:
        for result in matches:
            deal_results.extend(result.deal_results)
            match_margins.append(sum(result.deal_results))
            match_sizes.append(len(result.deal_results))
            a_times.extend(result.a_times)
            b_times.extend(result.b_times)
            if bar is not None:
                bar.update(min(len(result.deal_results), deals - bar.n))
            if len(deal_results) >= deals:
                break
    finally:
        matches.close()
        if bar is not None:
            bar.close()
    report = _report(name_a, name_b, seed, deal_results, match_margins, match_sizes, a_times, b_times)
    return report if game == "couyon" else {"game": game, **report}


def _report(
    name_a: str,
    name_b: str,
    seed: str,
    deal_results: list[int],
    match_margins: list[int],
    match_sizes: list[int],
    a_times: list[float],
    b_times: list[float],
) -> dict[str, Any]:
    count = len(deal_results)
    mean = statistics.fmean(deal_results)
    half_width = 1.96 * _clustered_standard_error(match_margins, match_sizes, mean)
    return {
        "bot_a": name_a,
        "bot_b": name_b,
        "seed": seed,
        "duplicate_deals": count,
        "mean_line_difference": round(mean, 4),
        "ci95": [round(mean - half_width, 4), round(mean + half_width, 4)],
        "deals_won": sum(1 for result in deal_results if result > 0),
        "deals_lost": sum(1 for result in deal_results if result < 0),
        "deals_tied": sum(1 for result in deal_results if result == 0),
        "matches": len(match_margins),
        "matches_won": sum(1 for margin in match_margins if margin > 0),
        "matches_lost": sum(1 for margin in match_margins if margin < 0),
        "matches_tied": sum(1 for margin in match_margins if margin == 0),
        "decision_ms": {"a": _timing(name_a, a_times), "b": _timing(name_b, b_times)},
    }


def _clustered_standard_error(match_margins: list[int], match_sizes: list[int], mean: float) -> float:
    """Standard error of the per-deal mean with matches as the independent units (deals of a match share the chalk).

    The mean is a ratio, total margin over total deals; its linearised variance is
    sum((margin_i − mean × deals_i)²) / (n (n − 1)) divided by the squared mean deals per match.
    """
    matches = len(match_margins)
    if matches < 2:
        return math.inf
    residuals = sum((margin - mean * size) ** 2 for margin, size in zip(match_margins, match_sizes, strict=True))
    mean_size = sum(match_sizes) / matches
    return math.sqrt(residuals / (matches * (matches - 1))) / mean_size


def _timing(name: str, values: list[float]) -> dict[str, Any]:
    ordered = sorted(values)
    return {
        "bot": name,
        "decisions": len(ordered),
        "median_ms": round(_percentile(ordered, 0.5), 4),
        "p99_ms": round(_percentile(ordered, 0.99), 4),
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as a few human-readable lines."""
    low, high = report["ci95"]
    game = f" ({report['game']})" if "game" in report else ""
    lines = [
        f"{report['bot_a']} vs {report['bot_b']}{game}, seed {report['seed']!r}",
        f"duplicate deals: {report['duplicate_deals']}  mean line difference per deal (A): "
        f"{report['mean_line_difference']:+.4f}  95% CI [{low:+.4f}, {high:+.4f}]",
        f"deals won/lost/tied by A: {report['deals_won']}/{report['deals_lost']}/{report['deals_tied']}",
        f"matches: {report['matches']}  won/lost/tied by A: "
        f"{report['matches_won']}/{report['matches_lost']}/{report['matches_tied']}",
    ]
    for side, timing in report["decision_ms"].items():
        lines.append(
            f"{side.upper()} = {timing['bot']}: {timing['decisions']} decisions, median {timing['median_ms']:.3f} ms, p99 {timing['p99_ms']:.3f} ms"
        )
    return "\n".join(lines)


def add_arena_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``couyon arena``."""
    names = ", ".join(ARENA_BOTS)
    parser.add_argument("bot_a", metavar="BOT_A", help=f"one of {names}, or a released version such as expert/2")
    parser.add_argument("bot_b", metavar="BOT_B", help=f"one of {names}, or a released version such as expert/2")
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals to reach (default 2000)")
    parser.add_argument("--seed", default="arena", help="seed prefix of the matches (default 'arena')")
    parser.add_argument("--workers", type=int, default=None, help="processes to use (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    parser.add_argument(
        "--game",
        choices=(*GAMES, TAROT),
        default="couyon",
        help="the game to play: couyon (default), malmedy (the couyon de Malmedy, with its own bots) "
        "or tarot (French tarot, its own bots and duplicate deals: couyon.games.tarot.arena)",
    )
    parser.add_argument(
        "--players",
        type=int,
        choices=(3, 4, 5),
        default=None,
        help="with --game tarot: the players at the table (default 4)",
    )


def run_arena_command(args: argparse.Namespace) -> int:
    """Run ``couyon arena`` and print its report; bad arguments give one sentence and exit status 2."""
    if args.workers is not None and args.workers < 1:
        print(f"couyon arena: --workers must be at least 1, got {args.workers}", file=sys.stderr)
        return 2
    if args.game == TAROT:
        from couyon.games.tarot.arena import run_tarot_arena_command

        return run_tarot_arena_command(args)
    if args.players is not None:
        print("couyon arena: --players is for --game tarot only", file=sys.stderr)
        return 2
    try:
        report = run_arena(
            args.bot_a,
            args.bot_b,
            args.deals,
            args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            game=args.game,
        )
    except ValueError as error:
        print(f"couyon arena: {error}", file=sys.stderr)
        return 2
    print(json.dumps(report) if args.json else format_report(report))
    return 0
