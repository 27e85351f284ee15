"""The player cookie: a random id signed with the server secret; anything else owns nothing."""

from __future__ import annotations

from couyon.server.identity import (
    new_player_id,
    player_of,
    player_of_recovery_code,
    recovery_code,
    signed_cookie,
    signed_player,
)


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


def test_a_cookie_carries_the_recovery_generation_it_was_issued_under() -> None:
    player_id = new_player_id()
    assert signed_player(b"secret", signed_cookie(b"secret", player_id)) == (player_id, 0)
    third = signed_cookie(b"secret", player_id, 3)
    assert third.startswith(f"{player_id}.3.") and signed_player(b"secret", third) == (player_id, 3)
    signature = third.rpartition(".")[2]
    # The generation is signed: another number, a number on a cookie of generation 0, or a leading zero is forged.
    for forged in (f"{player_id}.4.{signature}", f"{player_id}.03.{signature}", f"{player_id}.{signature}"):
        assert signed_player(b"secret", forged) is None, forged
    first_signature = signed_cookie(b"secret", player_id).rpartition(".")[2]
    assert signed_player(b"secret", f"{player_id}.1.{first_signature}") is None
    # A generation's signature does not name another id: "p_x" of generation 1 is not a cookie of "p_x:1".
    assert signed_player(b"secret", f"{player_id}:3.{signature}") is None
    # Nor does a recovery code's: the second code of "p_x" is no code of "p_x:1".
    body, number, code_signature = recovery_code(b"secret", player_id, 1).split(".")
    assert player_of_recovery_code(b"secret", f"{body}.{number}.{code_signature}") == (player_id, 1)
    assert player_of_recovery_code(b"secret", f"{body}:{number}.{code_signature}") is None
