"""Anonymous players: a random id in a cookie signed with the server secret (HMAC-SHA256)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

COOKIE_NAME = "couyon_player"
COOKIE_MAX_AGE = 400 * 24 * 3600  # The longest lifetime browsers accept.


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(18)


def _signature(secret: bytes, player_id: str) -> str:
    digest = hmac.new(secret, b"player:" + player_id.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def signed_cookie(secret: bytes, player_id: str) -> str:
    """The cookie value: ``<player id>.<signature>``."""
    return f"{player_id}.{_signature(secret, player_id)}"


def player_of(secret: bytes, cookie: str | None) -> str | None:
    """The player id of a well-signed cookie, or None for a missing or forged one."""
    if not cookie or len(cookie) > 200:
        return None
    player_id, dot, signature = cookie.rpartition(".")
    if not dot or not player_id.startswith("p_"):
        return None
    if not hmac.compare_digest(signature, _signature(secret, player_id)):
        return None
    return player_id
