"""The running server: its database, accounts, connections and the owners of its tables.

Start-up restores every table from its record (or opens it); shut-down closes the sockets, lets
each owner finish the command it runs, commits what is queued and closes the database. A round
in play stays in the record as it was: at the next start the engine's rules finish or void it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import date
from functools import partial
from typing import Any

from ..errors import CaribbeanFastError, ServerError
from .accounts import Accounts, Session, token_hash
from .cluster.lobby import Lobby, fixed
from .cluster.placement import Placement
from .cluster.proxymap import ProxyMap
from .cluster.relay import Relay
from .config import Settings
from .office.board import watch as watch_alarms
from .store import leases, pools, seats, server_keys
from .store.accounts import seats_of, wallet_of
from .store.book import Limit, ServerBook
from .store.db import Database, Tx, connect, probe
from .store.jackpots import fixed_prizes, meter_history, pool_history
from .store.reads import Reads
from .store.reminders import read_every, write_every
from .tables.advice import Advisors
from .tables.own import Specs, check_holder, legacy_table, own_table
from .tables.owner import Owner, TableSpec
from .tables.paytables import Changes
from .wire.commands import EVERY_MOST
from .wire.hub import Connection, Hub
from .wire.metrics import Metrics
from .wire.protocol import Command, Moved, frame
from .wire.reminders import Sessions, check_every
from .wire.routing import moved_to, proxied

__all__ = ["Server"]

_log = logging.getLogger(__name__)
GC_THRESHOLDS = (20_000, 20, 20)  # allocations before a young pass; young passes per middle, middle per full
PROBE, PROBE_EVERY = 3.0, 1.0  # seconds /healthz waits for the database, and between its probes
FRESH = 1.0  # seconds a table's progressive history is kept once read, however many ask
DAY = 86_400.0  # and its game's fixed prizes by day
SESSION_CHECK = 0.5  # seconds between checks that the open sockets' sessions still hold
POOL_EVERY = 0.5  # seconds between reads of the pools' meters, which every table of a pool shows
SWITCH_INTERVAL = 0.0005  # seconds the loop keeps the interpreter lock while the database thread waits for it


class Server:
    """The host the edge reaches through `front.Front`; `metrics` is the registry the edge counts
    its refusals and commands into."""

    def __init__(self, settings: Settings, metrics: Metrics) -> None:
        self.settings = settings
        self.db = Database(connect(settings.database))
        self.reads = Reads(settings.database)  # reads for people: off the commits' connection and thread
        currencies = sorted({spec.variant.currency.code for spec in (*settings.tables, *settings.own)})
        self.accounts = Accounts(self.db, self.reads, registrations=settings.registrations, currencies=currencies)
        self.hub, self.metrics, self.book = Hub(Sessions(settings.grace)), metrics, ServerBook()
        self.specs = Specs(settings.tables, settings.own)  # the tables file's, its kinds, and own tables by id
        self.own_key = b""  # the own tables' ids' key (`server_keys`), read at `start`
        self._opening: dict[str, asyncio.Task[None]] = {}  # own tables being opened (`_open_once`)
        self.owners: dict[str, Owner] = {}
        self.advisors = Advisors()  # the trainer's exact tables, per variant
        self._grace: set[asyncio.Task[None]] = set()
        self._leasing: asyncio.Task[None] | None = None
        self._clock: asyncio.Task[None] | None = None
        self._sessions: asyncio.Task[None] | None = None
        self._pooling: asyncio.Task[None] | None = None
        self.paytables = Changes()  # the office's approved paytable changes (`tables.paytables`)
        self._paying: asyncio.Task[None] | None = None
        self._alarms: asyncio.Task[None] | None = None  # the office's alarms into the metrics
        self.pools: dict[str, int] = {}  # each progressive pool's meter, as last read (`_follow_pools`)
        self._probe: tuple[float, asyncio.Future[str]] | None = None  # the database's last health probe
        self.elsewhere: dict[str, str] = {}  # table -> the endpoint of the process serving it
        self.placement = Placement(settings.endpoint)  # which process serves which table
        self._given: dict[str, int] = {}  # tables given up, their leases to release: the connection's generation
        self.proxy_map = ProxyMap(self.db, settings.proxy_map, settings.proxy_reload) if settings.proxy_map else None
        self._lobby = Lobby(settings.tables)
        self.relays: dict[Connection, Relay] = {}  # each socket's links to the other processes
        self._reminded: set[Connection] = set()  # the sockets whose account's session they keep

    async def start(self) -> None:
        self.db.on_reconnect = self._connection_lost
        self.db.start()
        await self.db.run(self.book.load)
        self.own_key = await self.db.run(lambda tx: server_keys.key(tx, server_keys.OWN_TABLES))
        await self._find_live()
        await self._take_over()
        self._leasing = asyncio.create_task(self._lease_loop())
        self._clock = asyncio.create_task(self._ticks())
        self._sessions = asyncio.create_task(self._end_sessions())
        self._pooling = asyncio.create_task(self._follow_pools())
        self._paying = asyncio.create_task(self.paytables.follow(self.reads, self.owners, self.specs, self.follow_spec))
        self._alarms = asyncio.create_task(watch_alarms(self, self.metrics))
        if self.settings.tune_process:
            tune_process()
        if self.settings.warm_trainer:
            self.advisors.warm(spec.variant for spec in (*self.settings.tables, *self.settings.own))
        _log.info("serving", extra={"fields": {"tables": len(self.owners), "database": _safe(self.db.url)}})
        if waiting := len(self.settings.tables) - len(self.owners):
            why = "another process serves them (or will); this one takes them over if it stops"
            tables = f"{waiting} table{'s' if waiting > 1 else ''}"
            _log.info(f"standing by for {tables}: {why}", extra={"fields": {"tables": waiting}})

    async def _take_over(self) -> None:
        """Serves every free table this process owns by the hash over the live processes
        (`placement`): at start, and each lease period (a process died, or gave a table back).
        The table is restored from its record by the engine's rules. Own tables count while a
        player holds their seat (the database's seat rows): one left by a process that died is
        taken over as the tables file's are."""
        held = await self.db.run(seats.held_tables)
        own = [spec for t in held if (spec := self.specs.own(t)) is not None]
        mine = [
            self.specs[s.id]
            for s in (*self.settings.tables, *own)
            if s.id not in self.owners and self.placement.mine(s.id)
        ]
        served = len(self.owners)
        for start in range(0, len(mine), 200):  # opened together: their start-up jobs share commits
            await asyncio.gather(*(self._open_once(spec) for spec in mine[start : start + 200]))
        self.metrics.tables.set(len(self.owners))
        if len(self.owners) != served:
            self._leases_changed()

    def follow_spec(self, spec: TableSpec) -> None:
        """The table plays another variant (an approved paytable change): the rules page, the
        lobby and a later owner of the table follow it."""
        self.specs.follow(spec)
        self._lobby.follow(spec)

    def _leases_changed(self) -> None:
        """This process took or gave up leases: the proxy's map follows at once."""
        if self.proxy_map is not None:
            self.proxy_map.changed()

    async def _follow_proxy_map(self) -> None:
        """The proxy's map as the database says (another process died, or wrote an older one)."""
        if self.proxy_map is not None:
            await self.proxy_map.refresh()

    async def _open_once(self, spec: TableSpec) -> None:
        """`_serve`, once for a table however many ask at once (a player's commands, the lease loop):
        a session's advisory lock is taken again by the same session, so a second `_serve` would
        make a second owner."""
        task = self._opening.get(spec.id)
        if task is None:
            task = self._opening[spec.id] = asyncio.create_task(self._serve(spec), name=f"open {spec.id}")
            task.add_done_callback(lambda _: self._opening.pop(spec.id, None))
        await asyncio.shield(task)

    async def _serve(self, spec: TableSpec) -> None:
        """Takes the table's lease and serves it: restored, or stopped and restoring (its lease
        kept) when the database fails meanwhile. A lease that names another process (which died,
        or whose connection was cut and may not have noticed yet, listing the table as its own
        until it does, at its next database job, within a lease period or a session check) is
        held that long before serving; one given back (its row gone) or never held, at once."""
        taken, generation, holder = await self._lease(spec.id)
        if not taken:
            return
        if self.db.dialect.shares and holder not in (None, self.settings.endpoint):
            await asyncio.sleep(self.settings.lease + SESSION_CHECK)
        owner = Owner(spec, self.db, self.book, self.hub, self.metrics, self.settings.endpoint, generation)
        owner.complete_by = self.advisors.completion
        owner.on_empty = self._close
        owner.follows = self.follow_spec
        why, start = None, time.perf_counter()
        try:
            await owner.open()
        except Exception as err:  # restored in the background once started
            why = f"it could not be opened: {err}"
        self.metrics.open_seconds.observe(time.perf_counter() - start)
        if self.db.generation != generation:  # the lease went with a lost connection meanwhile
            owner.abandon()  # its seats forgotten; the lease loop tries the table again
            return
        owner.start(why)
        self.owners[spec.id] = owner
        if owner.spec is not spec:  # restored under the variant its record's last change made it
            self.follow_spec(owner.spec)
        self._grace_for_the_absent(owner)
        _log.info("table served", extra={"fields": {"table": spec.id, "round": owner.t.round if owner.table else None}})

    def _connection_lost(self) -> None:
        """The database connection was lost (told at once, not once it is made again): the table leases went with it
        (PostgreSQL's advisory locks are the connection's), so another process may serve those
        tables now. Every table is given up at once, before any later job runs; the lease loop
        takes back those that no other process took."""
        owners, self.owners = list(self.owners.values()), {}
        self._given.clear()  # their leases went with the connection
        self.metrics.database_reconnects.inc()
        _log.warning("the database connection was lost: giving up %d tables' leases", len(owners))
        for owner in owners:
            owner.abandon()
            if owner.down is not None:
                self.metrics.tables_stopped.dec()
            self._moved_away(owner.spec.id)
        self.metrics.tables.set(0)

    def _moved_away(self, table: str, holders: dict[str, int] | None = None) -> None:
        """The table is no longer served here: its own sockets are told where it is (`send_moved`).
        Its holders' lobby sockets keep their seats through the relay: one here relays the seat
        from now on; a relaying process's socket is closed, and that process seeks the seat."""
        for conn in self.hub.sockets_of(table):
            self.send_moved(conn)
        for conn in list(self.hub.connections):
            seat = (holders or {}).get(conn.account or "")
            relay = self.relays.get(conn)
            if seat is None or conn.table is not None or relay is None:
                continue
            if relay.relayed:
                conn.close(4009, "moved")
            else:
                relay.attach([{"table": table, "seat": seat}])

    async def look_up(self, table: str) -> None:
        """Reads where the tables are served again when `elsewhere` does not know this one (the
        lease loop reads it once a lease period; a table just taken over may be missing)."""
        if table not in self.elsewhere and table not in self.owners:
            self.elsewhere.update(await self.endpoints())
        if table not in self.elsewhere and table not in self.owners and self.specs.own(table) is not None:
            self.elsewhere[table] = self.placement.owner(table)  # served nowhere: its place by the hash

    def send_moved(self, conn: Connection) -> None:
        """The socket's table is not served here: the client is told where it is (`moved`, then the
        socket closes with 4009), or, while no process is known to serve it, to try again (1013)."""
        assert conn.table is not None
        endpoint = moved_to(conn.ws, conn.table, self.elsewhere)
        if endpoint is None:
            conn.close(1013, "unavailable")
            return
        conn.send(frame("moved", table=conn.table, endpoint=endpoint))
        conn.close(4009, "moved")

    async def _ticks(self) -> None:
        """The clock: every owner ticks its table once a `tick`; then the reminders due go out."""
        while True:
            await asyncio.sleep(self.settings.tick)
            for owner in list(self.owners.values()):
                owner.tick()
            try:
                self._remind()
            except Exception:  # the next tick tries again
                _log.exception("reminders")

    def _remind(self) -> None:
        """The reality checks due, and the idle notices of the tables whose game ends an idle
        session (`reminders`), to every socket of their accounts."""
        sessions = self.hub.reminders
        due = sessions.due()
        for owner in self.owners.values():
            if owner.spec.variant.timing.idle_seconds is not None and owner.table is not None and owner.players:
                due += sessions.idle(owner.spec.id, owner.table, set(owner.players.values()))
        for account, text in due:
            self.hub.to_account(account, text)

    async def _follow_pools(self) -> None:
        """Every `POOL_EVERY` seconds, the pools' meters as the commits left them (the read
        side); a pool that moved is told to every socket of its tables served here (`pool`)."""
        while True:
            await asyncio.sleep(POOL_EVERY)
            try:
                found = await self.reads.run(pools.meters)
            except Exception as err:  # the database is failing: the next pass reads again
                _log.warning("pools not read: %s", err)
                continue
            moved = {k for k, m in found.items() if self.pools.get(k) != m}
            self.pools = found
            for owner in self.owners.values() if moved else ():
                if owner.pool.key in moved:
                    self._tell_pool(owner.spec.id, found[owner.pool.key], set(owner.players.values()))

    def _tell_pool(self, table: str, meter: int, holders: set[str]) -> None:
        """The pool's meter to the table's sockets, its holders' and its watchers' (a socket that
        is more than one of those is told more than once: the frame only sets the meter)."""
        text = frame("pool", table=table, meter=meter)
        for conn in self.hub.sockets_of(table):
            conn.send(text)
        for account in holders:
            self.hub.to_account(account, text)
        self.hub.to_watchers(table, text)

    async def _end_sessions(self) -> None:
        """Every `SESSION_CHECK` seconds, the sockets whose session ended (a logout in any
        process, or its expiry) are closed with 4001."""
        while True:
            await asyncio.sleep(SESSION_CHECK)
            try:
                asked = self.hub.sessions()
                self.hub.end_sessions(asked - await self.accounts.live(asked))
            except Exception as err:  # the database is failing: the next pass asks again
                _log.warning("sessions not checked: %s", err)

    async def _lease(self, table_id: str) -> tuple[bool, int, str | None]:
        """Whether the lease was taken, the generation of the connection that holds it, and the
        process its row names (None: no row)."""

        def job(tx: Tx) -> tuple[bool, int, str | None]:
            taken = self.db.dialect.try_lease(table_id)
            return taken, self.db.generation, leases.holder(tx, table_id) if taken else None

        return await self.db.run(job)

    async def _lease_loop(self) -> None:
        steps = (
            self._find_live,
            self._take_over_left,
            self._give_back,
            self._where_elsewhere,
            self._share_lobby,
            self._load_limits,
            self._follow_proxy_map,
        )
        while True:
            for step in steps:  # each on its own: one failing leaves the others to run
                try:
                    await step()
                except Exception:
                    _log.exception("lease loop", extra={"fields": {"step": step.__name__}})
            await asyncio.sleep(self.settings.lease)

    async def _take_over_left(self) -> None:
        await self._take_over()  # the tables file's left by a process, and the own tables whose player sits
        for owner in [o for o in self.owners.values() if o.spec.own]:
            owner.close_if_empty()  # opened for a command, and nobody sat

    async def claim(self, conn: Connection, table: str) -> Owner | None:
        """The owner of a table served here; an own table (whose player alone may command it)
        served nowhere is opened here for its player, when the hash places it here or the socket came through the proxy
        (which routes a table served nowhere to any process: the hash moves it between rounds).
        None: another process serves it, or will (`forward`)."""
        owner = self.owners.get(table)
        spec = self.specs.own(table) if owner is None else owner.spec
        if spec is None or not spec.own:
            return owner
        if conn.account is None:
            raise ServerError("log in to play", "unauthorized")
        check_holder(table, spec.own, conn.account, self.own_key)  # its player's commands alone, open or not
        if owner is not None:
            return owner
        if not self.placement.mine(table) and not proxied(conn.ws):
            await self.look_up(table)
            return None  # `forward`: moved to, or relayed to, the process the hash places it at
        # a new own table opens with every approved paytable change (a record restored keeps its own)
        await self._open_once(replace(spec, variant=self.paytables.latest(spec.variant)))
        return self.owners.get(table)

    async def own(self, kind: str, account: str) -> str:
        """The id of the account's own table of the kind: the one its id named before the key
        (`legacy_table`) while the account holds its seat there, else the keyed one."""
        if kind not in self.specs.kinds:
            raise ServerError(f"no kind of own tables {kind!r} (kinds: {', '.join(self.specs.kinds)})", "no_table")
        legacy = legacy_table(kind, account)
        if legacy in dict(await self.reads.run(lambda tx: seats_of(tx, account))):
            return legacy
        return own_table(kind, account, self.own_key)

    def kinds(self) -> list[dict[str, Any]]:
        """The kinds of own tables, as the lobby lists them: a game and its limits, its pool's meter."""
        entries = []
        for spec in self.specs.kinds.values():
            entry = {**fixed(spec), "table": None, "kind": spec.id, "own": True, "limit_table": spec.limits}
            key = pools.pool_key(spec.variant)
            if key in self.pools:
                entry["meter"] = self.pools[key]
            entries.append(entry)
        return entries

    def _close(self, owner: Owner) -> None:
        """An own table's seat is empty between rounds: it stops here at once (its record stays in
        the database) and its lease goes once its commits are durable (`_release`)."""
        table = owner.spec.id
        if self.owners.get(table) is not owner:
            return
        del self.owners[table]
        owner.abandon()
        self.metrics.tables.set(len(self.owners))
        self.metrics.tables_closed.inc()
        self._given[table] = owner.generation
        task = asyncio.create_task(self._release(table, owner.generation, moved=False), name=f"close {table}")
        self._grace.add(task)
        task.add_done_callback(self._grace.discard)

    async def _find_live(self) -> None:
        """This process's lock (taken again on a new connection), and the live processes."""
        job = self.placement.read_live
        self.placement.live = await self.db.run(lambda tx: job(tx, self.db.dialect, self.db.generation))

    async def _give_back(self) -> None:
        """Each table served here that the hash gives to another live process (one that started
        again, or joined) is given to it between rounds (`Owner.leave_between_rounds`); one the
        hash gives back to this process meanwhile stays."""
        for table, owner in list(self.owners.items()):
            to = self.placement.owner(table)
            if to == self.settings.endpoint:
                owner.leave_between_rounds(None)
            elif owner.leaving is None and owner.down is None:
                owner.leave_between_rounds(partial(self._give_up, owner, to))
        for table, generation in list(self._given.items()):  # a release that failed is tried again
            await self._release(table, generation)

    def _give_up(self, owner: Owner, to: str) -> None:
        """Between rounds, nothing under way: the table stops here at once (later commands are
        refused, its seats forgotten) and its lease goes (`_release`)."""
        table = owner.spec.id
        if self.owners.get(table) is not owner or self.placement.owner(table) != to:
            return
        del self.owners[table]
        holders = {account: seat for seat, account in owner.players.items()}
        owner.abandon()
        self._lobby.forget([(table, "")])  # published again should it come back
        self.elsewhere[table] = to
        self.metrics.tables.set(len(self.owners))
        self.metrics.tables_given.inc()
        self._given[table] = owner.generation
        task = asyncio.create_task(self._release(table, owner.generation, holders), name=f"release {table}")
        self._grace.add(task)
        task.add_done_callback(self._grace.discard)
        _log.info("table given back", extra={"fields": {"table": table, "to": to}})

    async def _release(
        self, table: str, generation: int, holders: dict[str, int] | None = None, moved: bool = True
    ) -> None:
        """The lease of a table given up: once every commit of the table queued before is durable
        (a job queued after them commits with or after them), its row goes, so the process that
        takes it need not wait to settle, then its lock; then its sockets here are moved."""
        mine = (table, self.settings.endpoint)

        def forget(tx: Tx) -> None:
            if self.db.generation == generation and table not in self.owners:  # else an own table opened again
                leases.forget(tx, *mine)

        def unlock(tx: Tx) -> None:
            if self.db.generation == generation:  # else the lease went with its connection
                self.db.dialect.unlease(table)

        if table not in self._given:
            return
        try:
            await self.db.run(forget)
            await self.db.run(unlock)
        except Exception as err:  # tried again on the next lease period
            _log.warning("table %s: its lease was not released: %s", table, err)
            return
        self._given.pop(table, None)
        if moved:  # a closed own table's sockets stay: a sit opens it again
            self._moved_away(table, holders)
        self._leases_changed()

    async def _load_limits(self) -> None:
        await self.db.run(self.book.load)  # personal limits other processes changed

    async def _where_elsewhere(self) -> None:
        self.elsewhere = await self.endpoints()

    async def _share_lobby(self) -> None:
        """Publishes how this process's tables stand, and reads how the others' do: with SQLite
        too, whose waiting processes relay to the one serving."""
        rows = self._lobby.changed(self.owners)

        def job(tx: Tx) -> list[tuple[Any, ...]]:
            self._lobby.publish(tx, rows)
            return self._lobby.read(tx)

        try:
            published = await self.db.run(job)
        except BaseException:
            self._lobby.forget(rows)  # written again on the next pass
            raise
        self._lobby.take(published, self.owners)

    async def endpoints(self) -> dict[str, str]:
        """Where each table another process serves is served now, as that process announced it."""
        rows = await self.db.run(leases.endpoints)
        return {t: e for t, e in rows.items() if t not in self.owners}

    def lobby(self) -> list[dict[str, Any]]:
        """Every table; those another process serves (PostgreSQL) say so with `"here": false`.
        A table of a shared pool shows the pool's meter."""
        entries = self._lobby.entries(self.owners, self.elsewhere)
        for entry in entries:
            key = pools.pool_key(self.specs[entry["table"]].variant)
            if key in self.pools:
                entry["meter"] = self.pools[key]
        return entries

    async def stop(self) -> None:
        for task in (self._leasing, self._clock, self._sessions, self._pooling, self._paying, self._alarms):
            if task is not None:
                task.cancel()
        for conn in list(self.hub.connections):
            conn.close(1001, "shutdown")
        await asyncio.sleep(0.05)
        for task in self._grace:
            task.cancel()
        for owner in self.owners.values():
            await owner.stop()
        await self.db.stop()
        self.reads.close()
        _log.info("stopped", extra={"fields": {"tables": len(self.owners)}})

    async def health(self) -> dict[str, Any]:
        """The database (`ok`, or why not), the tables stopped (restoring from their records),
        the tables served here, the sockets open, and whether the trainer's tables are still being
        built at start (`warming`: a load balancer may wait for it, as the load bench does)."""
        database = await self.database_health()
        stopped = sorted(o.spec.id for o in self.owners.values() if o.down is not None)
        served = {"tables": len(self.owners), "connections": len(self.hub.connections)}
        return {"database": database, "stopped": stopped, **served, "warming": self.advisors.warming}

    async def database_health(self) -> str:
        """`ok`, or why the database did not answer a transaction within `PROBE` seconds: asked
        at most once a `PROBE_EVERY`, and never twice at once, however often /healthz is (on
        SQLite a probe takes the write lock)."""
        probe = self._probe
        if probe is None or (probe[1].done() and time.monotonic() > probe[0] + PROBE_EVERY):
            probe = self._probe = (time.monotonic(), asyncio.ensure_future(self._ask_database()))
        return await asyncio.shield(probe[1])

    async def _ask_database(self) -> str:
        try:
            await asyncio.wait_for(self.db.run(probe), PROBE)
        except TimeoutError:
            return f"no answer in {PROBE:g} s"
        except ServerError as err:
            return str(err)
        return self.db.failing or "ok"

    def tables(self) -> Mapping[str, TableSpec]:
        """Every table of the tables file, whichever process serves it."""
        return self.specs

    def table(self, table: str) -> Owner | None:
        """The owner of the table when this process serves it."""
        return self.owners.get(table)

    async def register(self, name: object, password: object, address: str) -> Session:
        return await self.accounts.register(name, password, address)

    async def login(self, name: object, password: object, address: str) -> Session:
        return await self.accounts.login(name, password, address)

    async def guest(self, address: str) -> Session:
        if not self.settings.demo:
            raise ServerError("guest accounts need a server started with --demo", "demo_off")
        return await self.accounts.guest(self.settings.demo_balance, address)

    async def who(self, token: str) -> str | None:
        return await self.accounts.who(token)

    async def logout(self, token: str) -> None:
        await self.accounts.logout(token)
        self.hub.end_sessions({token_hash(token)})  # its sockets here at once; elsewhere within a second

    async def seats(self, account: str) -> dict[str, int]:
        """The account's seats at every table, whichever process serves it (the database's rows:
        an HTTP request reaches any process behind a proxy)."""
        return dict(await self.reads.run(lambda tx: seats_of(tx, account)))

    async def wallet(self, account: str) -> tuple[dict[str, int], bool, int | None]:
        """The account's wallets by currency, whether it is a guest's, and its chosen interval between reality
        checks (None: none chosen), from the read side."""
        found = await self.reads.run(lambda tx: (wallet_of(tx, account), read_every(tx, account)))
        return ({}, False, None) if found[0] is None else (*found[0], found[1])

    def limit(self, account: str) -> Limit:
        """The account's personal limit and when it last changed (game 1; every table of the account)."""
        return self.book.limit(account)

    async def progressive(
        self, table: str, game: str, through: date
    ) -> tuple[int | None, dict[str, Any], list[dict[str, Any]]]:
        """The table's meter now, its meter history and its game's fixed prizes by day up to
        `through`, from the summaries the commits write, read off the commits' thread at most once
        a second a table (the days once a day a game), however many ask."""
        spec = self.specs.get(table)
        key = None if spec is None else pools.pool_key(spec.variant)
        if key is not None:
            found = await self.reads.fresh(("pool", key, table), lambda tx: pool_history(tx, key, table), FRESH)
        else:
            found = await self.reads.fresh(("meter", table), lambda tx: meter_history(tx, table), FRESH)
        fixed = await self.reads.fresh(("fixed", game, through), lambda tx: fixed_prizes(tx, game, through), DAY)
        return self.meter(table), found, fixed

    async def reality_check(self, account: str, every: int | None, given: bool) -> dict[str, Any]:
        """The account's interval between reality checks: read from the read side (off the
        commits' thread), or (`given`) chosen, kept and followed by its open session at once."""
        s = self.settings
        if given:
            chosen = check_every(every, s.reality_check_least, s.reality_check_every)
            await self.db.run(lambda tx: write_every(tx, account, every))
            self.hub.reminders.chose(account, chosen)
        else:
            kept: int | None = await self.reads.run(lambda tx: read_every(tx, account))
            chosen = kept or s.reality_check_every
        return {"every": chosen, "default": s.reality_check_every, "least": s.reality_check_least, "most": EVERY_MOST}

    def session(self, account: str) -> dict[str, Any]:
        """The account's session so far (`reminders`)."""
        return self.hub.reminders.summary(account)

    def watch(self, conn: Connection, table: str, on: bool) -> None:
        self.hub.watch(conn, table, on)

    def advise(self, owner: Owner, account: str | None) -> dict[str, Any]:
        return self.advisors.advise(owner, account)

    def meter(self, table: str) -> int | None:
        """The table's progressive meter now: here, or as its serving process last published it."""
        spec = self.specs.get(table)
        key = None if spec is None else pools.pool_key(spec.variant)
        if key in self.pools:
            return self.pools[key]
        owner = self.owners.get(table)
        if owner is not None:
            return owner.table.meter if owner.table is not None else None
        meter = self._lobby.elsewhere.get(table, {}).get("meter")
        return meter if isinstance(meter, int) else None

    async def connect(self, conn: Connection, token: str | None, relayed: bool) -> None:
        """A socket opened: kept with its links to the processes serving the tables it plays
        elsewhere (`relayed`: another process's socket, whose session is kept there), welcomed,
        and its account's session begun (`reminders`). ServerError: the database failed meanwhile."""
        self.relays[conn] = Relay(self, conn, token, relayed=relayed)
        self.metrics.connections.inc()
        every = await self._welcome(conn)
        if conn.account is not None and not relayed:
            self.hub.reminders.opened(conn.account, every or self.settings.reality_check_every)
            self._reminded.add(conn)

    async def _welcome(self, conn: Connection) -> int | None:
        """The welcome, the seats' views and recalls; the interval the account chose for its reality
        check (read with its wallet), for its session."""
        account = conn.account
        wallets, guest, every = ({}, False, None) if account is None else await self.wallet(account)
        relay, everywhere = self.relays[conn], self._everywhere()
        elsewhere = [] if everywhere else await relay.remote_seats()
        seats = self._seats_here(account) if account else []  # after the read: a table served here meanwhile is here
        self.hub.join(conn)  # told the tables' news from the welcome on, never before it (no await between)
        conn.send(frame("welcome", protocol=1, account=account, guest=guest, wallets=wallets, seats=seats + elsewhere))
        for held in seats:
            owner = self.owners[held["table"]]
            if owner.table is None:
                continue  # stopped: its view goes out once it is restored
            assert account is not None
            if not await _back(owner, account) and owner.table is not None:  # else its commit sent the view
                conn.send(owner.view_frame(held["seat"]))
            conn.send(frame("recall", table=held["table"], seat=held["seat"], rounds=await owner.recall(account)))
        if conn.table is None:
            relay.attach(elsewhere)  # their processes send their views and recall
        elif conn.table not in self.owners and not await self._opens_here(conn):
            await self.look_up(conn.table)
            self.send_moved(conn)
        return every

    def _everywhere(self) -> bool:
        """Whether this process serves every table there is (one live process, every table of the
        file here, and every own table with a seat: the database knows none it does not serve)."""
        return len(self.placement.live) == 1 and all(t in self.owners for t in self.specs.fixed)

    async def _opens_here(self, conn: Connection) -> bool:
        """A socket of an own table served nowhere, which this process would open at its first
        command (`claim`): it stays, with no view until then."""
        table = conn.table or ""
        if self.specs.own(table) is None or not (self.placement.mine(table) or proxied(conn.ws)):
            return False
        return table in self._opening or table not in await self.endpoints()  # being opened here, or nowhere

    async def disconnect(self, conn: Connection) -> None:
        """The socket closed: its links to the other processes close (they see the socket go), its
        session ends, and its account's last socket here starts the grace period (`went_away`)."""
        await self.relays.pop(conn).close()
        self.metrics.connections.dec()
        if conn in self._reminded and conn.account is not None:
            self._reminded.discard(conn)
            self.hub.reminders.closed(conn.account)
        if self.hub.part(conn) and conn.account is not None:
            self.went_away(conn.account)

    async def forward(self, conn: Connection, command: Command) -> dict[str, Any]:
        """A command naming a table another process serves: relayed there from the lobby's socket,
        answered `moved` (with the socket to open) on a table's socket."""
        table = command.table or ""
        if conn.table is None:
            return await self.relays[conn].forward(command)
        await self.look_up(table)
        endpoint = moved_to(conn.ws, table, self.elsewhere)
        if endpoint is None:
            raise ServerError(f"{table} is being taken over by another process; try again", "unavailable")
        raise Moved(table, endpoint)

    def _seats_here(self, account: str) -> list[dict[str, Any]]:
        return [{"table": table, "seat": seat} for table, seat in self.hub.held.get(account, {}).items()]

    def went_away(self, account: str) -> None:
        """The account's last socket closed: after the grace period, the game's disconnect rule."""
        held = [self.owners[table] for table in self.hub.held.get(account, {}) if table in self.owners]
        for owner in held:
            owner.went_away(account)
        if held:
            self._start_grace(account, held)

    def _grace_for_the_absent(self, owner: Owner) -> None:
        """A table just served here (a start, a takeover): its holders with no socket here get the
        grace period too, so a seat whose player never comes back is stood up in time."""
        for account in set(owner.players.values()):
            if not self.hub.online(account):
                self._start_grace(account, [owner])

    def _start_grace(self, account: str, held: list[Owner]) -> None:
        task = asyncio.create_task(self._after_grace(account, held))
        self._grace.add(task)
        task.add_done_callback(self._grace.discard)

    async def _after_grace(self, account: str, held: list[Owner]) -> None:
        await asyncio.sleep(self.settings.grace)
        if self.hub.online(account):
            return
        for owner in held:
            try:
                await owner.disconnect(account)
            except Exception as err:  # the seat was left meanwhile, or the table refused
                _log.info("disconnect", extra={"fields": {"table": owner.spec.id, "outcome": type(err).__name__}})


async def _back(owner: Owner, account: str) -> bool:
    """A seat marked away while the account had no socket stays: the engine is told it is back.
    True when that was news to the table (its views went out with the commit)."""
    try:
        return await owner.back(account)
    except CaribbeanFastError as err:  # stopped or stood up meanwhile: the view says how it stands
        _log.info("back", extra={"fields": {"table": owner.spec.id, "outcome": type(err).__name__}})
        return False


def tune_process() -> None:
    """A serving process's runtime: the collector (`quiet_gc`), and the database thread's wait for
    the interpreter lock. PostgreSQL's batches and SQLite's commit run in a thread that drops the
    lock for each call to the database and then waits for the busy loop to hand it back, per
    call; a shorter switch interval than Python's default (5 ms) hands it back sooner, and two
    PostgreSQL processes under load answered more commands, with a lower p99, with it
    (docs/benchmarks.md says how the server is measured)."""
    quiet_gc()
    sys.setswitchinterval(SWITCH_INTERVAL)


def quiet_gc() -> None:
    """Moves what start-up built (every table, its variant and state) out of the collector's
    reach and lets it run less often: most of a serving process's objects are freed by their
    reference counts. With the default thresholds the cyclic collector took a large share of a
    loaded server's CPU and paused the loop in full passes over every table (seen with
    gc.callbacks); with these it takes a small one, and the server answers more commands."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def _safe(url: str) -> str:
    """A database URL without its password, for the logs."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://***@{rest.rsplit('@', 1)[1]}"
    return url
