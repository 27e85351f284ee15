"""The floors of docs/architecture.md, read from the code's own imports: a new import that climbs or crosses fails here.

- ``couyon.common`` imports nothing else of the project;
- a game's package (``couyon.games.<game>``) imports ``couyon.common`` and itself, and Malmedy, a
  variant of couyon, also couyon's package; no game imports ``server``, ``store``, the registry, the CLI
  or another game;
- the registry imports ``couyon.common`` and the games' packages;
- nothing else imports a game's package (the server, the store, the CLI and the load generator ask
  the registry), and none of them writes a game's id: no ``if game == …`` outside the games.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from couyon.registry import GAMES

SOURCE = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SOURCE / "couyon"
VARIANT_OF = {"malmedy": "couyon"}
"""A game whose package may import another's: the variant and the game it varies."""
GAME_IDS = {*GAMES, "tarot"} - {"couyon"}
"""The ids a module outside the games may not write. ``couyon`` is also the project's name (the command, the
logger), so it cannot be told from the game there: the default game is named once, as the registry's ``DEFAULT_GAME``."""
HISTORY = PACKAGE / "store" / "migrations"
"""Migrations rewrite stored rows of a given time, so they may name the games those rows held."""


def module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_imports(path: Path) -> set[str]:
    """Every ``couyon…`` module ``path`` imports, wherever the import stands (inside functions too)."""
    found: set[str] = set()
    package = module_name(path).rsplit(".", 0 if path.name == "__init__.py" else 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return {name for name in found if name == "couyon" or name.startswith("couyon.")}


def sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def allowed(importer: str, imported: str) -> bool:
    """Whether module ``importer`` may import ``imported`` under the floors above."""
    if imported.startswith("couyon.common") or imported == "couyon":
        return True
    if importer.startswith("couyon.common"):
        return False
    if importer.startswith("couyon.games."):
        game = importer.split(".")[2]
        own = {game, VARIANT_OF.get(game)}
        return (imported.startswith("couyon.games.") and imported.split(".")[2] in own) or imported == "couyon.games"
    if importer == "couyon.registry":
        return imported.startswith("couyon.games")
    return not imported.startswith("couyon.games")


def test_every_import_keeps_to_its_floor() -> None:
    violations = [
        f"{module_name(path)} imports {imported}"
        for path in sources()
        for imported in sorted(project_imports(path))
        if not allowed(module_name(path), imported)
    ]
    assert violations == []


def test_no_module_outside_the_games_writes_a_game_id() -> None:
    written = []
    for path in sources():
        name = module_name(path)
        if name.startswith(("couyon.games", "couyon.registry")) or path.is_relative_to(HISTORY):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in GAME_IDS:
                written.append(f"{name}:{node.lineno} {node.value!r}")
    assert written == []


@pytest.mark.parametrize(
    ("importer", "imported", "verdict"),
    [
        ("couyon.games.malmedy.game", "couyon.games.couyon.game", True),
        ("couyon.games.couyon.view", "couyon.games.malmedy.game", False),
        ("couyon.games.tarot.game", "couyon.server.games", False),
        ("couyon.games.tarot.game", "couyon.registry", False),
        ("couyon.common.records", "couyon.games.couyon.record", False),
        ("couyon.server.app", "couyon.games.tarot.answers", False),
        ("couyon.server.app", "couyon.registry", True),
        ("couyon.registry", "couyon.games.tarot.entry", True),
        ("couyon.registry", "couyon.server.app", False),
    ],
)
def test_the_floors_refuse_what_they_should(importer: str, imported: str, verdict: bool) -> None:
    assert allowed(importer, imported) is verdict
