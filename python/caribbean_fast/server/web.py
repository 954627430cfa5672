"""The page: the lobby at `/`, a table of a game at `/play/<game>`, the static files (plain HTML,
CSS and JavaScript modules shipped inside the package; nothing is built at install time; read
once at start and answered from memory, `pages`) and each table's rules as JSON for the page
(`/api/rules/<table>`) with its return to player (`/api/returns/<table>`). Every process answers them for
every table, whichever serves it: behind a proxy, a page's request reaches any process."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote, unquote, urlsplit

import orjson
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from ..errors import ServerError
from ..words.returns import returns_document
from .front import Front
from .pages import Files
from .rules import rules_json
from .store.jackpots import DAYS, told_through
from .ws import token_of

__all__ = ["STATIC", "web_routes"]

STATIC = Path(__file__).parent / "static"


def _server(request: Request) -> Front:
    server: Front = request.app.state.server
    return server


Handler = Callable[[Request], Awaitable[Response]]


def file_page(files: Files, name: str) -> Handler:
    async def page(request: Request) -> Response:
        return files[name].answer(request)

    return page


def table_page(files: Files) -> Handler:
    async def page(request: Request) -> Response:
        game = request.path_params["game"]
        if not any(s.variant.name == game for s in _server(request).tables().values()):
            return Response(f"No table of the game {game!r} here. The lobby is at /.", 404, media_type="text/plain")
        return files["table.html"].answer(request)

    return page


def _table_of(request: Request, name: str) -> str | None:
    """A table id from a path's name: a table's id, or a game's name (its first table), whichever
    process serves it."""
    specs = _server(request).tables()
    if name in specs:
        return name
    return next((s.id for s in specs.values() if s.variant.name == name), None)


INFO_PAGES = ("rules", "progressive", "history")


def info_page(files: Files, kind: str) -> Handler:
    """A page about one table (its rules, its progressive, the account's history there) at
    /<kind>/<table>: the page reads its data from the endpoints; a game's name is redirected to
    its first table."""

    async def page(request: Request) -> Response:
        name = request.path_params["table"]
        table = _table_of(request, name)
        if table is None:
            return Response(f"No table {name!r} here. The lobby is at /.", 404, media_type="text/plain")
        if table != name:
            return RedirectResponse(f"/{kind}/{quote(table)}", 307)
        return files[f"{kind}.html"].answer(request)

    return page


def info_here(kind: str) -> Handler:
    """/<kind> with no table (a link on the table page, whose static HTML names none): the table
    the account sits at, of the game of the page it came from (its Referer, /play/<game>) where
    it sits at one, else of any game; else that game's first table; else the lobby."""

    async def page(request: Request) -> Response:
        server = _server(request)
        referer = urlsplit(request.headers.get("referer", "")).path
        game = unquote(referer.removeprefix("/play/")) if referer.startswith("/play/") else None
        token = token_of(request.headers, request.cookies, {})
        account = await server.who(token) if token else None
        held = sorted(await server.seats(account)) if account is not None else []
        specs = server.tables()
        of_game = [t for t in held if t in specs and specs[t].variant.name == game]
        table = next(iter(of_game or held), None) or (_table_of(request, game) if game else None)
        return RedirectResponse(f"/{kind}/{quote(table)}" if table else "/", 307)

    return page


def rules() -> Handler:
    """A table's rules document, made at its first request and kept: it depends only on the
    table's variant (which an approved paytable change replaces: kept by its name) and limits."""
    kept: dict[tuple[str, str], bytes] = {}

    async def answer(request: Request) -> Response:
        spec = _server(request).tables().get(request.path_params["table"])
        if spec is None:
            raise ServerError(f"no table {request.path_params['table']!r}", "no_table")
        key = (spec.id, spec.variant.name)
        body = kept.get(key)
        if body is None:
            body = kept[key] = orjson.dumps(rules_json(spec.id, spec.variant, spec.limits))
        return Response(body, media_type="application/json")

    return answer


def returns() -> Handler:
    """A table's return to player and house edge under the best strategy (`words.returns`), from
    the package's exact analysis of the variant the table runs: worked out off the loop at the
    first request (read from the analysis' cache, or counted once where the cache has none yet),
    and kept by the variant's name (an approved paytable change is another name)."""
    kept: dict[tuple[str, str], bytes] = {}
    lock = asyncio.Lock()  # one count at a time: a second request waits for the first's figures

    async def answer(request: Request) -> Response:
        spec = _server(request).tables().get(request.path_params["table"])
        if spec is None:
            raise ServerError(f"no table {request.path_params['table']!r}", "no_table")
        async with lock:
            key = (spec.id, spec.variant.name)
            body = kept.get(key)
            if body is None:
                found = await asyncio.to_thread(returns_document, spec.variant)
                body = kept[key] = orjson.dumps({"table": spec.id, **found})
        return Response(body, media_type="application/json")

    return answer


async def progressive(request: Request) -> Response:
    """The progressive's history of a table of a game that has one, from its summary
    (`jackpots`), read off the commits' thread (`reads`)."""
    server = _server(request)
    spec = server.tables().get(request.path_params["table"])
    if spec is None:
        raise ServerError(f"no table {request.path_params['table']!r}", "no_table")
    v, table = spec.variant, spec.id
    if v.progressive is None:
        raise ServerError(f"{table} has no progressive", "no_table")
    through = told_through(datetime.now(UTC))
    meter, found, fixed = await server.progressive(table, v.name, through)
    currency = {"currency": v.currency.code, "minor_per_major": v.currency.minor_per_major}
    body = {"table": table, "title": v.title, **currency, "meter": meter}
    told = {"fixed_prizes": fixed, "fixed_days": DAYS, "fixed_through": through.isoformat()}
    return Response(orjson.dumps(body | found | told), media_type="application/json")


def web_routes() -> list[BaseRoute]:
    files = Files(STATIC)  # read once, here at the app's making

    async def static(request: Request) -> Response:
        return files.answer(request, request.path_params["name"])

    return [
        Route("/", file_page(files, "index.html")),
        Route("/play/{game}", table_page(files)),
        Route("/favicon.ico", file_page(files, "favicon.svg")),  # asked before the page links it
        Route("/limit", file_page(files, "limit.html")),
        Route("/api/rules/{table}", rules()),
        Route("/api/returns/{table}", returns()),
        Route("/api/progressive/{table}", progressive),
        *(Route(f"/{kind}/{{table}}", info_page(files, kind)) for kind in INFO_PAGES),
        *(Route(f"/{kind}", info_here(kind)) for kind in INFO_PAGES),
        Route("/static/{name:path}", static),
    ]
