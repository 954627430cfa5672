"""Tables served by another process, played from this one: the relay (PostgreSQL, several
processes; docs/protocol.md, "Tables of another process").

A player's socket here may command any table. For a table another process serves, this process
opens a WebSocket of its own to that process (one per player socket and serving process), as
that player: with the player's own session token, since accounts and tokens are shared through
the database. The serving process applies every one of its checks to it (token, seat, the
engine's rules, the flood limit); this side only forwards the player's commands, relays the
answers, and passes on the `view` and `recall` frames the serving process sends the player's
socket there, unchanged, so that a seat's frames hold its own cards only because the serving
process made them so. The relay sends no Origin header: it is a program holding a token, as the
Origin check already allows, and that check stays as strict for browsers as it was.

When the serving process dies, the commands waiting on it are refused with `unavailable`, and
the player's seats are attached again wherever their tables are served next: here (the view is
sent at once) or at another process (a new link, whose welcome brings the view and recall).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

from ...errors import ServerError
from ..config import Settings
from ..store.accounts import seats_of
from ..store.db import Database
from ..tables.owner import Owner
from ..wire.hub import Connection
from ..wire.metrics import Metrics
from ..wire.protocol import Command, Moved
from ..wire.routing import table_url

__all__ = ["ANSWER_SECONDS", "RELAYED", "REROUTE_SECONDS", "Relay"]

_log = logging.getLogger(__name__)
ANSWER_SECONDS = 30.0  # the most a relayed command waits for the serving process's answer
REROUTE_SECONDS = 30.0  # how long the player's seats are sought after their process died
RELAYED = "x-caribbean-relay"  # the header that marks a relay's socket: it relays no further
_PASSED = frozenset({"view", "recall", "waitlist"})  # what the serving process sends that the player gets


class Server(Protocol):
    """What the relay reads of the running server (`server.Server`, which imports this module)."""

    settings: Settings
    db: Database
    metrics: Metrics
    owners: dict[str, Owner]
    elsewhere: dict[str, str]

    async def endpoints(self) -> dict[str, str]: ...

    async def look_up(self, table: str) -> None: ...


class _Lost(Exception):
    """The link closed with the command unanswered."""


class _Link:
    """One WebSocket to a serving process, for one player socket here."""

    def __init__(self, endpoint: str, ws: ClientConnection, player: Connection, lost: Callable[[_Link], None]) -> None:
        self.endpoint, self.ws, self.player = endpoint, ws, player
        self.retired = False  # closed on purpose, needed by no seat (`Relay._retire`)
        self._next = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._reader = asyncio.create_task(self._read(lost), name=f"relay to {endpoint}")

    @property
    def open(self) -> bool:
        return not self._reader.done()

    async def call(self, command: Command) -> dict[str, Any]:
        """Sends the player's command; the serving process's result, or its refusal raised."""
        self._next += 1
        ident = self._next
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ident] = done
        try:
            await self.ws.send(json.dumps({"v": 1, "id": ident, "type": command.type, **command.args}))
            answer = await asyncio.wait_for(done, ANSWER_SECONDS)
        except (WebSocketException, OSError, TimeoutError, _Lost):
            raise _gone(command.table) from None
        finally:
            self._waiting.pop(ident, None)
        if answer.get("ok"):
            result: dict[str, Any] = answer.get("result") or {}
            return result
        error = answer.get("error") or {}
        raise ServerError(str(error.get("message", "refused")), str(error.get("code", "internal")))

    async def _read(self, lost: Callable[[_Link], None]) -> None:
        try:
            async for text in self.ws:
                self._take(str(text))
        except (WebSocketException, OSError, ValueError):  # a frame that is not JSON drops the link too
            pass
        finally:
            for done in self._waiting.values():
                if not done.done():
                    done.set_exception(_Lost())
            lost(self)

    def _take(self, text: str) -> None:
        frame = json.loads(text)
        kind = frame.get("type")
        if kind == "answer":
            done = self._waiting.get(frame.get("id"))
            if done is not None and not done.done():
                done.set_result(frame)
        elif kind in _PASSED:
            self.player.send(text)

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        await asyncio.gather(self._reader, return_exceptions=True)


def _gone(table: str | None) -> ServerError:
    return ServerError(f"{table}: its process went away; another takes it over in seconds, try again", "unavailable")


class Relay:
    """The links of one player socket to the processes serving the tables it plays elsewhere."""

    def __init__(self, server: Server, player: Connection, token: str | None, relayed: bool = False) -> None:
        self.server, self.player, self.token = server, player, token
        self.relayed = relayed  # the socket is itself another process's relay: one hop only
        self._links: dict[str, _Link] = {}
        self._opening: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    async def forward(self, command: Command) -> dict[str, Any]:
        """Runs a command for a table another process serves, there (counted by its outcome)."""
        try:
            result = await self._forward(command)
        except ServerError as err:
            self.server.metrics.relayed.labels(err.code).inc()
            raise
        self.server.metrics.relayed.labels("ok").inc()
        return result

    async def _forward(self, command: Command) -> dict[str, Any]:
        table = command.table or ""
        if self.relayed:  # the relaying process's view of the leases is stale: it looks again
            await self.server.look_up(table)
            known = self.server.elsewhere.get(table)
            if known is None:
                raise ServerError(f"{table} is not served by this process; try again", "unavailable")
            raise Moved(table, table_url(known, table))
        known = self.server.elsewhere.get(table)
        linked = known in self._links
        try:
            link = await self._link(known) if known else None
        except ServerError:  # the lobby's word is a few seconds old: the table may have moved
            link = None
        if link is None:
            link = await self._link(await self._moved_from(table, known))
        try:
            return await link.call(command)
        except ServerError as err:
            if err.code != "moved":  # `moved`: not run there, the table having moved (given back)
                raise
        if not linked:  # opened for this command alone, to a process that serves none of its seats
            await self._retire(link)
        return await (await self._link(await self._moved_from(table, link.endpoint))).call(command)

    async def _retire(self, link: _Link) -> None:
        """Closes a link no seat needs, quietly: nothing to seek where it went."""
        link.retired = True
        if self._links.get(link.endpoint) is link:
            del self._links[link.endpoint]
        await link.close()

    async def _moved_from(self, table: str, known: str | None) -> str:
        """Where the table is served now, from the leases, when not at `known`."""
        fresh = await self.server.endpoints()
        self.server.elsewhere.update(fresh)
        if fresh.get(table) in (None, known):
            raise ServerError(f"{table} is being taken over by another process; try again", "unavailable")
        return fresh[table]

    async def remote_seats(self) -> list[dict[str, Any]]:
        """The seats the account holds at tables another process serves (from the database)."""
        return await self._seats(here=False)

    async def _seats(self, here: bool) -> list[dict[str, Any]]:
        """The account's seats (`here`: those at tables this process serves too)."""
        account = self.player.account
        if account is None or self.relayed:  # a relay's socket: the relaying process seeks the seats
            return []
        rows = await self.server.db.run(lambda tx: seats_of(tx, account))
        return [{"table": t, "seat": s} for t, s in rows if here or t not in self.server.owners]

    def attach(self, seats: list[dict[str, Any]]) -> None:
        """Links to the processes serving these seats' tables, in the background (the socket's
        commands go on meanwhile): each sends the seats' views and recall as its welcome."""
        if seats and not self.relayed:
            self._start(self._seek_until(seats, 0.0))

    def _start(self, job: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(job, name="relay seeks seats")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _attach(self, seats: list[dict[str, Any]], shown: set[str]) -> bool:
        """One pass: True when every seat is reached (its view sent here, or linked)."""
        endpoints, reached = await self.server.endpoints(), True
        for held in seats:
            table = held["table"]
            owner = self.server.owners.get(table)
            if owner is not None:  # this process serves it now
                seated = owner.seat_of(self.player.account) is not None
                if table not in shown and seated and owner.table is not None:
                    self.player.send(owner.view_frame(held["seat"]))
                    shown.add(table)
                continue
            try:
                await self._link(endpoints[table])
            except (KeyError, ServerError):
                reached = False
        return reached

    async def _seek_until(self, seats: list[dict[str, Any]], wait: float = 0.5) -> None:
        """Attaches the seats, again every half second until all are reached or REROUTE_SECONDS."""
        deadline, shown = time.monotonic() + REROUTE_SECONDS, set[str]()
        while not self._closed and time.monotonic() < deadline:
            await asyncio.sleep(wait)
            wait = 0.5
            try:
                if await self._attach(seats, shown):
                    return
            except Exception:
                _log.exception("relay: seeking the seats failed")

    async def _link(self, endpoint: str) -> _Link:
        link = self._links.get(endpoint)
        if link is not None and link.open:
            return link
        async with self._opening.setdefault(endpoint, asyncio.Lock()):
            link = self._links.get(endpoint)
            if link is None or not link.open:
                link = await self._open(endpoint)
                self._links[endpoint] = link
            return link

    async def _open(self, endpoint: str) -> _Link:
        if self._closed or endpoint == self.server.settings.endpoint:  # never a link to itself
            raise ServerError("the table is not served here, nor yet elsewhere; try again", "unavailable")
        headers = {RELAYED: "1"} | ({"Authorization": f"Bearer {self.token}"} if self.token else {})
        try:
            ws = await connect(endpoint, additional_headers=headers, max_size=None, open_timeout=5, close_timeout=2)
        except (WebSocketException, OSError, TimeoutError):
            raise ServerError(f"the process at {endpoint} does not answer; try again", "unavailable") from None
        try:
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if self._closed or welcome.get("type") != "welcome" or welcome.get("account") != self.player.account:
                raise ServerError(f"the process at {endpoint} refused the session", "unauthorized")
        except BaseException as err:  # a link never left open: it would keep the player online there
            await ws.close()
            if isinstance(err, (WebSocketException, OSError, TimeoutError, ValueError)):
                raise ServerError(f"the process at {endpoint} does not answer; try again", "unavailable") from None
            raise
        self.server.metrics.relay_links.inc()  # until `_lost`, which every link's end calls
        return _Link(endpoint, ws, self.player, self._lost)

    def _lost(self, link: _Link) -> None:
        """A link closed: if its process died, the account's seats are sought where they move
        (a view sent again for a seat served here is only the same view once more)."""
        self.server.metrics.relay_links.dec()
        if self._links.get(link.endpoint) is link:
            del self._links[link.endpoint]
        if not self._closed and not link.retired and self.player.account is not None:
            _log.info("relay lost", extra={"fields": {"endpoint": link.endpoint}})
            self._start(self._seek_moved())

    async def _seek_moved(self) -> None:
        await self._seek_until(await self._seats(here=True))

    async def close(self) -> None:
        """The player's socket closed: its links close, so the serving processes see it go."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for link in list(self._links.values()):
            await link.close()
        self._links.clear()
