"""What the office's tests share: an operator made as the command line makes one (its own table,
a password and a TOTP secret), and a logged-in office session over HTTP (its cookie and CSRF token)."""

from __future__ import annotations

import itertools
import time
from datetime import UTC, datetime
from typing import Any

import httpx

from caribbean_fast.server.accounts import hash_password
from caribbean_fast.server.office.auth import COOKIE
from caribbean_fast.server.office.totp import STEP, code_at, new_secret
from caribbean_fast.server.store import operators
from caribbean_fast.server.store.db import Database, connect

PASSWORD = "office password 1"
_names = itertools.count()


def add_operator(database: str, role: str, name: str | None = None) -> tuple[str, str]:
    """A new operator of `role` in the server's database: (its name, its TOTP secret)."""
    name = name or f"{'olga' if role == 'operator' else 'audrey'}-{next(_names)}"
    secret, hashed = new_secret(), hash_password(PASSWORD)
    db = Database(connect(database))
    try:
        now = datetime.now(UTC).isoformat()
        db.run_now(lambda tx: operators.insert_operator(tx, name, role, hashed, secret, now))
    finally:
        db.dialect.close()
    return name, secret


def code(secret: str) -> str:
    return code_at(secret, int(time.time()) // STEP)


def login(http: str, name: str, secret: str, password: str = PASSWORD) -> httpx.Response:
    return httpx.post(f"{http}/office/api/login", json={"name": name, "password": password, "code": code(secret)})


class Office:
    """An operator's browser, as httpx: the office cookie, and the CSRF token on every POST."""

    def __init__(self, http: str, database: str, role: str = "operator") -> None:
        self.http = http
        self.name, self.secret = add_operator(database, role)
        answer = login(http, self.name, self.secret)
        assert answer.status_code == 200, answer.text
        self.csrf: str = answer.json()["csrf"]
        self.cookies = {COOKIE: answer.cookies[COOKIE]}

    def get(self, path: str, **params: Any) -> httpx.Response:
        # a process's first figures wait for its games' exact analyses (no cache in the tests)
        return httpx.get(f"{self.http}{path}", params=params, cookies=self.cookies, timeout=300)

    def post(self, path: str, body: dict[str, Any] | None = None, csrf: str | None = None) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf if csrf is None else csrf}
        url = f"{self.http}{path}"  # a paytable's proposal waits for its exact analysis
        return httpx.post(url, json=body or {}, headers=headers, cookies=self.cookies, timeout=300)
