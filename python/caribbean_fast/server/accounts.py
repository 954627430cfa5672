"""Accounts: names, argon2id password hashes, expiring session tokens, and the login rate limit.

The database keeps only a SHA-256 of each session token, so a copy of the database opens no
session; hashing and verifying passwords (argon2id, deliberately slow) run off the event loop.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..errors import ServerError
from .store import accounts as store
from .store import wallets
from .store.db import Database, Tx
from .store.reads import Reads
from .store.wallets import HOME

__all__ = ["Accounts", "RateLimiter", "Session", "check_name", "create_account", "token_hash"]

SESSION_HOURS = 24
HASHING = 2  # argon2 hashes at once (64 MB each, the library's cost)
HASHING_QUEUE = 64  # requests waiting for a hash before more are refused
HASHING_BY_KEY = {"address": 2, "name": 1}  # of them for one address, and one name
NO_PASSWORD = "guest: no password"  # a guest's hash: no password verifies against it
T = TypeVar("T")
_NAME = re.compile(r"[A-Za-z0-9_.-]{3,32}")
_hasher = PasswordHasher()  # argon2id, the library's recommended cost


@dataclass(frozen=True)
class Session:
    account: str
    token: str
    expires: datetime


def check_name(name: object) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ServerError("a name is 3 to 32 characters of letters, digits, _ - and .", "bad_field")
    return name


def _check_password(password: object) -> str:
    if not isinstance(password, str) or not 8 <= len(password) <= 256:
        raise ServerError("a password is 8 to 256 characters", "bad_field")
    return password


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_account(
    tx: Tx, name: str, hashed: str, wallet: int = 0, guest: bool = False, currencies: Sequence[str] = ()
) -> None:
    """Inserts the account, with `wallet` granted in each of `currencies`; `name_taken` if it
    exists (never overwritten)."""
    if store.account_exists(tx, name):
        raise ServerError(f"the name {name!r} is taken", "name_taken")
    store.insert_account(tx, name, hashed, guest, datetime.now(UTC).isoformat())
    for currency in currencies if wallet else ():
        wallets.grant(tx, name, currency, wallet)


def hash_password(password: str) -> str:
    return _hasher.hash(_check_password(password))


class RateLimiter:
    """At most `most` of something (failed logins, accounts opened) a `window` of seconds per key
    (a name, an address)."""

    def __init__(self, most: int = 5, window: float = 60.0, what: str = "failed logins") -> None:
        self.most, self.window, self.what = most, window, what
        self._hits: defaultdict[str, deque[float]] = defaultdict(deque)
        self._pruned = time.monotonic()

    def check(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            hits = self._recent(key, now)
            if len(hits) >= self.most:
                wait = int(hits[0] + self.window - now) + 1
                raise ServerError(f"too many {self.what}: try again in {wait} s", "rate_limited")

    def note(self, *keys: str) -> None:
        now = time.monotonic()
        for key in keys:
            self._hits[key].append(now)
        if now > self._pruned + self.window:  # keys never checked again are let go: memory stays bounded
            self._pruned = now
            for key in list(self._hits):
                self._recent(key, now)

    def _recent(self, key: str, now: float) -> deque[float]:
        hits = self._hits[key]
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        if not hits:
            del self._hits[key]
        return hits


class Accounts:
    def __init__(
        self,
        db: Database,
        reads: Reads,
        registrations: int,
        session_hours: float = SESSION_HOURS,
        currencies: Sequence[str] = (HOME,),
    ) -> None:
        self.currencies = tuple(currencies)  # a guest's play money comes in each (the tables' currencies)
        self.db, self.reads, self.limiter = db, reads, RateLimiter()  # `who` reads off the commits' thread
        self.registrations = RateLimiter(registrations, what="accounts opened from your address")
        self.lifetime = timedelta(hours=session_hours)
        self._hashing = asyncio.Semaphore(HASHING)  # argon2 takes 64 MB a hash: a few at once
        self._waiting: Counter[str] = Counter()  # hashes waiting or under way, by address and name
        self._in_flight = 0  # and in all

    async def register(self, name: object, password: object, address: str) -> Session:
        account, secret = check_name(name), _check_password(password)
        self._count_registration(address)
        hashed = await self._hash([f"address:{address}"], hash_password, secret)
        return await self._create(account, hashed)

    async def guest(self, wallet: int, address: str) -> Session:
        """A guest account: play money, and no password (its hash opens nothing, and costs no
        argon2: guests were a way to keep the hashing busy)."""
        self._count_registration(address)
        return await self._create(f"guest-{secrets.token_hex(6)}", NO_PASSWORD, wallet, guest=True)

    def _count_registration(self, address: str) -> None:
        self.registrations.check(f"address:{address}")
        self.registrations.note(f"address:{address}")  # counted as it is tried: requests at once count too

    async def _create(self, account: str, hashed: str, wallet: int = 0, guest: bool = False) -> Session:
        await self.db.run(lambda tx: create_account(tx, account, hashed, wallet, guest, self.currencies))
        return await self._open_session(account)

    async def _hash(self, keys: list[str], work: Callable[..., T], *args: str) -> T:
        """argon2 in a thread, at most `HASHING` at once; refused past `HASHING_QUEUE` waiting in
        all, or `HASHING_BY_KEY` for one address or name (so one address cannot fill the queue,
        and a name's failed logins are counted before its next password is tried)."""
        busy = any(self._waiting[k] >= HASHING_BY_KEY.get(k.split(":")[0], 1) for k in keys)
        if busy or self._in_flight >= HASHING_QUEUE:
            raise ServerError("the server is busy checking passwords; try again in a moment", "rate_limited")
        self._waiting.update(keys)
        self._in_flight += 1
        try:
            async with self._hashing:
                return await asyncio.to_thread(work, *args)
        finally:
            self._in_flight -= 1
            self._waiting.subtract(keys)
            for key in keys:
                if not self._waiting[key]:
                    del self._waiting[key]

    async def login(self, name: object, password: object, address: str) -> Session:
        account, secret = check_name(name), _check_password(password)
        self.limiter.check(f"name:{account}", f"address:{address}")
        hashed = await self.db.run(lambda tx: store.password_hash(tx, account))
        keys = [f"name:{account}", f"address:{address}"]
        if hashed is None or not await self._hash(keys, _verify, hashed, secret):
            self.limiter.note(f"name:{account}", f"address:{address}")
            raise ServerError("wrong name or password", "unauthorized")
        return await self._open_session(account)

    async def _open_session(self, account: str) -> Session:
        token, expires = secrets.token_urlsafe(32), datetime.now(UTC) + self.lifetime
        key = token_hash(token)
        await self.db.run(lambda tx: store.insert_session(tx, key, account, expires.isoformat()))
        return Session(account, token, expires)

    async def who(self, token: str) -> str | None:
        """The account a token opens, or None (unknown or expired)."""
        if not token or len(token) > 200:
            return None
        key, now = token_hash(token), datetime.now(UTC).isoformat()
        return await self.reads.run(lambda tx: store.session_account(tx, key, now))

    async def logout(self, token: str) -> None:
        key = token_hash(token)
        await self.db.run(lambda tx: store.delete_session(tx, key))

    async def live(self, keys: set[str]) -> set[str]:
        """Which of these token hashes still open a session (not logged out, not expired)."""
        listed, now = sorted(keys), datetime.now(UTC).isoformat()
        return await self.db.run(lambda tx: store.live_sessions(tx, listed, now)) if listed else set()


def _verify(hashed: str, password: str) -> bool:
    try:
        return _hasher.verify(hashed, password)
    except (VerificationError, InvalidHashError):
        return False
