"""The JSON the server sends, over HTTP and over the tables' sockets: one encoder for every answer.

orjson writes a move's answer in about a tenth of the standard library's time (docs/performance.md, "The server's
own cost"); its output is the same compact UTF-8 JSON (``separators=(",", ":")``, ``ensure_ascii=False``).
"""

from __future__ import annotations

import orjson
from starlette.responses import Response


def json_bytes(document: object) -> bytes:
    """``document`` as compact UTF-8 JSON; a key that is not a string (a seat's number) is written as one."""
    return orjson.dumps(document, option=orjson.OPT_NON_STR_KEYS)


def json_text(document: object) -> str:
    """``json_bytes`` as text, for a socket's text frame."""
    return json_bytes(document).decode()


def json_response(document: object, status: int = 200) -> Response:
    """An HTTP answer of ``document`` as JSON."""
    return Response(json_bytes(document), status, media_type="application/json")
