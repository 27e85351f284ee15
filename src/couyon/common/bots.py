"""What every game's bots share: the name and version records keep of a bot."""

from __future__ import annotations

from typing import Protocol


class Named(Protocol):
    """A bot as records name it; each game's bot protocol adds its ``choose``."""

    name: str
    version: int


def bot_id(bot: Named) -> str:
    """How records name a bot: ``name/version``."""
    return f"{bot.name}/{bot.version}"
