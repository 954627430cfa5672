"""Actual against theoretical for the office: the counters the commits keep (`store.figures`),
summed by table, game, currency, pool or day, each held against the exact theoretical of its
game's paytable and its band (`analysis.actual`), and a table's running hold inside its band as
points or as an SVG chart.

Everything here reads the read side (`store.reads`: `read_lines`, `read_running`), never the
records, never on the commits' thread. A game is found by its variant's name among the variants
the server serves (`variants`); a counter row of a game no longer served is left out and named
(`Figures.unknown`), as its paytable cannot be analysed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

from ...analysis.actual import LEVELS, Band, Moments, theoretical
from ...variants import Variant
from ..store import figures as counters
from ..store.schema import Tx

__all__ = ["BY", "Figures", "Line", "RunningPoint", "chart_svg", "lines", "read_lines", "read_running", "running"]

BY = {
    "table": ("table", "game", "currency"),
    "game": ("game", "currency"),
    "currency": ("currency",),
    "pool": ("pool", "currency"),
    "day": ("day", "game", "table", "currency"),
}
"""The groupings the office shows, by name: the key fields of each line."""


@dataclass(frozen=True)
class Line:
    """One line of figures: its key, the rounds (of its tables), and its band over every spot,
    with each spot's own (`spots`)."""

    key: dict[str, str]
    rounds: int
    band: Band
    spots: dict[str, Band]

    def as_dict(self) -> dict[str, object]:
        """The line as the office's page and reports read it (money in minor units)."""
        b = self.band
        found: dict[str, object] = dict(self.key)
        found |= {"rounds": self.rounds, "wagered": b.wagered, "win": b.win, "hold": b.hold}
        found |= {"theoretical": b.theoretical_hold, "theoretical_win": round(b.theoretical, 2), "z": round(b.z, 3)}
        for level in LEVELS:
            low, high = b.limits(level)
            found[f"band_{level:.1%}"] = [low, high]
        found["outside"] = next((f"{level:.1%}" for level in reversed(LEVELS) if b.outside(level)), None)
        return found


@dataclass(frozen=True)
class Figures:
    lines: list[Line]
    unknown: list[str] = field(default_factory=list)  # games whose variant the server does not serve


def lines(rows: Iterable[counters.Row], variants: Mapping[str, Variant], by: str) -> Figures:
    """The counter rows summed into lines by `by` (one of `BY`), each spot held against its
    game's theoretical; a pool's line sums its progressive spot only."""
    if by not in BY:
        raise ValueError(f"by: {by!r} is not one of {', '.join(BY)}")
    fields = BY[by]
    sums: dict[tuple[str, ...], dict[tuple[str, str], Moments]] = defaultdict(lambda: defaultdict(Moments))
    rounds: dict[tuple[str, ...], int] = defaultdict(int)
    unknown: set[str] = set()
    for row in rows:
        if row.key["game"] not in variants:
            unknown.add(row.key["game"])
            continue
        if by == "pool" and (not row.key["pool"] or row.key["spot"] != "progressive"):
            continue
        key = tuple(row.key[f] for f in fields)
        sums[key][(row.key["game"], row.key["spot"])] += row.moments
        rounds[key] += row.rounds
    found = []
    for key, spots in sorted(sums.items()):
        bands = {(game, spot): theoretical(variants[game]).band(spot, m) for (game, spot), m in spots.items()}
        total = sum(bands.values(), Band(0, 0, 0.0, 0.0))
        by_spot: dict[str, Band] = {}
        for (_, spot), b in bands.items():
            by_spot[spot] = by_spot[spot] + b if spot in by_spot else b
        found.append(Line(dict(zip(fields, key, strict=True)), rounds[key], total, by_spot))
    return Figures(found, sorted(unknown))


def read_lines(
    variants: Mapping[str, Variant], by: str, first: str = "", last: str = "9999-12-31"
) -> Callable[[Tx], Figures]:
    """A read job (`Reads.run`): the lines by `by` for the days `first` to `last`."""

    def job(tx: Tx) -> Figures:
        return lines(counters.table_rows(tx, first, last), variants, by)

    return job


@dataclass(frozen=True)
class RunningPoint:
    """A table's figures after `rounds` rounds: its hold, theoretical and bands (99%, 99.9%)."""

    rounds: int
    time: str
    hold: float
    theoretical: float
    band: dict[float, tuple[float, float]]


def running(points: Sequence[tuple[int, str, dict[str, Moments]]], variant: Variant) -> list[RunningPoint]:
    """The running points of a table of `variant` (`store.figures.points`) as holds and bands."""
    t = theoretical(variant)
    found = []
    for rounds, time, spots in points:
        b = t.total(spots)
        if b.wagered:
            band = {level: b.limits(level) for level in LEVELS}
            assert b.hold is not None and b.theoretical_hold is not None
            found.append(RunningPoint(rounds, time, b.hold, b.theoretical_hold, band))
    return found


def read_running(table_id: str, variant: Variant, last: int = 500) -> Callable[[Tx], list[RunningPoint]]:
    """A read job (`Reads.run`): the table's running points (`running`)."""

    def job(tx: Tx) -> list[RunningPoint]:
        return running(counters.points(tx, table_id, variant.name, last), variant)

    return job


_W, _H, _PAD = 640, 280, 48
_DASHED = 'stroke-dasharray="4 3"'


def chart_svg(series: Sequence[RunningPoint], title: str) -> str:
    """The running hold (a line) inside its bands (99.9% light, 99% darker) about the theoretical
    (dashed), against rounds: a self-contained SVG, no script. An empty series says so."""
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_W} {_H}" role="img" aria-label="{escape(title)}">'
    caption = f'<text x="{_PAD}" y="20" font-size="14">{escape(title)}</text>'
    if not series:
        return head + caption + f'<text x="{_PAD}" y="{_H // 2}">no rounds yet</text></svg>'
    wide, narrow = LEVELS[1], LEVELS[0]
    values = [p.hold for p in series] + [v for p in series for v in p.band[wide]]
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    first, last = series[0].rounds, series[-1].rounds

    def x(r: int) -> float:
        return _PAD + (r - first) / ((last - first) or 1) * (_W - 2 * _PAD)

    def y(v: float) -> float:
        return _H - _PAD - (v - low) / span * (_H - 2 * _PAD)

    def area(level: float) -> str:
        top = [f"{x(p.rounds):.1f},{y(p.band[level][1]):.1f}" for p in series]
        bottom = [f"{x(p.rounds):.1f},{y(p.band[level][0]):.1f}" for p in reversed(series)]
        return " ".join(top + bottom)

    def path(values: Sequence[float]) -> str:
        return " ".join(f"{x(p.rounds):.1f},{y(v):.1f}" for p, v in zip(series, values, strict=True))

    parts = [
        head,
        caption,
        f'<polygon points="{area(wide)}" fill="#dbe9f6"><title>{wide:.1%} band</title></polygon>',
        f'<polygon points="{area(narrow)}" fill="#a9c9e8"><title>{narrow:.0%} band</title></polygon>',
        f'<polyline points="{path([p.theoretical for p in series])}" fill="none" stroke="#555" {_DASHED}/>',
        f'<polyline points="{path([p.hold for p in series])}" fill="none" stroke="#b00" stroke-width="2"/>',
        f'<text x="4" y="{y(high):.1f}" font-size="11">{high:.1%}</text>',
        f'<text x="4" y="{y(low):.1f}" font-size="11">{low:.1%}</text>',
        f'<text x="{_PAD}" y="{_H - 12}" font-size="11">round {first}</text>',
        f'<text x="{_W - _PAD}" y="{_H - 12}" font-size="11" text-anchor="end">round {last}</text>',
        f'<text x="{_PAD}" y="38" font-size="11">after round {last}: hold {series[-1].hold:.2%}, '
        f"theoretical {series[-1].theoretical:.2%}</text>",
        "</svg>",
    ]
    return "".join(parts)
