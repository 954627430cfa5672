"""The server's settings, and its tables from a TOML file. By default: a kind of own tables for
each one-seat preset and each of its limits (`tables.own`: every player sits at a table of their
own, opened when they sit), and a shared game's table for each of its limits (game 3's two, as
RULES.md says).

```toml
[[table]]
variant = "network-24h"   # a preset, an example or a variant file
name = "network"          # the ids are name-1, name-2, ... (default: the variant's name): a-z, 0-9, -
seats = 4                 # default: the variant's
limits = 0                # which of the variant's limit tables
count = 2                 # how many such tables
away = 300                # seconds a player may be away before, between rounds, the seat is stood up

[[table]]
variant = "cyberstud"     # a one-seat game
own = true                # a kind, not tables: each player's own table, by game and limits; `name`
                          # is the kind's id (default: the variant's, `-high` for limits 1); no count
```
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..engine import Table
from ..engine.seats import STAND_AFTER
from ..errors import ServerError
from ..variants import PRESETS, Variant, load_variant
from .tables.own import DIGEST, MARK
from .tables.owner import TableSpec
from .wire.commands import EVERY_MOST
from .wire.names import check_table_id
from .wire.reminders import EVERY_DEFAULT, EVERY_LEAST

__all__ = ["Settings", "default_own", "default_tables", "load_own", "load_tables", "read_tables"]

_KEYS = {"variant", "name", "seats", "limits", "count", "away", "own"}


@dataclass(frozen=True)
class Settings:
    database: str = "caribbean-fast.db"
    tables: list[TableSpec] = field(default_factory=lambda: default_tables())
    demo: bool = False
    demo_balance: int = 100_000  # a guest's play money, in minor units
    grace: float = 10.0  # seconds a dropped socket keeps its seat before the game's disconnect rule
    tick: float = 1.0  # seconds between the clock's ticks
    reality_check_every: int = EVERY_DEFAULT  # seconds between reality checks for an account that chose none
    reality_check_least: int = EVERY_LEAST  # the shortest interval an account may choose (tests: a second)
    origins: tuple[str, ...] = ()  # allowed Origins besides the server's own
    host_names: tuple[str, ...] = ()  # names it answers to besides its own addresses (`names`)
    rate: float = 20.0  # frames a second a socket may send, sustained
    burst: float = 50.0  # and at once
    lease: float = 2.0  # seconds between attempts to take over tables another process left
    endpoint: str = ""  # this process's public WebSocket URL, shown in other processes' lobbies
    tune_process: bool = False  # the collector and thread switching set for a serving process (server.tune_process)
    warm_trainer: bool = False  # every game's trainer tables built at start (`serve`: advice at the first decision)
    # the front door (gate.Gate): connections, handshakes, frames by address, registrations
    connections_per_address: int = 64
    connections: int = 4096
    handshake: float = 5.0  # seconds to finish an HTTP request's head or a WebSocket handshake
    address_rate: float = 100.0  # frames a second from every socket of one address together
    total_rate: float = 5000.0  # frames a second from every socket together
    read_rate: float = 400.0  # HTTP requests a second from every address together
    registrations: int = 20  # accounts (guests too) one address may open a minute
    forwarded_allow_ips: tuple[str, ...] = ()  # proxies whose forwarded headers are believed (`forwarded`)
    only_via_proxy: bool = False  # no client reaches the server but through its proxy: `*` may be trusted
    proxy_map: str | None = None  # the proxy's map file this process keeps from the leases (`proxymap`)
    proxy_reload: str | None = None  # the command that makes the proxy read it again
    own: list[TableSpec] = field(default_factory=lambda: default_own())  # the kinds of own tables (`tables.own`)

    def __post_init__(self) -> None:
        least, every = self.reality_check_least, self.reality_check_every
        if not 1 <= least <= EVERY_MOST:
            raise ServerError(f"reality_check_least: must be 1 to {EVERY_MOST} seconds, not {least}", "bad_field")
        if not least <= every <= EVERY_MOST:
            why = f"must be {least} (the shortest) to {EVERY_MOST} seconds, not {every}"
            raise ServerError(f"reality_check_every: {why}", "bad_field")


LIMIT_NAMES = ("", "high")
"""The id's word for each of a shared game's limit tables, lowest first (`default_tables`)."""


def _word(limits: int) -> str:
    """The id's word for a variant's limit table (`LIMIT_NAMES`), with its dash: "" for the lowest."""
    word = LIMIT_NAMES[limits] if limits < len(LIMIT_NAMES) else f"limits{limits}"
    return f"-{word}" if word else ""


def default_tables(away: float = STAND_AFTER) -> list[TableSpec]:
    """Without a tables file: a shared game's (game 3's) one table for each of its limits, named
    `network-24h-1` (the lowest) and `network-24h-high-1`, so a database made before, whose
    `network-24h-2` had the lowest limits too, never restores a table under limits it was not
    opened with. The one-seat games are kinds of own tables (`default_own`)."""
    specs = []
    for name in PRESETS:
        v = load_variant(name)
        if v.seats > 1:
            specs += [TableSpec(f"{name}{_word(k)}-1", v, v.seats, k, away=away) for k in range(len(v.limits))]
    return specs


def default_own(away: float = STAND_AFTER) -> list[TableSpec]:
    """Without a tables file: a kind of own tables for each one-seat preset and each of its limits,
    named as the preset (`cyberstud`; `-high` for its second limits)."""
    specs = []
    for name in PRESETS:
        v = load_variant(name)
        if v.seats == 1:
            specs += [TableSpec(f"{name}{_word(k)}", v, 1, k, away, f"{name}{_word(k)}") for k in range(len(v.limits))]
    return specs


def load_tables(path: str | Path, away: float = STAND_AFTER) -> list[TableSpec]:
    """The tables a TOML file lists (its kinds of own tables left out: `read_tables`)."""
    return read_tables(path, away)[0]


def load_own(path: str | Path, away: float = STAND_AFTER) -> list[TableSpec]:
    """The kinds of own tables a TOML file lists (`own = true`)."""
    return read_tables(path, away)[1]


def read_tables(path: str | Path, away: float = STAND_AFTER) -> tuple[list[TableSpec], list[TableSpec]]:
    """The tables and the kinds of own tables a TOML file lists; ServerError naming the entry and
    key at fault."""
    try:
        data = tomllib.loads(Path(path).read_text())
    except (OSError, ValueError, RecursionError) as err:  # ValueError: not UTF-8, not TOML
        raise ServerError(f"{path}: cannot read the tables: {err}", "bad_field") from None
    entries = data.get("table")
    if not isinstance(entries, list) or not entries:
        raise ServerError(f"{path}: no [[table]] entries", "bad_field")
    specs: list[TableSpec] = []
    for k, entry in enumerate(entries):
        specs += _entry(f"{path}: table {k + 1}", entry, away)
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise ServerError(f"{path}: two tables share an id (a kind counts as a table)", "bad_field")
    return [s for s in specs if not s.own], [s for s in specs if s.own]


def _entry(where: str, entry: dict[str, Any], away: float) -> list[TableSpec]:
    unknown = set(entry) - _KEYS
    if unknown:
        raise ServerError(
            f"{where}: unknown key {sorted(unknown)[0]!r} (keys: {', '.join(sorted(_KEYS))})", "bad_field"
        )
    if "variant" not in entry:
        raise ServerError(f"{where}: 'variant' is missing", "bad_field")
    variant = load_variant(str(entry["variant"]))
    seats, limits, count = entry.get("seats", variant.seats), entry.get("limits", 0), entry.get("count", 1)
    for key, value in (("seats", seats), ("limits", limits), ("count", count)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ServerError(f"{where}: {key} must be a whole number, not {value!r}", "bad_field")
    Table.check_config(variant, seats, limits)
    away = entry.get("away", away)
    if isinstance(away, bool) or not isinstance(away, (int, float)) or not 0 < away < float("inf"):
        raise ServerError(f"{where}: away must be seconds above 0, not {away!r}", "bad_field")
    if entry.get("own", False) is not False:
        return [_kind(where, entry, variant, limits, float(away))]
    name = str(entry.get("name", variant.name))
    ids = [check_table_id(f"{name}-{k + 1}", f"{where}: name {name!r}") for k in range(count)]
    return [TableSpec(table, variant, seats, limits, float(away)) for table in ids]


def _kind(where: str, entry: dict[str, Any], variant: Variant, limits: int, away: float) -> TableSpec:
    """A kind of own tables: a spec whose `own` is its own id."""
    if entry["own"] is not True:
        raise ServerError(f"{where}: own must be true or false, not {entry['own']!r}", "bad_field")
    if variant.seats != 1 or entry.get("seats", 1) != 1 or "count" in entry:
        why = "a one-seat game's, with no seats or count: each player's table opens when they sit"
        raise ServerError(f"{where}: a kind of own tables is {why}", "bad_field")
    name = str(entry.get("name", variant.name + _word(limits)))
    check_table_id(name, f"{where}: name {name!r}")
    if len(name) + len(MARK) + DIGEST > 64:
        most = 64 - len(MARK) - DIGEST  # its players' tables' ids hold it
        raise ServerError(f"{where}: name {name!r}: a kind's name is at most {most} characters", "bad_field")
    return TableSpec(name, variant, 1, limits, away, own=name)
