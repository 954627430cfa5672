"""The terminal client driven headless: a table of a preset with deposits, and a script of key
presses run against it through Textual's pilot (shared by the client's test files)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from tables import Clock

from caribbean_fast import load_variant
from caribbean_fast.analysis.advice import Advisor
from caribbean_fast.engine import Table
from caribbean_fast.play import PlaySession
from caribbean_fast.play.app import PlayApp

Script = Callable[[PlayApp, object], Awaitable[None]]


def play(table: Table, script: Script, advisor: Advisor | None = None, size: tuple[int, int] = (130, 45)) -> PlayApp:
    app = PlayApp(PlaySession(table, advisor=advisor), tick_seconds=None)

    async def drive() -> None:
        async with app.run_test(size=size) as pilot:
            await script(app, pilot)

    asyncio.run(drive())
    return app


def new_table(name: str, seats: int = 1, clock: Clock | None = None) -> Table:
    table = Table(load_variant(name), seats=seats, seed=5, clock=clock or Clock())
    for seat in range(seats):
        table.deposit(seat, 100_000)
    return table
