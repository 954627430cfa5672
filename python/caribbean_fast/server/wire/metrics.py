"""Prometheus metrics of one server: connections, tables, rounds, commands, refusals, latency.

Each app has its own registry, so several servers in one process (the tests) never share counts.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["Metrics"]


class Metrics:
    def __init__(self) -> None:
        r = self.registry = CollectorRegistry()
        self.connections = Gauge("cf_connections", "Open WebSocket connections", registry=r)
        self.tables = Gauge("cf_tables", "Tables this process serves", registry=r)
        self.tables_stopped = Gauge(
            "cf_tables_stopped", "Tables stopped after a failed write, until restored from their records", registry=r
        )
        self.table_stops = Counter("cf_table_stops", "Tables stopped by a failed commit or restore", registry=r)
        self.database_reconnects = Counter("cf_database_reconnects", "Database connections made again", registry=r)
        self.rounds = Counter("cf_rounds", "Rounds closed (settled or void)", registry=r)
        self.commands = Counter("cf_commands", "Commands answered", ["type"], registry=r)
        self.refusals = Counter("cf_refusals", "Commands refused and frames rejected", ["code"], registry=r)
        self.latency = Histogram(
            "cf_command_seconds",
            "From a command's arrival to its answer",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=r,
        )
        self.relay_links = Gauge("cf_relay_links", "Open links to other processes, for players here", registry=r)
        self.relayed = Counter(
            "cf_relayed_commands", "Commands relayed to the process serving their table", ["outcome"], registry=r
        )
        self.tables_given = Counter(
            "cf_tables_given", "Tables given to the process the hash names, between rounds", registry=r
        )
        self.tables_closed = Counter(
            "cf_tables_closed", "Players' own tables closed, their seat empty between rounds", registry=r
        )
        self.commit_seconds = Histogram("cf_commit_seconds", "A table's commit, queued to durable", registry=r)
        self.open_seconds = Histogram(
            "cf_table_open_seconds", "A table's opening: restored from its record, or new", registry=r
        )
        self.pool_commit_seconds = Histogram(
            "cf_pool_commit_seconds", "A commit whose step reads its table's shared pool (a dealt round's)", registry=r
        )
        self._children: dict[tuple[Counter, str], Any] = {}

    def count(self, counter: Counter, label: str) -> None:
        """`counter.labels(label).inc()`, its child remembered: every command counts one, and
        `labels` looks the child up under a lock each time."""
        child = self._children.get((counter, label))
        if child is None:
            child = self._children[(counter, label)] = counter.labels(label)
        child.inc()

    def text(self) -> bytes:
        return generate_latest(self.registry)
