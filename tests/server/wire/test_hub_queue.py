"""A socket's frames out (`hub.Connection`): in order, a burst's frames marked `more` but its last,
the closing frame after every frame queued before it (the last of them held for it), and a socket
`QUEUE` frames behind closed as slow rather than allowed to hold the server's memory; through the
server's protocol (`hub.Wire`), a burst in one write with no task, and the ASGI way while its
transport is paused."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from starlette.websockets import WebSocket

from caribbean_fast.server.wire.hub import QUEUE, Connection


class Sink:
    """What the writer gives the socket, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []
        self.closed: tuple[int, str] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append((message["text"], message["more"]))

    async def send_text(self, text: str) -> None:
        self.sent.append((text, False))

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


def _connection() -> tuple[Connection, Sink]:
    sink = Sink()
    return Connection(cast(WebSocket, sink), "alice"), sink


def test_frames_go_out_in_order_a_burst_together_then_the_close() -> None:
    async def run() -> Sink:
        conn, sink = _connection()
        conn.start()
        conn.send("a")
        await asyncio.sleep(0.01)  # the writer sent it alone
        for text in ("b", "c", "d"):
            conn.send(text)
        conn.close(4001, "unauthorized")
        conn.send("late")  # after the close: queued behind it, never sent
        await conn.finish()
        return sink

    sink = asyncio.run(run())
    # "d" is held back (`more`) for the closing frame queued after it: they go out together
    assert sink.sent[:4] == [("a", False), ("b", True), ("c", True), ("d", True)]
    assert len(sink.sent) == 5 and '"unauthorized"' in sink.sent[4][0]
    assert sink.closed == (4001, "unauthorized")


def test_a_socket_queue_frames_behind_is_closed_as_slow() -> None:
    async def run() -> tuple[Connection, Sink]:
        conn, sink = _connection()  # no writer: nothing is taken off the queue
        for k in range(QUEUE + 1):
            conn.send(f"frame {k}")
        return conn, sink

    conn, sink = asyncio.run(run())
    assert conn.close_reason == (1008, "slow")
    assert sink.sent == [] and sink.closed is None


class Wire:
    """The server's protocol as the connection sees it (`hub.Wire`): each write, and whether its
    transport takes more (False: paused by a slow reader)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.takes = True

    def takes_frames(self) -> bool:
        return self.takes

    def write_now(self, texts: list[str]) -> None:
        self.writes.append(list(texts))


class StuckSink(Sink):
    """A reader that stopped: a frame sent the ASGI way never completes."""

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append((message["text"], message["more"]))
        await asyncio.Event().wait()


def test_a_burst_goes_out_in_one_write_with_no_task() -> None:
    async def run() -> tuple[Wire, Sink, int]:
        sink, wire = Sink(), Wire()
        conn = Connection(cast(WebSocket, sink), "alice", wire=wire)
        conn.start()
        tasks = len(asyncio.all_tasks())
        conn.send("view")
        conn.send("answer")  # in the same turn: the same write
        await asyncio.sleep(0)
        conn.send("alone")  # a frame alone waits one turn more, then goes
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        conn.send("last")
        await asyncio.sleep(0.01)
        more = len(asyncio.all_tasks()) - tasks
        await conn.finish()
        return wire, sink, more

    wire, sink, more = asyncio.run(run())
    assert wire.writes == [["view", "answer"], ["alone"], ["last"]]
    assert sink.sent == [] and sink.closed is None and more == 0


def test_a_paused_transport_sends_the_asgi_way_and_a_stuck_reader_is_closed_as_slow() -> None:
    async def run() -> tuple[Wire, Connection, StuckSink]:
        sink, wire = StuckSink(), Wire()
        conn = Connection(cast(WebSocket, sink), "alice", wire=wire)
        conn.start()
        conn.send("first")
        await asyncio.sleep(0.01)
        wire.takes = False  # the reader stopped: its transport is paused
        conn.send("second")
        await asyncio.sleep(0.01)  # the writer task waits on the socket with it
        wire.takes = True  # a writer under way keeps the order: nothing jumps ahead of it
        for k in range(QUEUE + 1):
            conn.send(f"frame {k}")
        await asyncio.sleep(0.01)
        await conn.stop()
        return wire, conn, sink

    wire, conn, sink = asyncio.run(run())
    assert wire.writes == [["first"]]
    assert sink.sent == [("second", False)]
    assert conn.close_reason == (1008, "slow")
