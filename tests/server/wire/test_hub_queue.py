"""A socket's frames out (`hub.Connection`): in order, a burst's frames marked `more` but its last,
the closing frame after every frame queued before it (the last of them held for it), and a socket
`QUEUE` frames behind closed as slow rather than allowed to hold the server's memory."""

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
