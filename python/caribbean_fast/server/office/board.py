"""The office's Figures screen and the alarms' gauge: actual against theoretical for each table,
game and progressive pool, a chart per table of its running hold inside its band, the alarms
standing, and what each game's theoretical does not promise; all read on the read side in one
read-only transaction (`Reads.fresh`: operators polling share one read a few seconds), never on
the commits' connection or thread, so the tables are never waited on.

The gauge `cf_office_alarms` is published by `watch`, a task of each process (`host.Server`),
every `ALARM_EVERY` seconds from the same read side.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping
from dataclasses import asdict
from typing import Any

from ...analysis.actual import LEVELS, theoretical, theoretical_apart
from ...variants import Variant
from ..store import figures as counters
from ..store.schema import Tx
from ..wire.metrics import Metrics
from .alarms import account_alarms, line_alarms, publish, read_alarms
from .figures import Line, chart_svg, lines, running
from .host import OfficeHost

__all__ = ["ALARM_EVERY", "FRESH", "GENERAL", "analyse_games", "board", "read_board", "served", "watch"]

FRESH = 5.0
"""Seconds the screen's read is kept: however many operators poll, one read in that time."""
ALARM_EVERY = 15.0
"""Seconds between two readings of the alarms for the metrics' gauge."""
GENERAL = (
    "The theoretical is the house's expected win under the best strategy: a player who plays worse "
    "leaves the house more, so only the players' side of the band raises an alarm."
)
_log = logging.getLogger("caribbean_fast.server.office")
_ANALYSIS = threading.Lock()


def served(host: OfficeHost) -> tuple[dict[str, Variant], dict[str, Variant]]:
    """The variants the server serves by name, and each table's variant by table."""
    by_table = {t: s.variant for t, s in host.tables().items()}
    return {v.name: v for v in by_table.values()}, by_table


def _rows(found: list[Line]) -> list[dict[str, object]]:
    return [line.as_dict() | {"spots": sorted(line.spots)} for line in found]


def read_board(variants: Mapping[str, Variant], tables: Mapping[str, Variant]) -> Callable[[Tx], dict[str, Any]]:
    """A read job (`Reads.run`): the Figures screen's answer over every day of the counters; a
    table of the tables file with no round yet has its line of zero rounds."""

    def job(tx: Tx) -> dict[str, Any]:
        rows = counters.table_rows(tx)
        by_table = lines(rows, variants, "table")
        table_lines = _rows(by_table.lines)
        seen = {line["table"] for line in table_lines}
        for table, v in sorted(tables.items()):
            if table not in seen:
                table_lines.append({"table": table, "game": v.name, "currency": v.currency.code, "rounds": 0})
        games, pools = lines(rows, variants, "game").lines, lines(rows, variants, "pool").lines
        standing = line_alarms(by_table.lines, "table") + line_alarms(games, "game")
        standing += account_alarms(counters.account_rows(tx), variants)
        charts = []
        for table, v in sorted(tables.items()):
            series = running(counters.points(tx, table, v.name), v)
            title = f"{table}: running hold, {LEVELS[0]:.0%} and {LEVELS[1]:.1%} bands"
            charts.append({"table": table, "points": len(series), "svg": chart_svg(series, title)})
        notes = {name: [*theoretical(v).notes, GENERAL] for name, v in sorted(variants.items())}
        return {
            "tables": table_lines,
            "games": _rows(games),
            "pools": _rows(pools),
            "charts": charts,
            "alarms": [asdict(a) for a in standing],
            "notes": notes,
            "unknown": by_table.unknown,
            "levels": [f"{level:.1%}" for level in LEVELS],
            "step": counters.STEP,
            "currencies": {v.currency.code: v.currency.minor_per_major for v in variants.values()},
        }

    return job


async def analyse_games(variants: Mapping[str, Variant]) -> None:
    """Each game's exact analysis (`theoretical`, kept once made), made the first time in a
    process of its own (`theoretical_apart`: its arrays, hundreds of MB, stay out of the server's
    memory), waited for in a thread (tens of seconds for a game whose counted tables are not
    cached yet): never in the read thread, whose other readers would wait on it."""

    def made() -> None:
        with _ANALYSIS:  # one at a time: a second asker waits for the first's, then finds it kept
            theoretical_apart(variants.values())

    await asyncio.to_thread(made)


async def board(host: OfficeHost) -> dict[str, Any]:
    """The Figures screen's answer, read at most `FRESH` seconds ago."""
    variants, tables = served(host)
    await analyse_games(variants)
    found: dict[str, Any] = await host.reads.fresh(("office", "board"), read_board(variants, tables), FRESH)
    return found


async def watch(host: OfficeHost, metrics: Metrics, every: float = ALARM_EVERY) -> None:
    """Every `every` seconds, the alarms standing, read off the read side, into the gauge. A game
    is analysed once it has played (its first pass after a round): a starting server spends no
    core on the analyses of games nobody plays, while its tables open."""
    variants, _ = served(host)
    while True:
        await asyncio.sleep(every)
        try:
            played = await host.reads.run(_played)
            games = {name: v for name, v in variants.items() if name in played}
            await analyse_games(games)
            publish(metrics, await host.reads.run(read_alarms(games)))
        except Exception as err:  # the database failing, or an analysis: the next pass tries again
            _log.warning("alarms not read: %s", err)


def _played(tx: Tx) -> set[str]:
    """The games with a round in the figures."""
    return {row.key["game"] for row in counters.table_rows(tx)}
