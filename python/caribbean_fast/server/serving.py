"""How uvicorn serves the app, in one place for `serve` and the tests: its WebSocket options, and
a WebSocket protocol that writes a burst of frames to the socket in one write.

A command's answer follows its view (`hub.Connection` queues both before its writer runs); each
frame written on its own is a system call and, on loopback, the receiver's TCP work too. A frame
sent with `"more": True` is framed at once and held until the next frame without it (or the
close), which writes them all. Any other ASGI server ignores the key and writes each frame.
"""

from __future__ import annotations

import contextlib
from typing import Any, cast

from uvicorn._types import ASGISendEvent
from uvicorn.protocols.utils import ClientDisconnected
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.protocol import State

from .protocol import MAX_FRAME, frame

__all__ = ["BurstWebSockets", "uvicorn_options"]


class BurstWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (websockets' sans-I/O one), holding frames marked `more`."""

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


def uvicorn_options() -> dict[str, Any]:
    """The keyword arguments `uvicorn.run` and `uvicorn.Config` get for this app."""
    return {"ws": BurstWebSockets, "ws_max_size": MAX_FRAME, "ws_per_message_deflate": False}
