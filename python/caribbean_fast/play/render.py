"""What the client draws, as rich renderables built from the seat's view: the table (dealer, the
seat's cards, the bets, the other seats), the status line, the paytable, the history, the help."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from ..engine import SeatView
from ..engine.history import describe_step, outcome_words
from ..hands import evaluate
from ..variants import Family, Variant
from ..variants.describe import render_variant
from .keys import CHIPS, SeatKeys, SeatTable

__all__ = ["KEYS", "help_text", "history_text", "offers", "packed", "paytable", "status", "table_area"]

KEYS: tuple[tuple[str, str, str], ...] = (
    ("Enter", "deal; raise (call) once dealt", ""),
    ("-", "fold", ""),
    ("0 / Ins", "repeat the last bet", ""),
    ("Del / .", "clear the bet", ""),
    ("Up / Down", "stake up / down by chip values (Shift: ten steps)", ""),
    ("p", "progressive bet on / off", "progressive"),
    ("b", "side bet (AA Bonus) on / off", "side_bets"),
    ("c", "call (as Enter once dealt)", ""),
    ("r", "rebet", ""),
    ("1-5", "pick cards to exchange", "choose"),
    ("x", "exchange the hand (game 4: all five cards; where the seat chooses: the picked ones)", "exchanges"),
    ("t / h / ?", "paytable / history / help", ""),
    ("q", "quit (twice while your hand is dealt)", ""),
)
"""Every key, what it does, and the variant field a game needs for it ("": every game; "choose":
exchanges of chosen cards)."""


def offers(variant: Variant, needs: str) -> bool:
    """Whether a game has what a key needs (see `KEYS`)."""
    if needs == "choose":
        return variant.exchanges is not None and variant.exchanges.cards == "choose"
    return not needs or bool(getattr(variant, needs))


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


def packed(items: list[Text], width: int) -> Text:
    """The items on as few lines of `width` as they fit, two spaces apart, none split."""
    out, used = Text(), 0
    for item in items:
        if used and used + 2 + len(item) > max(width, 20):
            out.append("\n")
            used = 0
        elif used:
            out.append("  ")
            used += 2
        out.append_text(item)
        used += len(item)
    return out


def status(session: SeatKeys, now: datetime, width: int = 200) -> Text:
    """The phase, the timer and the money first, the game's title last, each kept whole: on a
    narrow terminal the status takes two lines rather than cut off what a player needs."""
    t, view = session.table, session.table.view(session.seat)
    fmt = t.variant.currency.format
    items = [Text(f"round {view.round} ({view.phase})", style="bold")]
    if view.deadline is not None:
        left = max(0.0, (view.deadline - now).total_seconds())
        items.append(Text(f"time left {left:.0f} s", style="bold magenta" if left > 5 else "bold red"))
    items += [Text(f"balance {fmt(view.balance)}"), Text(f"stake {fmt(session.stake)}")]
    if t.variant.progressive:
        items.append(Text(f"meter {fmt(view.meter)}", style="bold yellow"))
    items.append(Text(t.variant.title, style="dim"))
    return packed(items, width)


def _dealer(v: Variant, view: SeatView) -> Text:
    out = Text("Dealer  ", style="bold")
    if v.family is Family.STUD:
        out.append_text(_cards(view.dealer, hidden=4 if len(view.dealer) == 1 else 0))
    else:
        out.append_text(_cards(view.dealer, hidden=2 if view.phase == "deciding" else 0))
        out.append("   Board  ", style="bold")
        out.append_text(_cards(view.board))
    shown = [*view.dealer, *view.board] if v.family is Family.HOLDEM else list(view.dealer)
    if len(shown) >= 5:  # the showdown: the dealer's hand named, and whether it qualifies
        strength = evaluate(shown).strength
        qualifies = "qualifies" if v.qualifier.admits(strength) else "does not qualify"
        out.append(f"  {evaluate(shown).describe()}, {qualifies}", style="green")
    return out


_CHIPS = tuple(reversed(CHIPS))  # largest first


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


def _bets(table: SeatTable, view: SeatView) -> Text:
    """Every bet spot of the game, with its stake and its chips."""
    v, b = table.variant, view.bets
    spots = [("ante", b.ante), (v.raise_word, b.raise_)]
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


def table_area(session: SeatKeys) -> RenderableType:
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
        parts.append(Text(f"Last    {outcome_words(view.result, table.variant.currency)}", style="cyan"))
    fmt = table.variant.currency.format
    for other in view.others:
        line = Text(f"Seat {other.seat}  ")
        line.append_text(_cards((), hidden=5 if other.dealt else 0))  # never another seat's cards
        if other.settled:
            line.append("  settled")
        elif other.decision is not None:
            line.append(f"  {table.variant.raise_word + 's' if other.decision == 'raise' else 'folds'}")
        elif other.bets.ante:
            line.append(f"  ante {fmt(other.bets.ante)}" + ("" if other.dealt else ", waiting for the deal"))
        parts.append(line)
    parts.append(Text("Pays    " + _pays(table.variant), style="dim"))
    parts.append(Text("Rounds  " + _last_rounds(session), style="dim"))
    advice = session.advice()
    if advice is not None:
        parts.append(
            Text(
                f"Trainer: best is {advice.best}: raise {float(advice.raise_):+.4f} antes, "
                f"fold {float(advice.fold):+.4f} antes"
                + (f", exchange {float(advice.exchange):+.4f} antes" if advice.exchange is not None else ""),
                style="bold blue",
            )
        )
    return Group(*parts)


def _pays(v: Variant) -> str:
    """The raise paytable on one line, best hand first ("t" shows every table)."""
    table = v.raise_paytable if v.family is Family.STUD else v.ante_paytable
    what = "raise" if v.family is Family.STUD else "ante"
    return f"{what}: " + ", ".join(f"{c.label.lower()} {p}" for c, p in sorted(table.items(), reverse=True))


def _last_rounds(session: SeatKeys, rounds: int = 4) -> str:
    fmt = session.table.variant.currency.format
    done = []
    for steps in session.table.history(session.seat, rounds):
        mine = [s for s in steps if s["kind"] == "settled" and s["seat"] == session.seat]
        done.append(f"#{steps[0]['round']} {fmt(mine[0]['net']['total'])}" if mine else f"#{steps[0]['round']} void")
    return "  ".join(done) or "none yet"


def paytable(variant: Variant) -> RenderableType:
    return render_variant(variant)


def history_text(session: SeatKeys, rounds: int = 5) -> RenderableType:
    out = RichTable(title=f"Last {rounds} rounds", show_header=False, box=None)
    for steps in session.table.history(session.seat, rounds):
        out.add_row(Text(f"round {steps[0]['round']}", style="bold"))
        for step in steps:
            if (text := describe_step(step, session.table.variant)) is not None:
                out.add_row("  " + text)
    return out


def help_text(variant: Variant) -> RenderableType:
    """This game's keys only."""
    out = RichTable(title="Keys", show_header=False, box=None)
    for key, what, needs in KEYS:
        if offers(variant, needs):
            out.add_row(Text(key, style="bold"), what)
    return out
