"""The WebSocket endpoints: who the socket is, the Origin check, the flood limit, and each frame
parsed, dispatched and answered (docs/protocol.md).

The lobby's socket (`/ws`) commands any table, relaying those another process serves (`relay`);
a table's socket (`/ws/<table>`) is served where its table is, and a command for a table served
elsewhere is answered `moved` with the socket to open (`routing`). A socket's commands run one at
a time in the order they came; a refused one changed nothing.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Awaitable
from typing import Any

from starlette.responses import PlainTextResponse
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import CaribbeanFastError, IllegalActionError, InsufficientFundsError, InvalidCardsError, ServerError
from .accounts import token_hash
from .cluster.relay import RELAYED
from .front import Door, Front
from .tables.owner import Owner
from .wire.commands import SocketCommand, TableCommand
from .wire.gate import TokenBucket
from .wire.hub import SLOW, Connection
from .wire.names import origin_allowed
from .wire.protocol import MAX_FRAME, Command, answer, frame, frame_id, parse
from .wire.routing import PROXIED
from .wire.serving import WIRE

__all__ = ["Socket", "endpoint", "error_code", "token_of"]

COOKIE = "cf_session"


def token_of(headers: Any, cookies: dict[str, str], query: Any) -> str | None:
    """The session token: the bearer header, the cookie, or `?token=`, in that order."""
    auth = headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return str(auth[7:].strip())
    return cookies.get(COOKIE) or query.get("token") or None


def page_allowed(ws: WebSocket, door: Door) -> bool:
    """No Origin (a program), one listed with --origin, or a page of a host the server answers
    to, over the socket's scheme (`names.origin_allowed`)."""
    origin = ws.headers.get("origin")
    if origin is not None and origin in door.settings.origins:
        return True
    return origin_allowed(origin, ws.url.scheme, door.names, ws.scope.get("server"))


def error_code(err: CaribbeanFastError) -> str:
    if isinstance(err, ServerError):
        return err.code
    if isinstance(err, InsufficientFundsError):
        return "insufficient_funds"
    if isinstance(err, InvalidCardsError):
        return "bad_field"
    if isinstance(err, IllegalActionError):
        return "illegal"
    return "illegal"


def endpoint(ws: WebSocket) -> Awaitable[None]:
    """The socket's life, returned, not awaited here: no frame of this one is kept for it."""
    server: Front = ws.app.state.server
    door: Door = ws.app.state.door
    if not page_allowed(ws, door):
        door.metrics.refusals.labels("origin").inc()
        return ws.close(4003, "origin")
    if not ws.scope.get(PROXIED):  # the door counted its connection by its address
        return _open(server, door, ws)
    return _proxied(server, door, ws)


async def _proxied(server: Front, door: Door, ws: WebSocket) -> None:
    client = ws.client.host if ws.client else "?"
    if not door.gate.enter_client(client):  # the door counted the proxy's: the client's count here
        door.metrics.refusals.labels("over_address").inc()
        await ws.send_denial_response(PlainTextResponse(f"too many connections from {client}", 503))
        return
    try:
        await _open(server, door, ws)
    finally:
        door.gate.leave_client(client)


async def _open(server: Front, door: Door, ws: WebSocket) -> None:
    table = ws.path_params.get("table")  # a table's socket, or None: the lobby's
    spec = None if table is None else server.tables().get(table)
    if table is not None and (spec is None or spec.own == table):  # a kind names no table
        await ws.accept()
        await ws.send_text(frame("closed", reason="no_table"))
        await ws.close(4004, "no_table")
        return
    token = token_of(ws.headers, ws.cookies, ws.query_params)
    try:
        account = await server.who(token) if token else None
    except ServerError:  # the database is failing: the client tries again later
        await ws.accept()
        await ws.send_text(frame("closed", reason="unavailable"))
        await ws.close(1013, "unavailable")
        return
    await ws.accept()
    if token and account is None:
        await ws.send_text(frame("closed", reason="unauthorized"))
        await ws.close(4001, "unauthorized")
        return
    session = token_hash(token) if token and account else None
    conn = Connection(ws, account, session, table, ws.scope.get(WIRE))
    relayed = ws.headers.get(RELAYED) == "1"  # another process's socket: its session is kept there
    conn.start()
    try:
        await server.connect(conn, token, relayed)  # the welcome, the seats' views and recalls
        await _receive(server, door, conn)
    except ServerError:  # the database failed while the socket opened
        conn.close(1013, "unavailable")
    finally:
        if conn.close_reason == SLOW:  # closed by the hub, no frame of the client's read
            door.metrics.count(door.metrics.refusals, "slow")
        await server.disconnect(conn)
        await conn.finish()


async def _receive(server: Front, door: Door, conn: Connection) -> None:
    bucket = TokenBucket(door.settings.rate, door.settings.burst)
    address = conn.ws.client.host if conn.ws.client else "?"
    metrics, gate = door.metrics, door.gate
    while conn.close_reason is None:
        if not gate.admit_now(address):  # the address's fair share: past it, the socket waits unread
            await gate.admit(address)
        try:
            message = await conn.ws.receive()
        except WebSocketDisconnect:
            return
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        if not bucket.take():
            metrics.refusals.labels("flood").inc()
            conn.close(1008, "flood")
            return
        if text is None:  # a binary frame: the protocol is text
            conn.send(answer(None, error=ServerError("frames are JSON text, not binary", "malformed")))
            metrics.count(metrics.refusals, "malformed")
            continue
        if len(text) > MAX_FRAME:
            metrics.refusals.labels("too_big").inc()
            conn.close(1009, "too big")
            return
        await _handle(server, door, conn, text)


async def _handle(server: Front, door: Door, conn: Connection, text: str | bytes) -> None:
    metrics = door.metrics
    start = time.perf_counter()
    ident = None
    try:
        command = parse(text)
        ident = command.id
        owner = await _owner(server, conn, command)
        after: list[str] = []
        if owner is not None and isinstance(command.spec, TableCommand):  # most commands: one frame less
            result = await owner.submit(command, conn.account)
        else:
            result, after = await _dispatch(server, conn, command, owner)
        conn.send(answer(ident, result))
        for extra in after:
            conn.send(extra)
        metrics.count(metrics.commands, command.type)
    except CaribbeanFastError as err:
        err.__traceback__ = None  # its frames hold the futures it came through, which hold it: a cycle
        code = error_code(err)
        if not isinstance(err, ServerError):
            err = ServerError(str(err), code)
        conn.send(answer(ident if ident is not None else frame_id(text), error=err))
        metrics.count(metrics.refusals, code)
    metrics.latency.observe(time.perf_counter() - start)


async def _owner(server: Front, conn: Connection, command: Command) -> Owner | None:
    """The owner here of the table the command names (an own table opens at its player's
    command); None: it names none, or another process serves it."""
    if not command.spec.names_table:
        return None
    table = command.table or ""
    found = server.tables().get(table)
    if found is None or found.own == table:
        raise ServerError(f"no table {command.table!r}", "no_table")
    return await server.claim(conn, table)


async def _dispatch(
    server: Front, conn: Connection, command: Command, owner: Owner | None
) -> tuple[dict[str, Any], list[str]]:
    """By the command's scope (`commands`), but a table's command whose table is served here
    (`_handle` queues it to its owner): the socket's and the server's run here; a command naming
    a table another process serves is relayed there from the lobby's socket, and answered `moved`
    on a table's socket."""
    spec = command.spec
    if spec.names_table and owner is None:
        return await server.forward(conn, command), []  # another process serves it
    assert isinstance(spec, SocketCommand), f"{spec.name}: a table's command goes to its owner"
    answered = spec.handler(Socket(server, conn, owner), command)
    return await answered if inspect.isawaitable(answered) else answered


class Socket:
    """What the handlers of socket and server commands use (`commands.Socket`): the server, the
    connection, and the owner of the table the command names."""

    def __init__(self, server: Front, conn: Connection, owner: Owner | None) -> None:
        self.server, self.conn, self._owner = server, conn, owner

    @property
    def owner(self) -> Owner:
        assert self._owner is not None, "the command names no table"
        return self._owner

    def lobby(self) -> list[dict[str, Any]]:
        return self.server.lobby()

    def watch(self, on: bool) -> list[str]:
        """Starts (or stops) the table's public views to the socket: the first at once."""
        if self.owner.spec.own:
            raise ServerError(f"{self.owner.spec.id} is a player's own table: nobody watches it", "illegal")
        self.server.watch(self.conn, self.owner.spec.id, on)
        return [self.owner.view_frame(None)] if on else []

    def advise(self) -> dict[str, Any]:
        return self.server.advise(self.owner, self.conn.account)

    @property
    def account(self) -> str:
        if self.conn.account is None:
            raise ServerError("log in for a session and its reminders", "unauthorized")
        return self.conn.account

    async def reality_check(self, every: int | None, given: bool) -> dict[str, Any]:
        """The account's interval between reality checks: read, or (`given`) chosen and kept."""
        return await self.server.reality_check(self.account, every, given)

    def session(self) -> dict[str, Any]:
        return self.server.session(self.account)
