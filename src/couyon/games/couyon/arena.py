"""The common couyon's hooks into ``couyon arena`` (the harness is ``couyon.common.arena``).

A *match* is one game from the seed ``"<seed>:<index>"`` played twice: once with bot A
holding North–South and bot B West–East, once with the teams' seats swapped. Deal k of
a seed is the same cards and the same dealer at both tables (the deck and the dealer
depend only on the seed and k), so a *duplicate deal* is deal number k of a match: A's
result on it is the lines A's team gained at both tables together, where a team's line
gain in a deal is the change of (other team's lines − own lines). A table whose game
ended before deal k adds nothing. A match's margin is the sum of its duplicate deals,
which is A's final line margin at both tables; A wins the match when it is positive.
Matches are played until at least the requested number of duplicate deals is reached.

The couyon de Malmedy plays its matches the same way with its own bots and variant
(``couyon.games.malmedy.arena``, which builds its arena with ``couyon_arena``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple, Protocol, cast

from couyon.common.arena import Arena, Json, Options, Sections, Time, Wording, tally, timed
from couyon.common.stream import Stream
from couyon.games.couyon.bots import Bot, bot_rng
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.omniscient import OmniscientBot
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.couyon.bots.registry import BOTS_BY_ID
from couyon.games.couyon.game import GameState, Move, new_game, play
from couyon.games.couyon.rules import STANDARD, Variant
from couyon.games.couyon.view import view


class Yardstick(Protocol):
    """A player that reads the whole state (couyon's and Malmedy's omniscient bots; only the arena seats one)."""

    def choose_with_state(self, state: GameState, rng: Stream) -> Move: ...


Player = Bot | Yardstick
"""A bot, or a yardstick that reads the whole state."""

ARENA_BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "expert": ExpertBot,
    "omniscient": OmniscientBot,
}
"""Bots the arena can seat, by name; only the arena may seat the omniscient yardstick.

A registry id (``expert/2``) seats that exact version, to compare a new version with a released one.
"""


class MatchResult(NamedTuple):
    """Both tables of one match: A's result per duplicate deal and both bots' decision times."""

    deal_results: tuple[int, ...]
    a_times: tuple[Time, ...]
    b_times: tuple[Time, ...]


def _decide(bot: Player, state: GameState) -> Move:
    seat = state.to_move
    assert seat is not None
    rng = bot_rng(state.seed, seat, state.move_count)
    # Told by its method: a check against the protocol would cost more than a random bot's decision.
    choose_with_state: Callable[[GameState, Stream], Move] | None = getattr(bot, "choose_with_state", None)
    if choose_with_state is not None:
        return choose_with_state(state, rng)
    return cast(Bot, bot).choose(view(state, seat), rng)


def play_game(
    seed: str, north_south: Player, west_east: Player, variant: Variant = STANDARD
) -> tuple[list[int], int, list[Time], list[Time]]:
    """Play a whole game; return NS's line gain per deal, the winning team and each side's decision times."""
    state = new_game(seed, variant)
    times: tuple[list[Time], list[Time]] = ([], [])
    while state.winner is None:
        seat = state.to_move
        assert seat is not None
        bot = north_south if seat % 2 == 0 else west_east
        move, spent = timed(_decide, bot, state)
        times[seat % 2].append(spent)
        state = play(state, move)
    gains = []
    before = (state.variant.starting_lines, state.variant.starting_lines)
    for summary in state.finished_deals:
        after = summary.lines
        gains.append((after[1] - after[0]) - (before[1] - before[0]))
        before = after
    return gains, int(state.winner), times[0], times[1]


def pair_tables(seed: str, bot_a: Player, bot_b: Player, variant: Variant) -> MatchResult:
    """Both tables of the match on ``seed``, A first holding North–South, then West–East."""
    gains_first, _, a_first, b_first = play_game(seed, bot_a, bot_b, variant)
    gains_second, _, b_second, a_second = play_game(seed, bot_b, bot_a, variant)
    length = max(len(gains_first), len(gains_second))
    results = tuple(
        (gains_first[k] if k < len(gains_first) else 0) - (gains_second[k] if k < len(gains_second) else 0)
        for k in range(length)
    )
    return MatchResult(results, tuple(a_first + a_second), tuple(b_first + b_second))


def play_match(task: tuple[str, str, str]) -> MatchResult:
    """Both tables of the match on ``seed`` (task: seed, A, B)."""
    seed, name_a, name_b = task
    return pair_tables(seed, ARENA.bot(name_a), ARENA.bot(name_b), STANDARD)


def _match(seed: str, name_a: str, name_b: str, options: Options) -> MatchResult:
    return play_match((seed, name_a, name_b))


def _matches_tally(matches: Any, options: Options) -> Json:
    return {"matches": len(matches), **tally("matches", [sum(match.deal_results) for match in matches])}


def _matches_line(report: Json) -> list[str]:
    won_lost_tied = f"{report['matches_won']}/{report['matches_lost']}/{report['matches_tied']}"
    return [f"matches: {report['matches']}  won/lost/tied by A: {won_lost_tied}"]


def couyon_arena(
    game: str,
    described: str,
    match: Callable[[str, str, str, Options], MatchResult],
    names: Mapping[str, Callable[[], Any]],
    ids: Callable[[], Mapping[str, Any]],
    labelled: bool = True,
) -> Arena[MatchResult]:
    """The arena of a game of couyon's fold: matches of whole games, the line difference, the matches' tally."""
    wording = Wording("duplicate_deals", "mean_line_difference", "mean line difference per deal (A)", decimals=4)
    sections = Sections(after_tallies=_matches_tally, lines_after_tallies=_matches_line)
    return Arena(game, described, match, names, ids, wording, sections, labelled=labelled)


ARENA = couyon_arena("couyon", "couyon (default)", _match, ARENA_BOTS, lambda: BOTS_BY_ID, labelled=False)
"""The common couyon's arena: its reports name no game (the arena's default game, as before the others came)."""


def arena_bot(name: str) -> Player:
    """The bot called ``name``: an arena name (the current version) or a registry id ``name/version``."""
    bot: Player = ARENA.bot(name)
    return bot


def run_arena(
    name_a: str, name_b: str, deals: int, seed: str, workers: int | None = None, progress: bool = True
) -> Json:
    """Play duplicate matches until ``deals`` duplicate deals are reached; return the report as a dict."""
    return ARENA.run(name_a, name_b, deals, seed, workers, progress)


format_report = ARENA.format
