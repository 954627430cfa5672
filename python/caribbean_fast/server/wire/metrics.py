"""Prometheus metrics of one server: connections, tables, rounds, commands, refusals, latency.

Each app has its own registry, so several servers in one process (the tests) never share counts.
The counts are plain numbers, moved by the event loop's code alone (no lock, no child looked
up per label): the registry's one collector turns them into Prometheus families only when
/metrics is read, under the names and labels `prometheus_client`'s own types would give.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

__all__ = ["Metrics"]


class Gauge:
    """A number that goes up and down."""

    def __init__(self, name: str, doc: str) -> None:
        self.name, self.doc, self.value = name, doc, 0.0

    def inc(self, amount: float = 1) -> None:
        self.value += amount

    def dec(self, amount: float = 1) -> None:
        self.value -= amount

    def set(self, value: float) -> None:
        self.value = value

    def family(self) -> Metric:
        return GaugeMetricFamily(self.name, self.doc, value=self.value)


class Gauges:
    """Gauges by their labels' values (`labels(...)` gives the one to set)."""

    def __init__(self, name: str, doc: str, labels: tuple[str, ...]) -> None:
        self.name, self.doc, self.label_names = name, doc, labels
        self.series: dict[tuple[str, ...], Gauge] = {}

    def labels(self, *values: str) -> Gauge:
        if len(values) != len(self.label_names):
            raise ValueError(f"{self.name} takes the labels {self.label_names}, not {values}")
        return self.series.setdefault(values, Gauge(self.name, self.doc))

    def family(self) -> Metric:
        family = GaugeMetricFamily(self.name, self.doc, labels=list(self.label_names))
        for values, gauge in self.series.items():
            family.add_metric(list(values), gauge.value)
        return family


class Count:
    """One counter's series (a label's value, or the counter without labels)."""

    def __init__(self) -> None:
        self.value = 0.0
        self.created = time.time()

    def inc(self, amount: float = 1) -> None:
        self.value += amount


class Counter(Count):
    """A count that only goes up, with or without one label."""

    def __init__(self, name: str, doc: str, label: str | None = None) -> None:
        super().__init__()
        self.name, self.doc, self.label = name, doc, label
        self.series: defaultdict[str, Count] = defaultdict(Count)

    def labels(self, value: str) -> Count:
        return self.series[value]

    def family(self) -> Metric:
        labels = [] if self.label is None else [self.label]
        family = CounterMetricFamily(self.name, self.doc, labels=labels)
        if self.label is None:
            family.add_metric([], self.value, created=self.created)
        for value, count in self.series.items():
            family.add_metric([value], count.value, created=count.created)
        return family


class Timing:
    """Observed durations counted into buckets (each observation in the first bucket that holds it)."""

    def __init__(self, name: str, doc: str, buckets: tuple[float, ...] = Histogram.DEFAULT_BUCKETS) -> None:
        self.name, self.doc = name, doc
        self.bounds = [b for b in buckets if b != float("inf")]
        self.counts = [0] * (len(self.bounds) + 1)  # the last: above every bound
        self.sum = 0.0
        self.created = time.time()

    def observe(self, seconds: float) -> None:
        self.counts[bisect_left(self.bounds, seconds)] += 1
        self.sum += seconds

    def family(self) -> Metric:
        family = HistogramMetricFamily(self.name, self.doc)
        running, buckets = 0, []
        for bound, count in zip([*map(_bound, self.bounds), "+Inf"], self.counts, strict=True):
            running += count
            buckets.append((bound, running))
        family.add_metric([], buckets, self.sum)
        family.add_sample(f"{self.name}_created", {}, self.created)
        return family


def _bound(bound: float) -> str:
    """A bucket's bound as `prometheus_client` writes it (`0.005`, `1.0`)."""
    return repr(float(bound))


class Metrics(Collector):
    def __init__(self) -> None:
        self.connections = Gauge("cf_connections", "Open WebSocket connections")
        self.tables = Gauge("cf_tables", "Tables this process serves")
        self.tables_stopped = Gauge(
            "cf_tables_stopped", "Tables stopped after a failed write, until restored from their records"
        )
        self.table_stops = Counter("cf_table_stops", "Tables stopped by a failed commit or restore")
        self.database_reconnects = Counter("cf_database_reconnects", "Database connections made again")
        self.rounds = Counter("cf_rounds", "Rounds closed (settled or void)")
        self.commands = Counter("cf_commands", "Commands answered", "type")
        self.refusals = Counter("cf_refusals", "Commands refused and frames rejected", "code")
        self.latency = Timing(
            "cf_command_seconds",
            "From a command's arrival to its answer",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
        )
        self.relay_links = Gauge("cf_relay_links", "Open links to other processes, for players here")
        self.relayed = Counter("cf_relayed_commands", "Commands relayed to the process serving their table", "outcome")
        self.tables_given = Counter("cf_tables_given", "Tables given to the process the hash names, between rounds")
        self.commit_seconds = Timing("cf_commit_seconds", "A table's commit, queued to durable")
        self.office_alarms = Gauges(
            "cf_office_alarms", "The office's standing alarms: tables, games, accounts", ("kind", "level")
        )
        self.tables_closed = Counter("cf_tables_closed", "Players' own tables closed, their seat empty between rounds")
        self.open_seconds = Timing("cf_table_open_seconds", "A table's opening: restored from its record, or new")
        self.pool_commit_seconds = Timing(
            "cf_pool_commit_seconds", "A commit whose step reads its table's shared pool (a dealt round's)"
        )
        self.registry = CollectorRegistry()
        self.registry.register(self)

    def count(self, counter: Counter, label: str) -> None:
        """`counter.labels(label).inc()`: kept for its callers."""
        counter.series[label].value += 1

    def collect(self) -> Iterator[Metric]:
        """Every metric as a Prometheus family, in the order they were declared."""
        for metric in vars(self).values():
            if isinstance(metric, Gauge | Gauges | Counter | Timing):
                yield metric.family()

    def text(self) -> bytes:
        return generate_latest(self.registry)
