"""A socket's frames out (`hub.Connection`): in order, a burst's frames marked `more` but its last,
the closing frame after every frame queued before it (the last of them held for it), and a socket
`QUEUE` frames behind closed at once as slow, its frames dropped, rather than allowed to hold the
server's memory; through the server's protocol (`hub.Wire`), a burst in one write with no task, and
the ASGI way while its transport is paused. On a served app, real clients that stop reading are
closed and cut within seconds without sending a frame, and one that keeps up is not."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, cast

import pytest
from live_server import Client, LiveServer, settings
from starlette.websockets import WebSocket
from websockets.client import ClientProtocol
from websockets.frames import Close, Frame, Opcode
from websockets.uri import parse_uri

from caribbean_fast.server.wire import hub
from caribbean_fast.server.wire.hub import QUEUE, Connection
from caribbean_fast.server.wire.protocol import frame
from caribbean_fast.server.wire.serving import WIRE


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


def test_a_socket_queue_frames_behind_is_closed_as_slow_its_frames_dropped() -> None:
    async def run() -> tuple[Connection, Sink, list[tuple[str, bool]]]:
        conn, sink = _connection()  # not started: nothing is taken off the queue
        for k in range(QUEUE + 1):
            conn.send(f"frame {k}")
        before = list(sink.sent)
        conn.start()
        await conn.finish()
        return conn, sink, before

    conn, sink, before = asyncio.run(run())
    assert conn.close_reason == (1008, "slow") and before == []
    assert [text for text, _ in sink.sent] == [frame("closed", reason="slow")]  # the close is all that went out
    assert sink.closed == (1008, "slow")


class Wire:
    """The server's protocol as the connection sees it (`hub.Wire`): each write, and whether its
    transport takes more (False: paused by a slow reader)."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.takes = True
        self.closes: list[tuple[str, int, str]] = []

    def takes_frames(self) -> bool:
        return self.takes

    def write_now(self, texts: list[str]) -> None:
        self.writes.append(list(texts))

    def close_now(self, text: str, code: int, reason: str) -> bool:
        self.closes.append((text, code, reason))
        return True


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
    async def run() -> tuple[Wire, Connection, StuckSink, asyncio.Task[None] | None]:
        sink, wire = StuckSink(), Wire()
        conn = Connection(cast(WebSocket, sink), "alice", wire=wire)
        conn.start()
        conn.send("first")
        await asyncio.sleep(0.01)
        wire.takes = False  # the reader stopped: its transport is paused
        conn.send("second")
        await asyncio.sleep(0.01)  # the writer task waits on the socket with it
        wire.takes = True  # a writer under way keeps the order: nothing jumps ahead of it
        writer = conn._writer  # waiting on the paused transport
        for k in range(QUEUE + 1):
            conn.send(f"frame {k}")
        await asyncio.sleep(0.01)
        conn.send("late")  # after the close: never sent
        await asyncio.sleep(0.01)
        await conn.finish()
        return wire, conn, sink, writer

    wire, conn, sink, writer = asyncio.run(run())
    assert wire.writes == [["first"]]
    assert sink.sent == [("second", False)] and sink.closed is None
    # the frames dropped, the writer stuck on the paused transport stopped, the close written at once
    assert conn.close_reason == (1008, "slow") and writer is not None and writer.cancelled()
    assert wire.closes == [(frame("closed", reason="slow"), 1008, "slow")]


def test_a_close_behind_frames_a_stopped_reader_never_takes_goes_out_alone_in_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A close for another reason than `slow` (a session ended, a table moved) waits behind the
    frames queued before it, at most `CLOSE_WAIT`: then, the reader having stopped, it is written
    at once, alone; a close the reader takes in time goes out after its frames, once."""
    monkeypatch.setattr(hub, "CLOSE_WAIT", 0.05)

    async def run(sink: Sink) -> Wire:
        wire = Wire()
        conn = Connection(cast(WebSocket, sink), "alice", wire=wire)
        conn.start()
        wire.takes = False  # the reader stopped: its transport is paused
        conn.send("view")
        await asyncio.sleep(0.01)  # the writer waits on the socket with it
        conn.close(4001, "unauthorized")
        conn.send("late")  # after the close: never sent
        await asyncio.sleep(0.1)
        await conn.finish()
        return wire

    wire = asyncio.run(run(StuckSink()))
    assert wire.closes == [(frame("closed", reason="unauthorized"), 4001, "unauthorized")]
    wire = asyncio.run(run(sink := Sink()))  # a reader that takes them
    assert sink.sent == [("view", False), (frame("closed", reason="unauthorized"), False)]
    assert sink.closed == (4001, "unauthorized") and wire.closes == []


# ---- a real client that stops reading, on a served app -----------------------------------------

FRAMES = 4 * QUEUE  # past the queue and the buffers of the socket, the transport and the kernel
PAD = "x" * 8000  # bytes a frame: a few hundred of them fill loopback's buffers


class Stopped:
    """A client that opens its socket (a small receive buffer), reads its welcome and then
    reads nothing, and sends nothing: websockets' sans-I/O client over a raw socket."""

    def __init__(self, live: LiveServer, token: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", live.port))
        self.sock.settimeout(10)
        self.client = ClientProtocol(parse_uri(live.ws), max_size=None)
        request = self.client.connect()
        request.headers["Authorization"] = f"Bearer {token}"
        self.client.send_request(request)
        self.sock.sendall(b"".join(self.client.data_to_send()))
        self.frames: list[Frame] = []
        while not self.frames:  # the handshake's answer, then the welcome
            self._read()
        self.account = json.loads(bytes(self.frames[0].data))["account"]

    def _read(self) -> bool:
        data = self.sock.recv(65536)
        self.client.receive_data(data)
        self.frames += [e for e in self.client.events_received() if isinstance(e, Frame)]
        return bool(data)

    def read_to_end(self) -> list[Frame]:
        """Every frame the server sent, read now until its close, which is answered."""
        while not self.frames or self.frames[-1].opcode is not Opcode.CLOSE:
            assert self._read(), "the server ended the connection without a close frame"
        self.sock.sendall(b"".join(self.client.data_to_send()))
        return self.frames


def _push(live: LiveServer, accounts: list[str]) -> Future[None]:
    """The server sends each account's sockets `FRAMES` frames through its hub, as a table's
    owner does, a few at a time (a client that keeps up is never `QUEUE` behind)."""
    hub = live.app.state.server.hub
    loop = live.uvicorn.servers[0].get_loop()

    async def push() -> None:
        for k in range(FRAMES):
            text = json.dumps({"v": 1, "type": "filler", "k": k, "pad": PAD})
            for account in accounts:
                hub.to_account(account, text)
            if k % 16 == 15:
                await asyncio.sleep(0.002)

    return asyncio.run_coroutine_threadsafe(push(), loop)


def _within(seconds: float, done: Callable[[], bool]) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_a_client_that_stops_reading_is_closed_slow_and_one_that_keeps_up_is_not(tmp_path: Path) -> None:
    with LiveServer(settings(str(tmp_path / "casino.db"))) as live, contextlib.ExitStack() as clients:
        hub, metrics = live.app.state.server.hub, live.app.state.door.metrics
        gone, reading = Stopped(live, live.guest()), Stopped(live, live.guest())  # `gone` never reads again
        fast = Client(live.ws, live.guest())
        clients.callback(fast.close)
        for stopped in (gone, reading):
            clients.enter_context(stopped.sock)  # closed before the server stops, even if the test fails
        sockets = {c.account: c for c in hub.connections}
        protocol = sockets[gone.account].ws.scope[WIRE]
        protocol.close_timeout = 0.5  # the seconds it has to read the close before it is cut (10 served)
        pushed = _push(live, [gone.account, reading.account, fast.welcome["account"]])
        got = [fast.recv() for _ in range(FRAMES)]
        pushed.result(10)
        # both slow sockets end at once, neither client having sent a frame, and are counted
        assert _within(2, lambda: len(hub.connections) == 1), [c.close_reason for c in hub.connections]
        assert metrics.refusals.labels("slow").value == 2 and metrics.connections.value == 1
        # the one that never reads again is cut, not held until it drains its buffer
        assert _within(3, lambda: protocol not in live.uvicorn.server_state.connections)
        # the other reads, late: what the transport held, then `closed` and the close, (1008, "slow")
        frames = reading.read_to_end()
        texts = [json.loads(bytes(f.data)) for f in frames if f.opcode is Opcode.TEXT]
        ks = [t["k"] for t in texts if t["type"] == "filler"]
        assert ks == list(range(len(ks))) and 0 < len(ks) < FRAMES - QUEUE  # in order; the queue dropped
        assert texts[-1] == {"v": 1, "type": "closed", "reason": "slow"}
        assert frames[-1].opcode is Opcode.CLOSE and Close.parse(bytes(frames[-1].data)) == Close(1008, "slow")
        assert _within(2, lambda: len(live.uvicorn.server_state.connections) == 1)  # its answer ended it
        # the client that kept up got every frame, in order, and is open
        assert [g["k"] for g in got] == list(range(FRAMES))
        assert sockets[fast.welcome["account"]] in hub.connections
        assert sockets[fast.welcome["account"]].close_reason is None


def test_a_client_that_stops_reading_and_answers_no_ping_is_cut(tmp_path: Path) -> None:
    live = LiveServer(settings(str(tmp_path / "casino.db")))
    live.uvicorn.config.ws_ping_interval = live.uvicorn.config.ws_ping_timeout = 0.5  # 20 s each, served
    with live, contextlib.ExitStack() as clients:
        hub, loop = live.app.state.server.hub, live.uvicorn.servers[0].get_loop()
        gone = Stopped(live, live.guest())
        clients.enter_context(gone.sock)
        (conn,) = hub.connections
        protocol = conn.ws.scope[WIRE]
        protocol.close_timeout = 0.5

        async def fill() -> None:  # until its transport holds what the client will never read
            k = 0
            while protocol.writable.is_set():
                for _ in range(16):
                    hub.to_account(gone.account, json.dumps({"v": 1, "type": "filler", "k": k, "pad": PAD}))
                    k += 1
                await asyncio.sleep(0.002)

        asyncio.run_coroutine_threadsafe(fill(), loop).result(10)
        # uvicorn's keepalive closes it unanswered, and the buffer that never drains does not hold it
        assert _within(4, lambda: protocol not in live.uvicorn.server_state.connections)
        assert _within(1, lambda: not hub.connections) and conn.close_reason is None  # not `QUEUE` behind
