"""The web page's modules (issue 18): one shared table, one module per game behind it, no import circle.

Read from the files themselves: every ``import … from "…"`` and ``import("…")`` of src/couyon/web/js.
"""

from __future__ import annotations

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "src" / "couyon" / "web"
JS = WEB / "js"
GAMES = ("couyon", "malmedy", "tarot", "coucou")
STATIC = re.compile(r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""", re.M)
DYNAMIC = re.compile(r"""\bimport\(\s*["']([^"']+)["']\s*\)""")


def imports(path: Path) -> tuple[set[Path], set[Path]]:
    """The modules ``path`` imports statically, and those it imports with ``import()``."""
    text = path.read_text(encoding="utf-8")
    static = {m.group(1) or m.group(2) for m in STATIC.finditer(text)}
    dynamic = {m.group(1) for m in DYNAMIC.finditer(text)}

    def resolve(names: set[str]) -> set[Path]:
        return {(path.parent / name).resolve() if name.startswith(".") else WEB / name.lstrip("/") for name in names}

    return resolve(static), resolve(dynamic)


def graph() -> dict[Path, tuple[set[Path], set[Path]]]:
    return {path.resolve(): imports(path) for path in JS.rglob("*.js")}


def reachable(start: Path, edges: dict[Path, tuple[set[Path], set[Path]]], *, dynamic: bool) -> set[Path]:
    seen: set[Path] = set()
    todo = [start]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        static, lazy = edges.get(node, (set(), set()))
        todo.extend(static | lazy if dynamic else static)
    return seen


def test_every_import_names_a_file() -> None:
    for path, (static, lazy) in graph().items():
        for target in static | lazy:
            assert target.is_file(), f"{path.relative_to(WEB)} imports a missing {target}"


def test_no_import_circle_even_through_import() -> None:
    edges = graph()
    for path, (static, lazy) in edges.items():
        for target in static | lazy:
            assert path not in reachable(target, edges, dynamic=True), (
                f"{path.relative_to(WEB)} imports {target.relative_to(WEB)}, which leads back to it"
            )


def test_a_game_module_uses_the_shared_table_only() -> None:
    edges = graph()
    table = (JS / "table.js").resolve()
    for game in GAMES:
        for module in (JS / "games" / f"{game}.js", JS / "games" / f"{game}-words.js"):
            assert module.is_file(), module
            assert table not in reachable(module.resolve(), edges, dynamic=True), f"{module.name} reaches js/table.js"


def test_the_home_page_loads_no_game_and_no_table() -> None:
    """What index.html reaches by static imports holds the catalogue but no game's module, words or table."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    entries = {WEB / name.lstrip("/") for name in re.findall(r'<script type="module" src="([^"]+)"', html)}
    entries |= {WEB / name.lstrip("/") for name in re.findall(r'rel="modulepreload" href="([^"]+)"', html)}
    edges = graph()
    loaded = set().union(*(reachable(entry.resolve(), edges, dynamic=False) for entry in entries))
    names = {path.relative_to(WEB).as_posix() for path in loaded}
    assert "js/games/index.js" in names and "js/i18n.js" in names, names
    for game in GAMES:
        assert f"js/games/{game}.js" not in names and f"js/games/{game}-words.js" not in names, names
    assert "js/table.js" not in names, names
