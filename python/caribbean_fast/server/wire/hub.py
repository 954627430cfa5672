"""Who is connected: each socket's outgoing queue, the sockets of each account, and the sockets
watching each table. Owners send frames here; they never hold a socket.

A socket's frames go out in order through its own queue and writer; a client that stops reading
until its queue is full is closed rather than allowed to hold the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict, deque

from starlette.websockets import WebSocket

from .protocol import frame
from .reminders import Sessions

__all__ = ["Connection", "Hub"]

QUEUE = 256  # frames waiting for a slow socket before it is closed
_NO_WATCH: frozenset[str] = frozenset()


class Connection:
    """A socket's frames out, in order, through a queue its writer task empties. The queue is a
    deque and the writer waits on a future of its own while it is empty: an `asyncio.Queue` was
    3 KB a socket (three deques and an event), more than every frame a paced player waits for.
    Slots: a server holds one a socket."""

    __slots__ = ("_out", "_wake", "_writer", "account", "close_reason", "session", "table", "watching", "ws")

    def __init__(
        self, ws: WebSocket, account: str | None, session: str | None = None, table: str | None = None
    ) -> None:
        self.ws, self.account = ws, account
        self.session = session  # the hash of the token the socket opened with, while it opens one
        self.table = table  # a table's socket (/ws/<table>): its table; the lobby's (/ws): None
        self.watching: set[str] | frozenset[str] = _NO_WATCH  # a set of its own once it watches
        self._out: deque[str | None] = deque()
        self._wake: asyncio.Future[None] | None = None  # the writer's, while it waits for a frame
        self._writer: asyncio.Task[None] | None = None
        self.close_reason: tuple[int, str] | None = None

    def start(self) -> None:
        self._writer = asyncio.create_task(self._write())

    def send(self, text: str) -> None:
        if not self._put(text):
            self.close(1008, "slow")

    def close(self, code: int, reason: str) -> None:
        """Sends the reason, then closes (after the frames already queued)."""
        if self.close_reason is None:
            self.close_reason = (code, reason)
            self._put(None)

    def _put(self, text: str | None) -> bool:
        """Queues the frame (None: the close) for the writer; False when `QUEUE` wait already."""
        if len(self._out) >= QUEUE:
            return False
        self._out.append(text)
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)
        return True

    async def _get(self) -> str | None:
        """The next frame queued, once there is one."""
        while not self._out:
            self._wake = asyncio.get_running_loop().create_future()
            try:
                await self._wake
            finally:
                self._wake = None
        return self._out.popleft()

    async def _write(self) -> None:
        with contextlib.suppress(Exception):
            while await self._burst():
                pass
            code, reason = self.close_reason or (1000, "")
            await self.ws.send_text(frame("closed", reason=reason))
            await self.ws.close(code, reason)

    async def _burst(self) -> bool:
        """Sends what is queued, a burst at a time; False once the close is reached. Woken by a
        view, it first lets the tasks already scheduled run (the command's own task queues its
        answer right after the view), then sends every frame queued, each but the last marked
        `more`: `serving.BurstWebSockets` writes them to the socket together."""
        text = await self._get()
        if text is not None and not self._out:
            await asyncio.sleep(0)
        while text is not None:
            more = bool(self._out)
            await self.ws.send({"type": "websocket.send", "text": text, "more": more})
            if not more:
                return True
            text = self._out.popleft()
        return False  # a frame held back goes out with the closing frame

    async def finish(self) -> None:
        """Lets the writer send what is queued and the close (a few seconds at most), or stops it
        when the client is gone."""
        if self._writer is None:
            return
        if self.close_reason is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._writer), 5)
        await self.stop()

    async def stop(self) -> None:
        """Stops the writer and lets go of it: the cancelled task keeps its CancelledError, whose
        traceback holds the writer's frame and so this connection, a cycle that would keep the
        socket and its buffers until the cyclic collector's rare full pass."""
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)


class Hub:
    def __init__(self, sessions: Sessions | None = None) -> None:
        self.reminders = sessions or Sessions()  # each account's session here, for its reminders
        self.connections: set[Connection] = set()
        self._accounts: defaultdict[str, set[Connection]] = defaultdict(set)
        self._watchers: defaultdict[str, set[Connection]] = defaultdict(set)
        self._tables: defaultdict[str, set[Connection]] = defaultdict(set)  # each table's own sockets
        self.held: defaultdict[str, dict[str, int]] = defaultdict(dict)  # account -> table -> seat

    def join(self, conn: Connection) -> None:
        self.connections.add(conn)
        if conn.table is not None:
            self._tables[conn.table].add(conn)
        if conn.account is not None:
            self._accounts[conn.account].add(conn)

    def part(self, conn: Connection) -> bool:
        """Forgets the socket; True when it was its account's last."""
        self.connections.discard(conn)
        for table in conn.watching:
            self._watchers[table].discard(conn)
        if conn.table is not None:
            self._tables[conn.table].discard(conn)
        if conn.account is None:
            return False
        sockets = self._accounts[conn.account]
        sockets.discard(conn)
        if sockets:
            return False
        del self._accounts[conn.account]
        return True

    def watch(self, conn: Connection, table: str, on: bool) -> None:
        watching = conn.watching if isinstance(conn.watching, set) else set()
        (watching.add if on else watching.discard)(table)
        conn.watching = watching or _NO_WATCH
        (self._watchers[table].add if on else self._watchers[table].discard)(conn)

    def end_sessions(self, ended: set[str]) -> None:
        """Closes every socket opened with one of these sessions (logged out or expired) with
        4001 `unauthorized`."""
        for conn in [c for c in self.connections if c.session in ended]:
            conn.close(4001, "unauthorized")

    def sockets_of(self, table: str) -> list[Connection]:
        """The table's own sockets (`/ws/<table>`) open here."""
        return list(self._tables.get(table, ()))

    def sessions(self) -> set[str]:
        return {c.session for c in self.connections if c.session is not None and c.close_reason is None}

    def online(self, account: str) -> bool:
        return bool(self._accounts.get(account))

    def watching(self, table: str) -> bool:
        return bool(self._watchers.get(table))

    def to_account(self, account: str, text: str) -> None:
        for conn in self._accounts.get(account, ()):
            conn.send(text)

    def to_watchers(self, table: str, text: str) -> None:
        for conn in self._watchers.get(table, ()):
            conn.send(text)
