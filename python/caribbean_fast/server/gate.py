"""The front door's limits, before a request reaches the app: open connections per address and in
all, and the seconds a connection has to finish its HTTP request's head or its WebSocket
handshake (`serving`'s protocols apply them); and the frames a second all the sockets of one
address may send, and all sockets together (`ws` asks `frames`).

An address past its cap of connections is answered 503 at once. Past the total cap a connection
is still read, within the handshake's seconds, but only `/healthz` is answered on it (503 for
anything else), so a full server can still say how it is. A connection that has not finished
its head or handshake in time is closed: one that never finishes holds nothing for long.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

__all__ = ["Gate", "TokenBucket"]


class TokenBucket:
    """`rate` a second sustained, `burst` at once."""

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


@dataclass
class Gate:
    per_address: int = 64  # open connections from one address
    total: int = 4096  # open connections in all
    handshake: float = 5.0  # seconds to finish a request's head or a WebSocket handshake
    address_rate: float = 100.0  # frames a second from all the sockets of one address
    total_rate: float = 5000.0  # frames a second from every socket together
    _open: Counter[str] = field(default_factory=Counter)
    _count: int = 0
    _addresses: dict[str, TokenBucket] = field(default_factory=dict)
    _all: TokenBucket | None = None

    def enter(self, address: str) -> str:
        """Counts a new connection: "ok", "over_total" (serve it /healthz alone) or
        "over_address" (refuse it, not counted)."""
        if self._open[address] >= self.per_address:
            return "over_address"
        self._open[address] += 1
        self._count += 1
        return "over_total" if self._count > self.total else "ok"

    def leave(self, address: str) -> None:
        self._count -= 1
        self._open[address] -= 1
        if not self._open[address]:
            del self._open[address]
            self._addresses.pop(address, None)

    def frames(self, address: str) -> bool:
        """Whether one more frame from the address may run: within its address's rate, and
        within the total, which an address using less than half its own budget always is (the
        heavy addresses are cut first)."""
        bucket = self._addresses.get(address)
        if bucket is None:
            bucket = self._addresses[address] = TokenBucket(self.address_rate, 2 * self.address_rate)
        if self._all is None:
            self._all = TokenBucket(self.total_rate, self.total_rate)
        light = bucket.share() > 0.5
        return bucket.take() and (self._all.take() or light)
