"""The couyon de Malmedy's hooks into ``couyon arena --game malmedy``.

Its matches are couyon's (``couyon.games.couyon.arena``: whole games at two tables, the
teams' seats swapped), played with the Malmedy variant (both teams start at 13 lines,
ruling 10) and its own bots: the names ``random``, ``baseline``, ``expert`` and
``omniscient`` (the current version of each), or an id of its registry entry
(``couyon.games.malmedy.entry.GAME.bots``). Its reports say ``"game": "malmedy"`` first.
"""

from __future__ import annotations

from collections.abc import Callable

from couyon.common.arena import Json, Options
from couyon.games.couyon.arena import MatchResult, Player, couyon_arena, pair_tables
from couyon.games.couyon.bots.random_bot import RandomBot
from couyon.games.malmedy.bots.baseline import MalmedyBaselineBot
from couyon.games.malmedy.bots.expert import MalmedyExpertBot
from couyon.games.malmedy.bots.omniscient import MalmedyOmniscientBot
from couyon.games.malmedy.entry import GAME
from couyon.games.malmedy.game import MALMEDY

MALMEDY_ARENA_BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomBot,
    "baseline": MalmedyBaselineBot,
    "expert": MalmedyExpertBot,
    "omniscient": MalmedyOmniscientBot,
}
"""The Malmedy bots the arena can seat by name; ids go to the game's registry entry."""


def play_match(task: tuple[str, str, str]) -> MatchResult:
    """Both tables of the Malmedy match on ``seed`` (task: seed, A, B)."""
    seed, name_a, name_b = task
    return pair_tables(seed, ARENA.bot(name_a), ARENA.bot(name_b), MALMEDY)


def _match(seed: str, name_a: str, name_b: str, options: Options) -> MatchResult:
    return play_match((seed, name_a, name_b))


ARENA = couyon_arena(
    "malmedy", "malmedy (the couyon de Malmedy, with its own bots)", _match, MALMEDY_ARENA_BOTS, lambda: GAME.bots
)


def run_arena(
    name_a: str, name_b: str, deals: int, seed: str, workers: int | None = None, progress: bool = True
) -> Json:
    """Play Malmedy duplicate matches until ``deals`` duplicate deals are reached; return the report as a dict."""
    return ARENA.run(name_a, name_b, deals, seed, workers, progress)
