"""The public reads' budget (issue 42): HTTP requests from many addresses together wait past the
server's `read_rate`, so a crowd of readers takes no more of the loop than that; the tables'
socket frames never wait for it."""

from __future__ import annotations

import asyncio

from caribbean_fast.server.wire.gate import Gate


def _gate(read_rate: float) -> Gate:
    return Gate(per_address=100, total=1000, handshake=5.0, address_rate=100.0, total_rate=5000.0, read_rate=read_rate)


def test_reads_from_many_addresses_wait_past_the_budget_and_frames_do_not() -> None:
    async def scenario() -> tuple[int, int, bool]:
        gate = _gate(read_rate=3)
        reads = [asyncio.ensure_future(gate.admit_read(f"10.0.0.{k}")) for k in range(6)]  # one each
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        answered = sum(r.done() for r in reads)
        frame = asyncio.ensure_future(gate.admit("10.0.1.1"))  # a player's frame, meanwhile
        await asyncio.sleep(0)
        for r in reads:
            r.cancel()
        return answered, len(reads), frame.done()

    answered, asked, frame_in = asyncio.run(scenario())
    assert answered == 3 and asked == 6 and frame_in  # the budget's burst; the rest wait their turn
