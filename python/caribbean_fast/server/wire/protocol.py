"""The wire protocol, version 1 (docs/protocol.md): reading client frames, writing server frames.

`parse` turns one text frame into a `Command` of the list in `commands` (which checks its fields)
or raises `ServerError` with the protocol's code and a message naming the field; nothing else in
the server reads raw frames. A view goes out as the engine writes it (`words.views.view_to_json`),
so what a seat is shown is decided by the engine's `view` alone.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

from ...errors import ServerError
from .commands import MOST, PROTOCOL, VERSION, Command

__all__ = [
    "MAX_FRAME",
    "MOST",
    "TYPES",
    "VERSION",
    "Command",
    "Moved",
    "answer",
    "frame",
    "frame_id",
    "load_json",
    "parse",
]

MAX_FRAME = 4096
TYPES = frozenset(PROTOCOL)
"""The commands a client may send: the list in `commands`."""


def _id(raw: dict[str, Any]) -> int | str | None:
    value = raw.get("id")
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int) and 0 <= value <= 2**53:
        return value
    if isinstance(value, str) and len(value) <= 64:
        return value
    return None


def load_json(text: str | bytes) -> Any:
    """JSON from a client (a frame, an HTTP body): orjson (a fourth of the standard library's
    time), or, for what orjson refuses and the standard library reads (numbers beyond 64 bits,
    NaN), the standard library's, so that such a frame is refused for its field, not as JSON.
    ValueError for anything else: JSON nested past orjson's 1,024 levels, or text that is not
    UTF-8 once read (a lone surrogate, escaped or not), which no answer could quote back."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        try:
            value = json.loads(text)
            json.dumps(value, ensure_ascii=False).encode()
        except (RecursionError, UnicodeEncodeError) as err:
            raise ValueError(f"not JSON a server reads: {type(err).__name__}") from None
        return value


def parse(text: str | bytes) -> Command:
    """One client frame as a command of the list in `commands`, its fields checked there;
    ServerError (malformed, version, unknown_type, bad_field)."""
    try:
        raw = load_json(text)
    except ValueError:  # UnicodeDecodeError included
        raise ServerError("the frame is not JSON (UTF-8, nested at most 1,024 deep)", "malformed") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ServerError('a frame is a JSON object with a "type"', "malformed")
    if type(raw.get("v")) is not int or raw["v"] != VERSION:  # not true, not 1.0
        raise ServerError(f'this server speaks protocol version {VERSION}: "v": {VERSION}', "version")
    spec = PROTOCOL.get(raw["type"])
    if spec is None:
        raise ServerError(f"{raw['type'][:40]!r} is not a command", "unknown_type")
    if raw.get("id") is not None and _id(raw) is None:  # an answer the client could not match
        raise ServerError("id: must be an integer from 0 to 2^53 or a string of at most 64 characters", "bad_field")
    return Command(_id(raw), spec, spec.read(raw))


def frame_id(text: str | bytes) -> int | str | None:
    """The id of a frame `parse` refused, where one can be read (for its answer)."""
    try:
        raw = load_json(text)
    except ValueError:
        return None
    return _id(raw) if isinstance(raw, dict) else None


def frame(kind: str, **fields: Any) -> str:
    """A server frame as compact JSON (orjson: every seat's view after every event is most of
    what a busy server writes)."""
    return orjson.dumps({"v": VERSION, "type": kind, **fields}).decode()


class Moved(ServerError):
    """A command for a table another process serves, sent on a table's socket (`/ws/<table>`):
    refused `moved` with `endpoint`, the URL of the socket where the table is served (the client
    opens it and sends the command there); nothing was done."""

    def __init__(self, table: str, endpoint: str) -> None:
        super().__init__(f"{table} is served by another process: {endpoint}", "moved")
        self.table, self.endpoint = table, endpoint


def answer(ident: int | str | None, result: dict[str, Any] | None = None, error: ServerError | None = None) -> str:
    if error is not None:
        where = {"endpoint": error.endpoint} if isinstance(error, Moved) else {}
        return frame("answer", id=ident, ok=False, error={"code": error.code, "message": str(error), **where})
    return frame("answer", id=ident, ok=True, result=result or {})
