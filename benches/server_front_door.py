"""A well-behaved player's latency while a crowd of sockets from one other address each sends
just under the per-socket flood limit: the front door's fair share by address must keep the
player's p99 within twice its p99 alone.

    python benches/server_front_door.py [--crowd 100] [--seconds 10] [--rounds 3]

One `caribbean-fast serve` process (SQLite) with its default limits. The player, from 127.0.0.1,
plays a cyberstud table (ante, deal, fold) at `--pace` commands a second and times each answer.
The crowd, from 127.0.0.2 and 127.0.0.3 (an address may hold 64 connections), is `--crowd`
sockets each sending `lobby` requests at `--crowd-rate` frames a second (the server's per-socket
limit is 20) and reading every answer.
Phases alone and with the crowd are taken in turn, `--rounds` of each, so the host's drift
touches both alike; it prints one JSON object: each phase's p50 and p99, and the ratio of the
medians of the p99s with the crowd and alone (the goal: at most 2).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).parent))
from server_chaos import Serve, healthy, tables_file

ANTE = 100


async def _answer(ws: ClientConnection, ident: int) -> dict[str, Any]:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] == "answer" and frame["id"] == ident:
            return dict(frame)


async def player(url: str, token: str, seconds: float, pace: float) -> list[float]:
    """Plays for `seconds`; each command's seconds to its answer."""
    took: list[float] = []
    async with connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.recv()
        ident, end, kinds = 0, time.monotonic() + seconds, ["ante", "deal", "fold"]
        while time.monotonic() < end:
            ident += 1
            kind = kinds[ident % 3]
            fields = {"amount": ANTE} if kind == "ante" else {}
            start = time.perf_counter()
            await ws.send(json.dumps({"v": 1, "id": ident, "type": kind, "table": "cyberstud-1", **fields}))
            answer = await _answer(ws, ident)
            took.append(time.perf_counter() - start)
            if not answer["ok"] and answer["error"]["code"] != "illegal":
                raise RuntimeError(f"the player was refused: {answer}")
            await asyncio.sleep(max(0.0, 1 / pace - took[-1]))
    return took


async def crowd_socket(url: str, source: str, rate: float, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """One socket from `source` sending `lobby` at `rate` a second and reading every answer."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    sock = socket.create_connection(("127.0.0.1", port), source_address=(source, 0))
    sock.setblocking(False)
    async with connect(url, sock=sock, max_size=None) as ws:
        await ws.recv()

        async def read() -> None:
            async for text in ws:
                frame = json.loads(text)
                counts["refused" if frame.get("ok") is False else "answered"] += 1

        reader = asyncio.create_task(read())
        ident = 0
        while not stop.is_set():
            ident += 1
            await ws.send(json.dumps({"v": 1, "id": ident, "type": "lobby"}))
            counts["sent"] += 1
            await asyncio.sleep(1 / rate)
        reader.cancel()


async def phase(url: str, token: str, args: argparse.Namespace, crowded: bool) -> dict[str, Any]:
    stop, counts = asyncio.Event(), {"sent": 0, "answered": 0, "refused": 0}
    sources = [f"127.0.0.{2 + k % args.crowd_addresses}" for k in range(args.crowd if crowded else 0)]
    crowd = [asyncio.create_task(crowd_socket(url, a, args.crowd_rate, stop, counts)) for a in sources]
    await asyncio.sleep(1.0 if crowded else 0)  # the crowd at its pace first
    took = await player(url, token, args.seconds, args.pace)
    stop.set()
    await asyncio.gather(*crowd, return_exceptions=True)
    took.sort()
    return {
        "crowd": crowded,
        "commands": len(took),
        "p50_ms": _ms(took, 0.5),
        "p99_ms": _ms(took, 0.99),
        **(counts if crowded else {}),
    }


def _ms(ordered: list[float], q: float) -> float:
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def run(url: str, http: str, args: argparse.Namespace) -> dict[str, Any]:
    token = str(httpx.post(f"{http}/api/guest").json()["token"])
    async with connect(url, additional_headers={"Authorization": f"Bearer {token}"}) as ws:
        await ws.recv()
        await ws.send(json.dumps({"v": 1, "id": 1, "type": "sit", "table": "cyberstud-1", "buy_in": 90_000}))
        assert (await _answer(ws, 1))["ok"]
    phases = []
    for _ in range(args.rounds):
        for crowded in (False, True):
            phases.append(await phase(url, token, args, crowded))
    alone = round(statistics.median(p["p99_ms"] for p in phases if not p["crowd"]), 2)
    crowd = round(statistics.median(p["p99_ms"] for p in phases if p["crowd"]), 2)
    return {"phases": phases, "p99_ms_alone": alone, "p99_ms_crowd": crowd, "ratio": round(crowd / alone, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--crowd", type=int, default=100, help="sockets of the crowd (default 100)")
    parser.add_argument("--crowd-rate", type=float, default=19.0, help="frames a second each (default 19)")
    parser.add_argument(
        "--crowd-addresses",
        type=int,
        default=2,
        help="addresses the crowd comes from (default 2: 64 sockets an address)",
    )
    parser.add_argument("--pace", type=float, default=20.0, help="the player's commands a second (default 20)")
    parser.add_argument("--seconds", type=float, default=10.0, help="seconds of play a phase (default 10)")
    parser.add_argument("--rounds", type=int, default=3, help="phases alone and crowded, in turn (default 3 each)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cf-door-") as tmp:
        folder = Path(tmp)
        server = Serve(str(folder / "casino.db"), tables_file(folder, 1), folder / "serve.log")
        try:
            healthy([server], 1)
            result = asyncio.run(run(server.ws, server.http, args))
        finally:
            server.stop()
    print(json.dumps({"crowd": args.crowd, "crowd_rate": args.crowd_rate, **result}, indent=1))


if __name__ == "__main__":
    main()
