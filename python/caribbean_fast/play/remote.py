"""The terminal table at a server's table: `caribbean-fast play NAME --connect URL`.

`RemoteSession` has the keys and the screen's questions of `PlaySession`, answered by the server
over the table protocol (docs/protocol.md) instead of a local `Table`: each key is one command,
its refusal raises the server's reason in words, and the screen is drawn from the seat's last
`view`. Frames the server sends unasked (other seats, the decision timer's automatic decision)
are read on every tick; a dropped connection is opened again on the next tick, and the server's
welcome brings the seat and round back."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.sync.client import ClientConnection, connect

from ..analysis.advice import Advice
from ..engine import Phase, SeatView
from ..engine.history import outcome_words
from ..engine.state import Bets
from ..engine.views import OtherSeat
from ..errors import CaribbeanFastError, IllegalActionError, ServerError
from ..settlement import Decision
from ..variants import BetLimits, ExchangeCards, Variant, load_variant
from .session import Mistake, pick, stake_step, trainer_report

__all__ = ["Link", "RemoteSession", "RemoteTable", "log_in", "view_of"]

WAIT = 10.0  # seconds an answer may take


def _http(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """One call of the server's HTTP API (a POST when there is a body); ServerError with the
    server's message when refused, or saying the server cannot be reached."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
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
    others = tuple(
        OtherSeat(
            int(o["seat"]),
            Bets.from_dict(o["bets"]),
            bool(o["dealt"]),
            bool(o["decided"]),
            tuple(o["cards"]),
            o.get("decision"),
            o.get("result"),
        )
        for o in raw["others"]
    )
    return SeatView(
        seat=int(raw["seat"]),
        round=int(raw["round"]),
        phase=Phase(raw["phase"]),
        balance=int(raw["balance"]),
        bets=Bets.from_dict(raw["bets"]),
        cards=tuple(raw["cards"]),
        hand=str(raw["hand"]),
        dealer=tuple(raw["dealer"]),
        board=tuple(raw["board"]),
        others=others,
        meter=int(raw["meter"]),
        commitment=str(raw["commitment"]),
        seed=str(raw["seed"]),
        result=raw["result"],
        actions=tuple(raw["actions"]),
        deadline=datetime.fromisoformat(raw["deadline"]) if raw["deadline"] else None,
        exchanges=int(raw["exchanges"]),
        limit=raw["limit"],
        currency=str(raw["currency"]),
    )


class Link:
    """One WebSocket to the server: commands answered by id; other frames kept for the session."""

    def __init__(self, base: str, token: str) -> None:
        self.url = base.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/ws"
        self.token = token
        self.ws: ClientConnection | None = None
        self.frames: list[dict[str, Any]] = []
        self._next = 0

    def open(self) -> dict[str, Any]:
        """Connects; returns the welcome."""
        try:
            self.ws = connect(self.url, additional_headers={"Authorization": f"Bearer {self.token}"}, open_timeout=WAIT)
        except (OSError, InvalidHandshake, InvalidURI, TimeoutError) as err:
            self.ws = None
            raise ServerError(f"cannot connect to {self.url}: {err}", "unavailable") from None
        welcome = self._recv(WAIT)
        if welcome is None or welcome.get("type") != "welcome" or welcome.get("account") is None:
            raise ServerError(f"the server did not take the session: {welcome}", "unauthorized")
        return welcome

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
        return frame

    def drain(self) -> None:
        """Keeps every frame already sent by the server."""
        while (frame := self._recv(0)) is not None:
            self.frames.append(frame)

    def command(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Sends a command; its result, or ServerError with the server's reason."""
        if self.ws is None:
            raise ServerError("the connection dropped: reconnecting", "unavailable")
        self._next += 1
        try:
            self.ws.send(json.dumps({"v": 1, "id": self._next, "type": kind, **fields}))
        except ConnectionClosed:
            self.ws = None
            raise ServerError("the connection dropped: reconnecting", "unavailable") from None
        while (frame := self._recv(WAIT)) is not None:
            if frame.get("type") == "answer" and frame.get("id") == self._next:
                if not frame["ok"]:
                    raise ServerError(frame["error"]["message"], frame["error"]["code"])
                result: dict[str, Any] = frame["result"]
                return result
            self.frames.append(frame)
        raise ServerError("no answer from the server", "unavailable")

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


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

    def history(self, seat: int, rounds: int = 10) -> list[list[dict[str, Any]]]:
        return (self.rounds or [])[-rounds:]


class RemoteSession:
    """`PlaySession`'s keys over the network (see the module's docstring)."""

    def __init__(self, base: str, token: str, game: str, buy_in: int | None, trainer: bool = False) -> None:
        self.base, self.link = base.rstrip("/"), Link(base.rstrip("/"), token)
        lobby = [t for t in _http(self.base, "/api/lobby")["tables"] if t["game"] == game]
        if not lobby:
            raise ServerError(f"the server at {base} has no table of {game}", "no_table")
        welcome = self.link.open()
        held = [s for s in welcome["seats"] if s["table"] in {t["table"] for t in lobby}]
        free = [t for t in lobby if t["free"] > 0]
        self.table_id = held[0]["table"] if held else (free or lobby)[0]["table"]
        rules = _http(self.base, f"/api/rules/{self.table_id}")
        limits = rules["limits"] or {"minimum": 1, "maximum": 10**12}
        self.table = RemoteTable(load_variant(game), BetLimits(limits["minimum"], limits["maximum"]))
        if held:
            self.seat = int(held[0]["seat"])
        else:
            amount = buy_in if buy_in is not None else min(int(welcome["wallet"]), 50 * limits["maximum"])
            self.seat = int(self.link.command("sit", table=self.table_id, buy_in=amount)["seat"])
        self.trainer, self._settled = trainer, -1
        self._advice: dict[str, Advice] = {}
        self.selected: set[int] = set()
        self.mistakes: list[Mistake] = []
        self.decisions = 0
        self._absorb()
        view = self.table.view(self.seat)
        self.stake = view.bets.ante or self.table.limits.minimum
        self.brought, self.rounds = view.balance + view.bets.total, 0
        self._history()

    # ---- frames --------------------------------------------------------------------------------

    def _absorb(self) -> None:
        """Takes in the frames received: the seat's latest view, recalls of missed rounds."""
        self.link.drain()
        for frame in self.link.frames:
            mine = frame.get("type") == "view" and frame.get("table") == self.table_id
            if mine and frame["view"]["seat"] is not None:
                self.table.raw = frame["view"]
        self.link.frames.clear()

    def _history(self) -> None:
        self.table.rounds = list(self.link.command("history", table=self.table_id, last=10)["rounds"])

    def _send(self, kind: str, **fields: Any) -> dict[str, Any]:
        result = self.link.command(kind, table=self.table_id, **fields)
        self._absorb()
        return result

    def _view(self) -> SeatView:
        return self.table.view(self.seat)

    # ---- the keys ------------------------------------------------------------------------------

    def change_stake(self, steps: int) -> str:
        lim, per = self.table.limits, self.table.variant.currency.minor_per_major
        self.stake = max(lim.minimum, min(lim.maximum, stake_step(self.stake, per, up=steps > 0, times=abs(steps))))
        if self._view().bets.ante and "ante" in self._view().actions:
            self._send("ante", amount=self.stake)
        return f"stake {self._fmt(self.stake)}"

    def repeat_last_bet(self) -> str:
        self._send("rebet")
        self.stake = self._view().bets.ante or self.stake
        return "last bets repeated"

    def clear(self) -> str:
        self._send("clear")
        return "bets cleared"

    def toggle_progressive(self) -> str:
        on = not self._view().bets.progressive
        self._send("progressive", on=on)
        return "progressive bet " + ("placed" if on else "removed")

    def toggle_side_bet(self) -> str:
        bets = self.table.variant.side_bets
        if not bets:
            raise CaribbeanFastError(f"{self.table.variant.name} has no side bet")
        bet = bets[0]
        amount = 0 if self._view().bets.side(bet.name) else max(bet.minimum, min(bet.maximum, self.stake))
        self._send("side_bet", name=bet.name, amount=amount)
        return f"{bet.name} " + (f"bet {self._fmt(amount)}" if amount else "removed")

    def enter(self) -> str:
        """Enter: raise (call) once dealt, else deal (placing the stake as the ante first)."""
        view = self._view()
        if "raise" in view.actions:
            return self.decide(Decision.RAISE)
        if view.bets.ante != self.stake:
            self._send("ante", amount=self.stake)
        self._send("deal")
        self.selected.clear()
        return "dealt: raise (Enter), fold (-)"

    def decide(self, decision: Decision) -> str:
        advice, view = self.advice(), self._view()
        self._send("raise" if decision is Decision.RAISE else "fold")
        self._judge(advice, str(decision), view)
        self._settled_text()
        return self.result_text()

    def _judge(self, advice: Advice | None, chosen: str, view: SeatView) -> None:
        """Counts a decision, and a mistake where the trainer advised another choice."""
        self.decisions += 1
        if advice is not None and chosen != advice.best:
            board = " ".join(view.dealer[-1:] if not view.board else view.board[:3])
            self.mistakes.append(
                Mistake(view.round, " ".join(view.cards), board, chosen, advice.best, advice.cost(chosen))
            )

    def select(self, index: int) -> str:
        """1-5: picks or unpicks a card for the exchange, only in the example variant where the
        seat chooses the cards (game 4 exchanges the whole hand), as the local table's keys."""
        view = self._view()
        return pick(self.table.variant, view.cards, self.selected, index, "exchange" in view.actions)

    def exchange(self) -> str:
        """x: game 4 exchanges all five cards (the example where the seat chooses: the picked ones)."""
        x = self.table.variant.exchanges
        if x is None:
            raise IllegalActionError(f"{self.table.variant.name} has no exchanges")
        advice, view = self.advice(), self._view()
        if x.cards is ExchangeCards.ALL:
            self._send("exchange")
        elif not self.selected:
            raise IllegalActionError("pick the cards to exchange with 1-5 first")
        else:
            self._send("exchange", cards=[view.cards[i] for i in sorted(self.selected)])
        self.selected.clear()
        if x.cards is ExchangeCards.ALL:  # the whole hand: the choice the trainer values
            self._judge(advice, "exchange", view)
        return "exchanged: now " + " ".join(self._view().cards)

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
        if view.result is None or view.round == self._settled:
            return None
        self._settled, self.rounds = view.round, self.rounds + 1
        self._history()
        return self.result_text()

    # ---- what the screen shows -----------------------------------------------------------------

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
        if view.phase is not Phase.SETTLED or view.result is None:
            return "decided; waiting for the other seats"
        return outcome_words(view.result, self.table.variant.currency)

    @property
    def in_round(self) -> bool:
        """The seat is dealt in and has not decided: quitting now leaves the hand to the table."""
        return "fold" in self._view().actions

    def session_result(self) -> str:
        """The rounds settled for the seat while connected, and its money at the table now."""
        view = self._view()
        balance = view.balance + view.bets.total
        return (
            f"Session: {self.rounds} rounds played; balance {self._fmt(balance)} at {self.table_id}, "
            f"net {self._fmt(balance - self.brought)} on the {self._fmt(self.brought)} at the start"
        )

    def report(self) -> str:
        """What the session came to, then the trainer's report: the mistakes and their cost."""
        if not self.trainer:
            return self.session_result()
        return trainer_report(self.session_result(), self.mistakes, self.decisions)

    def _fmt(self, minor: int) -> str:
        return self.table.variant.currency.format(minor)
