"""Par sheets for people and programs: a dict (JSON-ready), Markdown, and rich tables."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..cards import RANKS
from .exchange import ExchangePlan
from .parsheet import ParSheet
from .wording import strategy_words, warnings


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.4f}%"


def par_sheet_dict(p: ParSheet) -> dict[str, Any]:
    out: dict[str, Any] = {
        "variant": p.variant.name,
        "strategy": p.strategy,
        "total_deals": p.total_deals,
        "expected_return": f"{p.expected_return.numerator}/{p.expected_return.denominator}",
        "expected_return_decimal": float(p.expected_return),
        "house_edge": float(p.house_edge),
        "rtp": float(p.rtp),
        "element_of_risk": float(p.element_of_risk),
        "average_wager": float(p.average_wager),
        "p_raise": float(p.p_raise),
        "p_fold": float(1 - p.p_raise),
        "variance": float(p.variance),
        "std_dev": p.std_dev,
        "hit_frequency": float(p.hit_frequency),
        "push_frequency": float(p.push_frequency),
        "loss_frequency": float(p.loss_frequency),
        "player_edge": p.player_edge,
        "warnings": warnings(p),
        "strategy_summary": list(p.table.summary_lines),
        "seconds": p.seconds,
        "return_table": [
            {
                "event": e.label,
                "net": str(e.net),
                "combinations": e.combinations,
                "probability": float(e.probability),
                "contribution": float(e.contribution),
            }
            for e in p.events
        ],
        "side_bets": {
            b.name: {way: {"expected_return": str(r), "rtp": float(1 + r)} for way, r in b.returns.items()}
            for b in p.side_bets
        },
    }
    if p.cost_against_best is not None:
        out["cost_against_best"] = float(p.cost_against_best)
    if p.exchanges:
        out["exchanges"] = exchanges_dict(p.exchanges)
    if p.beaten_by:
        out["beaten_by"] = {**vars(p.beaten_by), "ci95": list(p.beaten_by.ci95)}
    if p.progressive:
        g = p.progressive
        out["progressive"] = {
            "expected_return_at_reset": float(g.expected(g.reset)),
            "fixed": str(g.fixed),
            "per_meter_minor_unit": str(g.per_meter),
            "break_even_meter": g.break_even_meter,
            "break_even_meter_text": p.variant.currency.format(g.break_even_meter)
            if g.break_even_meter is not None
            else None,
        }
    return out


def exchanges_dict(x: ExchangePlan) -> dict[str, Any]:
    """Game 4's exchanges: rates, values by up card, and what never exchanging costs."""
    return {
        "return_with_exchanges": str(x.value),
        "return_without_exchanges": str(x.never),
        "cost_of_never_exchanging": float(x.cost_of_never_exchanging),
        "rate_at_decision": {d: float(x.rate_at(d)) for d in range(1, x.most + 1)},
        "by_up_card": {
            RANKS[u]: {
                "value_of_an_exchange": {left: float(x.exchange_value(left, u)) for left in range(x.most, 0, -1)},
                "rate_at_decision": {d: float(x.rate_at(d, u)) for d in range(1, x.most + 1)},
            }
            for u in range(13)
        },
    }


def _exchange_rows(x: ExchangePlan) -> tuple[list[str], list[list[str]]]:
    """The exchanges by up card: the value of an exchange with each count left, and the share of
    rounds that exchange at each decision."""
    lefts, decisions = range(x.most, 0, -1), range(1, x.most + 1)
    head = (
        ["up card"] + [f"exchange worth, {k} left" for k in lefts] + [f"exchanged at decision {d}" for d in decisions]
    )
    rows = [
        [RANKS[u]]
        + [f"{float(x.exchange_value(k, u)):+.4f}" for k in lefts]
        + [_pct(x.rate_at(d, u)) for d in decisions]
        for u in range(13)
    ]
    rows.append(["all"] + ["" for _ in lefts] + [_pct(x.rate_at(d)) for d in decisions])
    return head, rows


def _headline(p: ParSheet) -> list[tuple[str, str]]:
    rows = [
        ("expected return per ante", f"{_pct(p.expected_return)}  ({p.expected_return})"),
        ("house edge (per ante)", _pct(p.house_edge)),
        ("return to player (per unit wagered)", _pct(p.rtp)),
        ("element of risk", _pct(p.element_of_risk)),
        ("average total wager", f"{float(p.average_wager):.6f} antes"),
        (f"{p.variant.bet_words.bet} rate", _pct(p.p_raise)),
        (
            "hit / push / loss",
            f"{_pct(p.hit_frequency)} / {_pct(p.push_frequency)} / {_pct(p.loss_frequency)}",
        ),
        ("standard deviation per round", f"{p.std_dev:.6f} antes"),
        ("deal paths counted (weighted)" if p.exchanges else "deals enumerated", f"{p.total_deals:,}"),
    ]
    if p.cost_against_best is not None:
        rows.append(("cost against the best strategy", f"{_pct(p.cost_against_best)} of the ante"))
    if x := p.exchanges:
        rows.append(
            (
                "exchange rate, decisions " + " / ".join(str(d) for d in range(1, x.most + 1)),
                " / ".join(_pct(x.rate_at(d)) for d in range(1, x.most + 1)),
            )
        )
        rows.append(("cost of never exchanging", f"{_pct(x.cost_of_never_exchanging)} of the ante"))
    for b in p.side_bets:
        for way, r in b.returns.items():
            rows.append((f"{b.name} return, {way}", _pct(1 + r)))
    if p.progressive:
        g, money = p.progressive, p.variant.currency.format
        rows.append(("progressive return at reset", _pct(1 + g.expected(g.reset))))
        if g.break_even_meter is not None:
            rows.append(("progressive breaks even at a meter of", money(g.break_even_meter)))
    return rows


def par_sheet_markdown(p: ParSheet) -> str:
    lines = [f"# {p.variant.title}: par sheet, {strategy_words(p)}", ""]
    lines += [f"> {w}" for w in warnings(p)] + ([""] if warnings(p) else [])
    lines += ["| figure | value |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in _headline(p)]
    lines += [
        "",
        "## Return table",
        "",
        "| event | net (antes) | combinations | probability | contribution |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    lines += [
        f"| {e.label} | {e.net} | {e.combinations:,} | {float(e.probability):.8f} | {float(e.contribution):+.8f} |"
        for e in p.events
    ]
    if p.exchanges:
        head, rows = _exchange_rows(p.exchanges)
        lines += ["", "## Exchanges by up card (antes)", "", "| " + " | ".join(head) + " |"]
        lines += ["| --- |" + " ---: |" * (len(head) - 1)] + ["| " + " | ".join(r) + " |" for r in rows]
    lines += ["", "## Strategy", ""] + [f"- {s}" for s in p.table.summary_lines]
    return "\n".join(lines) + "\n"


def render_par_sheet(p: ParSheet) -> RenderableType:
    head = Table(title=f"{p.variant.title}: {strategy_words(p)}", show_header=False)
    head.add_column("figure", style="bold")
    head.add_column("value")
    for k, v in _headline(p):
        head.add_row(k, v)
    events = Table(title="Return table")
    for col in ("event", "net (antes)", "combinations", "probability", "contribution"):
        events.add_column(col, justify="left" if col == "event" else "right")
    for e in p.events:
        events.add_row(
            e.label,
            str(e.net),
            f"{e.combinations:,}",
            f"{float(e.probability):.8f}",
            f"{float(e.contribution):+.8f}",
        )
    parts: list[RenderableType] = [Text(w, style="bold red") for w in warnings(p)]
    parts += [head, events]
    if p.exchanges:
        names, rows = _exchange_rows(p.exchanges)
        by_up = Table(title="Exchanges by up card (antes)")
        for i, name in enumerate(names):
            by_up.add_column(name, justify="left" if i == 0 else "right")
        for row in rows:
            by_up.add_row(*row)
        parts.append(by_up)
    parts.append(Text("Strategy:\n" + p.table.summary(), style="italic"))
    return Group(*parts)
