"""What the client draws, as rich renderables built from the seat's view: the table (dealer, the
seat's cards, the bets, the other seats), the status line, the paytable, the history, the help."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from ..engine import SeatView, Table
from ..engine.history import describe_step
from ..variants import Family, Variant
from ..variants.describe import render_variant
from .session import PlaySession

__all__ = ["KEYS", "help_text", "history_text", "paytable", "status", "table_area"]

KEYS: tuple[tuple[str, str], ...] = (
    ("Enter", "deal; raise (call) once dealt"),
    ("-", "fold"),
    ("0 / Ins", "repeat the last bet"),
    ("Del / .", "clear the bet"),
    ("Up / Down", "stake +1 / -1 (Shift: 10)"),
    ("p", "progressive bet on / off"),
    ("b", "side bet (AA Bonus) on / off"),
    ("c", "call (as Enter once dealt)"),
    ("r", "rebet"),
    ("1-5", "pick cards to exchange (game 4)"),
    ("x", "exchange the picked cards"),
    ("t / h / ?", "paytable / history / help"),
    ("q", "quit"),
)

_RED = {"d", "h"}


def _card(text: str, picked: bool = False) -> Text:
    style = "bold red" if text[-1] in _RED else "bold"
    return Text(f"[{text}]", style=style + (" reverse" if picked else ""))


def _cards(cards: tuple[str, ...], hidden: int = 0, picked: frozenset[int] = frozenset()) -> Text:
    out = Text()
    for _ in range(hidden):
        out.append("[##] ", style="dim")
    for i, c in enumerate(cards):
        out.append_text(_card(c, i in picked))
        out.append(" ")
    return out


def status(session: PlaySession, now: datetime) -> Text:
    t, view = session.table, session.table.view(session.seat)
    fmt = t.variant.currency.format
    line = Text(f"{t.variant.title}   ", style="bold")
    line.append(f"balance {fmt(view.balance)}   stake {fmt(session.stake)}   round {view.round} ({view.phase})")
    if t.variant.progressive:
        line.append(f"   meter {fmt(view.meter)}", style="bold yellow")
    if view.deadline is not None:
        left = max(0.0, (view.deadline - now).total_seconds())
        line.append(f"   time left {left:.0f} s", style="bold magenta" if left > 5 else "bold red")
    return line


def _dealer(v: Variant, view: SeatView) -> Text:
    out = Text("Dealer  ", style="bold")
    if v.family is Family.STUD:
        out.append_text(_cards(view.dealer, hidden=4 if len(view.dealer) == 1 else 0))
    else:
        out.append_text(_cards(view.dealer, hidden=2 if view.phase == "deciding" else 0))
        out.append("   Board  ", style="bold")
        out.append_text(_cards(view.board))
    return out


_CHIPS = (
    1000,
    500,
    100,
    25,
    10,
    5,
    1,
    Fraction(1, 2),
    Fraction(1, 4),
    Fraction(1, 10),
    Fraction(1, 20),
    Fraction(1, 100),
)
"""Chip values in major units, largest first."""


def chips(amount: int, minor_per_major: int) -> str:
    """An amount as the fewest chips: "(25)x2 (5) (1)x3"."""
    out = []
    for value in _CHIPS:
        minor = Fraction(value) * minor_per_major
        if minor.denominator != 1:
            continue  # no such chip in this currency
        count, amount = divmod(amount, int(minor))
        if count:
            out.append(f"({float(value):g})" + (f"x{count}" if count > 1 else ""))
    return " ".join(out)


def _bets(table: Table, view: SeatView) -> Text:
    """Every bet spot of the game, with its stake and its chips."""
    v, b = table.variant, view.bets
    spots = [("ante", b.ante), ("raise" if v.family is Family.STUD else "call", b.raise_)]
    spots += [(bet.name, b.side(bet.name)) for bet in v.side_bets]
    spots += [("progressive", b.progressive)] if v.progressive else []
    out = Text()
    for name, amount in spots:
        out.append(f"{name} ", style="bold")
        if amount:
            out.append(f"{v.currency.format(amount)} ")
            out.append(chips(amount, v.currency.minor_per_major), style="yellow")
        else:
            out.append("-", style="dim")
        out.append("   ")
    return out


def table_area(session: PlaySession) -> RenderableType:
    table, view = session.table, session.table.view(session.seat)
    mine = Text(f"Seat {session.seat}  ", style="bold")
    mine.append_text(_cards(view.cards, picked=frozenset(session.selected)))
    if view.hand:
        mine.append(f"  {view.hand}", style="green")
    parts: list[RenderableType] = [
        _dealer(table.variant, view),
        Text(""),
        mine,
        Text("Bets    ").append_text(_bets(table, view)),
    ]
    if view.result is not None and view.phase != "deciding":
        net = view.result["net"]["total"]
        parts.append(Text(f"Last    {view.result['hand']}: net {table.variant.currency.format(net)}", style="cyan"))
    for other in view.others:
        line = Text(f"Seat {other.seat}  ")
        line.append_text(_cards(other.cards, hidden=5 if other.dealt and not other.cards else 0))
        line.append("  decided" if other.decided else "")
        parts.append(line)
    parts.append(Text("Pays    " + _pays(table.variant), style="dim"))
    parts.append(Text("Rounds  " + _last_rounds(session), style="dim"))
    advice = session.advice()
    if advice is not None:
        parts.append(
            Text(
                f"Trainer: best is {advice.best}: raise {float(advice.raise_):+.4f} antes, "
                f"fold {float(advice.fold):+.4f} antes",
                style="bold blue",
            )
        )
    return Group(*parts)


def _pays(v: Variant) -> str:
    """The raise paytable on one line, best hand first ("t" shows every table)."""
    table = v.raise_paytable if v.family is Family.STUD else v.ante_paytable
    what = "raise" if v.family is Family.STUD else "ante"
    return f"{what}: " + ", ".join(f"{c.label.lower()} {p}" for c, p in sorted(table.items(), reverse=True))


def _last_rounds(session: PlaySession, rounds: int = 4) -> str:
    fmt = session.table.variant.currency.format
    done = []
    for steps in session.table.history(session.seat, rounds):
        mine = [s for s in steps if s["kind"] == "settled" and s["seat"] == session.seat]
        done.append(f"#{steps[0]['round']} {fmt(mine[0]['net']['total'])}" if mine else f"#{steps[0]['round']} void")
    return "  ".join(done) or "none yet"


def paytable(variant: Variant) -> RenderableType:
    return render_variant(variant)


def history_text(session: PlaySession, rounds: int = 5) -> RenderableType:
    currency = session.table.variant.currency
    out = RichTable(title=f"Last {rounds} rounds", show_header=False, box=None)
    for steps in session.table.history(session.seat, rounds):
        out.add_row(Text(f"round {steps[0]['round']}", style="bold"))
        for step in steps:
            if (text := describe_step(step, currency)) is not None:
                out.add_row("  " + text)
    return out


def help_text() -> RenderableType:
    out = RichTable(title="Keys", show_header=False, box=None)
    for key, what in KEYS:
        out.add_row(Text(key, style="bold"), what)
    return out
