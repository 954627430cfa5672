"""The floor a game server's command is measured against (`server_load.py --floor`): Starlette and
uvicorn with the game server's own options and burst writes, doing only what a command must.

Each frame is parsed, a small dict per seat is updated (a stand-in round: ante, deal, raise or
fold, settled), and every seat at the table gets a view frame padded to the size the game server's
views had in the same bench run (`--view-bytes`). The bots play it as they played
`caribbean-fast serve`; the counts differ a little (the floor refuses nothing, so every command
sends views: the bench reports views a command for both). The process runs as `serve`'s does
(`tune_process`). No rule is checked, nothing is written to a disk: what is left is the web
stack's own cost per command.

Run: ``python benches/floor_server.py --port 8765 --view-bytes 900``
"""

from __future__ import annotations

import argparse
import random
from dataclasses import dataclass, field
from typing import Any

import orjson
import uvicorn
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from caribbean_fast.server.protocol import MAX_FRAME
from caribbean_fast.server.server import tune_process
from caribbean_fast.server.serving import BurstWebSockets


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

    def play(self, token: str, socket: WebSocket, command: dict[str, Any]) -> None:
        """The stand-in round's step for the seat (any unknown step is a no-op, as a refusal)."""
        seats = self.tables.setdefault(command["table"], {})
        kind, seat = command["type"], seats.get(token)
        if kind == "sit":
            seats[token] = seat = Seat(socket, command["buy_in"])
        if seat is None:
            return
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

    def view(self, table: str, seat: Seat) -> str:
        """A view frame padded to `view_bytes`, with what a bot reads."""
        actions = ["raise", "fold"] if seat.phase == "deciding" else []
        view = {"phase": seat.phase, "actions": actions, "balance": seat.balance, "bets": {"ante": seat.ante}}
        text = orjson.dumps({"v": 1, "type": "view", "table": table, "view": {**view, "pad": ""}}).decode()
        pad = max(0, self.view_bytes - len(text))
        return text.replace('"pad":""', f'"pad":"{"x" * pad}"', 1)


async def endpoint(ws: WebSocket) -> None:
    floor: Floor = ws.app.state.floor
    token = ws.headers.get("authorization", "")
    await ws.accept()
    try:
        while True:
            command = orjson.loads(await ws.receive_text())
            floor.play(token, ws, command)
            answer = orjson.dumps({"v": 1, "type": "answer", "id": command["id"], "ok": True, "result": {}})
            seats = floor.tables.get(command["table"], {})
            for other, seat in seats.items():  # each written on its own, as each socket's writer does
                if other != token:
                    await _send(seat.socket, floor.view(command["table"], seat), more=False)
            if token in seats:  # the seat's own view and the answer, in one write
                await _send(ws, floor.view(command["table"], seats[token]), more=True)
            await _send(ws, answer.decode(), more=False)
    except WebSocketDisconnect:
        return


async def _send(socket: WebSocket, text: str, more: bool) -> None:
    try:
        await socket.send({"type": "websocket.send", "text": text, "more": more})
    except Exception:  # a seat's socket closed: its next command brings its new one
        return


async def health(_: Any) -> JSONResponse:
    return JSONResponse({"tables": 0, "floor": True})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--view-bytes", type=int, default=900)
    args = parser.parse_args()
    tune_process()  # the collector and switch interval of a serving process
    sockets = [WebSocketRoute("/ws", endpoint), WebSocketRoute("/ws/{table}", endpoint)]  # as the server's
    app = Starlette(routes=[Route("/healthz", health), *sockets])
    app.state.floor = Floor(args.view_bytes)
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
