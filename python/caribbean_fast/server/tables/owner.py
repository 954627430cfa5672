"""A table's owner: the one asyncio task that touches its `Table`.

Commands from every connection queue to the owner, which runs them one at a time; the owner's
clock calls `tick()` so bet and decision limits, game 3's automatic decision and game 5's idle
session happen with nobody connected. After each command the owner commits the events (and the
wallet move, for sit, top up and leave, in the same database job) before it answers and sends
each seat its view. The engine decides every rule; nothing here knows a game.

Fail-stop: when a commit or a restore fails, the table in memory is dropped at once (it has moved
where the database has not) and every command is refused `unavailable` until the table is
restored from its durable record, which the owner retries in the background with back-off.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any

from ...engine import Table, restore
from ...engine.commands import EngineCommand
from ...engine.events import Event
from ...engine.seats import STAND_AFTER
from ...engine.seeding import REVEAL_SECONDS
from ...engine.views import SeatView
from ...errors import CaribbeanFastError, ServerError
from ...variants import Variant
from ..store import leases, office_log, paytables, pools, wallets
from ..store.book import ServerBook, TableBook
from ..store.db import Database, Tx
from ..store.figures import open_figures
from ..store.holds import Holds
from ..store.jackpots import open_summary
from ..store.record import TableRecord
from ..wire.commands import Caller, TableCommand
from ..wire.hub import Hub
from ..wire.metrics import Metrics
from ..wire.names import check_table_id
from ..wire.protocol import Command, frame
from .frames import Frames
from .seating import adopt, record_seating, return_unheld, seat_rows
from .waiting import WaitingList

__all__ = ["Owner", "TableSpec"]

_log = logging.getLogger(__name__)
RECALL = 10
Completion = Callable[[Variant, SeatView], Awaitable[str]]
"""The best strategy's decision ("raise" or "fold") for a seat's view (`Advisors.completion`)."""
_SEATING = frozenset({"seated", "stood"})
RESTORE_FIRST, RESTORE_MOST = 0.05, 5.0  # seconds between a stopped table's tries to restore


@dataclass(frozen=True)
class TableSpec:
    id: str
    variant: Variant
    seats: int
    limits: int = 0
    away: float = STAND_AFTER  # seconds a holder may be away before, between rounds, its seat is stood up
    own: str = ""  # the kind (game, limits) a player's own table opens from (`own`; a kind's: its id); "": shared

    def __post_init__(self) -> None:
        check_table_id(self.id)  # it reaches URLs, logs and the proxy's map (`names`)


def _next_due(table: Table, away: float) -> float:
    """A time (wall-clock seconds) before which none of the table's clock rules can act, from
    now on: each deadline is one of the state's times plus one of the limits (the variant's, the
    seeds' reveal, a seat's time away), and a command from now on stamps times no earlier than
    now, so the earliest time plus the shortest limit bounds them all. A bound, never the rule:
    the engine's tick stays the one that decides, asked again from that time on."""
    state, timing = table.state, table.variant.timing
    limits = [timing.bet_seconds, timing.decision_seconds, timing.idle_seconds, timing.open_round_seconds]
    limits += [REVEAL_SECONDS, away] + [s.stand_after for s in state.seats if s.away is not None]
    r = state.round
    times = [state.last_activity, r.opened_at, r.dealt_at, r.sealed_at] + [s.away for s in state.seats]
    earliest = min([t.timestamp() for t in times if t is not None] + [time.time()])
    return earliest + min(limit for limit in limits if limit is not None)


def _unavailable(why: str) -> ServerError:
    return ServerError(f"the table is stopped until it is restored from its record ({why}); try again", "unavailable")


class Owner:
    def __init__(
        self,
        spec: TableSpec,
        db: Database,
        book: ServerBook,
        hub: Hub,
        metrics: Metrics,
        endpoint: str = "",
        generation: int = 0,
    ) -> None:
        self.spec, self.db, self.hub, self.metrics = spec, db, hub, metrics
        self.book = TableBook(book)  # this table's limit changes, pending until its commit
        self.endpoint = endpoint  # where this process serves, announced with the table's lease
        self.generation = generation  # of the database connection that holds the table's lease
        self.record = TableRecord(spec.id)
        self.holds = Holds(spec.id)  # who held each seat for which rounds
        self.table: Table | None = None
        self.down: str | None = None  # why the table stopped serving (None: it serves)
        self.gone = False  # stopped, or given up for another process to serve (`stop`, `abandon`)
        self._restoring: asyncio.Task[None] | None = None
        self.players: dict[int, str] = {}
        self.away: dict[str, int] = {}  # account -> the round when its last socket dropped
        self.waiting = WaitingList()  # account -> its buy-in, first first
        self._calling = False  # a `_seat_waiting` for the list's first is queued
        self._queue: asyncio.Queue[tuple[Command, str | None, asyncio.Future[dict[str, Any]]] | None]
        self._queue = asyncio.Queue()
        self._tick_queued = False
        self._not_before = 0.0  # wall-clock seconds: no deadline of the table falls before (`_next_due`)
        self._idle = False  # the owner waits for its queue: nothing of a command is under way
        self._free = asyncio.Event()  # cleared while a command runs in its caller's task (`submit`)
        self._free.set()
        self._landing: asyncio.Future[Any] | None = None  # a commit whose caller was cancelled
        self._task: asyncio.Task[None] | None = None
        self._seen = 0  # events looked at after the commits (metrics, sessions)
        self.frames = Frames(spec.id, hub)
        self.leaving: Callable[[], None] | None = None  # the server gives the table away between rounds
        self.complete_by: Completion | None = None  # the best strategy, for a round left open too long
        self.pool = PoolReader(pools.pool_key(spec.variant))  # the shared progressive, read at showdowns
        self.on_empty: Callable[[Owner], None] | None = None  # an own table's seat is empty between rounds: closed
        self.next_variant: tuple[int, Variant] | None = None  # an approved change, for the next round boundary
        self._changing = False  # a `_change_variant` is queued
        self.follows: Callable[[TableSpec], None] | None = None  # told the spec once the variant changed

    # ---- life --------------------------------------------------------------------------------------

    async def open(self) -> None:
        """Restores the table from its record (the engine's rules for a broken-off round), or
        opens a new one. Nothing of the owner changes unless it succeeds."""
        record, holds = TableRecord(self.spec.id), Holds(self.spec.id)
        table = await self.db.run(lambda tx: self._open_job(tx, record, holds))
        self.record, self.holds, self.table = record, holds, table
        self._seen = table.seq
        self._not_before = 0.0
        self.frames.forget()
        self._sync_players()

    def _open_job(self, tx: Tx, record: TableRecord, holds: Holds) -> Table:
        s = self.spec
        if self.db.generation != self.generation:  # the lease was the lost connection's
            raise ServerError(f"table {s.id}: its lease went with a lost database connection", "unavailable")
        found = record.load(tx)
        holds.load(tx)
        if found:
            table = restore(record, book=self.book)
        else:
            accounts = [f"{s.id}:{k}" for k in range(s.seats)]
            table = Table(s.variant, seats=s.seats, limits=s.limits, store=record, book=self.book, accounts=accounts)
        if table.variant != s.variant:  # the record's last `change_variant` says which it plays now
            self.spec = replace(s, variant=table.variant)
        self._open_summaries(tx, record, table)
        record.drop_rows()  # the rows read to restore are not kept
        adopt(tx, table, holds)
        return_unheld(tx, table, holds)
        seat_rows(tx, s.id, table)
        record.flush(tx)
        leases.announce(tx, s.id, self.endpoint)  # a write: a restore proves the database takes them
        return table

    def _open_summaries(self, tx: Tx, record: TableRecord, table: Table) -> None:
        """The record's summaries (jackpots, figures) and shared pool, for the table's variant."""
        v = table.variant
        self.pool = PoolReader(pools.pool_key(v))
        record.summary = open_summary(tx, record, table.meter, v)
        held = {k: seat.account for k, seat in enumerate(table.state.seats) if seat.account is not None}
        record.figures = open_figures(tx, record, table.meter, v, held)
        table.pool = None
        if self.pool.key is not None and record.summary is not None and v.progressive is not None:
            pools.open_pool(tx, self.pool.key, v.progressive.reset, self.endpoint)
            record.summary.pool, record.summary.shard = self.pool.key, self.endpoint
            table.pool = self.pool

    def start(self, why: str | None = None) -> None:
        """Serves the table, or, when `open` failed (`why`), restores it in the background."""
        self._task = asyncio.create_task(self._serve(), name=f"owner {self.spec.id}")
        if self.table is None and self._restoring is None:
            self._fail(why or "it could not be opened")

    async def stop(self) -> None:
        """Stops serving: the commands queued and any later are refused `unavailable`; one
        under way in the owner's task is refused too, one in its caller's task ends with its
        commit (`submit`)."""
        self.gone = True
        tasks = self._cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def abandon(self) -> None:
        """This process no longer holds the table's lease (its database connection was lost):
        at once, before any later database job, it stops serving the table and forgets its
        seats, for whichever process takes the table over."""
        self.gone, self.table = True, None
        self._cancel()
        for seat in list(self.players):
            self._hold(seat, None)

    def _cancel(self) -> list[asyncio.Task[None]]:
        self.book.discard()  # a limit change whose commit is cut off here was never answered
        tasks = [t for t in (self._task, self._restoring) if t is not None]
        for task in tasks:
            task.cancel()  # the command under way is refused by `_serve`
        while not self._queue.empty():
            item = self._queue.get_nowait()
            if item is not None and not item[2].done():
                item[2].set_exception(_unavailable("this process stopped serving it"))
        return tasks

    def leave_between_rounds(self, give: Callable[[], None] | None) -> None:
        """The server gives the table to another process: `give` (which abandons the table) is
        called once no round is open and no command is under way, now or right after the commit
        that ends the round, so the process that takes the table over restores it between rounds
        and nothing of a round is voided or completed by the rules for a broken-off one. None:
        the table stays."""
        self.leaving = give
        if give is not None and self._idle and self._free.is_set() and not self._queue.qsize():
            self._leave_if_between_rounds()

    def _leave_if_between_rounds(self) -> None:
        if self.leaving is None or self.table is None or self.record.dirty or not self.t.between_rounds:
            return
        give, self.leaving = self.leaving, None
        give()

    # ---- fail-stop -----------------------------------------------------------------------------------

    def _fail(self, why: str) -> None:
        """The table in memory may have moved where its record did not: it is dropped, every
        command refused, and a restore from the record retried until one succeeds."""
        if self.gone:
            return
        if self.down is None:
            _log.error("table %s stopped: %s; restoring it from its record", self.spec.id, why)
            self.metrics.table_stops.inc()
            self.metrics.tables_stopped.inc()
        self.down, self.table = why, None
        self.book.discard()
        if self._restoring is None:
            self._restoring = asyncio.create_task(self._restore(), name=f"restore {self.spec.id}")

    async def _restore(self) -> None:
        delay = RESTORE_FIRST
        while True:
            await asyncio.sleep(delay)
            try:
                await self.open()
                break
            except Exception as err:
                delay = min(2 * delay, RESTORE_MOST)
                why = f"{type(err).__name__}: {err}"
                _log.warning("table %s: restore failed (%s); next try in %.2f s", self.spec.id, why, delay)
        _log.info("table restored from its record", extra={"fields": {"table": self.spec.id, "round": self.t.round}})
        self.down, self._restoring = None, None
        self.metrics.tables_stopped.dec()
        self._broadcast()

    def tick(self) -> None:
        """The server's clock. An idle owner's table is ticked here and now: mostly nothing has
        run out, and a tick that does nothing records nothing, so the owner is not woken for it
        (1,700 tables woke their owners every second). Otherwise, or when the tick moved the
        table, a tick joins the queue (unless one waits there already) and the owner commits.
        Before the time `_next_due` gave, nothing can run out: the table is not asked."""
        if self.down is not None or time.time() < self._not_before:
            return
        if (
            self._idle
            and self._free.is_set()
            and not self._queue.qsize()
            and not self.record.dirty
            and not self._reads_pool()
        ):
            try:
                if not self.t.tick() and not self.t.overdue():
                    self._not_before = _next_due(self.t, self.spec.away)
                    return
            except Exception:
                _log.exception("table %s: the clock's step failed", self.spec.id)
                return
        if not self._tick_queued:
            self._tick_queued = True
            self._queue.put_nowait(None)

    async def submit(self, command: Command, account: str | None) -> dict[str, Any]:
        """The command's result once committed, or the refusal raised. An idle owner's command
        runs here, in the caller's task; otherwise it waits its turn in the owner's queue."""
        if self.down is not None or self.gone:
            raise _unavailable(self.down or "this process stopped serving it")
        if self._idle and self._free.is_set() and not self._queue.qsize():
            self._free.clear()  # the owner's task, woken meanwhile, waits for this command
            try:
                return await self._run(command, account)  # `_execute`'s, a frame less at each wake-up
            except Exception as err:
                raise self._failure(command, err) from None
            finally:
                if self._landing is None:  # else the table is freed when that commit lands
                    self._free.set()
        done: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((command, account, done))
        return await done

    async def _execute(self, command: Command, account: str | None) -> dict[str, Any]:
        """Runs one queued command (`_serve`)."""
        if self.down is not None:
            raise _unavailable(self.down)
        try:
            return await self._run(command, account)
        except Exception as err:
            raise self._failure(command, err) from None

    def _failure(self, command: Command, err: Exception) -> Exception:
        """What a command's failure is answered with: a refusal itself; anything else is logged
        and answered `internal`."""
        if isinstance(err, CaribbeanFastError):
            return err
        _log.error("table %s: command %s failed", self.spec.id, command.type, exc_info=err)
        return ServerError(f"the server failed: {type(err).__name__}")

    async def _serve(self) -> None:
        while True:
            self._idle = True
            item = await self._queue.get()
            self._idle = False
            if item is None:
                await self._free.wait()  # a command running in its caller's task ends first
                self._tick_queued = False
                if self.down is None:
                    await self._guarded(self._tick)
                continue
            command, account, done = item
            try:
                await self._free.wait()
                result = await self._execute(command, account)
                if not done.cancelled():
                    done.set_result(result)
            except asyncio.CancelledError:
                if not done.done():
                    done.set_exception(_unavailable("this process stopped serving it"))
                raise
            except CaribbeanFastError as err:
                if not done.cancelled():
                    done.set_exception(err)

    async def _guarded(self, step: Callable[[], Any]) -> None:
        try:
            await step()
        except Exception:
            _log.exception("table %s: the clock's step failed", self.spec.id)

    # ---- commands ----------------------------------------------------------------------------------

    @property
    def currency(self) -> str:
        """The table's currency: its seats are paid from and back to that wallet alone."""
        return self.spec.variant.currency.code

    @property
    def t(self) -> Table:
        """The table; `unavailable` while it is stopped (its memory was dropped)."""
        if self.table is None:
            raise _unavailable(self.down or "this process does not serve it")
        return self.table

    def seat_of(self, account: str | None) -> int | None:
        """The account's seat here (the hub's index, which `_hold` keeps with `players`, checked
        against `players`: an index left by an owner given up never names another's seat)."""
        seat = None if account is None else self.hub.held.get(account, {}).get(self.spec.id)
        return seat if seat is not None and self.players.get(seat) == account else None

    def _run(self, command: Command, account: str | None) -> Awaitable[dict[str, Any]]:
        """A table command of the list (`commands`), by its handler, once the caller is checked:
        the handler's awaitable, returned (`_execute` awaits it), so that no frame of this one
        is resumed at every wake-up of the command."""
        spec = command.spec
        assert isinstance(spec, TableCommand), f"{command.type} is not a table's command"
        if spec.login and account is None:
            raise ServerError("log in to play", "unauthorized")
        seat = self._seated(account) if spec.seated else None
        assert account is not None  # a table's command needs an account, or a seat (which has one)
        return spec.handler(self, Caller(account, seat), command)

    async def _play(self, seat: int, command: EngineCommand, args: Mapping[str, Any]) -> dict[str, Any]:
        """The game's own commands, by the engine's entry the frame's was found with: the engine
        checks and refuses them."""
        await self._step(lambda: self.t.play(seat, command, args))
        return {}

    def _reads_pool(self) -> bool:
        """Whether the next step may reach a showdown at a table of a shared pool: then it runs in
        its commit's transaction, where the pool is read (`PoolReader`)."""
        return self.pool.key is not None and self.table is not None and self.table.dealt

    async def _step(self, step: Callable[[], Any]) -> None:
        """An engine step and its commit: in the commit's own job where it may read the pool (so
        the prize is fixed from the pool as that commit finds it), else before the commit."""
        if not self._reads_pool():
            step()
            if self.record.dirty:
                await self._commit()
            return

        def job(tx: Tx) -> None:
            self.pool.tx = tx
            try:
                step()
            finally:
                self.pool.tx = None

        start = time.perf_counter()
        keys = (self.pool.key,) if self.pool.key is not None else ()
        await self._money_job(job, keys)  # the batch takes the pool's row before any job (`pools.take`)
        self.metrics.pool_commit_seconds.observe(time.perf_counter() - start)  # the pool's cost (benches)

    async def _history(self, account: str, last: int, before: int | None = None) -> dict[str, Any]:
        return {"rounds": await self.db.run(lambda tx: self.holds.rounds(tx, account, last, before=before))}

    async def _proof(self, account: str, number: int) -> dict[str, Any]:
        """A past round's proof, to the account that played it (`holds.proof`)."""
        found = await self.db.run(lambda tx: self.holds.proof(tx, account, number, self.spec.variant))
        if found is None:
            raise ServerError(f"you were not dealt into a finished round {number} at {self.spec.id}", "illegal")
        return found

    async def _disconnect(self, seat: int) -> dict[str, Any]:
        """The game's disconnect rule, and the seat stood up if its holder stays away; nothing if
        a socket of the holder came back while this command waited its turn."""
        holder = self.players.get(seat)
        if holder is not None and not self.hub.online(holder):
            await self._step(lambda: self.t.away(seat, self.spec.away))
        return {}

    def _seated(self, account: str | None) -> int:
        seat = self.seat_of(account)
        if seat is None:
            raise ServerError(f"you hold no seat at {self.spec.id}", "not_seated")
        return seat

    async def _sit(self, account: str, wanted: int | None, buy_in: int, waited: bool = False) -> dict[str, Any]:
        if self.seat_of(account) is not None:
            raise ServerError(f"you sit at {self.spec.id} already", "seat_taken")
        free = self.t.free_seats()
        others = self.waiting.ahead_of(account)
        if not waited and others and len(free) <= len(others):
            n = len(others)
            raise ServerError(
                f"{n} player{'s wait' if n > 1 else ' waits'} for a seat at {self.spec.id}: join the waiting list",
                "seat_taken",
            )
        seat = free[0] if wanted is None and free else wanted
        if seat is None or seat not in free:
            taken = f"seat {seat + 1} of {self.spec.id} is not free" if seat is not None else "no seat is free"
            raise ServerError(taken, "seat_taken")

        def job(tx: Tx) -> None:
            wallets.debit(
                tx, account, self.currency, buy_in
            )  # first: a wallet too short refuses before the table moves
            self.t.sit(seat, account, buy_in)

        await self._money_job(job)
        self.away.pop(account, None)
        self.waiting.pop(account, None)
        return {"seat": seat}

    # ---- an approved paytable change, at the next round boundary (`paytables`) ------------------------

    def change_between_rounds(self, ident: int, variant: Variant) -> None:
        """The office's approved change `ident`: the table plays `variant` from its next round
        boundary on (at once, when no round is open)."""
        if self.next_variant is None or self.next_variant[0] != ident:
            self.next_variant = (ident, variant)
        self._change_if_between_rounds()

    def _change_if_between_rounds(self) -> None:
        if self.next_variant is None or self._changing or self.table is None or not self.table.between_rounds:
            return
        self._changing = True

        async def change() -> None:
            try:
                await self.submit(Command.of("_change_variant"), "office")
            except CaribbeanFastError as err:
                _log.warning("table %s: the paytable change waits: %s", self.spec.id, err)
            finally:
                self._changing = False

        asyncio.get_running_loop().create_task(change(), name=f"change variant {self.spec.id}")

    async def _change_variant(self) -> dict[str, Any]:
        """The engine's `change_variant`, its `paytable_applied` row and the summaries of the new
        variant in one commit; then the spec follows, the seats are told, and the office's log."""
        if self.next_variant is None or not self.t.between_rounds:
            return {}
        (ident, variant), was, when = self.next_variant, self.t.variant, datetime.now(UTC).isoformat()
        if variant.name == was.name:
            self.next_variant = None
            return {}

        def job(tx: Tx) -> None:
            self.t.change_variant(variant)
            paytables.mark_applied(tx, self.spec.id, ident, self.t.round, when)
            self._open_summaries(tx, self.record, self.t)

        try:
            await self._money_job(job)
        except CaribbeanFastError as err:  # the engine refused it (seats, limits): never tried again
            self.next_variant = None
            _log.error("table %s: paytable change %d refused: %s", self.spec.id, ident, err)
            return {}
        self.next_variant, self.spec = None, replace(self.spec, variant=variant)
        if self.follows is not None:
            self.follows(self.spec)
        self._tell_change(was, variant)
        why = f"change {ident} approved: {was.name} to {variant.name} after round {self.t.round}"
        detail = {"id": ident, "round": self.t.round, "hash": self.t.events[-1].public["hash"]}
        for attempt in range(3):  # another process may take the log's next place at once (`office_log`)
            try:
                await self.db.run(
                    lambda tx: office_log.append(tx, when, "server", "apply_paytable", self.spec.id, why, detail)
                )
                break
            except Exception as err:
                if attempt == 2:
                    _log.error("table %s: paytable change %d not in the office's log: %s", self.spec.id, ident, err)
        return {}

    def _tell_change(self, was: Variant, now: Variant) -> None:
        """The `paytable` frame to the table's sockets, holders and watchers, before their next bet."""
        text = frame("paytable", table=self.spec.id, game=now.name, title=now.title, was=was.name)
        for conn in self.hub.sockets_of(self.spec.id):
            conn.send(text)
        for account in set(self.players.values()):
            self.hub.to_account(account, text)
        self.hub.to_watchers(self.spec.id, text)

    # ---- the waiting list: the server keeps it, the engine seats (`sit`) --------------------------------

    async def _wait(self, account: str, buy_in: int) -> dict[str, Any]:
        """Joins the list (or changes the buy-in, keeping the place); sits at once when a seat is
        free and nobody waits before the account. An own table has no list: nobody waits for it."""
        if self.spec.own:
            raise ServerError(f"{self.spec.id} is a table of one's own: nobody waits for it (sit)", "illegal")
        if self.seat_of(account) is not None:
            raise ServerError(f"you sit at {self.spec.id} already", "seat_taken")
        if self.waiting.may_sit_now(account, len(self.t.free_seats())):
            return await self._sit(account, None, buy_in, waited=True)
        return self.waiting.join(self.spec.id, account, buy_in)

    async def _unwait(self, account: str) -> dict[str, Any]:
        self.waiting.pop(account, None)
        return {}

    def _call_waiting(self) -> None:
        """After a commit: a free seat and an account waiting: the first is seated through the queue
        (its own money job, after the command under way has answered)."""
        if self._calling or not self.waiting or self.table is None or not self.t.free_seats():
            return
        self._calling = True
        first = self.waiting.first()

        async def call() -> None:
            try:
                await self.submit(Command.of("_seat_waiting"), first)
            except CaribbeanFastError:
                pass  # the table stopped: the list waits for it
            finally:
                self._calling = False
            self._call_waiting()

        asyncio.get_running_loop().create_task(call(), name=f"seat waiting {self.spec.id}")

    async def _seat_waiting(self, account: str) -> dict[str, Any]:
        """The list's first sits with its buy-in (the engine's `sit`, in the normal money job) and
        is told with a `waitlist` frame; one who is not connected, or whose sit is refused, leaves
        the list (told why where connected)."""
        if self.waiting.first() != account or not self.t.free_seats():
            return {}
        buy_in = self.waiting[account]
        if not self.hub.online(account):
            self.waiting.pop(account)
            return {}
        try:
            seat = (await self._sit(account, None, buy_in, waited=True))["seat"]
        except CaribbeanFastError as err:
            self.waiting.pop(account, None)
            self.hub.to_account(account, frame("waitlist", table=self.spec.id, seat=None, reason=str(err)))
            return {}
        self.hub.to_account(account, frame("waitlist", table=self.spec.id, seat=seat, reason=None))
        return {"seat": seat}

    async def _back(self, seat: int) -> dict[str, Any]:
        """The holder's socket is back: a seat marked away is no longer stood up (`back`: it was)."""
        if not self.t.back(seat):
            return {"back": False}
        await self._commit()
        return {"back": True}

    def _sync_players(self) -> None:
        """The index of who sits where, from the engine's seats (the only word on them)."""
        held = {k: s.account for k, s in enumerate(self.t.state.seats) if s.account is not None}
        for seat in [k for k in self.players if held.get(k) != self.players[k]]:
            self._hold(seat, None)
        for seat, account in held.items():
            if self.players.get(seat) != account:
                self._hold(seat, account)

    def _hold(self, seat: int, account: str | None) -> None:
        """Who holds the seat (None: nobody), here and in the hub's index of every account's seats."""
        if account is None:
            gone = self.players.pop(seat, None)
            if gone is not None:
                self.hub.held[gone].pop(self.spec.id, None)
            return
        self.players[seat] = account
        self.hub.held[account][self.spec.id] = seat

    def _top_up(self, tx: Tx, account: str, seat: int, amount: int) -> None:
        wallets.debit(tx, account, self.currency, amount)
        self.t.deposit(seat, amount)

    async def _leave(self, account: str, seat: int) -> dict[str, Any]:
        events = []
        await self._money_job(lambda tx: events.extend(self.t.leave(seat)))
        return {"returned": next(e.public["returned"] for e in events if e.kind == "stood")}

    async def _money_job(self, job: Callable[[Tx], None], pool_keys: tuple[str, ...] = ()) -> None:
        """A wallet move and the table's event in one job (anything pending is committed first,
        so a refused move rolls back nothing else); `pool_keys`: the pools whose rows the job may take."""
        if self.record.dirty:
            await self._commit()
        await self._commit(job, pool_keys)

    async def _commit(self, job: Callable[[Tx], None] | None = None, pool_keys: tuple[str, ...] = ()) -> None:
        """Commits the job and the pending events; then answers may go out and views are sent.
        Events alone (no job, no personal limit to write) go as rows the batch merges with other
        tables' (`Database.write`)."""

        def run(tx: Tx) -> None:
            if job is not None:
                job(tx)
            self._occupancy(tx)
            self.book.flush(tx)
            self.record.flush(tx)

        start = time.perf_counter()
        if job is None and not self.book.dirty and not self._seating():
            landing = self.db.writing(self.record.take())
        else:
            landing = self.db.landing(run, pool_keys)
        try:
            await asyncio.shield(landing)
        except asyncio.CancelledError:  # the caller went away: the commit still lands, and counts
            self._landing = landing  # nothing else runs on the table until it has
            landing.add_done_callback(self._landed_late)
            raise
        except Exception as err:
            refused = isinstance(err, CaribbeanFastError) and not isinstance(err, ServerError)
            if job is not None and not self.record.dirty and (refused or _refusal(err)):
                raise  # the job refused before the table moved: its savepoint undid it all
            self._fail(f"a commit failed: {err}")
            raise _unavailable(self.down or "") from None
        self.metrics.commit_seconds.observe(time.perf_counter() - start)
        self._committed()

    def _committed(self) -> None:
        """The table's moves are in the record: its answers may go out, and its views."""
        self.frames.forget()  # a commit may change what a view shows without an event
        self.book.settle()
        fresh = self._fresh_events()
        self._tell_sessions(fresh)  # before the index follows the engine: a seat stood up now names its holder
        if any(e.kind in _SEATING for e in fresh):  # only these events change who sits where
            self._sync_players()
        self.metrics.rounds.inc(sum(1 for e in fresh if e.kind == "round_closed"))
        self._broadcast()
        self.t.let_go()  # its events are read and its views sent: the record and the frames hold them
        self._call_waiting()
        self._change_if_between_rounds()
        self._leave_if_between_rounds()  # last: its views and answer go out, later commands are refused
        self.close_if_empty()

    def close_if_empty(self) -> bool:
        """An own table whose seat is empty, between rounds, with nothing under way or pending, is
        closed (`on_empty`: the server forgets it; its record stays). True: it was."""
        t = self.table
        if not self.spec.own or self.on_empty is None or self.players or self.gone or t is None:
            return False
        if self.record.dirty or not t.between_rounds or self._queue.qsize() or self._landing is not None:
            return False
        self.on_empty(self)
        return True

    def _landed_late(self, landing: asyncio.Future[Any]) -> None:
        """A commit whose caller was cancelled has landed: the table goes on as after any commit,
        or, when it failed, stops (its memory moved where the record may not have); then the
        table is free for the next command."""
        self._landing = None
        try:
            if self.gone or self.table is None:
                return
            err = None if landing.cancelled() else landing.exception()
            if landing.cancelled() or err is not None:
                self._fail(f"a commit failed: {err or 'cancelled'}")
                return
            self._committed()
        finally:
            self._free.set()

    def _seating(self) -> list[Event]:
        return [e for e in self.record.pending_events() if e.kind in _SEATING]

    def _occupancy(self, tx: Tx) -> None:
        """The engine's seat events, in the database in the same transaction as the record."""
        record_seating(tx, self.spec.id, self.currency, self._seating(), self.holds)

    def _fresh_events(self) -> list[Event]:
        """The events committed since the last look, which follows every commit (the table lets
        them go once its views are sent: `_committed`)."""
        events, seq = self.t.events, self.t.seq
        fresh = events[max(0, len(events) - (seq - self._seen)) :]
        self._seen = seq
        return fresh

    def _tell_sessions(self, fresh: list[Event]) -> None:
        """Each round settled for a seat counts in its holder's session (`reminders`)."""
        for e in fresh:
            account = self.players.get(e.seat) if e.kind == "settled" and e.seat is not None else None
            if account is not None:
                self.hub.reminders.settled(account, self.spec.variant.currency, int(e.public["net"]["total"]))

    # ---- the clock and connections ------------------------------------------------------------------

    async def _tick(self) -> None:
        if self._reads_pool():
            await self._step(self.t.tick)
        else:
            self.t.tick()
        if self.complete_by is not None:
            for seat in self.t.overdue():  # a one-seat round its player left open past its limit
                decision = await self.complete_by(self.spec.variant, self.t.view(seat))
                await self._step(partial(self.t.complete, seat, decision))
        if self.record.dirty:
            await self._commit()

    def went_away(self, account: str) -> None:
        """The account's last socket dropped: remember the last round that had ended, for recall."""
        if self.seat_of(account) is not None and self.table is not None:
            self.away.setdefault(account, self.t.last_closed)

    async def disconnect(self, account: str) -> None:
        """The grace period ran out with no socket of the account: the game's disconnect rule,
        and the seat stood up if the account stays away (`TableSpec.away` seconds)."""
        await self.submit(Command.of("_disconnect"), account)

    async def back(self, account: str) -> bool:
        """A socket of the account opened: its seat here, if away, is not stood up (True: it was,
        and the seat's view went out with the commit)."""
        return bool((await self.submit(Command.of("_back"), account))["back"])

    async def recall(self, account: str) -> list[list[dict[str, Any]]]:
        """The rounds that ended while the account was away (at most RECALL), oldest first."""
        seat, since = self.seat_of(account), self.away.pop(account, None)
        if seat is None or since is None:
            return []
        return await self.db.run(lambda tx: self.holds.rounds(tx, account, RECALL, after=since))

    # ---- frames out --------------------------------------------------------------------------------

    def view_frame(self, seat: int | None) -> str:
        """A seat's view (None: an onlooker's), made once for the table's state (`frames`)."""
        return self.frames.view(self.t, self.book.shared.version, seat)

    def _broadcast(self) -> None:
        self.frames.broadcast(self.t, self.book.shared.version, self.players)


class PoolReader:
    """The engine's `Pool` for a table of a shared progressive: the pool as the open commit's
    transaction finds it (`pools.meter_now`), bound by `Owner._step` around the engine's step."""

    def __init__(self, key: str | None) -> None:
        self.key = key
        self.tx: Tx | None = None

    def meter(self) -> int | None:
        if self.key is None or self.tx is None:
            return None  # outside a commit's job: the table's own meter stands (never at a showdown)
        return pools.meter_now(self.tx, self.key)


def _refusal(err: BaseException) -> bool:
    """A job's own refusal (a wallet too short, a seat taken), not a failure of the database."""
    return isinstance(err, ServerError) and err.code not in ("internal", "unavailable")
