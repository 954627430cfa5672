"""The front door's limits, before a request reaches the app: open connections per address and in
all, and the seconds a connection has to finish its HTTP request's head or its WebSocket
handshake (`serving`'s protocols apply them); and the frames a second all the sockets of one
address may send, and all sockets together (`ws` awaits `admit` before it reads a frame).

A frame past its address's rate waits its turn, unread: the socket is not read meanwhile, so TCP
holds the rest back at the sender, and a crowd of sockets costs the server no more than its
address's rate, where refusing each frame cost a parse and an answer. Past the total budget, only
the addresses with frames waiting (the heavy ones) wait for it; a light address never does.

Connections are counted by the peer that holds them, frames by the client's address as the app
sees it. Behind a trusted proxy (`forwarded`), the proxy holds every client's connections: its
own are not capped by address at the door (only in all), and each WebSocket it forwards counts
against its client's address instead (`enter_client`, in the app, once the forwarded address is
read); frames, registrations and logins count by the forwarded address too.

An address past its cap of connections is answered 503 at once. Past the total cap a connection
is still read, within the handshake's seconds, but only `/healthz` is answered on it (503 for
anything else), so a full server can still say how it is. A connection that has not finished
its head or handshake in time is closed: one that never finishes holds nothing for long.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter, deque
from collections.abc import Container
from dataclasses import dataclass, field

__all__ = ["Gate", "TokenBucket", "Turnstile"]

PRUNE_EVERY = 10.0  # seconds between sweeps of idle addresses' turnstiles


class TokenBucket:
    """`rate` a second sustained, `burst` at once. Slots: each socket holds one."""

    __slots__ = ("at", "burst", "rate", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst, self.tokens, self.at = rate, burst, burst, time.monotonic()

    def take(self) -> bool:
        self._fill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def share(self) -> float:
        """How full the bucket is, 0 to 1."""
        self._fill()
        return self.tokens / self.burst

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now


class Turnstile:
    """Admits at a bucket's rate; past it, each waits its turn in the order it came."""

    def __init__(self, rate: float, burst: float) -> None:
        self.bucket = TokenBucket(rate, burst)
        self.waiting: deque[asyncio.Future[None]] = deque()
        self._timer: asyncio.TimerHandle | None = None

    @property
    def heavy(self) -> bool:
        """Frames wait here, or its bucket is below half."""
        return bool(self.waiting) or self.bucket.share() < 0.5

    async def admit(self) -> None:
        if not self.waiting and self.bucket.take():
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        self._schedule()
        await turn

    def _schedule(self) -> None:
        if self._timer is None and self.waiting:
            self._timer = asyncio.get_running_loop().call_later(1 / self.bucket.rate, self._release)

    def _release(self) -> None:
        self._timer = None
        while self.waiting:
            if self.waiting[0].done():  # its socket closed while it waited
                self.waiting.popleft()
            elif self.bucket.take():
                self.waiting.popleft().set_result(None)
            else:
                break
        self._schedule()


@dataclass
class Gate:
    per_address: int  # open connections from one address
    total: int  # open connections in all
    handshake: float  # seconds to finish a request's head or a WebSocket handshake
    address_rate: float  # frames a second from all the sockets of one address
    total_rate: float  # frames a second from every socket together
    read_rate: float = 400.0  # HTTP requests a second from every address together (`admit_read`)
    proxies: Container[str] = ()  # trusted proxies: their connections are their clients'
    _open: Counter[str] = field(default_factory=Counter, init=False, repr=False)
    _clients: Counter[str] = field(default_factory=Counter, init=False, repr=False)  # sockets via proxies
    _count: int = field(default=0, init=False, repr=False)
    _addresses: dict[str, Turnstile] = field(default_factory=dict, init=False, repr=False)
    _all: Turnstile | None = field(default=None, init=False, repr=False)
    _reads: Turnstile | None = field(default=None, init=False, repr=False)
    _pruned: float = field(default_factory=time.monotonic, init=False, repr=False)

    def enter(self, address: str) -> str:
        """Counts a new connection: "ok", "over_total" (serve it /healthz alone) or
        "over_address" (refuse it, not counted)."""
        if self._open[address] >= self.per_address and address not in self.proxies:
            return "over_address"
        self._open[address] += 1
        self._count += 1
        return "over_total" if self._count > self.total else "ok"

    @property
    def open(self) -> int:
        """Connections open now, HTTP and WebSocket, counted at the door."""
        return self._count

    def leave(self, address: str) -> None:
        assert self._open[address] > 0, f"{address} left more connections than it opened"
        self._count -= 1
        self._open[address] -= 1
        if not self._open[address]:
            del self._open[address]

    def enter_client(self, client: str) -> bool:
        """Counts a WebSocket a trusted proxy forwards by its client's address; False (not
        counted) when that address holds `per_address` already."""
        if self._clients[client] >= self.per_address:
            return False
        self._clients[client] += 1
        return True

    def leave_client(self, client: str) -> None:
        self._clients[client] -= 1
        if self._clients[client] <= 0:
            del self._clients[client]

    async def admit_read(self, address: str) -> None:
        """Returns when one more HTTP request from the address may be answered: within its
        address's rate (shared with its sockets' frames), and within the budget of every address's
        requests together, so that a crowd of readers from many addresses takes no more of the
        loop that runs every table than `read_rate` requests a second (the tables' commands come
        by socket and never wait for it)."""
        await self.admit(address)
        if self._reads is None:
            self._reads = Turnstile(self.read_rate, self.read_rate)
        await self._reads.admit()

    async def admit(self, address: str) -> None:
        """Returns when one more frame from the address may be read: within its address's rate,
        and, for an address that is using its share, within the total."""
        turnstile, total = self._turnstiles(address)
        await turnstile.admit()
        if turnstile.heavy:
            await total.admit()
        else:
            total.bucket.take()  # a light address is counted, never held

    def admit_now(self, address: str) -> bool:
        """`admit` where the frame need not wait (the usual), with no await: True, it is
        counted; False, nothing is, and the caller awaits `admit`."""
        turnstile, total = self._turnstiles(address)
        if turnstile.waiting or not turnstile.bucket.take():
            return False
        if not turnstile.heavy:
            total.bucket.take()
            return True
        if total.waiting or not total.bucket.take():
            turnstile.bucket.tokens += 1  # given back: `admit` takes it again
            return False
        return True

    def _turnstiles(self, address: str) -> tuple[Turnstile, Turnstile]:
        """The address's turnstile and the total's, made when first needed."""
        if time.monotonic() > self._pruned + PRUNE_EVERY:
            self._prune()
        turnstile = self._addresses.get(address)
        if turnstile is None:
            turnstile = self._addresses[address] = Turnstile(self.address_rate, 2 * self.address_rate)
        if self._all is None:
            self._all = Turnstile(self.total_rate, self.total_rate)
        return turnstile, self._all

    def _prune(self) -> None:
        """Lets go of the turnstiles of idle addresses: none waiting and a full bucket, as a new
        one would start (so closing every socket and coming back gains an address nothing)."""
        self._pruned = time.monotonic()
        idle = [a for a, t in self._addresses.items() if not t.waiting and t.bucket.share() >= 1]
        for address in idle:
            del self._addresses[address]
