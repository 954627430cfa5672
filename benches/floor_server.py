"""The floor a game server's command is measured against (`server_load.py --floor`): Starlette and
uvicorn with the game server's own options and burst writes, doing only what a command must.

Each frame is parsed, a small dict per seat is updated (a stand-in round: ante, deal, raise or
fold, settled), and every seat at the table gets a view frame padded to the size the game server's
views had in the same bench run (`--view-bytes`). The bots play it as they played
`caribbean-fast serve`; the counts differ a little (the floor refuses nothing, so every command
sends views: the bench reports views a command for both). The process runs as `serve`'s does
(`tune_process`). No rule is checked, nothing is written to a disk: what is left is the web
stack's own cost per command.

With ``--engine`` each table is the real engine in memory (`engine.Table`): a seat's command is
`Table.play` (a refusal is answered as the server answers one) and its views are the engine's
(`Table.view`, `view_to_json`). As in the server, every table of the tables file (``--tables``)
is opened before the load, each variant loaded once, and a table keeps only its latest events (a
store that writes nowhere, `Discard`: the engine then keeps what a served table keeps, not its
whole past). What is left beyond that floor is the server's own: persistence, wallets, routing,
checks of the caller, framing and its tasks.

Run: ``python benches/floor_server.py --port 8765 --view-bytes 900 [--engine --tables tables.toml]``
"""

from __future__ import annotations

import argparse
import random
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from caribbean_fast import CaribbeanFastError, load_variant
from caribbean_fast.engine import Table
from caribbean_fast.engine.commands import PLAYED
from caribbean_fast.engine.events import Event
from caribbean_fast.engine.store import Row
from caribbean_fast.server.host import tune_process
from caribbean_fast.server.wire.protocol import MAX_FRAME
from caribbean_fast.server.wire.serving import BurstWebSockets
from caribbean_fast.words.views import view_to_json


@dataclass
class Seat:
    socket: WebSocket
    balance: int
    ante: int = 0
    phase: str = "waiting"


@dataclass
class Floor:
    view_bytes: int
    tables: dict[str, dict[str, Seat]] = field(default_factory=dict)  # table -> token -> seat
    rng: random.Random = field(default_factory=lambda: random.Random(1))

    def play(self, token: str, socket: WebSocket, command: dict[str, Any]) -> bool:
        """The stand-in round's step for the seat (any unknown step is a no-op, as a refusal);
        the floor refuses nothing."""
        seats = self.tables.setdefault(command["table"], {})
        kind, seat = command["type"], seats.get(token)
        if kind == "sit":
            seats[token] = seat = Seat(socket, command["buy_in"])
        if seat is None:
            return True
        if kind == "top_up":
            seat.balance += command["amount"]
        elif kind == "ante":
            seat.ante, seat.phase = command["amount"], "betting"
            seat.balance -= seat.ante
        elif kind == "deal":
            seat.phase = "deciding"
        elif kind in ("raise", "fold"):
            won = kind == "raise" and self.rng.random() < 0.5
            seat.balance += 6 * seat.ante if won else 0
            seat.ante, seat.phase = 0, "settled"
        seat.socket = socket
        return True

    def frames(self, table: str) -> dict[str, tuple[WebSocket, str]]:
        """Each seat's socket and view frame."""
        return {token: (seat.socket, self.view(table, seat)) for token, seat in self.tables.get(table, {}).items()}

    def view(self, table: str, seat: Seat) -> str:
        """A view frame padded to `view_bytes`, with what a bot reads."""
        actions = ["raise", "fold"] if seat.phase == "deciding" else []
        view = {"phase": seat.phase, "actions": actions, "balance": seat.balance, "bets": {"ante": seat.ante}}
        text = orjson.dumps({"v": 1, "type": "view", "table": table, "view": {**view, "pad": ""}}).decode()
        pad = max(0, self.view_bytes - len(text))
        return text.replace('"pad":""', f'"pad":"{"x" * pad}"', 1)


class Discard:
    """An event store that keeps nothing: with a store, a table keeps only its latest events
    (`engine.core.KEEP`), as the server's tables do; without one it would keep every event."""

    def begin(self, meta: dict[str, str]) -> None:
        return None

    def write_meta(self, meta: dict[str, str]) -> None:
        return None

    def read_meta(self) -> dict[str, str]:
        return {}

    def append(self, events: Sequence[Event]) -> None:
        return None

    def rows(self, since: int = 0) -> list[Row]:
        return []

    def close(self) -> None:
        return None


def open_tables(path: Path) -> dict[str, Table]:
    """Every table of a tables file (`[[table]]` with `variant` and `count`, as `serve` reads
    it), named as the server names them (`cyberstud-1`, ...), each variant loaded once."""
    tables = {}
    for entry in tomllib.loads(path.read_text())["table"]:
        variant = load_variant(entry["variant"])
        for k in range(1, entry["count"] + 1):
            tables[f"{entry['variant']}-{k}"] = Table(variant, store=Discard())
    return tables


@dataclass
class EngineFloor:
    """Each table the engine in memory; a bot's seat is the table's next free one."""

    tables: dict[str, Table]
    seats: dict[str, dict[str, tuple[int, WebSocket]]] = field(default_factory=dict)  # table -> token -> seat

    def play(self, token: str, socket: WebSocket, command: dict[str, Any]) -> bool:
        """The command on the table's engine: False where the engine refused it (or no such table)."""
        name = command["table"]
        table = self.tables.get(name)
        if table is None:
            return False
        seats, kind = self.seats.setdefault(name, {}), command["type"]
        if token in seats:  # its socket may have come back
            seats[token] = (seats[token][0], socket)
        try:
            if kind == "sit" and token not in seats:
                seat = next(k for k in range(table.seats) if k not in {s for s, _ in seats.values()})
                table.sit(seat, token, command["buy_in"])
                seats[token] = (seat, socket)
            elif kind == "sit":
                return True  # seated already: the seat is kept
            elif token not in seats:
                return False
            elif kind == "top_up":
                table.deposit(seats[token][0], command["amount"])
            elif kind not in PLAYED:
                return False  # not a player's command of the engine
            else:
                args = {k: v for k, v in command.items() if k not in ("v", "id", "type", "table")}
                table.play(seats[token][0], PLAYED[kind], args)  # found once, where the frame is read
        except (CaribbeanFastError, StopIteration):
            return False
        return True

    def frames(self, name: str) -> dict[str, tuple[WebSocket, str]]:
        """Each seat's socket and view frame."""
        table = self.tables[name]
        return {
            token: (
                socket,
                orjson.dumps({"v": 1, "type": "view", "table": name, "view": view_to_json(table.view(seat))}).decode(),
            )
            for token, (seat, socket) in self.seats[name].items()
        }


async def endpoint(ws: WebSocket) -> None:
    floor: Floor | EngineFloor = ws.app.state.floor
    token = ws.headers.get("authorization", "")
    await ws.accept()
    try:
        while True:
            command = orjson.loads(await ws.receive_text())
            ok = floor.play(token, ws, command)
            refused = {"error": {"code": "illegal", "message": "refused"}}
            answer = {"v": 1, "type": "answer", "id": command["id"], "ok": ok, **({"result": {}} if ok else refused)}
            frames = floor.frames(command["table"]) if ok else {}
            for other, (socket, text) in frames.items():  # each written on its own, as each socket's writer does
                if other != token:
                    await _send(socket, text, more=False)
            if token in frames:  # the seat's own view and the answer, in one write
                await _send(ws, frames[token][1], more=True)
            await _send(ws, orjson.dumps(answer).decode(), more=False)
    except WebSocketDisconnect:
        return


async def _send(socket: WebSocket, text: str, more: bool) -> None:
    try:
        await socket.send({"type": "websocket.send", "text": text, "more": more})
    except Exception:  # a seat's socket closed: its next command brings its new one
        return


async def health(request: Any) -> JSONResponse:
    floor = request.app.state.floor
    return JSONResponse({"tables": len(floor.tables) if isinstance(floor, EngineFloor) else 0, "floor": True})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--view-bytes", type=int, default=900)
    parser.add_argument("--engine", action="store_true", help="each table the engine in memory, its own views")
    parser.add_argument("--tables", type=Path, help="with --engine: the tables file the server serves")
    args = parser.parse_args()
    if args.engine and args.tables is None:
        parser.error("--engine needs --tables: the tables are opened before the load")
    floor = EngineFloor(open_tables(args.tables)) if args.engine else Floor(args.view_bytes)
    tune_process()  # the collector and switch interval of a serving process
    sockets = [WebSocketRoute("/ws", endpoint), WebSocketRoute("/ws/{table}", endpoint)]  # as the server's
    app = Starlette(routes=[Route("/healthz", health), *sockets])
    app.state.floor = floor
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=args.port,
        loop="uvloop",
        http="httptools",
        ws=BurstWebSockets,
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="warning",
    )


if __name__ == "__main__":
    main()
