"""What the docs state as facts of the code, read from both: the docs' sentences and the registry, the settings and
the request models. A doc reworded so that a pattern no longer finds its sentence fails here too: write the new
sentence's pattern, never drop the check. (docs/api.md once named expert/1 as tarot's hint bot; the registry's is
expert/3.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from couyon import __version__
from couyon.registry import DEFAULT_GAME, GAMES
from couyon.server.app import HSTS, MoveRequest, RecoveryRequest, create_app
from couyon.server.config import SECRET_MIN_BYTES, Settings
from couyon.server.identity import new_player_id, recovery_code
from couyon.server.names import NAME_MAX

DOCS = Path(__file__).resolve().parents[2] / "docs"
TAROTS = ("tarot3", "tarot4", "tarot5")
NAMED = {
    "couyon": ("couyon",),
    "Malmedy": ("malmedy",),
    "coucou": ("coucou",),
    "as-qui-court": ("as-qui-court",),
    "tarot": TAROTS,
}
"""How the docs' prose names games: tarot is its three tables."""


def doc(name: str) -> str:
    """A doc's text with its line breaks as spaces (a sentence may wrap anywhere)."""
    return re.sub(r"\s+", " ", (DOCS / name).read_text("utf-8"))


def stated(name: str, pattern: str) -> re.Match[str]:
    """The one place ``pattern`` matches in the doc; fails, naming it, if the doc says it nowhere."""
    found = list(re.finditer(pattern, doc(name)))
    assert found, f"docs/{name} no longer states what {pattern!r} reads: update the pattern with the doc"
    assert len(found) == 1, f"docs/{name} states {pattern!r} {len(found)} times"
    return found[0]


def bots_by_game(listed: str) -> dict[str, str]:
    """``couyon `expert/3`, Malmedy `expert/1`, tarot `expert/3``` as {game id: bot id}."""
    pairs = re.findall(r"([\w-]+) `([a-z]+/[0-9]+)`", listed)
    assert pairs, listed
    return {game: bot for name, bot in pairs for game in NAMED[name]}


def test_the_hint_bots_are_the_registrys() -> None:
    listed = stated("api.md", r"asks what the game's expert \(([^)]*)\) would play")
    assert bots_by_game(listed.group(1)) == {game: kind.hint_bot_id for game, kind in GAMES.items()}


def test_the_tables_bots_of_each_level_are_the_registrys() -> None:
    levels = stated(
        "api.md",
        r"seats the game's `([a-z]+/[0-9]+)` bots, `\"expert\"` \(the default\) the table bot \(([^)]*?), or what",
    )
    leveled = [game for game, kind in GAMES.items() if tuple(kind.level_bots) == ("beginner",)]
    assert sorted(leveled) == sorted(["couyon", "malmedy", *TAROTS])
    assert {game: GAMES[game].level_bots["beginner"] for game in leveled} == dict.fromkeys(leveled, levels.group(1))
    assert bots_by_game(levels.group(2)) == {game: GAMES[game].table_bot_id for game in leveled}
    coucou = stated("api.md", r"the bot id is `([a-z]+/[0-9]+)`, `([a-z]+/[0-9]+)` or `([a-z]+/[0-9]+)`;")
    assert list(coucou.groups()) == list(GAMES["coucou"].level_bots.values())
    reviewed = stated(
        "api.md", r"the game's bot \(the level's: `([a-z]+/[0-9]+)`, `([a-z]+/[0-9]+)` or `([a-z]+/[0-9]+)`\)"
    )
    assert reviewed.groups() == coucou.groups()


def test_the_health_and_catalog_examples_hold_the_registrys_values() -> None:
    health = stated("api.md", r"\| `GET /api/health` \| \| `(\{.*?\})`")
    example = json.loads(health.group(1).replace(", …}", "}"))
    assert example["version"] == __version__
    assert example["bot"] == GAMES[DEFAULT_GAME].table_bot_id
    assert example["bots"] == {game: GAMES[game].table_bot_id for game in example["bots"]}
    catalog = stated("api.md", r"\{\"id\": \"couyon\", \"names\": .*?\"hints\": (?:true|false)\}")
    fields = json.loads(re.sub(r"\"…\"", '""', catalog.group(0)))
    described = GAMES["couyon"].describe()
    for name in ("id", "players", "record_format", "variant", "table_bot", "rules", "options", "hints"):
        assert fields[name] == described[name], name
    assert stated("api.md", r"`GET /api/catalog` \| \| `\{\"default\": \"(\w+)\"").group(1) == DEFAULT_GAME


def test_coucous_table_options_and_daily_are_the_registrys() -> None:
    options = stated(
        "api.md",
        r"`players` ([0-9]+)–([0-9]+) \(default ([0-9]+)\), `tokens` ([0-9]+)–([0-9]+) \(default ([0-9]+)\), "
        r"`level` `(\w+)`, `(\w+)` or `(\w+)` \(default `(\w+)`;",
    ).groups()
    rules = {rule.name: rule for rule in GAMES["coucou"].options}
    for offset, name in ((0, "players"), (3, "tokens")):
        low, high, default = (int(value) for value in options[offset : offset + 3])
        assert (list(rules[name].values), rules[name].default) == (list(range(low, high + 1)), default), name
    assert (list(rules["level"].values), rules["level"].default) == (list(options[6:9]), options[9])
    daily = stated(
        "api.md", r"A daily game is always `(\{\"players\": [0-9]+, \"tokens\": [0-9]+, \"level\": \"\w+\"\})`"
    )
    assert json.loads(daily.group(1)) == GAMES["coucou"].daily_options


def test_the_request_limits_are_the_models() -> None:
    move = stated("api.md", r"or a card; at most ([0-9]+) characters")
    assert int(move.group(1)) == MoveRequest.model_fields["move"].metadata[-1].max_length
    code = recovery_code(b"documented-values-secret", new_player_id(), 0)
    length = stated("api.md", r"cut to 120 bits, ([0-9]+) characters in all")
    assert int(length.group(1)) == len(code)
    longest = stated("api.md", r"a text over ([0-9]+) characters is 422 `invalid_fields`")
    assert int(longest.group(1)) == RecoveryRequest.model_fields["code"].metadata[-1].max_length
    name = stated("api.md", r"and is 1–([0-9]+) characters: letters")
    assert int(name.group(1)) == NAME_MAX
    assert int(stated("server.md", r"normalisation \([^)]*\), 1–([0-9]+) letters").group(1)) == NAME_MAX


def test_the_leaderboards_limit_is_the_routes(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}", secret="s" * 40))
    try:
        parameters = app.openapi()["paths"]["/api/leaderboard"]["get"]["parameters"]
    finally:
        app.state.replay.close()
        app.state.store.close()
    limit: dict[str, Any] = next(p for p in parameters if p["name"] == "limit")["schema"]
    low, high, default = stated("api.md", r"`limit` \(([0-9]+)–([0-9]+), default ([0-9]+)\)").groups()
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (int(low), int(high), int(default))


def test_the_servers_defaults_and_constants_are_the_codes() -> None:
    defaults = Settings.from_environment({})
    games, moves = stated(
        "server.md",
        r"`COUYON_RATE_GAMES_PER_MINUTE` new games \(default ([0-9]+)\) and `COUYON_RATE_MOVES_PER_MINUTE` moves and "
        r"name changes \(default ([0-9]+)\)",
    ).groups()
    assert (int(games), int(moves)) == (defaults.rate_games_per_minute, defaults.rate_moves_per_minute)
    assert int(stated("server.md", r"secret shorter than ([0-9]+) bytes").group(1)) == SECRET_MIN_BYTES
    assert stated("server.md", r"`Strict-Transport-Security: (max-age=[0-9]+)`").group(1).encode() == HSTS


SETTING_OF = {"COUYON_RATE_READS_PER_MINUTE": "reads_per_minute", "COUYON_TABLE_GRACE_S": "table_grace_seconds"}
"""Variables whose setting is read through another name (None stands for twice the moves' limit)."""


@pytest.mark.parametrize(
    "variable",
    [
        "COUYON_PORT",
        "COUYON_WORKERS",
        "COUYON_RATE_GAMES_PER_MINUTE",
        "COUYON_RATE_MOVES_PER_MINUTE",
        "COUYON_RATE_READS_PER_MINUTE",
        "COUYON_MAX_REQUESTS_PER_ADDRESS",
        "COUYON_MAX_BODY_BYTES",
        "COUYON_MAX_HEADER_BYTES",
        "COUYON_MAX_HEADERS",
        "COUYON_MAX_URL_BYTES",
        "COUYON_HEADER_TIMEOUT_SECONDS",
        "COUYON_BODY_TIMEOUT_SECONDS",
        "COUYON_KEEPALIVE_SECONDS",
        "COUYON_MAX_CONNECTIONS",
        "COUYON_MAX_CONNECTIONS_PER_ADDRESS",
        "COUYON_RETENTION_DAYS",
        "COUYON_PRUNE_INTERVAL_SECONDS",
        "COUYON_TABLE_GRACE_S",
        "COUYON_TABLE_JOINS_PER_MINUTE",
    ],
)
def test_each_documented_default_of_a_setting_is_its_default(variable: str) -> None:
    row = stated(
        "operations.md", rf"\| `{variable}`(?: \(`--[a-z-]+`\))? \| [^|`]*`([0-9]+)`\)?(?: \(at least ([0-9]+)\))? \|"
    )
    setting = SETTING_OF.get(variable, variable.removeprefix("COUYON_").lower())
    assert getattr(Settings.from_environment({}), setting) == int(row.group(1))
    if row.group(2) is not None:  # The smallest value accepted: one less is refused.
        Settings.from_environment({variable: row.group(2)})
        with pytest.raises(ValueError, match=variable):
            Settings.from_environment({variable: str(int(row.group(2)) - 1)})


def test_the_new_player_limit_operations_md_names_is_the_apps(tmp_path: Path) -> None:
    """operations.md's note on a second cookie previewing the day's deals names the limit that slows it."""
    from couyon.server.limits import RequestLimits

    per_minute = stated(
        "operations.md", r"The new-player limit per address \(`COUYON_RATE_GAMES_PER_MINUTE`, ([0-9]+) a minute\)"
    )
    defaults = Settings.from_environment({})
    app = create_app(Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'c.sqlite3'}", secret="s" * 40))
    try:
        limits = next(layer for layer in app.user_middleware if layer.cls is RequestLimits)
    finally:
        app.state.replay.close()
        app.state.store.close()
    new_players = limits.kwargs["new_players"]
    assert new_players.per_player == defaults.rate_games_per_minute == int(per_minute.group(1))
    assert new_players.address_factor == 1  # As many new players per address as new games per player id.
