"""The server's settings, and its tables from a TOML file (by default, three tables of each
one-seat preset, and a shared game's table for each of its limits: game 3's two, as RULES.md says).

```toml
[[table]]
variant = "network-24h"   # a preset, an example or a variant file
name = "network"          # the ids are name-1, name-2, ... (default: the variant's name): a-z, 0-9, -
seats = 4                 # default: the variant's
limits = 0                # which of the variant's limit tables
count = 2                 # how many such tables
away = 300                # seconds a player may be away before, between rounds, the seat is stood up
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
from ..variants import PRESETS, load_variant
from .tables.owner import TableSpec
from .wire.commands import EVERY_MOST
from .wire.names import check_table_id
from .wire.reminders import EVERY_DEFAULT, EVERY_LEAST

__all__ = ["Settings", "default_tables", "load_tables"]

_KEYS = {"variant", "name", "seats", "limits", "count", "away"}


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
    warm_trainer: bool = False  # the trainer's tables built at start (`serve` does: advice at the first decision)
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

    def __post_init__(self) -> None:
        least, every = self.reality_check_least, self.reality_check_every
        if not 1 <= least <= EVERY_MOST:
            raise ServerError(f"reality_check_least: must be 1 to {EVERY_MOST} seconds, not {least}", "bad_field")
        if not least <= every <= EVERY_MOST:
            why = f"must be {least} (the shortest) to {EVERY_MOST} seconds, not {every}"
            raise ServerError(f"reality_check_every: {why}", "bad_field")


DEFAULT_COUNT = 3
"""Tables of each one-seat preset a server serves without a tables file: players have a choice."""
LIMIT_NAMES = ("", "high")
"""The id's word for each of a shared game's limit tables, lowest first (`default_tables`)."""


def default_tables(away: float = STAND_AFTER) -> list[TableSpec]:
    """Without a tables file: a one-seat preset's `DEFAULT_COUNT` tables; a shared game's (game
    3's) one table for each of its limits, named `network-24h-1` (the lowest) and
    `network-24h-high-1`, so a database made before, whose `network-24h-2` had the lowest limits
    too, never restores a table under limits it was not opened with."""
    specs = []
    for name in PRESETS:
        v = load_variant(name)
        if v.seats == 1:
            specs += [TableSpec(f"{name}-{k}", v, 1, away=away) for k in range(1, DEFAULT_COUNT + 1)]
            continue
        for k in range(len(v.limits)):
            word = LIMIT_NAMES[k] if k < len(LIMIT_NAMES) else f"limits{k}"
            specs.append(TableSpec(f"{name}-{word + '-' if word else ''}1", v, v.seats, k, away=away))
    return specs


def load_tables(path: str | Path, away: float = STAND_AFTER) -> list[TableSpec]:
    """The tables a TOML file lists; ServerError naming the entry and key at fault."""
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
        raise ServerError(f"{path}: two tables share an id", "bad_field")
    return specs


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
    name = str(entry.get("name", variant.name))
    ids = [check_table_id(f"{name}-{k + 1}", f"{where}: name {name!r}") for k in range(count)]
    return [TableSpec(table, variant, seats, limits, float(away)) for table in ids]
