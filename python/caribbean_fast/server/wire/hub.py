"""Who is connected: each socket's outgoing queue, the sockets of each account, and the sockets
watching each table. Owners send frames here; they never hold a socket.

A socket's frames go out in order through its own queue, a burst in one write; a client that stops
reading until its queue is full is closed at once, its frames dropped, rather than allowed to hold
the server's memory.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict
from typing import Protocol, cast

from starlette.websockets import WebSocket

from .protocol import frame
from .reminders import Sessions

__all__ = ["SLOW", "Connection", "Hub", "Wire"]

QUEUE = 256  # frames waiting for a slow socket before it is closed
SLOW = (1008, "slow")  # the close of a socket `QUEUE` frames behind
CLOSE_WAIT = 5.0  # seconds a close waits behind the frames queued before it, then goes out alone
_NO_WATCH: frozenset[str] = frozenset()


class Wire(Protocol):
    """The server's socket protocol, where it writes frames at once (`serving.BurstWebSockets`)."""

    def takes_frames(self) -> bool:
        """Open for the app's frames, its transport taking more (not paused by a slow reader)."""
        ...

    def write_now(self, texts: list[str]) -> None:
        """The frames, in one write to the transport."""
        ...

    def close_now(self, text: str, code: int, reason: str) -> bool:
        """The last frame and the close, written at once even to a paused transport, the frames
        held for a burst dropped; the app's `receive` ends, and a client that never reads them is
        cut within seconds. False: the socket is not open for them."""
        ...


class Connection:
    """A socket's frames out, in order. The first frame queued schedules a flush for the loop's
    next turn (the command's task queues its answer right after its view, so they go together);
    the flush writes every frame queued in one write, at once, through the server's protocol
    (`Wire`) while its transport takes more. Otherwise (a slow reader's transport paused, an
    ASGI server without a `Wire`, the close) a writer task sends them the ASGI way, each but a
    burst's last marked `more`, and ends once the queue is empty: an idle socket keeps no task
    and no future (a task waiting on a queue was a wake-up a frame and 2 KB a socket).
    Slots: a server holds one a socket."""

    __slots__ = (
        "_flushing",
        "_live",
        "_out",
        "_wire",
        "_writer",
        "account",
        "close_reason",
        "session",
        "table",
        "watching",
        "ws",
    )

    def __init__(
        self,
        ws: WebSocket,
        account: str | None,
        session: str | None = None,
        table: str | None = None,
        wire: Wire | None = None,
    ) -> None:
        self.ws, self.account = ws, account
        self.session = session  # the hash of the token the socket opened with, while it opens one
        self.table = table  # a table's socket (/ws/<table>): its table; the lobby's (/ws): None
        self.watching: set[str] | frozenset[str] = _NO_WATCH  # a set of its own once it watches
        self._out: list[str | None] = []  # a few frames at most, mostly none: a deque is 760 bytes empty
        self._wire = wire
        self._live = False  # frames go out (`start`) until the socket is let go (`stop`)
        self._flushing: asyncio.Handle | None = None  # the flush scheduled, until it runs
        self._writer: asyncio.Task[None] | None = None  # sending the ASGI way, until the queue is empty
        self.close_reason: tuple[int, str] | None = None

    def start(self) -> None:
        """Frames go out from now on, those queued already first."""
        self._live = True
        self._schedule()

    def send(self, text: str) -> None:
        if not self._put(text):
            self.close(*SLOW)

    def close(self, code: int, reason: str) -> None:
        """Sends the reason, then closes (after the frames already queued; a slow reader's, `QUEUE`
        of them, are dropped: it closes at once, `_close_now`)."""
        if self.close_reason is None:
            self.close_reason = (code, reason)
            if not self._put(None):
                self._close_now(code, reason)
            elif self._live:  # a reader that stopped would hold it, unsent, until the ping's timeout
                asyncio.get_running_loop().call_later(CLOSE_WAIT, self._close_if_waiting, code, reason)

    def _close_if_waiting(self, code: int, reason: str) -> None:
        """The close still waits, queued or its writer stuck on frames the client does not read: it
        goes out now, alone."""
        writing = self._writer is not None and not self._writer.done()
        if self._live and (writing or None in self._out):
            self._close_now(code, reason)

    def _close_now(self, code: int, reason: str) -> None:
        """The client left `QUEUE` frames unread: they are dropped (it would never read them) and
        a writer waiting on its paused transport is stopped, then the close is what goes out
        next, written at once through the server's protocol (`Wire.close_now`), which ends the
        socket's `receive` and cuts a client that never reads it; or else (no `Wire`, or the
        socket closing already) queued alone for the writer, the ASGI way."""
        self._out.clear()
        self._unschedule()
        writer, self._writer = self._writer, None
        if writer is not None:  # nothing else holds it: it ends, cancelled, on the loop's next turn
            writer.cancel()
        if self._live and self._wire is not None and self._wire.close_now(frame("closed", reason=reason), code, reason):
            self._live, self._wire = False, None  # let go, as `stop` does: later frames stay queued, unsent
            return
        self._put(None)

    def _put(self, text: str | None) -> bool:
        """Queues the frame (None: the close); False when `QUEUE` wait already."""
        if len(self._out) >= QUEUE:
            return False
        self._out.append(text)
        self._schedule()
        return True

    def _schedule(self) -> None:
        if self._live and self._flushing is None and self._writer is None and self._out:
            self._flushing = asyncio.get_running_loop().call_soon(self._flush, True)

    def _flush(self, wait: bool) -> None:
        """Writes what is queued; a frame alone waits one turn more (`wait`) for the tasks
        already scheduled, where the command's own queues its answer after a view."""
        self._flushing = None
        out = self._out
        if not self._live or self._writer is not None or not out:
            return
        if wait and len(out) == 1 and out[0] is not None:
            self._flushing = asyncio.get_running_loop().call_soon(self._flush, False)
            return
        wire = self._wire
        if wire is not None and out[0] is not None and wire.takes_frames():
            end = out.index(None) if None in out else len(out)  # the close, and after it, to the writer
            texts = cast(list[str], out[:end])
            del out[:end]
            wire.write_now(texts)
        if out:  # the transport is paused, no `Wire`, or the close
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        """Sends what is queued, each frame but a burst's last marked `more` (`serving.BurstWebSockets`
        writes them together), then ends; or, once the close is reached, sends it and ends for
        good (a frame held back goes out with the closing frame; later ones never)."""
        out = self._out
        with contextlib.suppress(Exception):
            while out:
                text = out.pop(0)
                if text is None:
                    code, reason = self.close_reason or (1000, "")
                    await self.ws.send_text(frame("closed", reason=reason))
                    await self.ws.close(code, reason)
                    return
                await self.ws.send({"type": "websocket.send", "text": text, "more": bool(out)})
            self._writer = None  # the queue is empty: the next frame is flushed again
            return
        # the socket failed: the writer stays, done, so nothing more is written

    def _unschedule(self) -> None:
        if self._flushing is not None:
            self._flushing.cancel()
            self._flushing = None

    async def finish(self) -> None:
        """Lets the writer send what is queued and the close (a few seconds at most), or stops it
        when the client is gone."""
        if not self._live:
            return
        if self.close_reason is not None:
            self._unschedule()
            self._flush(False)  # now, the close included
            if self._writer is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(self._writer), 5)
        await self.stop()

    async def stop(self) -> None:
        """Stops the writer and lets go of it: the cancelled task keeps its CancelledError, whose
        traceback holds the writer's frame and so this connection, a cycle that would keep the
        socket and its buffers until the cyclic collector's rare full pass."""
        self._live, self._wire = False, None
        self._unschedule()
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
