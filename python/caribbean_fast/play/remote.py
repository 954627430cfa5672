"""The terminal table at a server's table: `caribbean-fast play NAME --connect URL`.

`RemoteSession` has the keys and the screen's questions of `PlaySession`, answered by the server
over the table protocol (docs/protocol.md) instead of a local `Table`: each key is one command,
its refusal raises the server's reason in words, and the screen is drawn from the seat's last
`view`. Frames the server sends unasked (other seats, the decision timer's automatic decision)
are read on every tick; a dropped connection is opened again on the next tick, and the server's
welcome brings the seat and round back. The session's socket is its table's own (`/ws/<table>`):
when the table moves to another server process, the link follows the server's `moved`."""

from __future__ import annotations

import json
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any
from urllib.parse import quote

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from ..analysis.advice import Advice
from ..engine import Phase, SeatView
from ..errors import ServerError, VariantError
from ..server.wire.commands import request
from ..variants import BetLimits, Currency, Variant
from ..variants.toml_io import from_dict
from ..words.history import outcome_words
from ..words.views import view_from_json
from .keys import SeatKeys

__all__ = ["Link", "RemoteSession", "RemoteTable", "log_in", "reminder_words", "socket_url", "view_of"]

WAIT = 10.0  # seconds an answer may take
# seconds a refused handshake waits for the server to close: a proxy reloading its map may keep the
# connection open after its 502, and the client waited its default 10 s before trying again
CLOSE = 1.0
MOVES, MOVE_PAUSE = 5, 0.1  # times a command follows `moved`, and the first pause between them (doubling)


def _http(base: str, path: str, body: dict[str, Any] | None = None, token: str | None = None) -> dict[str, Any]:
    """One call of the server's HTTP API (a POST when there is a body; the account's, with a
    token); ServerError with the server's message when refused, or saying the server cannot be
    reached."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(base + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            answer: dict[str, Any] = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as err:
        error = json.loads(err.read() or b"{}").get("error", {})
        raise ServerError(error.get("message", f"HTTP {err.code}"), error.get("code", "internal")) from None
    except (urllib.error.URLError, OSError, ValueError) as err:
        raise ServerError(f"cannot reach {base}: {err}", "unavailable") from None


def log_in(base: str, name: str | None, password: str | None) -> str:
    """A session token: the account's (name and password) or a new guest's (a --demo server)."""
    if name is None:
        return str(_http(base, "/api/guest", {})["token"])
    return str(_http(base, "/api/login", body={"name": name, "password": password or ""})["token"])


def view_of(raw: dict[str, Any]) -> SeatView:
    """A seat's view from the protocol's JSON, as the engine would have given it locally."""
    return view_from_json(raw)


def _span(seconds: int) -> str:
    minutes, hours = seconds // 60 % 60, seconds // 3600
    if not minutes and not hours:
        return f"{seconds} second{'s' * (seconds != 1)}"
    said = f"{minutes} minute{'s' * (minutes != 1)}"
    return f"{hours} hour{'s' * (hours != 1)} {said}" if hours else said


def reminder_words(frame: dict[str, Any]) -> tuple[str, str]:
    """A `reality_check` or `idle_notice` frame as a title and its words: the session's time and
    net as the server counted them (docs/protocol.md, "Reminders")."""
    session, rounds = frame["session"], frame["session"]["rounds"]
    nets = [Currency(n["currency"], n["minor_per_major"]).format(n["amount"]) for n in session["net"]]
    net = f"net {', '.join(nets)}" if nets else "nothing won or lost"
    words = f"You have played for {_span(session['seconds'])}: {rounds} round{'s' * (rounds != 1)}, {net}."
    if frame["type"] == "reality_check":
        return "Reality check", words
    ends = f"This game ends a session idle for {_span(round(frame['idle_seconds']))}"
    return "Still there?", f"{ends}: yours ends in about {_span(frame['ends_in'])} unless you bet or play. {words}"


def socket_url(base: str, table: str | None) -> str:
    """The table's own socket (`/ws/<table>`) at the server whose HTTP address is `base`, or
    the lobby's (`/ws`)."""
    ws = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1)
    return ws + ("/ws" if table is None else "/ws/" + quote(table, safe=""))


class _Moved(Exception):
    """The server answered `moved`: the table is served at `endpoint`."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint


class Link:
    """One WebSocket to the server, the table's own (or the lobby's): commands answered by id;
    other frames kept for the session. A table served by another process is `moved`: the link
    opens the socket the server names and sends the command there."""

    def __init__(self, base: str, token: str, table: str | None = None) -> None:
        self.base, self.token, self.url = base, token, socket_url(base, table)
        self.moved_to: str | None = None  # the socket a `moved` named: the next `open` goes there
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self._next = 0

    def open(self) -> dict[str, Any]:
        """Connects; returns the welcome."""
        url, self.moved_to = self.moved_to or self.url, None
        try:
            auth = {"Authorization": f"Bearer {self.token}"}
            self.ws = connect(url, additional_headers=auth, open_timeout=WAIT, close_timeout=CLOSE)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as err:
            self.ws = None
            raise ServerError(f"cannot connect to {url}: {err}", "unavailable") from None
        welcome = self._recv(WAIT)
        if welcome is None or welcome.get("type") != "welcome" or welcome.get("account") is None:
            raise ServerError(f"the server did not take the session: {welcome}", "unauthorized")
        return welcome

    def retarget(self, table: str) -> dict[str, Any]:
        """Closes this socket and opens the table's; returns its welcome."""
        self.close()
        self.url, self.moved_to = socket_url(self.base, table), None
        return self.open()

    def _recv(self, timeout: float) -> dict[str, Any] | None:
        if self.ws is None:
            return None
        try:
            text = self.ws.recv(timeout)
        except TimeoutError:
            return None
        except ConnectionClosed:
            self.ws = None
            return None
        frame: dict[str, Any] = json.loads(text)
        if frame.get("type") == "moved":  # the socket closes (4009): the next `open` goes there
            self.moved_to = str(frame["endpoint"])
        return frame

    def drain(self) -> None:
        """Keeps every frame already sent by the server."""
        while (frame := self._recv(0)) is not None:
            self.frames.append(frame)

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Sends a command of the protocol's list (`server.commands`), its fields checked as the
        server checks them; its result, or ServerError with the server's reason. Told `moved`,
        it opens the socket where the table is served and sends it again there."""
        pause = MOVE_PAUSE
        for _ in range(MOVES):
            if self.ws is None and self.moved_to is not None:
                self.open()
            try:
                return self._command(kind, fields)
            except _Moved as moved:
                self.close()
                self.moved_to = moved.endpoint
            time.sleep(pause)  # a proxy's map may lag the move by a moment
            pause *= 2
        raise ServerError(f"{fields.get('table')} keeps moving between processes; try again", "unavailable")

    def _command(self, kind: str, fields: dict[str, Any]) -> dict[str, Any]:
        if self.ws is None:
            raise ServerError("the connection dropped: reconnecting", "unavailable")
        self._next += 1
        try:
            self.ws.send(request(kind, self._next, **fields))
        except ConnectionClosed:
            self.drain()  # the frames it sent before closing: a `moved` among them is followed
            self.ws = None
            if self.moved_to is not None:
                raise _Moved(self.moved_to) from None
            raise ServerError("the connection dropped: reconnecting", "unavailable") from None
        while (frame := self._recv(WAIT)) is not None:
            if frame.get("type") == "answer" and frame.get("id") == self._next:
                if not frame["ok"]:
                    if frame["error"]["code"] == "moved":
                        raise _Moved(frame["error"]["endpoint"])
                    raise ServerError(frame["error"]["message"], frame["error"]["code"])
                result: dict[str, Any] = frame["result"]
                return result
            self.frames.append(frame)
        if self.moved_to is not None:  # told `moved` before the answer: sent again there
            raise _Moved(self.moved_to)
        raise ServerError("no answer from the server", "unavailable")

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None


@dataclass
class RemoteTable:
    """What the screen reads of a table, from the server: the variant (by its preset name), the
    limits, the seat's last view and its history."""

    variant: Variant
    limits: BetLimits
    raw: dict[str, Any] | None = None
    rounds: list[list[dict[str, Any]]] | None = None

    def view(self, seat: int) -> SeatView:
        if self.raw is None:
            raise ServerError("no view of the table yet", "unavailable")
        return view_of(self.raw)

    def clock(self) -> datetime:
        return datetime.now(UTC)

    def history(self, seat: int, last: int = 10) -> list[list[dict[str, Any]]]:
        return (self.rounds or [])[-last:]


class RemoteSession(SeatKeys):
    """The keys (`SeatKeys`) over the network (see the module's docstring)."""

    def __init__(
        self, base: str, token: str, game: str, buy_in: int | None, trainer: bool = False, limits: int | None = None
    ) -> None:
        super().__init__()
        self.base = base.rstrip("/")
        found = _http(self.base, "/api/lobby")
        lobby = [t for t in found["tables"] if t["game"] == game]
        kinds = [k for k in found.get("own", []) if k["game"] == game and limits in (None, k["limit_table"])]
        if kinds:  # the game is played at a table of one's own, of the kind (its limits) asked
            own = _http(self.base, f"/api/own/{quote(kinds[0]['kind'], safe='')}", token=token)
            lobby = [{**kinds[0], "table": own["table"]}]
        if not lobby:
            raise ServerError(f"the server at {base} has no table of {game}", "no_table")
        free = [t for t in lobby if t.get("free", 1) > 0]  # another process's table: free until it says
        self.table_id = (free or lobby)[0]["table"]
        self.link = Link(self.base, token, self.table_id)  # the table's own socket
        welcome = self.link.open()
        held = [s for s in welcome["seats"] if s["table"] in {t["table"] for t in lobby}]
        if held and held[0]["table"] != self.table_id:  # back at a seat: that table's socket
            self.table_id = held[0]["table"]
            welcome = self.link.retarget(self.table_id)
        variant, bounds, stakes = self._rules()
        self.table: RemoteTable = RemoteTable(variant, bounds)
        self._changed_to: str | None = None  # a `paytable` frame's game: the rules to read until they play it
        if held:
            self.seat = int(held[0]["seat"])
        else:
            wallet = int(welcome["wallets"].get(self.table.variant.currency.code, 0))  # the table's currency's
            amount = buy_in if buy_in is not None else min(wallet, int(stakes["buy_in"]))
            self.seat = int(self.link.command("sit", table=self.table_id, buy_in=amount)["seat"])
        self.trainer, self._settled = trainer, -1
        self._reminder: tuple[str, str] | None = None  # the server's latest reminder, until shown
        self._advice: dict[str, Advice] = {}
        self._absorb()
        view = self.table.view(self.seat)
        self.stake = view.bets.ante or int(stakes["default"])
        self.brought, self.rounds = view.balance + view.bets.total, 0
        self._history()

    # ---- frames --------------------------------------------------------------------------------

    def _absorb(self) -> None:
        """Takes in the frames received: the seat's latest view, the server's reminders."""
        self.link.drain()
        for frame in self.link.frames:
            kind = frame.get("type")
            mine = kind == "view" and frame.get("table") == self.table_id
            if mine and frame["view"]["seat"] is not None:
                self.table.raw = frame["view"]
            elif kind == "reality_check" or (kind == "idle_notice" and frame.get("table") == self.table_id):
                self._reminder = reminder_words(frame)
            elif kind == "paytable" and frame.get("table") == self.table_id:  # told before the next bet
                self._changed_to = str(frame["game"])  # the rules are read again, as the page does
                self._reminder = ("Paytable changed", f"This table now plays {frame['title']} from this round on.")
        self.link.frames.clear()
        if self._changed_to is not None:
            self._read_changed_rules(self._changed_to)

    def _read_changed_rules(self, game: str) -> None:
        """The table's rules read again after a paytable change, until they play `game`: another
        process of the server may answer from the old rules a moment, or be out of reach; a rules
        text this client cannot read is said, not a crash."""
        try:
            variant, limits, _ = self._rules()
        except ServerError:  # out of reach a moment: read at the next look
            return
        except (KeyError, ValueError, VariantError) as err:
            self._changed_to = None
            self._reminder = ("Paytable changed", f"The table's new rules could not be read ({err}).")
            return
        if variant.name == game:
            self.table.variant, self.table.limits, self._changed_to = variant, limits, None

    def _rules(self) -> tuple[Variant, BetLimits, dict[str, Any]]:
        """The variant the table plays (from its rules' text: a changed paytable's variant is
        no preset), its limits and its stakes, as the server's rules of the table say."""
        rules = _http(self.base, f"/api/rules/{quote(self.table_id, safe='')}")
        bounds = rules["limits"]
        variant = from_dict(tomllib.loads(rules["variant_toml"]))
        return variant, BetLimits(bounds["minimum"], bounds["maximum"]), rules["stakes"]

    def reminder(self) -> tuple[str, str] | None:
        said, self._reminder = self._reminder, None
        return said

    def _history(self) -> None:
        self.table.rounds = list(self.link.command("history", table=self.table_id, last=10)["rounds"])

    def _send(self, kind: str, **fields: Any) -> None:
        self.link.command(kind, table=self.table_id, **fields)
        self._absorb()
        self._settled_text()  # a round this command settled counts, and the history catches up

    def _deal(self) -> None:
        seed = self._commit_seed()
        self._send("deal")
        self._reveal_seed(seed)

    def tick(self) -> str | None:
        """Reads what the server sent meanwhile; reconnects a dropped connection."""
        if self.link.ws is None:
            try:
                self.link.open()
            except ServerError as err:
                return f"{err}; trying again"
            self._absorb()
            return "connected again: back at the seat"
        self._absorb()
        return self._settled_text()

    def _settled_text(self) -> str | None:
        """The result of a round settled since the last look (and the history brought up to date)."""
        view = self._view()
        if (view.result is None and not view.void) or view.round == self._settled:
            return None
        self._settled, self.rounds = view.round, self.rounds + 1
        self._history()
        return self.result_text()

    def advice(self) -> Advice | None:
        """The server's advice for the undecided hand (None without the trainer or until ready)."""
        view = self._view()
        if not self.trainer or "fold" not in view.actions:
            return None
        key = f"{view.round}:{''.join(view.cards)}"
        if key not in self._advice:
            answer = self.link.command("advice", table=self.table_id)
            if not answer["ready"]:
                return None
            exact = answer["exact"]
            swap = Fraction(exact["exchange"]) if "exchange" in exact else None
            self._advice[key] = Advice(Fraction(exact["fold"]), Fraction(exact["raise"]), swap)
        return self._advice[key]

    def result_text(self) -> str:
        view = self._view()
        if view.phase is Phase.SETTLED and view.void:
            return "the round is void: every bet refunded"
        if view.phase is not Phase.SETTLED or view.result is None:
            return "decided; waiting for the other seats"
        return outcome_words(view.result, self.table.variant.currency)

    def session_result(self) -> str:
        """The rounds settled for the seat while connected, and its money at the table now."""
        view = self._view()
        balance = view.balance + view.bets.total
        return (
            f"Session: {self.rounds} rounds played; balance {self._fmt(balance)} at {self.table_id}, "
            f"net {self._fmt(balance - self.brought)} on the {self._fmt(self.brought)} at the start"
        )
