"""Anonymous players: a random id in a cookie signed with the server secret (HMAC-SHA256)."""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import re
import secrets
from collections.abc import Mapping
from typing import NamedTuple

COOKIE_NAME = "couyon_player"
"""The cookie's name over plain HTTP, and its name over HTTPS before the ``__Host-`` prefix (still read)."""
SECURE_COOKIE_NAME = "__Host-couyon_player"
"""Its name over HTTPS: browsers accept a ``__Host-`` cookie only if it is Secure, has Path=/ and no Domain,
so neither a sibling subdomain nor a plain-HTTP answer can plant or overwrite it."""
COOKIE_MAX_AGE = 400 * 24 * 3600  # The longest lifetime browsers accept.
PLAYER_ID = re.compile(r"p_[A-Za-z0-9_-]{1,64}")
"""What ``new_player_id`` makes (``token_urlsafe``): no dot and no colon, so the generation a cookie or a code
signs cannot be read as part of another id."""


class CookiePlayer(NamedTuple):
    """What a well-signed player cookie says: the player, the recovery generation it was issued under, and
    whether it came by the old name only (to be renamed over HTTPS)."""

    player_id: str
    generation: int
    old_name: bool


def cookie_player(secret: bytes, cookies: Mapping[str, str]) -> CookiePlayer | None:
    """The well-signed player cookie of a request's cookies, or None: a missing, forged or undecodable cookie
    is no cookie. Whether its generation is still the player's is the store's to say (``Store.recovery_generation``).

    A well-signed ``__Host-`` cookie wins over the old name, so a planted old-name cookie cannot override it.
    """
    signed = signed_player(secret, cookies.get(SECURE_COOKIE_NAME))
    if signed is not None:
        return CookiePlayer(*signed, old_name=False)
    signed = signed_player(secret, cookies.get(COOKIE_NAME))
    return None if signed is None else CookiePlayer(*signed, old_name=True)


def rate_key(secret: bytes, cookies: Mapping[str, str]) -> str | None:
    """Whom the rate limits count for a request's cookies (``limits.RequestLimits``, before any database read):
    the player in the cookie's generation, so a device whose session a new recovery code ended does not
    spend the budget of the device that made it."""
    found = cookie_player(secret, cookies)
    if found is None:
        return None
    return found.player_id if not found.generation else f"{found.player_id}.{found.generation}"


def new_player_id() -> str:
    return "p_" + secrets.token_urlsafe(18)


def _signature(secret: bytes, player_id: str, generation: int = 0) -> str:
    # A cookie issued after the player's first new recovery code signs that code's generation too.
    message = b"player:" + player_id.encode() + (f":{generation}".encode() if generation else b"")
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def signed_cookie(secret: bytes, player_id: str, generation: int = 0) -> str:
    """The cookie value: ``<player id>.<signature>``, or ``<player id>.<generation>.<signature>`` once the
    player has made a new recovery code (``generation``, ``Store.recovery_generation``)."""
    number = f".{generation}" if generation else ""
    return f"{player_id}{number}.{_signature(secret, player_id, generation)}"


def _generation(number: str) -> int | None:
    """A generation as a cookie or a code writes it: 1 to 999999999, no leading zero; None for anything else."""
    if not (number.isascii() and number.isdigit()) or number.startswith("0") or len(number) > 9:
        return None
    return int(number)


@functools.lru_cache(maxsize=4096)
def signed_player(secret: bytes, cookie: str | None) -> tuple[str, int] | None:
    """The player id and generation of a well-signed cookie, or None for a missing, forged or undecodable one.

    A cookie header is read as Latin-1, so it may hold any character: whatever is not ASCII is no
    cookie of this server (and ``hmac.compare_digest`` refuses non-ASCII text).

    The answer depends on the secret and the cookie alone, so the last few thousand are kept: a request's
    cookie is checked by the rate limits and by the route, and again on the player's next request.
    """
    if not cookie or len(cookie) > 200 or not cookie.isascii():
        return None
    rest, dot, signature = cookie.rpartition(".")
    if not dot:
        return None
    player_id, dot, number = rest.rpartition(".")
    generation: int | None = 0
    if not dot:
        player_id = rest
    else:
        generation = _generation(number)
    if generation is None or not PLAYER_ID.fullmatch(player_id):
        return None
    if not hmac.compare_digest(signature.encode(), _signature(secret, player_id, generation).encode()):
        return None
    return player_id, generation


def player_of(secret: bytes, cookie: str | None) -> str | None:
    """The player id of a well-signed cookie (of any generation), or None for a missing or forged one."""
    signed = signed_player(secret, cookie)
    return None if signed is None else signed[0]


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
        body = rest
    found = _generation(number) if dot else 0
    if found is None or not PLAYER_ID.fullmatch("p_" + body):
        return None
    player_id, generation = "p_" + body, found
    if not hmac.compare_digest(signature.encode(), _recovery_signature(secret, player_id, generation).encode()):
        return None
    return player_id, generation
