"""Structured logs: one JSON object a line (time, level, logger, message, and the record's
`fields`). Callers pass only what is safe to print: never a token, a password, a hash, an
unrevealed seed or a card."""

from __future__ import annotations

import contextlib
import json
import logging
import re
import sys
from datetime import UTC, datetime

__all__ = ["JsonFormatter", "RedactTokens", "redact_tokens", "setup"]

_TOKEN_IN_QUERY = re.compile(r"(token=)[^&\s\"']+")
# uvicorn's words (0.55's WebSocket protocols) for a client's bad bytes, which it logs with a traceback
_CLIENT_FAULTS = {"Invalid UTF-8 sequence received from client."}


class RedactTokens(logging.Filter):
    """uvicorn logs each request's path with its query, and a client that can send neither a
    header nor a cookie carries its session as `?token=`: the value is replaced in the record's
    arguments (their shape kept for uvicorn's own formatters) or message before any handler sees
    it. A record this cannot read is passed on as it is, for logging to report. A client's own
    bad bytes (a text frame that is not UTF-8) are a line, not a traceback: any client can send
    them, and the socket is closed (1007) whatever is logged."""

    def filter(self, record: logging.LogRecord) -> bool:
        with contextlib.suppress(Exception):
            if isinstance(record.args, tuple):
                record.args = tuple(_redacted(a) for a in record.args)
            record.msg = _redacted(record.msg)
            if record.exc_info and record.msg in _CLIENT_FAULTS:
                record.exc_info, record.levelno, record.levelname = None, logging.INFO, "INFO"
        return True


def _redacted(value: object) -> object:
    return _TOKEN_IN_QUERY.sub(r"\1[redacted]", value) if isinstance(value, str) and "token=" in value else value


def redact_tokens() -> None:
    """Filters uvicorn's loggers (once), whoever set up the handlers."""
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactTokens) for f in logger.filters):
            logger.addFilter(RedactTokens())


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        line |= getattr(record, "fields", {})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def setup(level: str = "info") -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for chatty in ("websockets", "uvicorn.error"):  # at debug these print frames, cards included
        logging.getLogger(chatty).setLevel(max(logging.INFO, root.level))
