"""The par document's tables as data: every table once, its cells typed (text, whole numbers,
exact fractions, floats), so that the text, Markdown, JSON, spreadsheet and PDF outputs format the
same cells and none computes a figure of its own."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

from ..cards import RANKS
from .distribution import LEVELS, MAX_POINTS, NORMAL_TOLERANCE, OUTSIDE, VOLATILITY_LEVEL, Band
from .document import ParDocument
from .parsheet import ParSheet
from .wagers import ProgressiveSheet, WagerSheet
from .wording import strategy_words, warnings

__all__ = ["BAND_METHOD", "Cell", "DocTable", "document_tables", "document_title", "numeric_cell", "text_cell"]

Cell = str | int | float | Fraction | None


@dataclass(frozen=True)
class DocTable:
    """One table: a short `name` (a spreadsheet tab, 31 characters at most), a title, column
    names, rows of cells, and notes printed under it."""

    name: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = ()


BAND_METHOD = (
    "The band holds the central share of the mean net per round over N rounds. Exact: the round's "
    "exact net distribution convolved N times (its characteristic function to the power N, "
    f"inverted by FFT over a window that Chernoff bounds show leaves out at most {OUTSIDE:g} of the "
    f"mass on each side; windows up to {MAX_POINTS:,} lattice points). Normal: mean +/- z sigma / "
    "sqrt(N), given only where the exact distribution is out of reach and the normal bands lie within "
    f"{NORMAL_TOLERANCE:.0%} of the half-width (or one lattice step) of the exact ones at the largest N "
    "computed exactly. Otherwise the band is not given."
)


def document_title(d: ParDocument) -> str:
    return f"{d.variant.title}: par sheet, {strategy_words(d.sheet)}"


def _pct(x: Fraction | float) -> str:
    return f"{float(x) * 100:.4f}%"


def numeric_cell(cell: Cell) -> bool:
    """Whether a cell is a number (set to the right in a table)."""
    return isinstance(cell, int | float | Fraction)


def text_cell(cell: Cell) -> str:
    """A cell as text: fractions as decimals (their exact value is its own column where it matters)."""
    if cell is None:
        return ""
    if isinstance(cell, Fraction):
        return str(cell.numerator) if cell.denominator == 1 else f"{float(cell):.10g}"
    if isinstance(cell, float):
        return f"{cell:.6g}"
    if isinstance(cell, int):
        return f"{cell:,}"
    return cell


def _summary(d: ParDocument) -> DocTable:
    p, net = d.sheet, d.net
    rows: list[tuple[Cell, ...]] = [
        ("expected return per ante", p.expected_return, "antes"),
        ("house edge per ante", p.house_edge, "antes"),
        ("return to player per unit wagered", p.rtp, ""),
        ("element of risk", p.element_of_risk, ""),
        ("average total wager", p.average_wager, "antes"),
        (f"{p.variant.bet_words.bet} rate", p.p_raise, ""),
        ("hit frequency", p.hit_frequency, ""),
        ("push frequency", p.push_frequency, ""),
        ("loss frequency", p.loss_frequency, ""),
        ("variance per round", p.variance, "antes squared"),
        ("standard deviation per round", p.std_dev, "antes"),
        (f"volatility index (z {VOLATILITY_LEVEL:.0%} x standard deviation)", d.volatility_index, "antes"),
        ("largest win", net.largest_win, "antes"),
        ("odds of the largest win, 1 in", net.largest_win_one_in, "rounds"),
        ("deal paths counted (weighted)" if p.exchanges else "deals enumerated", p.total_deals, ""),
        ("ties (raising worth exactly folding)", f"the best strategy's choice: {p.ties}", ""),
    ]
    if p.cost_against_best is not None:
        rows.append(("cost against the best strategy", p.cost_against_best, "antes"))
    if x := p.exchanges:
        rows += [(f"exchange rate, decision {k}", x.rate_at(k), "") for k in range(1, x.most + 1)]
        rows.append(("cost of never exchanging", x.cost_of_never_exchanging, "antes"))
    return DocTable("Summary", "Main game", ("figure", "value", "unit"), tuple(rows), tuple(warnings(p)))


def _strategies(d: ParDocument) -> DocTable:
    rows = [_strategy_row("this sheet", d.sheet)]
    if d.least_favourable is not None:
        rows.append(_strategy_row("least favourable named strategy", d.least_favourable))
    notes = ("The least favourable strategy is the named strategy with the lowest expected return.",)
    rate = f"{d.variant.bet_words.bet} rate"
    columns = ("", "strategy", "expected return per ante", "return per unit wagered", "element of risk", rate)
    return DocTable(
        "Strategies", "The return under the best and the least favourable strategy", columns, tuple(rows), notes
    )


def _strategy_row(label: str, p: ParSheet) -> tuple[Cell, ...]:
    return (label, p.strategy, p.expected_return, p.rtp, p.element_of_risk, p.p_raise)


def _events(p: ParSheet) -> DocTable:
    rows = tuple((e.label, e.net, e.combinations, e.probability, e.contribution) for e in p.events)
    columns = ("event", "net (antes)", "combinations", "probability", "contribution")
    return DocTable("Return table", "Return table", columns, rows)


def _net(d: ParDocument) -> DocTable:
    n, rows = d.net, []
    for i in range(len(n.amounts) - 1, -1, -1):
        p = n.probability(i)
        rows.append((n.amounts[i], n.weights[i], p, p * n.amounts[i]))
    columns = ("net (antes)", "combinations", "probability", "contribution")
    return DocTable("Net by amount", "One round's net, by amount", columns, tuple(rows))


def _bands(name: str, title: str, found: tuple[Band, ...], unit: str) -> DocTable:
    rows = tuple((b.rounds, f"{b.level:.0%}", b.low, b.high, b.method) for b in found)
    columns = ("rounds", "level", f"low (mean net per round, {unit})", f"high ({unit})", "method")
    return DocTable(name, title, columns, rows, (BAND_METHOD,))


def _wager(w: WagerSheet, name: str) -> DocTable:
    rows: list[tuple[Cell, ...]] = [
        (r.label, r.pays, r.combinations, r.probability, r.net, r.contribution) for r in w.rows
    ]
    rows.append(("total", "", w.total, Fraction(1), None, w.expected_return))
    notes = (
        f"Counted over {w.counted_over} ({w.total:,} combinations); per unit staked.",
        f"Return {_pct(w.rtp)} (expected net {w.expected_return}); standard deviation {w.std_dev:.6f}.",
    )
    columns = ("hand", "pays", "combinations", "probability", "net", "contribution")
    return DocTable(name, f"{w.name}: by tier", columns, tuple(rows), notes)


def _progressive(g: ProgressiveSheet, d: ParDocument) -> Iterator[DocTable]:
    money = d.variant.currency.format
    tiers = _wager(g, "Progressive")
    yield DocTable(
        tiers.name, f"Progressive at a meter of {money(g.meter)}: by tier", tiers.columns, tiers.rows, tiers.notes
    )
    rows: list[tuple[Cell, ...]] = [
        ("stake", money(g.stake), g.stake),
        ("reset", money(g.reset), g.reset),
        ("increment (the meter's share of each stake)", money(g.contribution_per_stake), g.contribution_per_stake),
        ("return at the reset", _pct(g.return_at(g.reset)), g.return_at(g.reset)),
        ("return per unit of meter (per minor unit)", "", g.per_meter),
    ]
    if (even := g.break_even_meter) is not None:
        rows.append(("break-even meter", money(even), even))
    if g.mean_meter is not None:
        rows.append(("expected meter at a hit", money(round(g.mean_meter)), g.mean_meter))
        rows.append(
            ("long-run return (at the expected meter)", _pct(g.return_at(g.mean_meter)), g.return_at(g.mean_meter))
        )
    if (between := g.bets_between_top_awards) is not None:
        rows.append(("bets between top awards (1 in)", f"{float(between):,.0f}", between))
        seats = d.assumptions.seats or 1
        rows.append(
            (f"rounds between top awards, {seats} seat(s) betting", f"{float(between) / seats:,.0f}", between / seats)
        )
    notes = (
        "The expected meter at a hit: bets taken one at a time, each adding the increment; a meter "
        "prize takes its share, a share of 1 leaves the reset. The house's top-up after a lesser "
        "meter prize and the rounding of prizes are left out.",
    )
    yield DocTable("Progressive meter", "The progressive's meter", ("figure", "value", "exact"), tuple(rows), notes)
    meters = sorted({g.reset, 2 * g.reset, 5 * g.reset, *(x for x in (g.break_even_meter,) if x is not None)} - {0})
    rows = [(money(m), m, g.return_at(m)) for m in meters]
    yield DocTable(
        "Progressive vs meter",
        "The progressive's return against the meter",
        ("meter", "minor units", "return"),
        tuple(rows),
    )
    yield _bands(
        "Progressive bands",
        f"Progressive's return over N bets, at a meter of {money(g.meter)}",
        d.progressive_bands,
        "stakes",
    )


def _hourly(d: ParDocument) -> DocTable:
    h, money = d.hourly, d.variant.currency.format
    rows: tuple[tuple[Cell, ...], ...] = (
        ("a seat", h.seat_rounds, money(round(h.seat_win)), h.seat_win),
        ("a table", h.table_rounds, money(round(h.table_win)), h.table_win),
    )
    notes = tuple(f"Assumed: {line}." for line in d.assumptions.lines(d.variant))
    columns = ("", "hands per hour", "theoretical win per hour", "minor units")
    return DocTable("Per hour", "Hands and the house's theoretical win per hour", columns, rows, notes)


def _card(d: ParDocument) -> DocTable:
    c = d.card
    rows = tuple((label, *(c.cell(r, k) for k in range(len(c.columns)))) for r, label in enumerate(c.rows))
    legend = f"{c.bet[0].upper()}: always {c.bet}; F: always fold; n%: {c.bet} n% of them (by deals)."
    return DocTable("Strategy card", f"Strategy card: {c.grid_title}", ("", *c.columns), rows, (*c.rules, legend))


def _exchanges(p: ParSheet) -> DocTable | None:
    x = p.exchanges
    if x is None:
        return None
    lefts = range(x.most, 0, -1)
    columns = (
        "up card",
        *(f"exchange worth, {k} left" for k in lefts),
        *(f"exchanged at decision {k}" for k in range(1, x.most + 1)),
    )
    rows: tuple[tuple[Cell, ...], ...] = tuple(
        (RANKS[u], *(x.exchange_value(k, u) for k in lefts), *(x.rate_at(k, u) for k in range(1, x.most + 1)))
        for u in range(13)
    )
    return DocTable("Exchanges", "Exchanges by up card (antes)", columns, rows)


def _provenance(d: ParDocument) -> DocTable:
    v = d.provenance
    rows: tuple[tuple[Cell, ...], ...] = (
        ("variant", d.variant.name),
        ("variant hash (SHA-256 of its TOML)", v.variant_hash),
        ("package version", f"caribbean-fast {v.package_version}"),
        ("method", v.method),
        ("tie rule", f"{v.ties} where raising is worth exactly folding"),
        ("confidence levels", ", ".join(f"{x:.0%}" for x in LEVELS)),
    )
    return DocTable("Provenance", "Provenance", ("", "value"), rows)


def document_tables(d: ParDocument) -> tuple[DocTable, ...]:
    """Every table of the document, in the order a reader meets them."""
    out = [_summary(d), _strategies(d), _events(d.sheet), _net(d)]
    out.append(_bands("Bands", "The return over N rounds: confidence bands", d.bands, "antes"))
    if (x := _exchanges(d.sheet)) is not None:
        out.append(x)
    out += [_wager(w, w.name[:31]) for w in d.side_bets]
    if d.progressive is not None:
        out += list(_progressive(d.progressive, d))
    out += [_hourly(d), _card(d), _provenance(d)]
    return tuple(out)
