"""Every tarot bot that can sit at a table, by the ``name/version`` that records keep, and the arena's names."""

from __future__ import annotations

from collections.abc import Callable

from couyon.games.tarot.bots import TarotBot, bot_id
from couyon.games.tarot.bots.baseline import BaselineTarotBot
from couyon.games.tarot.bots.expert import ExpertTarotBot
from couyon.games.tarot.bots.omniscient import OmniscientTarotBot
from couyon.games.tarot.bots.random_bot import RandomTarotBot

OmniscientPlayer = OmniscientTarotBot
Player = TarotBot | OmniscientTarotBot
"""A bot, or the yardstick that reads the whole state (only the arena seats one)."""

_BOTS: tuple[TarotBot, ...] = (
    RandomTarotBot(),
    BaselineTarotBot(),
    ExpertTarotBot(),
    ExpertTarotBot.table_expert(2),
    ExpertTarotBot.table_expert(3),
    ExpertTarotBot.compiled_expert(),
    ExpertTarotBot.compiled_expert(5),
)
TAROT_BOTS_BY_ID: dict[str, TarotBot] = {bot_id(bot): bot for bot in _BOTS}

TAROT_TABLE_BOT_ID = "expert/5"
"""The bot tarot tables seat: expert/5 (expert/1's budgets) shows no significant loss to expert/1 at 3, 4 and 5
players within 3 ms of compiled CPU at the median and 30 ms at the p99 per decision (docs/tarot.md, "Bots");
expert/3, seated before it, still replays the games that name it."""

TAROT_ARENA_BOTS: dict[str, Callable[[], Player]] = {
    "random": RandomTarotBot,
    "baseline": BaselineTarotBot,
    "expert": ExpertTarotBot,
    "omniscient": OmniscientTarotBot,
}
"""Bots the arena can seat by name (the current version of each); only the arena seats the yardstick."""


def tarot_bot_by_id(identifier: str) -> TarotBot:
    """The bot recorded as ``identifier`` (``name/version``)."""
    try:
        return TAROT_BOTS_BY_ID[identifier]
    except KeyError:
        known = ", ".join(sorted(TAROT_BOTS_BY_ID))
        raise ValueError(f"unknown tarot bot {identifier!r}; known bots: {', '.join([known])}") from None
