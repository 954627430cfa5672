"""The office's endpoints, mounted at /office by the edge (`app.py`): its page (one shell for every
screen, its files under static/office/) and its JSON API. Every API endpoint but the login asks
the gate (`auth.Gate.check`) first; those that act ask it as an operator's. Screens are listed in
`SCREENS`: the page builds its navigation from them, so a new screen is a line here and a
renderer in office.js."""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount, Route

from ...errors import MissingExtraError, ServerError
from ...variants import Variant, list_examples, list_variants
from ..pages import Files
from ..store import office_log, operators
from ..store import office_reads as q
from ..store import paytables as paytable_store
from ..store.schema import Tx
from ..web import STATIC
from . import reports as report_files
from .auth import ABSOLUTE, COOKIE, IDLE, PATH, Gate, Who, log, now_text, read_body
from .board import analyse_games, board, served
from .disputes import MOST, currency_of, export, find_rounds, open_round, summary
from .host import host_of
from .paytables import analysed, candidate, par_sheet

__all__ = ["SCREENS", "office_mount"]

SCREENS = [
    {"path": "rounds", "title": "Disputes", "what": "find a round; its events, replay, proof and export"},
    {"path": "players", "title": "Players", "what": "an account's wallets, limit, seats and rounds"},
    {"path": "log", "title": "Office log", "what": "every action the office took, its chain checked"},
    {"path": "paytables", "title": "Paytables", "what": "a paytable changed through the analysis, by two"},
    {"path": "figures", "title": "Figures", "what": "actual against theoretical, by table, game and pool"},
    {"path": "reports", "title": "Reports", "what": "per day, game and table, as CSV or XLSX"},
]
"""The office's screens, in the order of its navigation."""

REPORT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
"""The report's files, by extension: their media types."""


def _json(body: Any, status: int = 200) -> Response:
    return Response(orjson.dumps(body), status, media_type="application/json")


def _me(who: Who) -> dict[str, Any]:
    return {"operator": who.operator, "role": who.role, "csrf": who.csrf, "may_act": who.may_act}


def _int(text: str, what: str) -> int:
    if not text.isdecimal():
        raise ServerError(f"{what}: a whole number, not {text!r}", "bad_field")
    return int(text)


def _why(body: dict[str, Any]) -> str:
    why = body.get("why")
    if not isinstance(why, str) or not why.strip() or len(why) > 1000:
        raise ServerError("why: say why (1 to 1,000 characters): the office's log keeps it", "bad_field")
    return why.strip()


def _today() -> date:
    return datetime.now(UTC).date()


async def _xlsx(report: report_files.Report) -> bytes:
    return await asyncio.to_thread(report_files.xlsx_bytes, report)  # a workbook takes a while: off the loop


def office_mount() -> Mount:
    files, gate = Files(STATIC / "office"), Gate()

    async def shell(request: Request) -> Response:
        return files.answer(request, "office.html")

    async def static(request: Request) -> Response:
        return files.answer(request, request.path_params["name"])

    async def login(request: Request) -> Response:
        token, who = await gate.login(request)
        response = JSONResponse(_me(who) | {"idle": IDLE, "absolute": ABSOLUTE})
        secure = request.url.scheme == "https"
        response.set_cookie(COOKIE, token, ABSOLUTE, path=PATH, httponly=True, samesite="strict", secure=secure)
        return response

    async def logout(request: Request) -> Response:
        who = await gate.check(request)
        host = host_of(request)
        await host.db.run(lambda tx: operators.delete_session(tx, who.key))
        await log(host, who.operator, "logout", who.operator, "", {})
        response = JSONResponse({})
        response.delete_cookie(COOKIE, path=PATH, httponly=True, samesite="strict")
        return response

    async def me(request: Request) -> Response:
        who = await gate.check(request)
        tables = sorted(host_of(request).tables())
        return _json(_me(who) | {"screens": SCREENS, "tables": tables, "idle": IDLE, "absolute": ABSOLUTE})

    async def rounds(request: Request) -> Response:
        await gate.check(request)
        p = request.query_params
        when = None
        if p.get("time"):
            try:
                when = datetime.fromisoformat(p["time"])
            except ValueError:
                why = f"time: an ISO time such as 2026-12-05T15:40:00+00:00, not {p['time']!r}"
                raise ServerError(why, "bad_field") from None
            when = when if when.tzinfo else when.replace(tzinfo=UTC)
        found = await find_rounds(host_of(request), p.get("table"), p.get("account"), when, p.get("id"))
        return _json({"rounds": found, "most": MOST})

    async def one_round(request: Request) -> Response:
        await gate.check(request)
        table, number = request.path_params["table"], _int(request.path_params["round"], "round")
        found = await open_round(host_of(request), table, number)
        return _json({k: v for k, v in found.items() if k != "seat_views"})

    async def export_round(request: Request) -> Response:
        who = await gate.check(request)
        body = await read_body(request)
        why, seat = _why(body), body.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ServerError("seat: a seat's number, or none for a regulator's file", "bad_field")
        host = host_of(request)
        table, number = request.path_params["table"], _int(request.path_params["round"], "round")
        found = await open_round(host, table, number)
        file = export(found, seat, who.operator, now_text())
        await log(host, who.operator, "export", found["id"], why, {"for": file["for"]})
        name = f"{table}-{number}-{'regulator' if seat is None else f'seat{seat}'}.json"
        headers = {"Content-Disposition": f'attachment; filename="{name}"'}
        return Response(orjson.dumps(file, option=orjson.OPT_INDENT_2), headers=headers, media_type="application/json")

    async def answer_round(request: Request) -> Response:
        """The operator's answer to a dispute over the round, kept in the log with the replay's verdict."""
        who = await gate.check(request, acts=True)
        body = await read_body(request)
        why = _why(body)
        host = host_of(request)
        table, number = request.path_params["table"], _int(request.path_params["round"], "round")
        found = await open_round(host, table, number)
        detail = {"replay_same": found["replay"]["same"], "chain_holds": found["chain_holds"]}
        await log(host, who.operator, "answer_dispute", found["id"], why, detail)
        return _json({"logged": True} | detail)

    async def players(request: Request) -> Response:
        await gate.check(request)
        text = request.query_params.get("q", "")
        if len(text) > 64:
            raise ServerError("q: at most 64 characters", "bad_field")
        found = await host_of(request).reads.run(lambda tx: q.find_accounts(tx, text, MOST))
        return _json({"accounts": found})

    async def one_player(request: Request) -> Response:
        await gate.check(request)
        name, host = request.path_params["name"], host_of(request)

        def job(tx: Tx) -> dict[str, Any] | None:
            found = q.player(tx, name)
            if found is None:
                return None
            places = q.account_rounds(tx, name, 20)
            found["rounds"] = [
                summary(t, r, q.round_events(tx, t, r), q.seats_in(tx, t, r), currency_of(host, t))
                for t, r, _ in places
            ]
            return found

        found = await host.reads.run(job)
        if found is None:
            raise ServerError(f"no account {name!r}", "no_table")
        units = {s.variant.currency.code: s.variant.currency.minor_per_major for s in host.tables().values()}
        for wallet in found["wallets"]:
            wallet["minor_per_major"] = units.get(wallet["currency"], 100)
        return _json(found)

    async def office_log_page(request: Request) -> Response:
        await gate.check(request)
        checked = await host_of(request).reads.run(office_log.read_log)
        entries = [e.__dict__ for e in checked.entries]
        return _json({"entries": entries, "total": checked.total, "ok": checked.ok, "failure": checked.failure})

    async def figures(request: Request) -> Response:
        await gate.check(request)
        return _json(await board(host_of(request)))

    async def report(request: Request) -> Response:
        """The report of the days asked (today by default), to read on the screen: not logged."""
        await gate.check(request)
        first, last = report_files.days(request.query_params.get("first"), request.query_params.get("last"), _today())
        variants, _ = served(host_of(request))
        await analyse_games(variants)
        found = await host_of(request).reads.run(report_files.read_report(variants, first, last))
        units = {v.currency.code: v.currency.minor_per_major for v in variants.values()}
        body = {"first": first, "last": last, "lines": found.lines, "pools": found.pools}
        return _json(body | {"unknown": found.unknown, "currencies": units})

    def download(kind: str) -> Any:
        async def endpoint(request: Request) -> Response:
            """The report of the days asked as a file; an auditor may too; kept in the office's log."""
            who = await gate.check(request)
            body, host = await read_body(request), host_of(request)
            why = _why(body)
            first, last = report_files.days(body.get("first"), body.get("last"), _today())
            variants, _ = served(host)
            await analyse_games(variants)
            found = await host.reads.run(report_files.read_report(variants, first, last))
            try:
                data = report_files.to_csv(found).encode() if kind == "csv" else await _xlsx(found)
            except MissingExtraError as err:
                raise ServerError(str(err), "unavailable") from None
            detail = {"format": kind, "lines": len(found.lines), "pools": len(found.pools)}
            await log(host, who.operator, "export_report", f"{first}..{last}", why, detail)
            name = f"report-{first}-{last}.{kind}"
            headers = {"Content-Disposition": f'attachment; filename="{name}"'}
            return Response(data, headers=headers, media_type=REPORT_TYPES[kind])

        return endpoint

    def _game(request: Request, game: object) -> Variant:
        found = [s.variant for s in host_of(request).tables().values() if s.variant.name == game]
        if not found:
            raise ServerError(f"game: no table plays {game!r}", "bad_field")
        return found[0]

    async def paytables(request: Request) -> Response:
        await gate.check(request)
        specs = host_of(request).tables().values()
        games = sorted({s.variant.name for s in specs})
        tables = {g: sorted(s.id for s in specs if s.variant.name == g) for g in games}
        found, taken = await host_of(request).reads.run(
            lambda tx: (paytable_store.changes(tx), paytable_store.applied(tx))
        )
        for change in found:  # the tables that took it, at which round boundary
            change["applied_to"] = [
                {"table": t, **a} for t, rows in taken.items() for a in rows if a["change"] == change["id"]
            ]
        body: dict[str, Any] = {"games": [{"game": g, "tables": tables[g]} for g in games], "changes": found}
        body["sources"] = {"preset": list_variants(), "example": list_examples()}
        return _json(body)

    async def propose(request: Request) -> Response:
        who = await gate.check(request, acts=True)
        body, host = await read_body(request), host_of(request)
        why, current = _why(body), _game(request, body.get("game"))
        proposed = candidate(body, current)
        text, digest, sheet = await analysed(host, current, proposed)
        now = now_text()

        def job(tx: Tx) -> int:
            paytable_store.keep_text(tx, digest, text)
            return paytable_store.propose(tx, current.name, proposed.name, digest, sheet, who.operator, now, why)

        ident = await host.db.run(job)
        target = f"{current.name} -> {proposed.name}"
        await log(host, who.operator, "propose_paytable", target, why, {"id": ident, "hash": digest})
        found = await host.reads.run(lambda tx: paytable_store.change(tx, ident))
        return _json(found, 201)

    async def proposal_sheet(request: Request) -> Response:
        """A proposal's whole par sheet, as Markdown, before anything changes."""
        await gate.check(request)
        ident, host = _int(request.path_params["id"], "id"), host_of(request)
        found = await host.reads.run(lambda tx: paytable_store.change(tx, ident))
        text = None if found is None else await host.reads.run(lambda tx: paytable_store.text_of(tx, found["hash"]))
        if found is None or text is None:
            raise ServerError(f"no proposal {ident}", "no_table")  # 404, as an unknown round or account
        return Response(await par_sheet(text), media_type="text/markdown; charset=utf-8")

    async def approve(request: Request) -> Response:
        who = await gate.check(request, acts=True)
        body, host = await read_body(request), host_of(request)
        why, ident = _why(body), _int(request.path_params["id"], "id")
        found = await host.db.run(lambda tx: paytable_store.approve(tx, ident, who.operator, now_text()))
        target = f"{found['game']} -> {found['name']}"
        await log(host, who.operator, "approve_paytable", target, why, {"id": ident, "hash": found["hash"]})
        return _json(found)

    routes: list[BaseRoute] = [
        Route("/", shell),
        Route("/login", shell),
        *(Route(f"/{s['path']}", shell) for s in SCREENS),
        Route("/round/{table}/{round}", shell),
        Route("/player/{name}", shell),
        Route("/static/{name:path}", static),
        Route("/api/login", login, methods=["POST"]),
        Route("/api/logout", logout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/rounds", rounds),
        Route("/api/round/{table}/{round}", one_round),
        Route("/api/round/{table}/{round}/export", export_round, methods=["POST"]),
        Route("/api/round/{table}/{round}/answer", answer_round, methods=["POST"]),
        Route("/api/players", players),
        Route("/api/player/{name}", one_player),
        Route("/api/log", office_log_page),
        Route("/api/figures", figures),
        Route("/api/report", report),
        *(Route(f"/api/report.{kind}", download(kind), methods=["POST"]) for kind in REPORT_TYPES),
        Route("/api/paytables", paytables),
        Route("/api/paytables", propose, methods=["POST"]),
        Route("/api/paytables/{id}/approve", approve, methods=["POST"]),
        Route("/api/paytables/{id}/parsheet", proposal_sheet),
    ]
    return Mount(PATH, routes=routes)
