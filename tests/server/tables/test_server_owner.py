"""A table's owner runs one command at a time, whether the command runs in its caller's task (the
owner idle) or in the owner's: a caller cancelled mid-commit holds the table until its commit
lands, and a command queued behind one running in its caller's task is answered when the owner
stops. (The database is a stand-in whose commits land when the test says.)"""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import MagicMock

import pytest

from caribbean_fast import load_variant
from caribbean_fast.engine import Table
from caribbean_fast.errors import ServerError
from caribbean_fast.server.tables.owner import Owner
from caribbean_fast.server.wire.commands import COMMANDS, Command


def owner_with_commits() -> tuple[Owner, list[asyncio.Future[Any]]]:
    """An owner of a cyberstud table whose every commit is a future the test resolves."""
    landings: list[asyncio.Future[Any]] = []

    def landing(_: object) -> asyncio.Future[Any]:
        landings.append(asyncio.get_running_loop().create_future())
        return landings[-1]

    db, spec = MagicMock(), MagicMock()
    db.landing = db.writing = landing
    spec.id = "cyberstud-1"
    owner = Owner(spec, db, MagicMock(), MagicMock(), MagicMock())
    owner.table = Table(load_variant("cyberstud"), store=owner.record)
    return owner, landings


async def turns(n: int = 5) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_caller_cancelled_mid_commit_holds_the_table_until_its_commit_lands() -> None:
    async def scenario() -> list[str]:
        owner, landings = owner_with_commits()
        log: list[str] = []

        async def run(command: Command, account: str | None) -> dict[str, Any]:
            log.append(f"{command.type} runs after {sum(f.done() for f in landings)} commits landed")
            owner.t.deposit(0, 100)
            await owner._commit()
            return {}

        owner._run = run  # type: ignore[method-assign]
        owner.start()
        await turns()
        first = asyncio.create_task(owner.submit(Command(1, COMMANDS["deal"]), "x"))  # the owner idle: in this task
        await turns(1)
        first.cancel()
        second = asyncio.create_task(owner.submit(Command(2, COMMANDS["fold"]), "y"))
        await turns()
        log.append(f"second answered before the first commit landed: {second.done()}")
        landings[0].set_result(None)
        await turns()
        landings[1].set_result(None)
        await second
        await owner.stop()
        return log

    assert asyncio.run(scenario()) == [
        "deal runs after 0 commits landed",
        "second answered before the first commit landed: False",
        "fold runs after 1 commits landed",
    ]


def test_a_command_queued_behind_one_in_its_callers_task_is_answered_when_the_owner_stops() -> None:
    async def scenario() -> None:
        owner, _ = owner_with_commits()
        gate = asyncio.Event()

        async def run(command: Command, account: str | None) -> dict[str, Any]:
            await gate.wait()
            return {"ran": command.type}

        owner._run = run  # type: ignore[method-assign]
        owner.start()
        await turns()
        first = asyncio.create_task(owner.submit(Command(1, COMMANDS["deal"]), "x"))
        await turns(1)
        queued = asyncio.create_task(owner.submit(Command(2, COMMANDS["fold"]), "y"))
        await turns()
        owner.abandon()
        gate.set()
        with pytest.raises(ServerError, match="stopped serving it"):
            await asyncio.wait_for(queued, 5)
        assert await first == {"ran": "deal"}  # it was under way in its caller's task: it ends

    asyncio.run(scenario())
