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

These are tarot's hooks; the harness (workers, interval, report, command line) is
``couyon.common.arena``: with one deal per match, its clustered interval is the plain one.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any, NamedTuple

from couyon.common.arena import Arena, ArenaOption, Json, Options, Sections, Time, Wording, timed
from couyon.games.tarot.bots import TarotBot, bot_rng
from couyon.games.tarot.bots.registry import TAROT_ARENA_BOTS, TAROT_BOTS_BY_ID, OmniscientPlayer, Player
from couyon.games.tarot.cards import PLAYER_COUNTS, SEATS_OF
from couyon.games.tarot.game import GameState, Move, is_over, new_game, play, to_move
from couyon.games.tarot.view import view


def arena_bot(name: str) -> Player:
    """The tarot bot called ``name``: an arena name (the current version) or a registry id ``name/version``."""
    bot: Player = ARENA.bot(name)
    return bot


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
        move, (wall, cpu) = timed(decide, bots[index], state)
        times.append((wall, cpu, index))
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
    a_times: tuple[Time, ...]
    b_times: tuple[Time, ...]

    @property
    def deal_results(self) -> tuple[float]:
        """The harness's match of one duplicate deal."""
        return (self.difference,)


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


def _duplicate(seed: str, name_a: str, name_b: str, options: Options) -> DuplicateResult:
    return play_duplicate((seed, options["players"], name_a, name_b))


def _check(options: Options) -> None:
    if options["players"] not in PLAYER_COUNTS:
        raise ValueError(f"tarot is played by 3, 4 or 5 players, not {options['players']}")


def _means(results: Sequence[DuplicateResult], options: Options) -> Json:
    return {
        "a_mean_score": round(statistics.fmean(result.a_mean for result in results), 4),
        "b_mean_score": round(statistics.fmean(result.b_mean for result in results), 4),
    }


def _takes(results: Sequence[DuplicateResult], options: Options) -> Json:
    tables = len(results) * options["players"]
    return {
        "takes": {
            "a": {"tables": tables, "taken": sum(r.a_takes for r in results), "made": sum(r.a_made for r in results)},
            "b": {"tables": tables, "taken": sum(r.b_takes for r in results), "made": sum(r.b_made for r in results)},
        }
    }


def _means_line(report: Json) -> list[str]:
    return [f"mean score per deal and seat: A {report['a_mean_score']:+.2f}, B {report['b_mean_score']:+.2f}"]


def _takes_lines(report: Json) -> list[str]:
    return [
        f"{side.upper()} took {takes['taken']} times and made {takes['made']} ({takes['tables']} tables)"
        for side, takes in report["takes"].items()
    ]


ARENA: Arena[DuplicateResult] = Arena(
    "tarot",
    "tarot (French tarot, its own bots and duplicate deals: couyon.games.tarot.arena)",
    _duplicate,
    TAROT_ARENA_BOTS,
    lambda: TAROT_BOTS_BY_ID,
    Wording("deals", "mean_score_difference", "mean score difference per deal (A − B, same seats)", 2, cpu_times=True),
    Sections(_means, _takes, _means_line, _takes_lines),
    options=(ArenaOption("players", PLAYER_COUNTS, 4, "the players at the table", "{} players"),),
    knower="the tarot arena",
    names_sorted=False,
    batch_per_worker=4,
    check=_check,
)
"""Tarot's arena, one for its three table sizes (``--players``)."""


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
    return ARENA.run(name_a, name_b, deals, seed, workers, progress, {"players": players})


format_tarot_report = ARENA.format
