"""The duplicate-match harness of ``couyon arena``, the same for every game.

A game's arena (``couyon.games.<game>.arena.ARENA``) gives only its hooks: how one *match* is
played from the seed ``"<seed>:<index>"`` with two bots (its deal and its score), the names of
the bots it seats, its own options and its report's words. Everything else is here, once:

- matches are played in seed-index order (``index`` 0, 1, 2 …), computed ahead in batches across
  ``--workers`` processes (``multiprocessing`` with fork), so a report does not depend on the
  worker count; they are played until at least the requested number of duplicate deals is reached;
- a match gives A's result on each of its duplicate deals (one deal or several); the report's mean is
  the mean over every duplicate deal, and its 95% interval the mean ± 1.96 standard errors with the
  matches as the independent units (``clustered_standard_error``: for a match of one deal, the plain
  standard error of the mean);
- each decision's wall-clock and CPU time (``timed``), summed up by nearest-rank percentiles;
- the JSON report, its human-readable lines, the tqdm progress bar on standard error, and the
  command's common arguments and refusals (one sentence, exit status 2).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

Json = dict[str, Any]
Options = Mapping[str, Any]
"""A game's own arena options, by name (``{"players": 4}``)."""
Time = tuple[float, float]
"""One decision's wall-clock and CPU (deciding thread) time, in ms."""


class Played(Protocol):
    """What the harness reads of a match: A's result per duplicate deal and both bots' decision times."""

    @property
    def deal_results(self) -> Sequence[float]: ...

    @property
    def a_times(self) -> Sequence[Time]: ...

    @property
    def b_times(self) -> Sequence[Time]: ...


M = TypeVar("M", bound=Played)
B = TypeVar("B")
S = TypeVar("S")
R = TypeVar("R")


def timed(decide: Callable[[B, S], R], bot: B, state: S) -> tuple[R, Time]:
    """``decide(bot, state)`` (a bot's move) and the wall-clock and CPU time it took, in ms."""
    # The CPU clock's reads stand outside the wall-clock interval, so that one is the decision's alone.
    cpu_started = time.thread_time()
    started = time.perf_counter()
    result = decide(bot, state)
    wall = time.perf_counter() - started
    return result, (wall * 1000.0, (time.thread_time() - cpu_started) * 1000.0)


@dataclass(frozen=True, slots=True)
class ArenaOption:
    """An option of one game's arena (tarot's ``--players``); another game's arena refuses it."""

    name: str
    choices: tuple[int, ...]
    default: int
    help: str
    shown: str
    """How the report's title and the progress bar write its value, e.g. ``{} players``."""

    @property
    def flag(self) -> str:
        return f"--{self.name}"


@dataclass(frozen=True)
class Wording:
    """The report's names and words for what a duplicate deal's result measures."""

    count_key: str
    """The JSON key of the duplicate deals' count (``duplicate_deals``, ``deals``)."""
    mean_key: str
    """The JSON key of the mean result per deal (``mean_line_difference``)."""
    mean_words: str
    """The text line's name of that mean (``mean line difference per deal (A)``)."""
    decimals: int
    """The decimals the text line shows of the mean and its interval."""
    cpu_times: bool = False
    """Whether the report gives the CPU times of the decisions besides the wall-clock ones."""


@dataclass(frozen=True)
class Sections:
    """A game's own parts of the report: the JSON keys and text lines after the interval and after the tallies."""

    after_mean: Callable[[Sequence[Any], Options], Json] = lambda matches, options: {}
    after_tallies: Callable[[Sequence[Any], Options], Json] = lambda matches, options: {}
    lines_after_mean: Callable[[Json], list[str]] = lambda report: []
    lines_after_tallies: Callable[[Json], list[str]] = lambda report: []


@dataclass(frozen=True)
class Arena(Generic[M]):
    """One game's hooks into the harness."""

    game: str
    """The ``--game`` value."""
    described: str
    """How ``--game``'s help names it, e.g. ``malmedy (the couyon de Malmedy, with its own bots)``."""
    play: Callable[[str, str, str, Options], M]
    """The match on this seed between bots A and B (by name); a module-level function, so workers can run it."""
    names: Mapping[str, Callable[[], Any]]
    """The bots seated by name (the current version of each, the omniscient yardstick too)."""
    ids: Callable[[], Mapping[str, Any]]
    """The released bots by registry id (``expert/2``), to compare a new version with one of them."""
    wording: Wording
    sections: Sections = field(default_factory=Sections)
    options: tuple[ArenaOption, ...] = ()
    labelled: bool = True
    """Whether the report names the game (``"game"`` first): every game's but the default one's."""
    knower: str = "the arena"
    """Who knows the bots, in the sentence that refuses an unknown one."""
    names_sorted: bool = True
    """Whether that sentence lists the names in alphabetical order rather than the arena's."""
    batch_per_worker: int = 2
    """The matches computed ahead per worker."""
    check: Callable[[Options], None] = lambda options: None
    """Refuses (``ValueError``) options the game cannot play."""

    def bot(self, name: str) -> Any:
        """The bot called ``name``: an arena name (the current version) or a registry id ``name/version``."""
        factory = self.names.get(name)
        if factory is not None:
            return factory()
        ids = self.ids()
        if name not in ids:
            names: Iterable[str] = sorted(self.names) if self.names_sorted else self.names
            known = ", ".join([*names, *sorted(ids)])
            raise ValueError(f"unknown bot {name!r}; {self.knower} knows {known}")
        return ids[name]

    def run(
        self,
        name_a: str,
        name_b: str,
        deals: int,
        seed: str,
        workers: int | None = None,
        progress: bool = True,
        options: Options | None = None,
    ) -> Json:
        """Play matches until ``deals`` duplicate deals are reached; return the report as a dict."""
        chosen = {option.name: option.default for option in self.options} | dict(options or {})
        self.check(chosen)
        for name in (name_a, name_b):
            self.bot(name)
        if deals < 1:
            raise ValueError(f"--deals must be at least 1, got {deals}")
        workers = workers or os.cpu_count() or 1
        played: list[M] = []
        count = 0
        bar = None
        if progress:
            from tqdm import tqdm  # type: ignore[import-untyped]

            bar = tqdm(total=deals, unit="deal", file=sys.stderr, desc=f"{name_a} vs {name_b}{self._shown(chosen)}")
        matches = self._matches(seed, name_a, name_b, chosen, workers)
        try:
            for match in matches:
                played.append(match)
                count += len(match.deal_results)
                if bar is not None:
                    bar.update(min(len(match.deal_results), deals - bar.n))
                if count >= deals:
                    break
        finally:
            matches.close()
            if bar is not None:
                bar.close()
        return self.report(name_a, name_b, seed, played, chosen)

    def _shown(self, options: Options, *before: str) -> str:
        """`` (tarot, 4 players)``: the words before and the options as the title writes them, or nothing."""
        words = [*before, *(option.shown.format(options[option.name]) for option in self.options)]
        return f" ({', '.join(words)})" if words else ""

    def _matches(self, seed: str, name_a: str, name_b: str, options: Options, workers: int) -> Generator[M, None, None]:
        """Match results in seed-index order, computed ahead in batches across ``workers`` processes."""
        start = 0
        if workers == 1:
            while True:
                yield self.play(f"{seed}:{start}", name_a, name_b, options)
                start += 1
        batch = self.batch_per_worker * workers
        context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        pool = context.Pool(workers, initializer=_ignore_ctrl_c)
        try:
            while True:
                tasks = [
                    (self.play, f"{seed}:{index}", name_a, name_b, options) for index in range(start, start + batch)
                ]
                # A whole batch at a time, so that no worker is busy when the caller stops: the pool is then
                # closed, never terminated. Pool.terminate kills a worker even while it writes a result, and the
                # result queue's lock it held is never released: the pool then waits on it for ever (it did so in CI,
                # and in the 141st of a loop of the couyon arena test's runs).
                yield from pool.map(_play_task, tasks)
                start += batch
        finally:
            pool.close()
            pool.join()

    def report(self, name_a: str, name_b: str, seed: str, matches: Sequence[M], options: Options) -> Json:
        """The report of these matches: the game's keys (``"game"`` first but for the default game) around the shared ones."""
        results = [result for match in matches for result in match.deal_results]
        margins = [sum(match.deal_results) for match in matches]
        sizes = [len(match.deal_results) for match in matches]
        mean = statistics.fmean(results)
        half_width = 1.96 * clustered_standard_error(margins, sizes, mean)
        head = {"game": self.game, **options} if self.labelled else {}
        return {
            **head,
            "bot_a": name_a,
            "bot_b": name_b,
            "seed": seed,
            self.wording.count_key: len(results),
            self.wording.mean_key: round(mean, 4),
            "ci95": [round(mean - half_width, 4), round(mean + half_width, 4)],
            **self.sections.after_mean(matches, options),
            **tally("deals", results),
            **self.sections.after_tallies(matches, options),
            "decision_ms": {
                "a": self._timing(name_a, [t for match in matches for t in match.a_times]),
                "b": self._timing(name_b, [t for match in matches for t in match.b_times]),
            },
        }

    def _timing(self, name: str, values: Sequence[Time]) -> Json:
        wall = sorted(value[0] for value in values)
        timing = {
            "bot": name,
            "decisions": len(values),
            "median_ms": round(percentile(wall, 0.5), 4),
            "p99_ms": round(percentile(wall, 0.99), 4),
        }
        if self.wording.cpu_times:
            cpu = sorted(value[1] for value in values)
            timing |= {
                "cpu_median_ms": round(percentile(cpu, 0.5), 4),
                "cpu_p99_ms": round(percentile(cpu, 0.99), 4),
                "cpu_max_ms": round(cpu[-1], 4) if cpu else 0.0,
            }
        return timing

    def format(self, report: Json) -> str:
        """The report as a few human-readable lines."""
        low, high = report["ci95"]
        places = self.wording.decimals
        options = {option.name: report[option.name] for option in self.options}
        title = self._shown(options, self.game) if self.labelled else ""
        lines = [
            f"{report['bot_a']} vs {report['bot_b']}{title}, seed {report['seed']!r}",
            f"duplicate deals: {report[self.wording.count_key]}  {self.wording.mean_words}: "
            f"{report[self.wording.mean_key]:+.{places}f}  95% CI [{low:+.{places}f}, {high:+.{places}f}]",
            *self.sections.lines_after_mean(report),
            f"deals won/lost/tied by A: {report['deals_won']}/{report['deals_lost']}/{report['deals_tied']}",
            *self.sections.lines_after_tallies(report),
        ]
        for side, timing in report["decision_ms"].items():
            head = f"{side.upper()} = {timing['bot']}: {timing['decisions']} decisions"
            if self.wording.cpu_times:
                lines.append(
                    f"{head}, wall median {timing['median_ms']:.3f} ms p99 {timing['p99_ms']:.3f} ms;"
                    f" CPU median {timing['cpu_median_ms']:.3f} ms p99 {timing['cpu_p99_ms']:.3f} ms"
                    f" max {timing['cpu_max_ms']:.3f} ms"
                )
            else:
                lines.append(f"{head}, median {timing['median_ms']:.3f} ms, p99 {timing['p99_ms']:.3f} ms")
        return "\n".join(lines)


def _ignore_ctrl_c() -> None:
    """A worker's start: Ctrl-C stops the arena's own process, which lets the batch in progress end."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_task(task: tuple[Callable[[str, str, str, Options], M], str, str, str, Options]) -> M:
    """A worker's match: the game's ``play`` hook travels by name, with the seed, the bots and the options."""
    play, seed, name_a, name_b, options = task
    return play(seed, name_a, name_b, options)


def tally(prefix: str, results: Sequence[float]) -> Json:
    """How many results A won (positive), lost (negative) and tied: ``{prefix}_won``, ``_lost``, ``_tied``."""
    return {
        f"{prefix}_won": sum(1 for result in results if result > 0),
        f"{prefix}_lost": sum(1 for result in results if result < 0),
        f"{prefix}_tied": sum(1 for result in results if result == 0),
    }


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


def clustered_standard_error(match_margins: Sequence[float], match_sizes: Sequence[int], mean: float) -> float:
    """Standard error of the per-deal mean with matches as the independent units (deals of a match share the chalk).

    The mean is a ratio, total margin over total deals; its linearised variance is
    sum((margin_i − mean × deals_i)²) / (n (n − 1)) divided by the squared mean deals per match.
    With one deal per match it is the plain standard error of the mean, s / √n.
    """
    matches = len(match_margins)
    if matches < 2:
        return math.inf
    residuals = sum((margin - mean * size) ** 2 for margin, size in zip(match_margins, match_sizes, strict=True))
    mean_size = sum(match_sizes) / matches
    return math.sqrt(residuals / (matches * (matches - 1))) / mean_size


def add_arena_arguments(parser: argparse.ArgumentParser, arenas: Mapping[str, Arena[Any]], default: str) -> None:
    """The options of ``couyon arena``: the shared ones, ``--game`` (one of ``arenas``), then each game's own."""
    names = ", ".join(arenas[default].names)
    parser.add_argument("bot_a", metavar="BOT_A", help=f"one of {names}, or a released version such as expert/2")
    parser.add_argument("bot_b", metavar="BOT_B", help=f"one of {names}, or a released version such as expert/2")
    parser.add_argument("--deals", type=int, default=2000, help="duplicate deals to reach (default 2000)")
    parser.add_argument("--seed", default="arena", help="seed prefix of the matches (default 'arena')")
    parser.add_argument("--workers", type=int, default=None, help="processes to use (default: every core)")
    parser.add_argument("--json", action="store_true", help="print the report as one JSON object")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on standard error")
    described = [arena.described for arena in arenas.values()]
    parser.add_argument(
        "--game",
        choices=tuple(arenas),
        default=default,
        help=f"the game to play: {', '.join(described[:-1])} or {described[-1]}"
        if len(described) > 1
        else f"the game to play: {described[0]}",
    )
    for arena in arenas.values():
        for option in arena.options:
            parser.add_argument(
                option.flag,
                type=int,
                choices=option.choices,
                default=None,
                help=f"with --game {arena.game}: {option.help} (default {option.default})",
            )


def run_arena_command(args: argparse.Namespace, arenas: Mapping[str, Arena[Any]]) -> int:
    """Run ``couyon arena`` and print its report; bad arguments give one sentence and exit status 2."""
    if args.workers is not None and args.workers < 1:
        return _refuse(f"--workers must be at least 1, got {args.workers}")
    arena = arenas[args.game]
    for other in arenas.values():
        for option in other.options:
            if other is not arena and getattr(args, option.name) is not None:
                return _refuse(f"{option.flag} is for --game {other.game} only")
    options = {
        option.name: option.default if getattr(args, option.name) is None else getattr(args, option.name)
        for option in arena.options
    }
    try:
        report = arena.run(
            args.bot_a,
            args.bot_b,
            args.deals,
            args.seed,
            workers=args.workers,
            progress=not args.no_progress,
            options=options,
        )
    except ValueError as error:
        return _refuse(str(error))
    print(json.dumps(report) if args.json else arena.format(report))
    return 0


def _refuse(sentence: str) -> int:
    print(f"couyon arena: {sentence}", file=sys.stderr)
    return 2
