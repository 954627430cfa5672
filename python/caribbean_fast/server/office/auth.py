"""Who may use the office: operators' logins (password and TOTP code), their sessions, CSRF and
the roles.

- The office's session is its own: a cookie `cf_office` on the path `/office`, its token's hash in
  `office_sessions`. A player's token (the `cf_session` cookie, a bearer header) is never read
  here, and an office token opens no player's session: the two tables share nothing.
- Every request that changes anything (not GET) carries the session's CSRF token in the
  `X-CSRF-Token` header (the synchronizer pattern: the token is the session's, kept in the
  database, given to the page by `GET /office/api/me`, which a page of another site cannot read).
- A session ends after `IDLE` seconds unused, and `ABSOLUTE` seconds after it began, whatever.
- Failed logins are limited by name and by address (`RateLimiter`), beside the front door's own
  limits on every request; a TOTP code opens one login at most (`operators.use_step`).
- An operator acts; an auditor reads only (`Who.may_act`).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.requests import ClientDisconnect, Request

from ...errors import ServerError
from ..accounts import RateLimiter, token_hash
from ..store import office_log, operators
from ..store.schema import Tx
from ..wire.protocol import load_json
from .host import OfficeHost, host_of
from .totp import matching_step

__all__ = ["ABSOLUTE", "COOKIE", "CSRF_HEADER", "IDLE", "Gate", "Who", "log", "read_body"]

COOKIE, PATH, CSRF_HEADER = "cf_office", "/office", "x-csrf-token"
IDLE = 15 * 60  # seconds a session may go unused
ABSOLUTE = 8 * 3600  # seconds a session lasts at most: a shift
TOUCH = 30  # seconds between writes of a session's last use (a read of the office writes at most this often)
BODY = 4096
NAME_FAILURES, ADDRESS_FAILURES, FAILURE_WINDOW = 5, 20, 300.0  # failed logins a window of seconds allows
_hasher = PasswordHasher()
_NOBODY = _hasher.hash(secrets.token_hex(16))  # verified against for an unknown name: the same time taken


@dataclass(frozen=True)
class Who:
    operator: str
    role: str
    csrf: str
    key: str  # the session token's hash

    @property
    def may_act(self) -> bool:
        return self.role == "operator"


def now_text() -> str:
    return datetime.now(UTC).isoformat()


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to `BODY` bytes, never further."""
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > BODY:
                raise ServerError(f"a request's body is at most {BODY} bytes", "too_big")
    except ClientDisconnect:
        raise ServerError("the body ended early", "malformed") from None
    try:
        body = load_json(bytes(data or b"{}"))
    except ValueError:
        raise ServerError("the body is not JSON", "malformed") from None
    if not isinstance(body, dict):
        raise ServerError("the body is a JSON object", "malformed")
    return body


async def log(host: OfficeHost, who: str, action: str, target: str, why: str, detail: dict[str, Any]) -> None:
    """Appends to the office's log, in its own transaction; tried again when another process took
    the same place at once (`office_log`)."""
    for attempt in range(3):
        try:
            await host.db.run(lambda tx: office_log.append(tx, now_text(), who, action, target, why, detail))
            return
        except ServerError:
            raise
        except Exception:
            if attempt == 2:
                raise


def _text(body: dict[str, Any], key: str, most: int = 256) -> str:
    value = body.get(key)
    if not isinstance(value, str) or not 1 <= len(value) <= most:
        raise ServerError(f"{key}: a text of 1 to {most} characters", "bad_field")
    return value


class Gate:
    """The office's logins and the check of every request."""

    def __init__(self) -> None:
        self.by_name = RateLimiter(most=NAME_FAILURES, window=FAILURE_WINDOW, what="failed logins of this operator")
        self.by_address = RateLimiter(most=ADDRESS_FAILURES, window=FAILURE_WINDOW, what="failed logins from here")

    async def login(self, request: Request) -> tuple[str, Who]:
        """A new session for the name, password and current code; the token and who it is."""
        host, body = host_of(request), await read_body(request)
        name, password, code = _text(body, "name", 64), _text(body, "password"), _text(body, "code", 8)
        address = request.client.host if request.client else "?"
        self.by_name.check(name)
        self.by_address.check(address)
        found = await host.reads.run(lambda tx: operators.operator(tx, name))
        good = await asyncio.to_thread(_verify, found.hash if found else _NOBODY, password)
        step = matching_step(found.totp, code, time.time()) if found and good else None
        if found is None or step is None:
            self.by_name.note(name)
            self.by_address.note(address)
            raise ServerError("the name, the password or the code is wrong", "unauthorized")
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)

        def job(tx: Tx) -> None:
            if not operators.use_step(tx, name, step):
                raise ServerError("that code was used already: wait for the next one", "unauthorized")
            operators.insert_session(tx, token_hash(token), name, csrf, now_text())

        await host.db.run(job)
        await log(host, name, "login", name, "", {"address": address})
        return token, Who(name, found.role, csrf, token_hash(token))

    async def check(self, request: Request, acts: bool = False) -> Who:
        """Who the request's office session is; refused without one, past its timeouts, without
        its CSRF token on a request that changes anything, and (`acts`) for an auditor."""
        token = request.cookies.get(COOKIE)
        if not token:
            raise ServerError("log in to the office first", "unauthorized")
        host, key = host_of(request), token_hash(token)
        found = await host.reads.run(lambda tx: operators.session(tx, key))
        if found is None:
            raise ServerError("log in to the office first", "unauthorized")
        now = datetime.now(UTC)
        started, seen = datetime.fromisoformat(found.started), datetime.fromisoformat(found.seen)
        if now - seen > timedelta(seconds=IDLE) or now - started > timedelta(seconds=ABSOLUTE):
            await host.db.run(lambda tx: operators.delete_session(tx, key))
            raise ServerError("the office session timed out: log in again", "unauthorized")
        who = Who(found.operator, found.role, found.csrf, key)
        if request.method not in ("GET", "HEAD"):
            given = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(given.encode(), found.csrf.encode()):
                raise ServerError("the request lacks the session's CSRF token (X-CSRF-Token)", "forbidden")
        if acts and not who.may_act:
            raise ServerError(f"{who.operator} is an auditor: the office's actions are an operator's", "forbidden")
        if now - seen > timedelta(seconds=TOUCH):
            await host.db.run(lambda tx: operators.touch_session(tx, key, now.isoformat()))
        return who


def _verify(hashed: str, password: str) -> bool:
    try:
        return bool(_hasher.verify(hashed, password))
    except (VerificationError, InvalidHashError):
        return False
