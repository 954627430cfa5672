"""Variants for people: a one-line summary, and the rules and paytables as rich tables."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..variants.model import Variant
from .rules import describe_paytable, qualifier_words, summary, threshold_label
from .rules import pays as pays_words

__all__ = ["render_variant", "summary"]


def _paytable(v: Variant) -> Table:
    """The paytable rows of `rules`, the columns the variant has."""
    head, rows = describe_paytable(v)
    table = Table(title="Paytables (pays N to 1)")
    for title in head:
        table.add_column(title.lower() if title == "Hand" else title)
    for row in rows:
        table.add_row(*row)
    return table


def _rules(v: Variant) -> Table:
    money = v.currency.format
    table = Table(title=f"{v.title} ({v.name})", show_header=False)
    table.add_column("rule", style="bold")
    table.add_column("value")
    table.add_row("source", v.source or "-")
    table.add_row("family", str(v.family))
    table.add_row(v.bet_words.bet, f"{v.raise_multiple} x ante")
    table.add_row("dealer qualifies with", f"{qualifier_words(v)} ({v.qualifier.description})")
    table.add_row("seats", str(v.seats))
    for i, lim in enumerate(v.limits):
        cap = f", at most {lim.balance_fraction} of the balance" if lim.balance_fraction else ""
        table.add_row(
            f"ante limits {i + 1}",
            f"{money(lim.minimum)} to {money(lim.maximum)}{cap}; below: "
            f"{lim.below_minimum}, above: {lim.above_maximum}",
        )
    if v.exchanges:
        e = v.exchanges
        table.add_row(
            "exchanges",
            f"up to {e.most_per_round} a round, "
            + ("all five cards, " if e.cards == "all" else f"1 to {e.most_cards} cards chosen, ")
            + f"{e.fee_antes} ante each"
            + (", only while the call stays covered" if e.must_cover_call else ""),
        )
    t = v.timing
    for name in ("bet_seconds", "decision_seconds", "idle_seconds"):
        if getattr(t, name) is not None:
            table.add_row(name.replace("_", " "), f"{getattr(t, name):g}")
    if t.auto_raise:
        table.add_row("on timeout", f"{v.bet_words.bet} with {t.auto_raise.spec} or better, else fold")
    table.add_row("round broken off", "void, bets refunded" if t.unfinished == "void" else "completed")
    return table


def _extras(v: Variant) -> list[RenderableType]:
    money = v.currency.format
    out: list[RenderableType] = []
    if v.progressive:
        p = v.progressive
        split = "shared equally" if p.split == "equal" else "each paid in full"
        fold = ", paid on a fold" if p.paid_on_fold else ""
        table = Table(
            title=f"Progressive: stake {money(p.stake)}, {money(p.contribution)} of each to the meter, "
            f"reset {money(p.reset)}{fold}, meter prizes won together: {split}"
        )
        table.add_column("hand (first five cards)")
        table.add_column("prize")
        for c, prize in sorted(p.prizes.items(), reverse=True):
            table.add_row(
                c.label,
                f"{float(prize.meter_share * 100):g}% of the meter" if prize.meter_share else money(prize.amount),
            )
        out.append(table)
    for bet in v.side_bets:
        table = Table(
            title=f"Side bet {bet.title} ({bet.name}): {money(bet.minimum)} to {money(bet.maximum)}"
            + (", lost on a fold" if bet.lost_on_fold else "")
        )
        table.add_column("hand (first five cards) or better")
        table.add_column("pays")
        for threshold, pays in bet.tiers:
            table.add_row(threshold_label(threshold), pays_words(pays))
        out.append(table)
    return out


def render_variant(v: Variant) -> RenderableType:
    """The whole variant as rich tables, with its notes."""
    parts: list[RenderableType] = [_rules(v), _paytable(v), *_extras(v)]
    if v.notes:
        parts.append(Text(v.notes, style="italic"))
    return Group(*parts)
