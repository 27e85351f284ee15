"""The player cookie: a random id signed with the server secret; anything else owns nothing."""

from __future__ import annotations

from couyon.server.identity import new_player_id, player_of, signed_cookie


def test_a_signed_cookie_gives_back_its_player() -> None:
    player_id = new_player_id()
    assert player_of(b"secret", signed_cookie(b"secret", player_id)) == player_id
    assert new_player_id() != player_id


def test_forged_cookies_give_no_player() -> None:
    player_id = new_player_id()
    cookie = signed_cookie(b"secret", player_id)
    assert player_of(b"other secret", cookie) is None
    assert player_of(b"secret", cookie[:-1] + ("A" if cookie[-1] != "A" else "B")) is None
    assert player_of(b"secret", signed_cookie(b"secret", "p_someone").replace("p_someone", "p_another")) is None
    for junk in (None, "", ".", "p_x", "x" * 500, "nop." + cookie.rpartition(".")[2]):
        assert player_of(b"secret", junk) is None


def test_a_cookie_with_characters_that_are_not_ascii_gives_no_player() -> None:
    # A cookie header is read as Latin-1: any byte may arrive; hmac.compare_digest raised on such text (a 500).
    cookie = signed_cookie(b"secret", new_player_id())
    player_id, _, signature = cookie.rpartition(".")
    for junk in (f"{player_id}.{signature[:-1]}é", f"{player_id}.\xff\xfe", f"p_é.{signature}", "\x80", f"{cookie}ÿ"):
        assert player_of(b"secret", junk) is None, junk
