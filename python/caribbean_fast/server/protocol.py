"""The wire protocol, version 1 (docs/protocol.md): reading client frames, writing server frames.

`parse` turns one text frame into a `Command` or raises `ServerError` with the protocol's code and
a message naming the field; nothing else in the server reads raw frames. `view_json` is the only
place a `SeatView` becomes JSON, so what a seat is shown is decided by the engine's `view` alone.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..engine.views import SeatView, view_to_json
from ..errors import ServerError

__all__ = ["MAX_FRAME", "VERSION", "Command", "answer", "frame", "frame_id", "load_json", "parse", "view_json"]

VERSION = 1
MAX_FRAME = 4096
MOST = 10**12

# type -> {field: (kind, required)}; kinds: table, amount, amount_or_null, bool, name, cards, last, seat
_FIELDS: dict[str, dict[str, tuple[str, bool]]] = {
    "ping": {},
    "lobby": {},
    "watch": {"table": ("table", True)},
    "unwatch": {"table": ("table", True)},
    "sit": {"table": ("table", True), "buy_in": ("amount", True), "seat": ("seat", False)},
    "leave": {"table": ("table", True)},
    "top_up": {"table": ("table", True), "amount": ("amount", True)},
    "ante": {"table": ("table", True), "amount": ("amount", True)},
    "progressive": {"table": ("table", True), "on": ("bool", True)},
    "side_bet": {"table": ("table", True), "name": ("name", True), "amount": ("amount0", True)},
    "clear": {"table": ("table", True)},
    "rebet": {"table": ("table", True)},
    "deal": {"table": ("table", True)},
    "fold": {"table": ("table", True)},
    "raise": {"table": ("table", True)},
    "call": {"table": ("table", True)},
    "exchange": {"table": ("table", True), "cards": ("cards", False)},
    "set_limit": {"table": ("table", True), "amount": ("amount_or_null", True)},
    "history": {"table": ("table", True), "last": ("last", False)},
    "advice": {"table": ("table", True)},
}
TYPES = frozenset(_FIELDS)


@dataclass(frozen=True)
class Command:
    id: int | str | None
    type: str
    args: dict[str, Any] = field(default_factory=dict)

    @property
    def table(self) -> str | None:
        table = self.args.get("table")
        return table if isinstance(table, str) else None


def _bad(name: str, why: str) -> ServerError:
    return ServerError(f"{name}: {why}", "bad_field")


def _integer(name: str, value: Any, low: int, high: int) -> int:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole and low <= value <= high:
        return int(value)
    # orjson reads a number past 64 bits as a float: out of range, whatever its form
    outside = (whole or isinstance(value, float)) and not low <= value <= high
    shown = json.dumps(value)
    shown = shown if len(shown) <= 40 else shown[:39] + "…"
    if outside:
        raise _bad(name, f"must be {low} to {high}, not {shown}")
    raise _bad(name, f"must be a whole number from {low} to {high} (no decimal point or exponent), not {shown}")


def _text(name: str, value: Any, most: int) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= most:
        raise _bad(name, f"must be a string of 1 to {most} characters")
    return value


def _check(name: str, kind: str, value: Any) -> Any:
    if kind == "table":
        return _text(name, value, 64)
    if kind == "name":
        return _text(name, value, 32)
    if kind == "amount":
        return _integer(name, value, 1, MOST)
    if kind == "amount0":
        return _integer(name, value, 0, MOST)
    if kind == "amount_or_null":
        return None if value is None else _integer(name, value, 1, MOST)
    if kind == "seat":
        return _integer(name, value, 0, 63)
    if kind == "last":
        return _integer(name, value, 1, 50)
    if kind == "bool":
        if not isinstance(value, bool):
            raise _bad(name, "must be true or false")
        return value
    assert kind == "cards"
    if not isinstance(value, list) or not 1 <= len(value) <= 5:
        raise _bad(name, "must be a list of 1 to 5 card texts")
    return [_text(name, card, 3) for card in value]


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
    """One client frame as a command; ServerError (malformed, version, unknown_type, bad_field)."""
    try:
        raw = load_json(text)
    except ValueError:  # UnicodeDecodeError included
        raise ServerError("the frame is not JSON (UTF-8, nested at most 1,024 deep)", "malformed") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
        raise ServerError('a frame is a JSON object with a "type"', "malformed")
    if type(raw.get("v")) is not int or raw["v"] != VERSION:  # not true, not 1.0
        raise ServerError(f'this server speaks protocol version {VERSION}: "v": {VERSION}', "version")
    fields = _FIELDS.get(raw["type"])
    if fields is None:
        raise ServerError(f"{raw['type'][:40]!r} is not a command", "unknown_type")
    if raw.get("id") is not None and _id(raw) is None:  # an answer the client could not match
        raise _bad("id", "must be an integer from 0 to 2^53 or a string of at most 64 characters")
    unknown = set(raw) - set(fields) - {"v", "id", "type"}
    if unknown:
        raise _bad(sorted(unknown)[0][:40], "is not a field of " + raw["type"])
    args = {}
    for name, (kind, required) in fields.items():
        if name in raw:
            args[name] = _check(name, kind, raw[name])
        elif required:
            raise _bad(name, "is missing")
    return Command(_id(raw), raw["type"], args)


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


def answer(ident: int | str | None, result: dict[str, Any] | None = None, error: ServerError | None = None) -> str:
    if error is not None:
        return frame("answer", id=ident, ok=False, error={"code": error.code, "message": str(error)})
    return frame("answer", id=ident, ok=True, result=result or {})


def view_json(view: SeatView) -> dict[str, Any]:
    """A view as the protocol writes it: the engine's own JSON form, none added or changed."""
    return view_to_json(view)
