"""The rows of benches/results.toml that `server_load.py --record` writes (`record.write`): the
ratios against the floors, the memory a client, p99 beside the floor's, the bytes on disk, the
server's layers (`--split`), p99 at a share of a core (`--find-load`) and the RSS growth of a long
run (`--minutes 10`), and the CPU a command by thread."""

from __future__ import annotations

import argparse
from typing import Any

RECORDED = [
    "benches/server_load.py",
    "benches/floor_server.py",
    "python/caribbean_fast/server",
    "python/caribbean_fast/engine",
    "python/caribbean_fast/words",
    "python/caribbean_fast/variants",
]
"""The files whose change makes this bench's rows stale (`record`)."""

SECTION = "The game server"
CPU = (
    "server CPU a command against the floor's (Starlette and uvicorn, frames of the same count), the same "
    "bots in turn (server, floors, then back), one SQLite process"
)
ENGINE = (
    "the floor that plays the engine in memory (`Table.play`, the engine's views, its tables opened before "
    "the load) against the floor, in the same turns"
)
MEMORY = "server memory a connected client against the floor's (RSS with every client connected, less before any)"


def rows(args: argparse.Namespace, results: list[dict[str, Any]], argv: list[str]) -> list[dict[str, Any]]:
    """This run's rows: the ratios, memory, p99 and disk of an ABBA run (`--floor`), the layers
    (`--split`), p99 at a share of a core (`--find-load`), the RSS growth of `--minutes 10`."""
    base = {
        "section": SECTION,
        "command": "python benches/server_load.py " + " ".join(a for a in argv if a != "--record"),
    }
    found = _turns(base, results, args.engine_floor) if args.floor else []
    first = results[0]
    if "split" in first:
        split = first["split"]
        found.append(
            base
            | {
                "id": "server-layers",
                "what": f"the server's CPU a command by layer at {first['clients']:,} clients (py-spy, one more run)",
                "values": {k: v for k, v in split["us_per_command"].items() if k != "samples"},
                "unit": "µs",
                "note": f"{split['us_per_command']['samples']:,} samples; that run {split['cpu_us_per_command']} µs",
            }
        )
    if "at_load" in first and args.floor:
        at = first["at_load"]
        what = (
            f"p99 latency at the paced load the first run put at {args.find_load:g}% of a core "
            f"({at['clients']:,} clients), beside the floor's"
        )
        cpu = " and ".join(f"{c[0]}%" for c in at["server"]["runs_servers_cpu_percent"])
        note = f"the floor at the same load: {max(at['floor']['runs_p99_ms'])} ms; the server at {cpu} of a core"
        found.append(base | {"id": "server-p99-at-80", "what": what, "unit": "ms", "note": note})
        found[-1]["value"] = max(at["server"]["runs_p99_ms"])
    if args.minutes is not None and args.minutes >= 10 and not args.floor:
        what = f"the server's RSS growth from the 2nd to the 10th minute at {first['clients']:,} paced clients"
        note = f"RSS {first['rss_before_kb']:,} KB before the clients, {first['rss_end_kb']:,} KB at the end"
        found.append(base | {"id": "server-rss-growth", "what": what, "value": first["rss_growth_percent"]})
        found[-1] |= {"unit": "%", "goal": "< 5", "note": note}
    return found


def _turns(base: dict[str, Any], results: list[dict[str, Any]], engine: bool) -> list[dict[str, Any]]:
    by = {f"clients-{r['clients']}": r for r in results}
    us = "; ".join(
        f"{n}: {r['server']['cpu_us_per_command']} against {r['floor']['cpu_us_per_command']} µs a command "
        f"({r['server']['commands']:,} and {r['floor']['commands']:,} commands, errors {r['server']['runs_errors']})"
        for n, r in by.items()
    )
    reconciled = all(r["reconciled"] for r in results)
    kb = "; ".join(
        f"{n}: {r['server']['kb_per_client']} against {r['floor']['kb_per_client']} KB (a socket open, nothing "
        f"played: {r['server']['kb_per_connection']} against {r['floor']['kb_per_connection']} KB; what play "
        f"added, the tables' state and frames: {r['server']['kb_of_play']} against {r['floor']['kb_of_play']} KB)"
        for n, r in by.items()
    )
    floor_p99 = "; ".join(f"{n} {max(r['floor']['runs_p99_ms'])} ms" for n, r in by.items())
    found = [
        base
        | {
            "id": "server-cpu-ratio",
            "what": CPU,
            "values": {n: r["cpu_ratio_to_floor"] for n, r in by.items()},
            "unit": "times",
            "goal": "<= 2.5",
            "readme": True,
            "note": f"{us}; books reconciled: {reconciled}",
        },
        base
        | {
            "id": "server-memory-ratio",
            "what": MEMORY,
            "values": {n: r["memory_ratio_to_floor"] for n, r in by.items()},
            "unit": "times",
            "goal": "<= 1.5",
            "note": kb,
        },
        base
        | {
            "id": "server-p99",
            "what": "p99 latency of the server's commands at these paced loads, beside the floor's (no goal)",
            "values": {n: max(r["server"]["runs_p99_ms"]) for n, r in by.items()},
            "unit": "ms",
            "note": f"the larger of the server's two runs; the floor's: {floor_p99}",
        },
        base
        | {
            "id": "server-disk-bytes",
            "what": "bytes reaching the disk a command (/proc/<pid>/io), SQLite, synchronous=FULL, group commit",
            "values": {n: r["server"]["disk_bytes_per_command"] for n, r in by.items()},
            "unit": "bytes",
            "goal": "< 5000",
            "readme": True,
        },
    ]
    found.append(_threads(base, by, engine))
    if engine:
        note = "; ".join(
            f"{n}: {r['engine_floor']['cpu_us_per_command']} µs a command, the server {r['cpu_ratio_to_engine_floor']}"
            " times it"
            for n, r in by.items()
        )
        values = {n: r["engine_floor_ratio_to_floor"] for n, r in by.items()}
        found.append(base | {"id": "engine-floor-ratio", "what": ENGINE, "values": values, "unit": "times"})
        found[-1] |= {"goal": "<= 1.6", "note": note}
    return found


def _threads(base: dict[str, Any], by: dict[str, dict[str, Any]], engine: bool) -> dict[str, Any]:
    """The server's CPU a command on its event loop (the main thread) and its other threads (the
    database's, the reads'), read from /proc, not sampled, beside the floors' (one thread each) in
    the same turns: what the loop does beyond the engine floor's is the server's own work there."""
    values: dict[str, int] = {}
    for n, r in by.items():
        values |= {f"{n} server {k}": v for k, v in r["server"]["threads_us_per_command"].items()}
        values[f"{n} floor"] = r["floor"]["cpu_us_per_command"]
        if engine:
            values[f"{n} engine floor"] = r["engine_floor"]["cpu_us_per_command"]
    what = "the server's CPU a command on its event loop and its other threads, beside the floors', same turns"
    return base | {"id": "server-threads", "what": what, "values": values, "unit": "µs"}
