"""How uvicorn serves the app, in one place for `serve` and the tests: its WebSocket options, the
front door's limits on connections (`gate.Gate`, applied by the HTTP and WebSocket protocols
here), and a WebSocket protocol that writes a burst of frames to the socket in one write.

A command's answer follows its view (`hub.Connection` queues both before its flush runs); each
frame written on its own is a system call and, on loopback, the receiver's TCP work too. The
connection writes a burst through the protocol at once (`WIRE`: no ASGI message, no await) while
the transport takes more; otherwise it sends the ASGI way, where a frame sent with `"more": True`
is framed at once and held until the next frame without it (or the close), which writes them
all. Any other ASGI server ignores the key and writes each frame.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, cast

from starlette.applications import Starlette
from uvicorn._types import ASGISendEvent
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.utils import ClientDisconnected, get_remote_addr
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.http11 import Request
from websockets.protocol import State

from .gate import Gate
from .protocol import MAX_FRAME, frame

__all__ = ["OVER_TOTAL", "WIRE", "BurstWebSockets", "GatedHttp", "uvicorn_options"]

LINGER = 1 << 16  # bytes of an unwanted body dropped after its answer, before the connection is cut
OVER_TOTAL = "caribbean_fast.over_total"  # a request's scope key: its connection is past the total cap
WIRE = "caribbean_fast.wire"  # a WebSocket's scope key: its protocol, which writes frames at once (`hub.Wire`)


def _refuse(transport: asyncio.Transport, why: str) -> None:
    body = why.encode()
    head = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
    transport.write(head + b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body) + body)
    transport.close()


def _address(transport: asyncio.BaseTransport) -> str:
    remote = get_remote_addr(cast(asyncio.Transport, transport))
    return remote[0] if remote else "?"


class GatedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol behind the gate: an address over its cap is answered 503 at once,
    a connection over the total cap is served /healthz alone, a request (head and body) must
    arrive within the gate's handshake seconds (a WebSocket's whole handshake, `BurstWebSockets`),
    and a request answered before its body arrived closes its connection."""

    gate: Gate

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.address, self.refused, self.whole = _address(transport), False, True
        self.lingering: int | None = None  # bytes still read and dropped after an early answer
        self.admitted = self.gate.enter(self.address)
        self.deadline: asyncio.TimerHandle | None = None
        if self.admitted == "over_address":
            self._refuse(f"too many connections from {self.address}")
            return
        self._start_deadline()

    def _start_deadline(self) -> None:
        if self.deadline is None:
            self.deadline = asyncio.get_running_loop().call_later(self.gate.handshake, self._too_slow)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.whole = False
        self._start_deadline()  # each request of a kept-alive connection has the same seconds

    def on_message_complete(self) -> None:
        self.whole = True  # head and body: the request's seconds stop here
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        super().on_message_complete()

    def on_response_complete(self) -> None:
        if not self.whole:  # answered before its body arrived (413): the connection ends
            self.lingering = LINGER  # what is in flight is read and dropped, so that closing with
            self.transport.write_eof()  # unread bytes does not reset the answer away; the
            return  # request's deadline closes it, or `LINGER` bytes more
        super().on_response_complete()

    def _refuse(self, why: str) -> None:
        self.refused = True
        _refuse(self.transport, why)

    def data_received(self, data: bytes) -> None:
        if self.refused:  # a refused connection's bytes are not read
            return
        if self.lingering is not None:
            self.lingering -= len(data)
            if self.lingering < 0:
                self.transport.close()
            return
        super().data_received(data)

    def _too_slow(self) -> None:
        if self.transport.get_protocol() is self:  # not upgraded: the WebSocket keeps its own time
            self.transport.close()

    def on_headers_complete(self) -> None:
        if self.admitted == "over_total":
            cast(dict[str, Any], self.scope)[OVER_TOTAL] = True  # the app answers /healthz alone
        super().on_headers_complete()
        if self.admitted == "over_total" and self.cycle is not None:
            self.cycle.keep_alive = False  # then closed: past the cap, no connection is kept

    def handle_websocket_upgrade(self) -> None:
        if self.admitted == "over_total":
            self._refuse("the server holds its most connections; try again")
            return
        if self.deadline is not None:
            self.deadline.cancel()
        super().handle_websocket_upgrade()
        # done: the WebSocket's protocol holds the transport now, and this one gets no
        # `connection_lost`, where uvicorn lets go of the parser that holds it in a cycle (freed
        # only by the collector's rare full pass, `host.quiet_gc`: a few KB a socket meanwhile)
        self.parser = None  # type: ignore[assignment]

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.deadline is not None:
            self.deadline.cancel()
        if self.admitted != "over_address" and self.transport.get_protocol() is self:
            self.gate.leave(self.address)  # an upgraded connection is left by its WebSocket


class BurstWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O one), holding frames marked `more`,
    behind the gate: its handshake must finish within the gate's seconds. In the socket's scope
    (`WIRE`) for the app's connection (`hub.Connection`), which writes a burst of frames through
    it at once while its transport takes more, with no task, no ASGI message and no await."""

    gate: Gate | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.address = _address(transport)  # read now: a closed socket has no peer to ask
        self.deadline = (
            None if self.gate is None else asyncio.get_running_loop().call_later(self.gate.handshake, self._too_slow)
        )

    def _too_slow(self) -> None:
        if not self.handshake_complete:
            self.transport.close()

    def handle_connect(self, event: Request) -> None:
        super().handle_connect(event)
        if self.response.status_code == 101:  # the app runs (its task starts on the loop's next turn)
            cast(dict[str, Any], self.scope)[WIRE] = self

    def takes_frames(self) -> bool:
        """Open for the app's frames (accepted, not closing) and the transport takes more (not
        paused by a slow reader: the app's writer waits for it the ASGI way, `send`)."""
        return (
            self.handshake_complete
            and self.initial_response is None
            and not (self.close_sent or self.disconnected)
            and self.writable.is_set()
            and self.conn.state is State.OPEN
        )

    def write_now(self, texts: list[str]) -> None:
        """The frames, and any held (`more`), in one write (`takes_frames` first)."""
        for text in texts:
            self.conn.send_text(text.encode())
        self.transport.write(b"".join(self.conn.data_to_send()))

    def close_now(self, text: str, code: int, reason: str) -> bool:
        """The app's last frame and the close, written at once whether or not the transport takes
        more (a slow reader's connection, `hub.Connection`: the frames held here for a burst are
        dropped with its queue); False when the socket is not open for them. The app's `receive`
        ends at once (`websocket.disconnect`). A client that has not answered the close within
        `close_timeout` is cut: one that never reads never drains the buffer, and
        `transport.close` (uvicorn's own close timer) would wait for it for ever."""
        if not (self.handshake_complete and self.initial_response is None and self.conn.state is State.OPEN):
            return False
        if self.close_sent or self.disconnected:
            return False
        self.conn.data_to_send()  # whole frames held for a burst's last (`more`): dropped
        self.conn.send_text(text.encode())
        self.conn.send_close(code, reason)
        self.transport.write(b"".join(self.conn.data_to_send()))
        self.close_sent = True
        self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
        if self.read_paused:  # the client's answer to the close is read
            self.read_paused = False
            self.transport.resume_reading()
        self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)
        return True

    def keepalive_timeout(self) -> None:
        """uvicorn's close of a client that answered no ping, and the cut after `close_timeout`:
        one that stopped reading leaves a buffer that never drains, which `transport.close`
        would wait for (the app's socket open) for ever."""
        super().keepalive_timeout()
        if self.close_timer is None and not self.disconnected:
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.abort)

    def data_received(self, data: bytes) -> None:
        try:
            super().data_received(data)
        except (UnicodeError, InvalidState):  # a header websockets cannot quote back in its refusal,
            self.transport.close()  # or a second close of a text frame that is not UTF-8 (1007 sent)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self.deadline is not None:
            self.deadline.cancel()
        scope = getattr(self, "scope", None)
        if scope is not None:  # the scope no longer holds the protocol that holds it: no cycle left
            cast(dict[str, Any], scope).pop(WIRE, None)
        if self.gate is not None:
            self.gate.leave(self.address)

    async def send(self, message: ASGISendEvent) -> None:
        fields = cast(dict[str, Any], message)
        text = fields.get("text")
        if not (fields.get("more") and fields["type"] == "websocket.send" and isinstance(text, str)):
            await super().send(message)
            return
        if self.handshake_complete and not self.close_sent and self.initial_response is None:
            if self.disconnected:
                raise ClientDisconnected()
            try:
                self.conn.send_text(text.encode())  # framed into the protocol's buffer, not written
            except InvalidState:
                raise ClientDisconnected() from None
            return
        await super().send(message)

    def shutdown(self) -> None:
        """The server is stopping: the protocol's `closed` frame, then close code 1001 `shutdown`
        (docs/protocol.md), where uvicorn's own closes with 1012 and no reason, before the
        app's shut-down could say anything."""
        if not (self.handshake_complete and self.initial_response is None and not self.close_sent):
            super().shutdown()
            return
        self.stop_keepalive()
        self.queue.put_nowait({"type": "websocket.disconnect", "code": 1001})
        if self.conn.state is State.OPEN and not self.transport.is_closing():
            with contextlib.suppress(InvalidState):  # the client's close crossed ours: nothing to say
                self.conn.send_text(frame("closed", reason="shutdown").encode())
                self.conn.send_close(1001, "shutdown")
                self.transport.write(b"".join(self.conn.data_to_send()))
        self.transport.close()


def uvicorn_options(app: Starlette) -> dict[str, Any]:
    """The keyword arguments `uvicorn.run` and `uvicorn.Config` get for the app (`create_app`):
    its front door's gate (`front.Door`) bound to the protocols."""
    gate: Gate = app.state.door.gate
    http = type("GatedHttp", (GatedHttp,), {"gate": gate})
    ws = type("GatedWebSockets", (BurstWebSockets,), {"gate": gate})
    # uvicorn's own reading of forwarded headers is off: the app's (`forwarded`) reads them, from
    # the proxies it trusts only (uvicorn's would trust 127.0.0.1 by default)
    options = {"http": http, "ws": ws, "ws_max_size": MAX_FRAME, "ws_per_message_deflate": False}
    return options | {"proxy_headers": False}
