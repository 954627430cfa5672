"""The ASGI application (Starlette): the HTTP endpoints for accounts, the lobby, health and
metrics, and the WebSockets: the lobby's at /ws, each table's at /ws/<table> (docs/protocol.md)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from starlette.applications import Starlette
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from ..engine.limits import RULE as LIMIT_RULE
from ..engine.limits import may_change_limit, next_week_start
from ..errors import ServerError
from .accounts import Session
from .config import Settings
from .front import Door, Front
from .office import office_mount
from .web import web_routes
from .wire.forwarded import Forwarded, Trusted
from .wire.gate import Gate
from .wire.logs import redact_tokens
from .wire.metrics import Metrics
from .wire.names import HostNames
from .wire.protocol import load_json
from .wire.serving import OVER_TOTAL
from .ws import COOKIE, endpoint, token_of

__all__ = ["asgi_app", "door"]

_STATUS = {"bad_field": 400, "malformed": 400, "unauthorized": 401, "demo_off": 403, "name_taken": 409}
_STATUS |= {"forbidden": 403}  # the office: an auditor acting, a request without its CSRF token
_STATUS |= {"rate_limited": 429, "no_table": 404, "unavailable": 503, "too_big": 413, "wrong_host": 421}
BODY = 4096  # bytes a request's body may hold (the account endpoints' names and passwords)


def _error(err: ServerError) -> JSONResponse:
    return JSONResponse({"error": {"code": err.code, "message": str(err)}}, _STATUS.get(err.code, 500))


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to `BODY` bytes: a larger body is refused as its size
    is declared (`_FrontDoor`), or as soon as it arrives past the bound, never read whole."""
    too_big = ServerError(f"a request's body is at most {BODY} bytes", "too_big")
    data = bytearray()
    try:  # a body trickled in is cut by the front door's deadline (`serving.GatedHttp`)
        async for chunk in request.stream():
            data += chunk
            if len(data) > BODY:
                raise too_big
    except ClientDisconnect:  # the client hung up mid-body: nobody reads the answer
        raise ServerError("the body ended early", "malformed") from None
    try:
        body = load_json(bytes(data))
    except ValueError:
        raise ServerError("the body is not JSON (UTF-8, nested at most 1,024 deep)", "malformed") from None
    if not isinstance(body, dict):
        raise ServerError("the body is a JSON object", "malformed")
    return body


def _session(request: Request, session: Session, status: int) -> JSONResponse:
    body = {"account": session.account, "token": session.token, "expires": session.expires.isoformat()}
    response = JSONResponse(body, status)
    secure = request.url.scheme == "https"
    max_age = int((session.expires - session.expires.now(session.expires.tzinfo)).total_seconds())
    response.set_cookie(COOKIE, session.token, max_age=max_age, httponly=True, samesite="strict", secure=secure)
    return response


def _server(request: Request) -> Front:
    server: Front = request.app.state.server
    return server


def _door(request: Request) -> Door:
    door: Door = request.app.state.door
    return door


def _address(request: Request) -> str:
    return request.client.host if request.client else "?"


async def register(request: Request) -> Response:
    body = await _body(request)
    server = _server(request)
    return _session(request, await server.register(body.get("name"), body.get("password"), _address(request)), 201)


async def login(request: Request) -> Response:
    body = await _body(request)
    server = _server(request)
    return _session(request, await server.login(body.get("name"), body.get("password"), _address(request)), 200)


async def guest(request: Request) -> Response:
    return _session(request, await _server(request).guest(_address(request)), 201)


async def _account(request: Request) -> tuple[str, str]:
    token = token_of(request.headers, request.cookies, {})
    account = await _server(request).who(token) if token else None
    if token is None or account is None:
        raise ServerError("log in first", "unauthorized")
    return account, token


async def logout(request: Request) -> Response:
    _, token = await _account(request)
    await _server(request).logout(token)  # its sockets here at once; elsewhere within a second
    response = JSONResponse({})
    response.delete_cookie(COOKIE, httponly=True, samesite="strict")
    return response


async def me(request: Request) -> Response:
    if token_of(request.headers, request.cookies, {}) is None:
        return JSONResponse({"account": None})  # no credentials: not logged in, not an error
    account, _ = await _account(request)
    wallets, guest, _ = await _server(request).wallet(account)
    return JSONResponse({"account": account, "wallets": wallets, "guest": guest})


async def limit(request: Request) -> Response:
    """The account's personal limit (game 1's seed; it holds for every table of the account), when
    it was last changed and from when it may change again; and the seats where the account can
    change it (`set_limit` is a table's command, the engine's event at the account's seat)."""
    account, _ = await _account(request)
    server = _server(request)
    amount, changed = server.limit(account)
    now = datetime.now(UTC)
    again = None if changed is None else next_week_start(changed)
    seats = [{"table": t, "seat": s} for t, s in (await server.seats(account)).items()]
    body = {
        "limit": amount,
        "changed": None if changed is None else changed.isoformat(),
        "may_change": may_change_limit(changed, now),
        "next_change": None if again is None else again.isoformat(),
        "seats": seats,
        "rule": LIMIT_RULE,
    }
    return JSONResponse(body)


async def lobby(request: Request) -> Response:
    server = _server(request)
    return JSONResponse({"tables": server.lobby(), "own": server.kinds()})


async def own(request: Request) -> Response:
    """The id of the account's own table of the kind (a one-seat game and its limits): its socket
    opens the table at the first command (`sit`)."""
    account, _ = await _account(request)
    kind = request.path_params["kind"]
    return JSONResponse({"kind": kind, "table": await _server(request).own(kind, account)})


async def healthz(request: Request) -> Response:
    """200 while the database takes transactions and every table serves; 503 otherwise (the
    stopped tables are listed: they are restoring from their records)."""
    health = await _server(request).health()
    ok = health["database"] == "ok" and not health["stopped"]
    body: dict[str, Any] = {"status": "ok" if ok else "unavailable", **health, "open": _door(request).gate.open}
    return JSONResponse(body, 200 if ok else 503)


async def metrics(request: Request) -> Response:
    return Response(_door(request).metrics.text(), media_type="text/plain; version=0.0.4")


async def _server_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ServerError)
    return _error(exc)


class _FrontDoor:
    """A connection past the server's total cap (`serving.GatedHttp`) is answered /healthz alone;
    a request declaring a body over `BODY` bytes is refused (413) on any path, unread; a request
    or a WebSocket handshake naming a host the server does not answer to (`names`) is refused
    with 421, which a page of a rebound name can read: it names nothing of the server's."""

    def __init__(self, app: ASGIApp, names: HostNames) -> None:
        self.app, self.names = app, names

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """The app's call or the refusal's, returned, not awaited here: no frame of this one is
        kept for a socket's life."""
        if scope.get(OVER_TOTAL) and scope.get("path") != "/healthz":
            return PlainTextResponse("the server holds its most connections; try again", 503)(scope, receive, send)
        if scope["type"] not in ("http", "websocket"):
            return self.app(scope, receive, send)
        headers = Headers(scope=scope)
        if scope["type"] == "http" and _declared(headers) > BODY:
            return _error(ServerError(f"a request's body is at most {BODY} bytes", "too_big"))(scope, receive, send)
        host = headers.get("host")
        if self.names.allows(host, scope["scheme"], scope.get("server")):
            return self.app(scope, receive, send)
        why = f"this server does not answer to the host {host!r} (serve --host-name)"
        refusal = _error(ServerError(why, "wrong_host"))
        if scope["type"] == "websocket":
            return WebSocket(scope, receive, send).send_denial_response(refusal)
        return refusal(scope, receive, send)


class _Paced:
    """Each HTTP request counts as a frame of its address at the front door, and against the
    budget of every address's requests together (`gate.Gate.admit_read`): those over either wait
    their turn, so that readers hammering the public endpoints, from one address or from many,
    take no more than that share of the loop that runs every table's commands
    (benches/server_readers.py)."""

    def __init__(self, app: ASGIApp, gate: Gate) -> None:
        self.app, self.gate = app, gate

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        """A socket is passed on with no frame of this one kept for its life."""
        return self._paced(scope, receive, send) if scope["type"] == "http" else self.app(scope, receive, send)

    async def _paced(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        await self.gate.admit_read(client[0] if client else "?")
        await self.app(scope, receive, send)


def _declared(headers: Headers) -> int:
    """The body's declared length; one that is not a number counts as too long."""
    declared = headers.get("content-length", "0")
    return int(declared) if declared.isdecimal() else BODY + 1


def door(settings: Settings) -> Door:
    """The front door's parts, from the settings (a bad list of proxies refused here, before the
    host opens its database)."""
    proxies = _trusted(settings.forwarded_allow_ips, settings.only_via_proxy)
    gate = Gate(
        per_address=settings.connections_per_address,
        total=settings.connections,
        handshake=settings.handshake,
        address_rate=settings.address_rate,
        total_rate=settings.total_rate,
        read_rate=settings.read_rate,
        proxies=proxies,
    )
    names = HostNames(settings.host_names, settings.endpoint)  # the hosts it answers to
    return Door(settings, names, proxies, gate, Metrics())


def _trusted(entries: tuple[str, ...], only_via_proxy: bool) -> Trusted:
    try:
        trusted = Trusted(entries)
    except ValueError as err:
        raise ServerError(f"forwarded_allow_ips: {err}", "bad_field") from None
    if trusted.any and not only_via_proxy:
        raise ServerError(
            "forwarded_allow_ips '*' believes the X-Forwarded-For of any peer, so a client that reaches "
            "the server directly names its own address (the per-address limits and the logs follow it): "
            "name the proxy's addresses, or say that nothing reaches the server but through the proxy "
            "(serve --only-via-proxy)",
            "bad_field",
        )
    return trusted


def asgi_app(settings: Settings, host: Callable[[Settings, Metrics], Front]) -> Starlette:
    """The application over the host that `host` makes (`server.create_app` names the process's
    host): the edge makes its door first, then the host, counting into the door's metrics."""
    front_door = door(settings)
    server = host(settings, front_door.metrics)
    redact_tokens()  # a WebSocket's `?token=` is in the path uvicorn logs

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    routes = [
        Route("/api/register", register, methods=["POST"]),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/lobby", lobby),
        Route("/api/own/{kind}", own),
        Route("/api/limit", limit),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        WebSocketRoute("/ws", endpoint),
        WebSocketRoute("/ws/{table}", endpoint),
        *web_routes(),
        office_mount(),  # the operator's office at /office (office/)
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={ServerError: _server_error},
        middleware=[
            Middleware(Forwarded, trusted=front_door.proxies),
            Middleware(_FrontDoor, names=front_door.names),
            Middleware(_Paced, gate=front_door.gate),
        ],
    )
    app.state.server, app.state.door = server, front_door
    return app
