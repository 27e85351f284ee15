"""Players' names (couyon.server.names): NFKC, a visible letter or digit, no invisible characters, one script, and
no name that looks like the name of another player on a leaderboard (a TR39-style skeleton)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from couyon.server.errors import ApiError
from couyon.server.names import skeleton, valid_name
from couyon.store import LeaderboardEntry, Store, StoredGame


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Ｍａｒｉｅ", "Marie"),  # fullwidth letters: NFKC, not NFC
        ("𝐌𝐚𝐫𝐢𝐞", "Marie"),  # mathematical bold
        ("ﬁona", "fiona"),
        ("  Marie-Thérèse d'Arlon ", "Marie-Thérèse d'Arlon"),
        ("Marie  Ourthe", "Marie  Ourthe"),
        ("Ελένη", "Ελένη"),
        ("Саша", "Саша"),
        ("山田たろう", "山田たろう"),  # Han and Hiragana: one Japanese name
        ("김민준", "김민준"),
        ("王小明 Wang", "王小明 Wang"),
        ("R2-D2", "R2-D2"),
        ("007", "007"),
    ],
)
def test_names_are_normalised_with_nfkc(raw: str, expected: str) -> None:
    assert valid_name(raw) == expected


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("\u3164", "invisible"),  # HANGUL FILLER, a "letter" that shows nothing
        ("\u115f\u115f", "invisible"),  # HANGUL CHOSEONG FILLER
        ("\uffa0", "invisible"),  # HALFWIDTH HANGUL FILLER
        ("Marie\u3164", "invisible"),
        ("Ma\u00adrie", "invisible"),  # soft hyphen
        ("...", "at least one letter or digit"),
        ("- _ .", "at least one letter or digit"),
        ("M\u0430rie", "mix Cyrillic and Latin"),  # a Cyrillic а among Latin letters
        ("Ρaul", "mix Greek and Latin"),
        ("Marie\u0301\u0301\u0301", "only letters, digits"),  # stacked combining marks
        ("x" * 25, "1 to 24 characters"),
        ("   ", "1 to 24 characters"),
    ],
)
def test_invisible_mixed_and_empty_names_are_refused(raw: str, why: str) -> None:
    with pytest.raises(ApiError) as refused:
        valid_name(raw)
    assert refused.value.status == 422 and refused.value.code == "invalid_name"
    assert why in refused.value.message and refused.value.message.endswith((".", "'"))


def test_skeletons_make_lookalikes_equal_and_keep_different_names_apart() -> None:
    alike = [
        ("Marie", "MARIE"),
        ("Marie", "M\u0430rie"),  # Cyrillic а
        ("Marie", "rnarie"),
        ("Marie", "Ｍａｒｉｅ"),
        ("Il", "ll"),
        ("Il", "1l"),
        ("POPE", "РОРЕ"),  # every letter Cyrillic
        ("Oscar", "0scar"),
        ("Wendy", "VVendy"),
        ("Jean Luc", "Jean  Luc"),
    ]
    for one, other in alike:
        assert skeleton(one) == skeleton(other), (one, other)
    for one, other in [("Marie", "Marié"), ("Marie", "Maria"), ("Jean-Luc", "Jean Luc"), ("Саша", "Cawa")]:
        assert skeleton(one) != skeleton(other), (one, other)


def player_of(client: Any) -> str:
    player_id: str = client.cookies["couyon_player"].rpartition(".")[0]
    return player_id


def put_on_a_board(store: Store, player_id: str) -> None:
    """A verified entry of a finished game of ``player_id`` (what a won ranked game leaves)."""
    now = dt.datetime(2026, 11, 29, 9, 0)
    game = StoredGame("g_" + player_id[-10:], player_id, "free", None, True, "seed", "standard", "random/1", now)
    store.create_game(game, [])
    store.enter(LeaderboardEntry(game.id, "free", None, player_id, 1300, 9, now))


def test_a_name_may_not_look_like_that_of_another_player_on_a_board(make_client: Any) -> None:
    marie = make_client()
    assert marie.put("/api/player", json={"name": "Marie"}).json() == {"name": "Marie"}
    store = marie.app.state.store
    other = make_client()
    # Not on a board yet: the name is free (names are not accounts).
    assert other.put("/api/player", json={"name": "marie"}).status_code == 200
    put_on_a_board(store, player_of(marie))
    for lookalike in ("Marie", "MARIE", "rnarie", "Ｍａｒｉｅ", "Mar1e"):
        refused = other.put("/api/player", json={"name": lookalike})
        assert refused.status_code == 422, (lookalike, refused.text)
        assert refused.json()["error"] == {
            "code": "invalid_name",
            "message": "This name looks like the name of another player on the leaderboards: choose another.",
        }
    assert other.get("/api/player").json() == {"name": "marie"}  # Kept as it was (chosen before).
    assert other.put("/api/player", json={"name": "Marion"}).json() == {"name": "Marion"}
    # A new player (no cookie yet) is refused too, and nothing is created for the refusal.
    newcomer = make_client()
    assert newcomer.put("/api/player", json={"name": "MARIE"}).status_code == 422
    assert "couyon_player" not in newcomer.cookies
    # Marie herself may write her name otherwise.
    assert marie.put("/api/player", json={"name": "MARIE"}).json() == {"name": "MARIE"}
    # Whole-script lookalikes: an all-Cyrillic POPE.
    pope = make_client()
    assert pope.put("/api/player", json={"name": "POPE"}).status_code == 200
    put_on_a_board(store, player_of(pope))
    assert other.put("/api/player", json={"name": "РОРЕ"}).status_code == 422


def test_names_over_the_api_are_nfkc_and_invisible_ones_refused(make_client: Any) -> None:
    client = make_client()
    assert client.put("/api/player", json={"name": "Ｍａｒｉｅ"}).json() == {"name": "Marie"}
    for bad in ("\u3164", "\u115f", "\uffa0", "M\u0430rie", "..."):
        response = client.put("/api/player", json={"name": bad})
        assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_name", bad
    assert client.get("/api/player").json() == {"name": "Marie"}
