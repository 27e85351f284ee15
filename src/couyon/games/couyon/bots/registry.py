"""Every bot that can sit at a table, by the ``name/version`` that records keep."""

from __future__ import annotations

from couyon.games.couyon.bots import Bot, bot_id
from couyon.games.couyon.bots.alphamu import AlphaMuBot
from couyon.games.couyon.bots.baseline import BaselineBot
from couyon.games.couyon.bots.expert import ExpertBot
from couyon.games.couyon.bots.random_bot import RandomBot

_BOTS: tuple[Bot, ...] = (
    RandomBot(),
    BaselineBot(),
    ExpertBot(version=1),
    ExpertBot(version=2),
    ExpertBot(version=3),
    AlphaMuBot(version=4, depth=2, first_trick_worlds=32, worlds=96),
)
BOTS_BY_ID = {bot_id(bot): bot for bot in _BOTS}

TABLE_BOT_ID = "expert/3"
"""The bot that holds W, N and E in games started now (measured in docs/bots.md)."""


def bot_by_id(identifier: str) -> Bot:
    """The bot recorded as ``identifier`` (``name/version``)."""
    try:
        return BOTS_BY_ID[identifier]
    except KeyError:
        raise ValueError(f"unknown bot {identifier!r}; known bots: {', '.join(sorted(BOTS_BY_ID))}") from None
