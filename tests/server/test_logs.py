"""Structured logs: one JSON object per line, with the record's extra fields."""

from __future__ import annotations

import json
import logging

from couyon.server.logs import JsonFormatter


def test_a_record_becomes_one_json_line_with_its_extras() -> None:
    record = logging.LogRecord("couyon.access", logging.INFO, __file__, 1, "request %s", ("done",), None)
    record.status = 409
    record.path = "/api/games/g_1/moves"
    line = JsonFormatter().format(record)
    assert "\n" not in line
    document = json.loads(line)
    assert document["level"] == "info" and document["logger"] == "couyon.access"
    assert document["message"] == "request done" and document["status"] == 409
    assert document["path"] == "/api/games/g_1/moves" and document["time"].endswith("+00:00")


def test_an_exception_is_logged_in_the_line_not_elsewhere() -> None:
    try:
        raise ValueError("boom")
    except ValueError:
        import sys

        record = logging.LogRecord("couyon.server", logging.ERROR, __file__, 1, "failed", (), sys.exc_info())
    document = json.loads(JsonFormatter().format(record))
    assert "ValueError: boom" in document["exception"]
