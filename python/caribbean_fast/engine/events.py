"""Events: the immutable record of every step a table takes, and their JSON form for stores.

An event carries what everyone may see (`public`), what only its seat may see (`private`: the
seat's own cards), what nobody at the table may see until it is revealed (`secret`: the server
seed, the dealer's hole cards), and the money it moves (`transfers`). The repr shows neither
`private` nor `secret`, so logging an event never leaks a card.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson

from .commands import ENGINE

__all__ = [
    "COMMANDS",
    "Event",
    "Transfer",
    "built",
    "canonical_json",
    "chain_hash",
    "event_from_dict",
    "event_from_json",
    "event_to_json",
    "events_to_json",
]

COMMANDS = frozenset(ENGINE)
"""Event kinds that record an input to the table (its args are in `public["args"]`); every other
kind is a consequence of the command before it, and a replay derives it again. The list is
`commands.ENGINE`."""

Transfer = tuple[str, str, int]
"""(from account, to account, minor units); accounts: wallet:K, table:K, house, meter, outside."""


T = TypeVar("T")


def built(cls: type[T], **fields: Any) -> T:
    """A frozen dataclass of `cls` with every one of its fields given, made as its `__init__`
    would (which has no checks of its own) but at a third of the cost: the generated `__init__`
    sets each field through `object.__setattr__`. For what the engine makes a dozen times a
    command or a view: its events, a seat's view."""
    made = object.__new__(cls)
    made.__dict__.update(fields)
    return made


@dataclass(frozen=True)
class Event:
    seq: int
    round: int
    kind: str
    time: datetime
    seat: int | None = None
    public: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[str, Any] = field(default_factory=dict, repr=False)
    secret: Mapping[str, Any] = field(default_factory=dict, repr=False)
    transfers: tuple[Transfer, ...] = ()

    @classmethod
    def made(
        cls,
        seq: int,
        round: int,
        kind: str,
        time: datetime,
        seat: int | None,
        public: Mapping[str, Any],
        private: Mapping[str, Any],
        secret: Mapping[str, Any],
        transfers: tuple[Transfer, ...],
    ) -> Event:
        """`Event(...)` as the table writes it, a dozen a round: the frozen dataclass's `__init__`
        sets each field through `object.__setattr__`, three times the cost of one dict update."""
        return built(
            cls,
            seq=seq,
            round=round,
            kind=kind,
            time=time,
            seat=seat,
            public=public,
            private=private,
            secret=secret,
            transfers=transfers,
        )

    @property
    def is_command(self) -> bool:
        return self.kind in COMMANDS

    def hidden_from(self, seat: int | None) -> bool:
        """Whether `seat` (None: an onlooker) is shown nothing of this event: another seat's own
        decision command (RULES.md, game 3: the others learn that it decided, never what; its
        `decided` event tells them that much)."""
        return self.kind in _DECISIONS and self.seat is not None and self.seat != seat

    def seen_by(self, seat: int | None) -> dict[str, Any]:
        """What `seat` is shown of this event (None: an onlooker): never the secret part, and the
        private part only when it is the seat's own."""
        shown = {"seq": self.seq, "round": self.round, "kind": self.kind, "time": self.time.isoformat()}
        ours = seat is not None and seat == self.seat
        shown |= {"seat": self.seat, **_public_to(self, seat, ours)}
        if ours:
            shown |= dict(self.private)
        return shown


_THEIRS = {"settled": (), "funds": (), "stood": ("account", "reason"), "decided": (), "exchanged": ()}
"""What another seat is shown of these events: that a seat decided, never what (a decision taken
by rule on the cards, game 3's automatic raise on a pair, would tell the cards), nor its winnings."""

_DECISIONS = frozenset({"fold", "raise", "exchange", "complete"})
"""The commands of a seat's decision, which other seats are not shown (`Event.hidden_from`)."""


def _public_to(event: Event, seat: int | None, ours: bool) -> Mapping[str, Any]:
    """The public part as `seat` is shown it: of another seat's settlement only that it settled
    (its hand and winnings would tell its cards), and of the showdown the dealer's cards and the
    seat's own, never the seed (from which every card follows: the record keeps it for the audit)."""
    if not ours and event.kind in _THEIRS:  # winnings, money moved, an automatic decision's reason
        return {k: v for k, v in event.public.items() if k in _THEIRS[event.kind]}
    if event.kind == "revealed":
        cards = event.public.get("seats", {})
        mine = {str(seat): cards[str(seat)]} if str(seat) in cards else {}
        return {k: v for k, v in event.public.items() if k not in ("seed", "seats")} | {"seats": mine}
    return event.public


def _body(event: Event) -> dict[str, Any]:
    return {
        "seq": event.seq,
        "round": event.round,
        "kind": event.kind,
        "time": _iso(event.time),
        "seat": event.seat,
        "public": event.public,
        "private": event.private,
        "secret": event.secret,
        "transfers": event.transfers,  # tuples write as arrays, as lists do
    }


def events_to_json(events: Sequence[Event]) -> str:
    """A command's events as a store's row keeps them: a JSON array of each as `event_to_json`
    writes it, in order (orjson writes the array at once; where it would not give the standard
    library's text, each event is written by `event_to_json`). Events of one moment in UTC, every
    command's at a table on the system clock, orjson writes from their own fields (`vars`: an
    event's fields are its attributes, and orjson writes a UTC time as `isoformat` does)."""
    moment = events[0].time if events else None
    utc = moment is not None and moment.tzinfo is UTC and all(e.time is moment for e in events)
    try:
        bodies = [vars(e) for e in events] if utc else [_body(e) for e in events]
        text = orjson.dumps(bodies, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:
        text = ""
    return text if text and text.isascii() else "[" + ",".join(event_to_json(e) for e in events) + "]"


def event_to_json(event: Event) -> str:
    """The event as one line of canonical JSON (sorted keys, no spaces, ASCII), as stores keep it
    and chain hashes cover it. orjson writes it (a table writes a dozen events a round; the
    standard library took a fifth of a command's time) and gives the standard library's text for
    every event of integers and ASCII strings, which is every event the engine makes; an event
    with other text, or a value orjson does not take, is written by the standard library."""
    try:  # an event in UTC from its own fields, as `events_to_json` writes it (the server's record)
        body = vars(event) if event.time.tzinfo is UTC else _body(event)
        text = orjson.dumps(body, option=orjson.OPT_SORT_KEYS).decode()
    except TypeError:  # a mapping orjson does not take, an integer past 64 bits
        text = ""
    return text if text and text.isascii() else canonical_json(_body(event))


_last_time: tuple[datetime, str] = (datetime.min, datetime.min.isoformat())


def _iso(moment: datetime) -> str:
    """`moment.isoformat()`, remembered for the last moment written: every event of a command
    carries the same one (the object itself: equal moments in other zones write otherwise). A
    moment in UTC, every moment the engine's clock reads, orjson writes as `isoformat` does, at a
    quarter of its cost."""
    global _last_time
    last = _last_time  # one read: another thread may replace it, never half of it
    if last[0] is not moment:
        text = orjson.dumps(moment)[1:-1].decode() if moment.tzinfo is UTC else moment.isoformat()
        last = _last_time = (moment, text)
    return last[1]


def canonical_json(body: Mapping[str, Any]) -> str:
    """The standard library's canonical form: sorted keys, no spaces, non-ASCII escaped."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"))


def event_from_json(text: str) -> Event:
    return event_from_dict(json.loads(text))


def event_from_dict(d: Any) -> Event:
    """The event from its JSON object as read (`json.loads` of `event_to_json`'s text)."""
    return Event(
        seq=d["seq"],
        round=d["round"],
        kind=d["kind"],
        time=datetime.fromisoformat(d["time"]),
        seat=d["seat"],
        public=d["public"],
        private=d["private"],
        secret=d["secret"],
        transfers=tuple((str(a), str(b), int(n)) for a, b, n in d["transfers"]),
    )


def chain_hash(previous: str, row_text: str) -> str:
    """Each stored row carries the hash of its text and the row before, so that changing, removing
    or reordering a row breaks every hash after it. A row's text is one event's JSON, or (the
    server's record) a JSON array of a command's events, each as `event_to_json` writes it."""
    return hashlib.sha256((previous + row_text).encode()).hexdigest()
