"""Every file, folder and ``couyon.…`` module that README.md and docs/*.md name in backticks exists.

The docs were written for one layout and the code moved (issue 18, one package per game); a path that
no longer exists sends a reader to nothing. What counts as a path here:

- a word with a ``/`` whose last part has a source file's extension (``games/couyon/bots/expert.py``,
  ``js/table.js``), or a word ending with ``/`` (``src/couyon/games/tarot/``); it must exist relative to
  the repository, to ``src/``, to ``src/couyon/`` or to the web folder ``src/couyon/web/`` (the page's
  own paths: ``js/…``, ``css/…``, ``rules/…``);
- a dotted name starting with ``couyon.``: its longest importable prefix is a module
  (``importlib.util.find_spec``) and the rest, if any, an attribute chain of it
  (``couyon.server.limits.GuardedHttpToolsProtocol``).

Inside fenced blocks only words that start with a folder of the repository are read (the folder map, the
commands). Not read: URLs, paths above the repository (``../shared/…``, ``/etc/…``), placeholders and
globs (``<game>``, ``*``, ``{a,b}``, ``…``), and the short list of names below that are not the
repository's files or modules on purpose.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BASES = [ROOT, ROOT / "src", ROOT / "src" / "couyon", ROOT / "src" / "couyon" / "web"]
TOP_FOLDERS = ("src/", "tests/", "benchmarks/", "scripts/", "docs/")
EXTENSIONS = {"py", "md", "js", "css", "html", "json", "toml", "txt", "ini", "cfg", "yml", "yaml", "sh"}

NOT_CHECKED_PATHS = {
    "data/couyon.sqlite3": "the server's default database, created on first start",
    "bots/": "a game package's own folder (games/<game>/bots/) in docs/architecture.md's table of faces",
    "test-artifacts/screenshots/": "written by the browser tests, not kept in the repository",
    "t.json": "a scratch file of a command",
}
SHARED = {
    "design.md",
    "record-format.md",
    "rulings.md",
    "couyon-product.fr.txt",
    "malmedy.md",
    "couyon-malmedy-variant.fr.txt",
    "tarot-record-format.md",
    "tarot-rulings.md",
    "tarot-regles.fr.txt",
    "coucou-record-format.md",
    "coucou-rulings.md",
    "coucou.fr.txt",
}
"""The rule texts and contracts of ``../shared/`` (beside the repository), which the docs name by their file name."""
NOT_MODULES = {
    "couyon.access": "a logger",
    "couyon.game": "a localStorage key of the page",
    "couyon.game.malmedy": "a localStorage key of the page",
    "couyon.game.tarot": "a localStorage key of the page",
    "couyon.speed": "a localStorage key of the page",
    "couyon.sound": "a localStorage key of the page",
    "couyon.language": "a localStorage key of the page",
    "couyon.tarot.players": "a localStorage key of the page",
    "couyon.example": "the example host name of docs/operations.md",
    "couyon.sqlite3": "the default database's file name",
    "games.created_at": "a column of the database's table games",
}

INLINE = re.compile(r"(?<!`)`((?:[^`\n]|\n(?!\s*\n))+?)`(?!`)")
FENCE = re.compile(r"^\s*(```|~~~)")
DOTTED = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)+$")
PACKAGE = ROOT / "src" / "couyon"
CHILDREN = {path.stem for path in PACKAGE.glob("*.py")} | {
    path.parent.name for path in PACKAGE.glob("*/__init__.py")
} - {"__init__"}
"""The modules and packages right under ``couyon``: ``registry.GAMES`` in prose means ``couyon.registry.GAMES``."""
PLACEHOLDER = re.compile(r"[<>*{}…\[\]|$]|\.\.\.")


def spans(text: str) -> list[tuple[int, str, bool]]:
    """(line number, text, inside a fence) of every backticked span (which may run over a line's end) and of
    every fenced line."""
    found: list[tuple[int, str, bool]] = []
    prose: list[str] = []
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if FENCE.match(line):
            fenced = not fenced
            prose.append("")
        elif fenced:
            found.append((number, line, True))
            prose.append("")
        else:
            prose.append(line)
    joined = "\n".join(prose)
    for match in INLINE.finditer(joined):
        found.append((joined.count("\n", 0, match.start()) + 1, match.group(1), False))
    return sorted(found, key=lambda item: item[0])


def words(span: str, fenced: bool) -> list[str]:
    out = []
    for word in re.split(r"[\s=,;()\"']+", span):
        word = word.rstrip(".:`")
        if word.startswith("(") or not word:
            continue
        if fenced and not word.startswith(TOP_FOLDERS):
            continue
        out.append(word)
    return out


def is_path(word: str) -> bool:
    if "/" not in word or "://" in word or word.startswith(("/", "../", "./", "~", "-", "#")):
        return False
    if PLACEHOLDER.search(word):
        return False
    if word.endswith("/"):
        return True
    last = word.rsplit("/", 1)[1]
    return "." in last and last.rsplit(".", 1)[1] in EXTENSIONS


def is_file_name(word: str) -> bool:
    """A bare file name (``expert.py``, ``rules/…`` excluded): it must be the name of a file of the repository."""
    if "/" in word or PLACEHOLDER.search(word) or "." not in word.strip("."):
        return False
    return word.rsplit(".", 1)[1] in EXTENSIONS and not word.startswith(".")


def file_names() -> set[str]:
    names = {path.name for path in ROOT.glob("*") if path.is_file()}
    for folder in ("src", "tests", "benchmarks", "scripts", "docs"):
        names.update(path.name for path in (ROOT / folder).rglob("*") if "__pycache__" not in path.parts)
    return names


FILE_NAMES = file_names()


def path_exists(word: str) -> bool:
    if is_file_name(word):
        return word in FILE_NAMES or word in SHARED
    return any((base / word).exists() for base in BASES)


def module_named(word: str) -> str | None:
    """The ``couyon.…`` name ``word`` stands for, if it is one: ``couyon.x.y``, or ``x.y`` with ``x`` right under
    ``couyon`` (not a file name such as ``server.md``)."""
    if not DOTTED.match(word) or word.rsplit(".", 1)[1] in EXTENSIONS:
        return None
    first = word.split(".", 1)[0]
    if first == "couyon":
        return word
    return f"couyon.{word}" if first in CHILDREN else None


def module_exists(name: str) -> bool:
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        module = ".".join(parts[:end])
        try:
            spec = importlib.util.find_spec(module)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            continue
        target: object = importlib.import_module(module)
        for attribute in parts[end:]:
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def broken(text: str, name: str) -> list[str]:
    """One line per path or module that ``text`` (the page ``name``) names and that does not exist."""
    problems = []
    for number, span, fenced in spans(text):
        for word in words(span, fenced):
            where = f"{name}:{number}: `{word}`"
            if word in NOT_CHECKED_PATHS or word in NOT_MODULES:
                continue
            dotted = module_named(word)
            if dotted:
                if not module_exists(dotted):
                    problems.append(f"{where} is not an importable module (or attribute of one)")
            elif (is_path(word) or is_file_name(word)) and not path_exists(word):
                problems.append(f"{where} does not exist")
    return problems


@pytest.mark.parametrize("document", DOCS, ids=[str(path.relative_to(ROOT)) for path in DOCS])
def test_every_named_path_and_module_exists(document: Path) -> None:
    """Each path and ``couyon.…`` module a doc names in backticks is a real file, folder or module."""
    problems = broken(document.read_text(encoding="utf-8"), str(document.relative_to(ROOT)))
    assert not problems, "\n".join(problems)


def test_the_checker_sees_a_missing_path_and_module() -> None:
    """The rules above catch the old layout's names and keep their exceptions (a check that cannot fail is no check)."""
    sample = (
        "`bots/expert.py`, `src/couyon/cards.py`, `couyon.malmedy_review`, `couyon.registry.NO_SUCH_NAME`\n"
        "```\nsrc/couyon/bots/       gone\n```\n"
        "`games/couyon/bots/expert.py`, `couyon.games.tarot.game`, `js/table.js`, `../shared/spec/malmedy.md`,"
        " `couyon.speed`, `js/games/<game>.js`, `https://example.org/a.py`, `couyon.registry.GAMES`\n"
    )
    assert [line.split(": ", 1)[1] for line in broken(sample, "sample.md")] == [
        "`bots/expert.py` does not exist",
        "`src/couyon/cards.py` does not exist",
        "`couyon.malmedy_review` is not an importable module (or attribute of one)",
        "`couyon.registry.NO_SUCH_NAME` is not an importable module (or attribute of one)",
        "`src/couyon/bots/` does not exist",
    ]
