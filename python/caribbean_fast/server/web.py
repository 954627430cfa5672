"""The page: the lobby at `/`, a table of a game at `/play/<game>`, the static files (plain HTML,
CSS and JavaScript modules shipped inside the package; nothing is built at install time) and
each table's rules as JSON for the page (`/api/rules/<table>`)."""

from __future__ import annotations

import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..errors import ServerError
from .rules import rules_json
from .server import Server

__all__ = ["STATIC", "web_routes"]

STATIC = Path(__file__).parent / "static"


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def lobby_page(request: Request) -> Response:
    return FileResponse(STATIC / "index.html")


async def table_page(request: Request) -> Response:
    game = request.path_params["game"]
    if not any(o.spec.variant.name == game for o in _server(request).owners.values()):
        return Response(f"No table of the game {game!r} here. The lobby is at /.", 404, media_type="text/plain")
    return FileResponse(STATIC / "table.html")


async def rules(request: Request) -> Response:
    owner = _server(request).owners.get(request.path_params["table"])
    if owner is None:
        raise ServerError(f"no table {request.path_params['table']!r}", "no_table")
    return JSONResponse(rules_json(owner.spec.id, owner.spec.variant, owner.spec.limits))


async def favicon(request: Request) -> Response:
    """The tab's icon, for a browser that asks /favicon.ico before reading the page's own link."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


class _Static(StaticFiles):
    """The page's files; a path the file system cannot name (a NUL byte) is not found, not a 500."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        try:
            return super().lookup_path(path)
        except ValueError:
            return "", None


def web_routes() -> list[BaseRoute]:
    return [
        Route("/", lobby_page),
        Route("/play/{game}", table_page),
        Route("/favicon.ico", favicon),
        Route("/api/rules/{table}", rules),
        Mount("/static", _Static(directory=STATIC), name="static"),
    ]
