"""Anonymous players: a random id in a cookie signed with the server secret (HMAC-SHA256)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping

COOKIE_NAME = "couyon_player"
"""The cookie's name over plain HTTP, and its name over HTTPS before the ``__Host-`` prefix (still read)."""
SECURE_COOKIE_NAME = "__Host-couyon_player"
"""Its name over HTTPS: browsers accept a ``__Host-`` cookie only if it is Secure, has Path=/ and no Domain,
so neither a sibling subdomain nor a plain-HTTP answer can plant or overwrite it."""
COOKIE_MAX_AGE = 400 * 24 * 3600  # The longest lifetime browsers accept.


def player_of_cookies(secret: bytes, cookies: Mapping[str, str]) -> tuple[str | None, bool]:
    """The player of a request's cookies, and whether it came from the old name only (to be renamed over HTTPS).

    A valid ``__Host-`` cookie wins over the old name, so a planted old-name cookie cannot override it.
    """
    player_id = player_of(secret, cookies.get(SECURE_COOKIE_NAME))
    if player_id is not None:
        return player_id, False
    player_id = player_of(secret, cookies.get(COOKIE_NAME))
    return player_id, player_id is not None


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(18)


def _signature(secret: bytes, player_id: str) -> str:
    digest = hmac.new(secret, b"player:" + player_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def signed_cookie(secret: bytes, player_id: str) -> str:
    """The cookie value: ``<player id>.<signature>``."""
    return f"{player_id}.{_signature(secret, player_id)}"


def player_of(secret: bytes, cookie: str | None) -> str | None:
    """The player id of a well-signed cookie, or None for a missing, forged or undecodable one.

    A cookie header is read as Latin-1, so a cookie may hold any character: one that is not ASCII is no
    cookie of this server (and ``hmac.compare_digest`` raises on non-ASCII text, which was a 500 on every
    API route for that browser).
    """
    if not cookie or len(cookie) > 200 or not cookie.isascii():
        return None
    player_id, dot, signature = cookie.rpartition(".")
    if not dot or not player_id.startswith("p_"):
        return None
    if not hmac.compare_digest(signature.encode(), _signature(secret, player_id).encode()):
        return None
    return player_id


# -- the recovery code: the same player on another device, without an account -------------------------

RECOVERY_SIGNATURE_BYTES = 15
"""120 bits of HMAC-SHA256: a code cannot be guessed or forged without the server secret."""


def _recovery_signature(secret: bytes, player_id: str, generation: int) -> str:
    # Its own purpose in the message: a cookie's signature is not a recovery code's, nor the other way round.
    # A new code (generation 1, 2, …) signs its number too; generation 0 is the code of a player who never made one.
    message = b"recovery:" + player_id.encode() + (f":{generation}".encode() if generation else b"")
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:RECOVERY_SIGNATURE_BYTES]).decode()


def recovery_code(secret: bytes, player_id: str, generation: int = 0) -> str:
    """The code that gives this player id to whoever enters it: ``<id without p_>.<signature>``, 45 characters,
    or ``<id without p_>.<generation>.<signature>`` once the player has made new codes."""
    number = f".{generation}" if generation else ""
    return f"{player_id.removeprefix('p_')}{number}.{_recovery_signature(secret, player_id, generation)}"


def player_of_recovery_code(secret: bytes, code: str) -> tuple[str, int] | None:
    """The player id and generation of a well-signed recovery code (outer spaces ignored), or None for any other text."""
    rest, dot, signature = code.strip().rpartition(".")
    if not dot or len(code) > 64:
        return None
    body, dot, number = rest.rpartition(".")
    if not dot:
        body, number = rest, "0"
    elif not (number.isascii() and number.isdigit()) or number.startswith("0") or len(number) > 9:
        return None
    if not body:
        return None
    player_id, generation = "p_" + body, int(number)
    if not hmac.compare_digest(signature.encode(), _recovery_signature(secret, player_id, generation).encode()):
        return None
    return player_id, generation
