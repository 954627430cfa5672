"""Structured logs: one JSON object a line (time, level, logger, message, and the record's
`fields`). Callers pass only what is safe to print: never a token, a password, a hash, an
unrevealed seed or a card."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

__all__ = ["JsonFormatter", "setup"]


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
