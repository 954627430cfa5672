"""What the client draws, as rich renderables built from the seat's view: the table (dealer, the
seat's cards, the bets, the other seats), the status line, the paytable, the history, the help."""

from __future__ import annotations

from datetime import datetime

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text

from ..analysis.advice import Advice
from ..engine import SeatView
from ..variants import Currency, Variant
from ..words.describe import render_variant
from ..words.history import describe_step, outcome_words
from ..words.rules import decision_word, denominations, main_paytable
from ..words.views import dealer_hand_words, hand_words
from .keys import SeatKeys, SeatTable

__all__ = [
    "KEYS",
    "chips",
    "help_text",
    "history_text",
    "key_words",
    "offers",
    "packed",
    "paytable",
    "status",
    "table_area",
]

KEYS: tuple[tuple[str, str, str], ...] = (
    ("Enter", "deal; {bet} once dealt", ""),
    ("-", "fold", ""),
    ("0 / Ins", "repeat the last bet", ""),
    ("Del / .", "clear the bet", ""),
    ("Up / Down", "stake up / down by 1 (Shift: by 10)", ""),
    ("p", "progressive bet on / off", "progressive"),
    ("b", "side bet ({side}) on / off", "side_bets"),
    ("c", "{bet} (as Enter once dealt)", ""),
    ("r", "rebet", ""),
    ("1-5", "pick cards to exchange", "choose"),
    ("x", "exchange the hand (game 4: all five cards; where the seat chooses: the picked ones)", "exchanges"),
    ("t / h / ?", "paytable / history / help", ""),
    ("q", "quit (twice while your hand is dealt)", ""),
)
"""Every key, what it does ({bet}, {side}: in the game's words, `key_words`), and the variant field
a game needs for it ("": every game; "choose": exchanges of chosen cards)."""


def key_words(variant: Variant) -> dict[str, str]:
    """The words a key's description names: the second bet, the first side bet's title."""
    side = variant.side_bets[0].title if variant.side_bets else "side bet"
    return {"bet": variant.bet_words.bet, "side": side}


def offers(variant: Variant, needs: str) -> bool:
    """Whether a game has what a key needs (see `KEYS`)."""
    if needs == "choose":
        return variant.exchanges is not None and variant.exchanges.cards == "choose"
    return not needs or bool(getattr(variant, needs))


_RED = {"d", "h"}


def _card(text: str, picked: bool = False) -> Text:
    style = "bold red" if text[-1] in _RED else "bold"
    return Text(f"[{text}]", style=style + (" reverse" if picked else ""))


def _cards(
    cards: tuple[str, ...], hidden: int = 0, picked: frozenset[int] = frozenset(), hidden_first: bool = True
) -> Text:
    """The cards, with `hidden` backs before them (or after them)."""
    out = Text()
    if hidden_first:
        _backs(out, hidden)
    for i, c in enumerate(cards):
        out.append_text(_card(c, i in picked))
        out.append(" ")
    if not hidden_first:
        _backs(out, hidden)
    return out


def _backs(out: Text, hidden: int) -> None:
    for _ in range(hidden):
        out.append("[##] ", style="dim")


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
    """The dealer's cards as `Variant.layout` lays them out: the ones not yet shown face
    down while the seat decides, then the board where the game has one."""
    lay = v.layout
    deciding = view.phase == "deciding" and bool(view.cards)
    hidden = max(0, lay.dealer - len(view.dealer)) if deciding else 0
    out = Text("Dealer  ", style="bold")
    out.append_text(_cards(view.dealer, hidden=hidden, hidden_first=lay.hidden_first))
    if lay.board:
        out.append("   Board  ", style="bold")
        out.append_text(_cards(view.board))
    if view.revealed:  # the showdown: the dealer's hand named, as the engine says
        qualifies = "qualifies" if view.dealer_qualifies else "does not qualify"
        out.append(f"  {dealer_hand_words(view)}, {qualifies}", style="green")
    return out


def chips(amount: int, currency: Currency) -> str:
    """An amount as the fewest chips of the currency (`words.rules.denominations`): "(25)x2 (5) (1)x3"."""
    out = []
    for minor in reversed(denominations(currency)):  # largest first
        count, amount = divmod(amount, minor)
        if count:
            out.append(f"({minor / currency.minor_per_major:g})" + (f"x{count}" if count > 1 else ""))
    return " ".join(out)


def _bets(table: SeatTable, view: SeatView) -> Text:
    """Every bet spot of the game, with its stake and its chips."""
    v, b = table.variant, view.bets
    spots = [("ante", b.ante), (v.bet_words.bet, b.raise_)]
    spots += [(bet.title, b.side(bet.name)) for bet in v.side_bets]
    spots += [("progressive", b.progressive)] if v.progressive else []
    out = Text()
    for name, amount in spots:
        out.append(f"{name} ", style="bold")
        if amount:
            out.append(f"{v.currency.format(amount)} ")
            out.append(chips(amount, v.currency), style="yellow")
        else:
            out.append("-", style="dim")
        out.append("   ")
    return out


def table_area(session: SeatKeys) -> RenderableType:
    table, view = session.table, session.table.view(session.seat)
    mine = Text(f"Seat {session.seat + 1}  ", style="bold")  # seats count from 1 for people, as on the page
    mine.append_text(_cards(view.cards, picked=frozenset(session.selected)))
    if hand := hand_words(view):
        mine.append(f"  {hand}", style="green")
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
        line = Text(f"Seat {other.seat + 1}  ")
        line.append_text(_cards((), hidden=table.variant.layout.hand if other.dealt else 0))  # never its cards
        if other.settled:
            line.append("  settled")
        elif other.decided:
            line.append("  decided")  # never what: a decision taken by rule would tell the cards
        elif other.bets.ante:
            line.append(f"  ante {fmt(other.bets.ante)}" + ("" if other.dealt else ", waiting for the deal"))
        parts.append(line)
    parts.append(Text("Pays    " + _pays(table.variant), style="dim"))
    parts.append(Text("Rounds  " + _last_rounds(session), style="dim"))
    advice = session.advice()
    if advice is not None:
        parts.append(Text(_trainer_line(table.variant, advice), style="bold blue"))
    return Group(*parts)


def _trainer_line(v: Variant, advice: Advice) -> str:
    """The trainer's values, each decision in the game's words."""
    values = {"raise": advice.raise_, "fold": advice.fold, "exchange": advice.exchange}
    said = [f"{decision_word(v, d)} {float(x):+.2f} antes" for d, x in values.items() if x is not None]
    return f"Trainer: best is {decision_word(v, advice.best)}: " + ", ".join(said)


def _pays(v: Variant) -> str:
    """The game's main paytable on one line, best hand first ("t" shows every table)."""
    what, table = main_paytable(v)
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
            out.add_row(Text(key, style="bold"), what.format(**key_words(variant)))
    return out
