"""Table options (``POST /api/games`` ``options``): refused in one sentence where a game has no such option or
the value is not offered, and never stored for a refused request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import text

from couyon.registry import COUYON, GameKind, OptionRule


def test_an_option_the_game_has_not_is_refused_and_nothing_is_stored(make_client: Callable[..., Any]) -> None:
    client = make_client()
    response = client.post("/api/games", json={"mode": "free", "game": "tarot3", "options": {"players": 4}})
    assert response.status_code == 422
    assert response.json() == {"error": {"code": "invalid_fields", "message": "Tarot3 has no option 'players'."}}
    store = client.app.state.store
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT COUNT(*) FROM games")).scalar_one() == 0
    answer = client.post("/api/games", json={"mode": "free", "game": "tarot3", "options": {}})
    # Tarot's one option, the level, is defaulted (the table's expert).
    assert answer.status_code == 201 and answer.json()["options"] == {"level": "expert"}


def test_options_are_checked_against_their_rules_and_defaulted() -> None:
    kind = GameKind(
        **{name: getattr(COUYON, name) for name in COUYON.__slots__ if name not in ("options", "daily_options")},
        options=(OptionRule("players", tuple(range(5, 21)), 8), OptionRule("level", ("easy", "expert"), "expert")),
    )
    assert kind.parse_options(None) == {"players": 8, "level": "expert"}
    assert kind.parse_options({"players": 20}) == {"players": 20, "level": "expert"}
    for wrong, sentence in (
        ({"players": 21}, "the option players of couyon is one of 5, 6, 7"),
        ({"players": True}, "the option players of couyon is one of"),
        ({"level": "hard"}, "the option level of couyon is one of easy, expert"),
        ({"tokens": 3}, "couyon has no option 'tokens'"),
    ):
        with pytest.raises(ValueError, match=sentence):
            kind.parse_options(wrong)
