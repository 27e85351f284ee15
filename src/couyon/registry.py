"""Every game the site hosts, in one list: the server, the store, the CLI and the page ask it.

Each game's package builds its own entry (``couyon.games.<game>.entry``: a ``GameKind``, see
``couyon.common.kind``); this module lists them in the order the home page shows them and finds
a game by its id, a ``couyon-record/1`` variant or a record's format. It also lists the games'
arenas (``couyon.games.<game>.arena.ARENA``) for ``couyon arena``, and fingerprints the code the
games' reviews are built by (``REVIEW_CODE``). Nothing else in the project branches on which game it holds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import couyon
from couyon.common.arena import Arena
from couyon.common.kind import Engine, GameKind, Json, OptionRule, Options, Review
from couyon.common.records import RecordError, read_document, wrong_format
from couyon.games.coucou.entry import AS_QUI_COURT_GAME
from couyon.games.coucou.entry import GAME as COUCOU_GAME
from couyon.games.couyon.arena import ARENA as COUYON_ARENA
from couyon.games.couyon.entry import GAME as COUYON
from couyon.games.malmedy.arena import ARENA as MALMEDY_ARENA
from couyon.games.malmedy.entry import GAME as MALMEDY_GAME
from couyon.games.tarot.arena import ARENA as TAROT_ARENA
from couyon.games.tarot.entry import GAMES as TAROT_GAMES

__all__ = [
    "ARENAS",
    "AS_QUI_COURT_GAME",
    "COUCOU_GAME",
    "COUYON",
    "DEFAULT_GAME",
    "GAMES",
    "MALMEDY_GAME",
    "RECORD_VERIFIERS",
    "REVIEW_CODE",
    "TAROT_GAMES",
    "Engine",
    "GameKind",
    "Json",
    "OptionRule",
    "Options",
    "Review",
    "code_fingerprint",
    "game_named",
    "game_of_variant",
    "verify_record",
]

DEFAULT_GAME = "couyon"
"""The game of a request, a stored row or a record that names none: the common couyon."""

GAMES: dict[str, GameKind] = {
    game.id: game for game in (COUYON, MALMEDY_GAME, COUCOU_GAME, AS_QUI_COURT_GAME, *TAROT_GAMES)
}
"""Every game, in the order the home page shows them (couyon first)."""

ARENAS: dict[str, Arena[Any]] = {arena.game: arena for arena in (COUYON_ARENA, MALMEDY_ARENA, TAROT_ARENA)}
"""The arenas of ``couyon arena`` by ``--game`` (``couyon.games.<game>.arena``; tarot's plays its three table sizes,
coucou has none): the default game's first."""


def code_fingerprint(package: Path) -> str:
    """What a review depends on, in at most 32 characters (the ``reviews.version`` column): the couyon version,
    ``+``, and the start of the SHA-256 of every file of ``package``'s ``games/`` and ``common/`` folders (rules, bots and their
    tables, reviews, solvers) and of its ``registry.py``, each with its path; compiled files left out."""
    digest = hashlib.sha256()
    files = [package / "registry.py", *(package / "games").rglob("*"), *(package / "common").rglob("*")]
    for path in sorted(files, key=lambda path: path.relative_to(package).as_posix()):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo"):
            name = path.relative_to(package).as_posix().encode()
            data = path.read_bytes()
            digest.update(b"%d:%s%d:" % (len(name), name, len(data)) + data)
    return f"{couyon.__version__}+{digest.hexdigest()}"[:32]


REVIEW_CODE = code_fingerprint(Path(__file__).resolve().parent)
"""The fingerprint of this process's review code (``code_fingerprint``): a review stored by another is built again,
so a change to the rules, the bots or a review cannot leave stale reviews served, whether or not
``couyon.__version__`` was bumped."""

_BY_VARIANT = {game.variant: game for game in GAMES.values() if game.record_format == "couyon-record/1"}


def game_named(identifier: str) -> GameKind:
    """The game called ``identifier``."""
    try:
        return GAMES[identifier]
    except KeyError:
        raise ValueError(f"unknown game {identifier!r}; known games: {', '.join(GAMES)}") from None


def game_of_variant(variant: str) -> GameKind:
    """The game a ``couyon-record/1`` record of this ``variant`` belongs to."""
    try:
        return _BY_VARIANT[variant]
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}; known variants: {', '.join(sorted(_BY_VARIANT))}") from None


RECORD_VERIFIERS: dict[str, Callable[[str | bytes], dict[str, Any]]] = {
    name: verifier
    for game in GAMES.values()
    for name, verifier in ((game.record_format, game.verify), *game.extra_verifiers.items())
}
"""``couyon verify`` by record format: each entry's ``record_format``, then its ``extra_verifiers``. Couyon and
Malmedy share ``couyon-record/1``: the later entry, Malmedy's, reads both variants
(``couyon.games.malmedy.record.verify``); as qui court's entry reads ``coucou-record/2`` (both variants)."""


def verify_record(text: str | bytes) -> dict[str, Any]:
    """``couyon verify``: read the record's ``format`` and hand the record to that format's verifier."""
    try:
        document = read_document(text)
        format_name = document.get("format")
        verifier = RECORD_VERIFIERS.get(format_name) if isinstance(format_name, str) else None
        if verifier is None:
            raise wrong_format(document, list(RECORD_VERIFIERS))
    except RecordError as error:
        return {"valid": False, "error": str(error), "move": error.move}
    return verifier(text)
