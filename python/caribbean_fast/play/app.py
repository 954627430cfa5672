"""The terminal table (Textual): the seed's keys drive a session (`SeatKeys`: a table here or a
server's); the screen redraws from the seat's view after every key and every second (the decision
timer). A key that does nothing, or an action the rules refuse, only puts the reason on the
message line."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import ClassVar

from rich.console import Console, RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import Static

from ..errors import CaribbeanFastError
from ..settlement import Decision
from .keys import SeatKeys
from .render import help_text, history_text, key_words, offers, packed, paytable, status, table_area

__all__ = ["PlayApp"]

_KEY_NAMES = {"enter": "⏎", "minus": "-", "delete": "del", "question_mark": "?", "up": "↑↓"}

_PICKS = [Binding(str(i + 1), f"pick({i})", "pick", show=i == 0) for i in range(5)]
_NEEDS = {"side_bet": "side_bets", "progressive": "progressive", "exchange": "exchanges", "pick": "choose"}
"""Actions that only some games have, and the variant field that says so."""


class PlayApp(App[str]):
    """Returns the trainer's session report (empty without a trainer) when it quits."""

    CSS = """
    #status { height: 1; background: $boost; padding: 0 1; }
    #table { border: round green; padding: 0 1; height: auto; min-height: 10; }
    #message { height: 2; padding: 0 1; color: $warning; }
    #panel { border: round $accent; padding: 0 1; height: auto; display: none; }
    #status { height: auto; }
    #keys { dock: bottom; height: auto; background: $panel; padding: 0 1; }
    """
    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter", "enter", "deal/{bet}"),
        Binding("minus", "fold", "fold"),
        Binding("0", "repeat", "rebet"),
        Binding("insert", "repeat", "rebet", show=False),
        Binding("delete", "clear", "clear"),
        Binding("full_stop", "clear", "clear", show=False),
        Binding("up", "stake(1)", "stake"),
        Binding("down", "stake(-1)", "stake", show=False),
        Binding("shift+up", "stake(10)", "+10 chips", show=False),
        Binding("shift+down", "stake(-10)", "-10 chips", show=False),
        Binding("p", "progressive", "progressive"),
        Binding("b", "side_bet", "{side}"),
        Binding("c", "call", "{bet}"),
        Binding("r", "repeat", "rebet"),
        *_PICKS,
        Binding("x", "exchange", "exchange"),
        Binding("t", "panel('paytable')", "paytable"),
        Binding("h", "panel('history')", "history"),
        Binding("question_mark", "panel('help')", "help"),
        Binding("q", "quit_table", "quit"),
    ]

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: SeatKeys, tick_seconds: float | None = 1.0) -> None:
        super().__init__()
        self.session, self.tick_seconds = session, tick_seconds
        self.message = "Up/Down set the stake, Enter deals. Press ? for every key."
        self.shown_panel: str | None = None
        self.quitting = False  # q pressed once while the seat's hand is dealt
        self.notice: tuple[str, str] | None = None  # the server's last reminder, shown until a key
        self._keys = {b.key: b.action.split("(")[0] for b in self.BINDINGS if isinstance(b, Binding)}

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="table")
        yield Static(id="message")
        yield Static(id="panel")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.title = self.session.table.variant.title
        if self.tick_seconds:
            self.set_interval(self.tick_seconds, self.tick)
        self.redraw()

    # ---- drawing ---------------------------------------------------------------------------------

    def renderables(self) -> dict[str, RenderableType]:
        now = self.session.table.clock()
        parts: dict[str, RenderableType] = {
            "status": status(self.session, now, self.size.width - 2 if self.size.width else 200),
            "table": table_area(self.session),
            "message": self.message,
        }
        if self.shown_panel == "paytable":
            parts["panel"] = paytable(self.session.table.variant)
        elif self.shown_panel == "history":
            parts["panel"] = history_text(self.session)
        elif self.shown_panel == "help":
            parts["panel"] = help_text(self.session.table.variant)
        elif self.shown_panel == "reminder" and self.notice is not None:
            title, words = self.notice
            parts["panel"] = Text.assemble((title, "bold"), "\n", words, "\n", ("Any key: keep playing.", "dim"))
        return parts

    def keys_line(self, width: int) -> Text:
        """This game's keys, as many to a line as `width` holds, a key never parted from its
        words (Textual's footer cuts off what does not fit on one line); {bet} and {side} in a
        description are the game's words (`render.key_words`)."""
        words = key_words(self.session.table.variant)
        pairs = [
            Text(f"{_KEY_NAMES.get(b.key, b.key)} {b.description.format(**words)}")
            for b in self.BINDINGS
            if isinstance(b, Binding) and b.show and self.check_action(b.action.split("(")[0], ())
        ]
        return packed(pairs, width)

    def on_resize(self, event: events.Resize) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.query_one("#keys", Static).update(self.keys_line(self.size.width - 2))
        parts = self.renderables()
        for name, renderable in parts.items():
            self.query_one(f"#{name}", Static).update(renderable)
        self.query_one("#panel", Static).display = "panel" in parts

    def screen_text(self) -> str:
        """Everything drawn, as plain text (for tests and logs)."""
        console = Console(record=True, width=200, file=io.StringIO())
        for renderable in [*self.renderables().values(), self.keys_line(200)]:
            console.print(renderable)
        return console.export_text()

    def _do(self, action: Callable[[], str]) -> None:
        try:
            self.message = action()
        except CaribbeanFastError as err:
            self.message = f"Not allowed: {err}"
        self._remind()
        self.redraw()

    def _remind(self) -> None:
        """The server's reminder (a reality check, an idle notice), if one came: in the panel."""
        said = self.session.reminder()
        if said is not None:
            self.notice, self.shown_panel = said, "reminder"
        self.title = self.session.table.variant.title  # a paytable changed by the office: its new title

    # ---- keys --------------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys of what this game has not (a side bet, a progressive, exchanges) are off, and off
        the footer."""
        return offers(self.session.table.variant, _NEEDS.get(action, ""))

    def on_key(self, event: events.Key) -> None:
        if self.shown_panel == "reminder":  # seen: any key puts it away
            self.shown_panel = None
            self.redraw()
        action = self._keys.get(event.key)
        if action != "quit_table":
            self.quitting = False
        if event.key not in ("ctrl+q", "ctrl+c", "tab", "shift+tab") and not (action and self.check_action(action, ())):
            self.message = f"The key {event.key!r} does nothing here: press ? for the keys."
            self.redraw()

    def action_enter(self) -> None:
        self._do(self.session.enter)

    def action_fold(self) -> None:
        self._do(lambda: self.session.decide(Decision.FOLD))

    def action_call(self) -> None:
        self._do(lambda: self.session.decide(Decision.RAISE))

    def action_repeat(self) -> None:
        self._do(self.session.repeat_last_bet)

    def action_clear(self) -> None:
        self._do(self.session.clear)

    def action_stake(self, majors: int) -> None:
        self._do(lambda: self.session.change_stake(majors))

    def action_progressive(self) -> None:
        self._do(self.session.toggle_progressive)

    def action_side_bet(self) -> None:
        self._do(self.session.toggle_side_bet)

    def action_pick(self, index: int) -> None:
        self._do(lambda: self.session.select(index))

    def action_exchange(self) -> None:
        self._do(self.session.exchange)

    def action_panel(self, name: str) -> None:
        self.shown_panel = None if self.shown_panel == name else name
        self.redraw()

    def action_quit_table(self) -> None:
        """Quits, saying what the session came to; while the seat's hand is dealt, only on a
        second q."""
        if self.session.in_round and not self.quitting:
            self.quitting = True
            self.message = "Your hand is dealt and undecided: press q again to quit and leave it."
            self.redraw()
            return
        self.exit(self.session.report())

    def tick(self) -> None:
        """Every second: the timer on screen, and the automatic decision when time runs out."""
        try:
            said = self.session.tick()
        except CaribbeanFastError as err:
            said = f"Not allowed: {err}"
        if said:
            self.message = said
        self._remind()
        self.redraw()
