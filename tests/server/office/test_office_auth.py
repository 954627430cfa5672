"""The office's door, through the real server: every office endpoint refused to a guest, to a
player (its token as a bearer, as its own cookie, as the office's cookie), to an expired session
(idle, absolute), without the session's CSRF token or with another session's, and, where it acts,
to an auditor; failed logins limited; a TOTP code used once; an office token opens nothing of a
player's. The second factor's arithmetic is RFC 6238's own test vectors."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from live_server import Client, LiveServer, query, settings
from office_helpers import PASSWORD, Office, add_operator, code, login
from starlette.routing import Mount, Route

from caribbean_fast.server.accounts import token_hash
from caribbean_fast.server.office.auth import ABSOLUTE, COOKIE, IDLE
from caribbean_fast.server.office.totp import code_at, uri
from caribbean_fast.server.store.db import Database, connect

TABLE = "cyberstud-1"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(settings(str(tmp_path_factory.mktemp("office") / "tables.db"))) as live:
        c = Client(live.ws, live.guest())
        c.ok("sit", table=TABLE, buy_in=5_000)
        c.ok("ante", table=TABLE, amount=100)
        c.ok("deal", table=TABLE)
        c.ok("fold", table=TABLE)
        c.close()
        proposal = {"game": "cyberstud", "source": "designer", "target": "0.97", "adjust": "raise:royal-flush"}
        made = Office(live.http, live.settings.database).post(
            "/office/api/paytables", proposal | {"name": "cyberstud-97", "why": "proposal 1, read by the suite"}
        )
        assert made.status_code == 201, made.text
        yield live


def endpoints(server: LiveServer) -> list[tuple[str, str]]:
    """Every office API endpoint but the login, as (method, path) with its parameters filled."""
    mount = next(r for r in server.app.routes if isinstance(r, Mount) and r.path == "/office")
    ((account,),) = query(server.settings.database, "SELECT account FROM holds")
    fill = {"{table}": TABLE, "{round}": "1", "{name}": account, "{id}": "1"}
    found = []
    for route in mount.routes:
        assert isinstance(route, Route)
        if route.path.startswith("/api/") and route.path != "/api/login":
            path = route.path
            for key, value in fill.items():
                path = path.replace(key, value)
            found += [(m, f"/office{path}") for m in sorted(route.methods or ()) if m != "HEAD"]
    return found


ACTING = {"/office/api/round/cyberstud-1/1/answer", "/office/api/paytables", "/office/api/paytables/1/approve"}
BODY = {"why": "a test", "seat": 0}


def run(db_url: str, sql: str, params: tuple[object, ...]) -> None:
    db = Database(connect(db_url))
    try:
        db.run_now(lambda tx: tx.execute(sql, params))
    finally:
        db.dialect.close()


def test_the_office_has_the_endpoints_the_suite_covers(server: LiveServer) -> None:
    found = endpoints(server)
    assert len(found) == 17 and sum(m == "POST" for m, _ in found) == 7


def test_a_guest_and_a_player_are_refused_everywhere(server: LiveServer) -> None:
    token = server.guest()
    tries = {
        "guest": {},
        "bearer": {"headers": {"Authorization": f"Bearer {token}"}},
        "player cookie": {"cookies": {"cf_session": token}},
        "player token as office cookie": {"cookies": {COOKIE: token}},
    }
    for method, path in endpoints(server):
        for who, how in tries.items():
            with httpx.Client(base_url=server.http, **how) as client:  # type: ignore[arg-type]
                answer = client.request(method, path, json=BODY)
            assert answer.status_code == 401, (who, method, path, answer.text)
            assert answer.json()["error"]["code"] == "unauthorized"


def test_a_change_needs_the_sessions_own_csrf_token(server: LiveServer) -> None:
    mine, other = Office(server.http, server.settings.database), Office(server.http, server.settings.database)
    before = len(query(server.settings.database, "SELECT seq FROM office_log"))
    for method, path in endpoints(server):
        if method != "POST" or path.endswith("/logout"):
            continue
        for csrf in ("", other.csrf, mine.csrf[:-1]):
            answer = mine.post(path, BODY, csrf=csrf)
            assert answer.status_code == 403 and answer.json()["error"]["code"] == "forbidden", (path, csrf)
        assert mine.post(path, BODY).status_code not in (401, 403), path  # past the door (a bad body: 400)
    assert mine.post("/office/api/logout", csrf="").status_code == 403
    after = len(query(server.settings.database, "SELECT seq FROM office_log"))
    assert after == before + 5  # an export, the answer, two reports, proposal 1 approved; nothing refused


def test_an_auditor_reads_and_never_acts(server: LiveServer) -> None:
    auditor = Office(server.http, server.settings.database, role="auditor")
    for method, path in endpoints(server):
        if path.endswith("/logout"):
            continue
        answer = auditor.post(path, BODY) if method == "POST" else auditor.get(path)
        if method == "POST" and path in ACTING:
            assert answer.status_code == 403 and "auditor" in answer.json()["error"]["message"], path
        else:
            assert answer.status_code == 200, (path, answer.text)
    assert auditor.get("/office/api/me").json()["may_act"] is False
    assert auditor.post("/office/api/logout").status_code == 200  # an auditor may leave
    assert auditor.get("/office/api/me").status_code == 401


@pytest.mark.parametrize("late", ["idle", "absolute"])
def test_an_expired_session_is_refused_and_ended(server: LiveServer, late: str) -> None:
    office = Office(server.http, server.settings.database)
    key = token_hash(office.cookies[COOKIE])
    now = datetime.now(UTC)
    if late == "idle":
        column, when = "seen", now - timedelta(seconds=IDLE + 5)
    else:  # used a moment ago, begun a shift ago
        column, when = "started", now - timedelta(seconds=ABSOLUTE + 5)
    run(
        server.settings.database,
        f"UPDATE office_sessions SET {column} = ? WHERE token_hash = ?",
        (when.isoformat(), key),
    )
    for method, path in endpoints(server):
        answer = office.post(path, BODY) if method == "POST" else office.get(path)
        assert answer.status_code == 401, (path, answer.text)
    assert query(server.settings.database, "SELECT 1 FROM office_sessions WHERE token_hash = ?", (key,)) == []


def test_the_office_cookie_is_its_own(server: LiveServer) -> None:
    name, secret = add_operator(server.settings.database, "operator")
    answer = login(server.http, name, secret)
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "Path=/office" in cookie and "HttpOnly" in cookie
    assert "SameSite=strict" in cookie
    token = answer.cookies[COOKIE]
    me = httpx.get(f"{server.http}/api/me", headers={"Authorization": f"Bearer {token}"})
    assert me.status_code == 401  # an office token opens no player's session
    assert query(server.settings.database, "SELECT 1 FROM sessions WHERE token_hash = ?", (token_hash(token),)) == []


def test_a_code_opens_one_login_and_failures_are_limited(server: LiveServer) -> None:
    name, secret = add_operator(server.settings.database, "operator")
    assert login(server.http, name, secret).status_code == 200
    again = login(server.http, name, secret)  # the same step's code, seen over a shoulder
    assert again.status_code == 401 and "used already" in again.json()["error"]["message"]
    other, other_secret = add_operator(server.settings.database, "operator")
    for _ in range(5):
        assert login(server.http, other, other_secret, password="not the password").status_code == 401
    limited = login(server.http, other, other_secret)  # right this time, but past the limit
    assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"


def test_the_alarms_reach_the_metrics(server: LiveServer) -> None:
    """Each process publishes the standing alarms (none at an honest table) into its gauge, read
    off the read side (`office.board.watch`), for every kind and level."""
    deadline, text = time.monotonic() + 300, ""  # the first pass waits for the games' analyses
    while 'cf_office_alarms{kind="account",level="warning"}' not in text and time.monotonic() < deadline:
        time.sleep(0.5)
        text = httpx.get(f"{server.http}/metrics").text
    found = [line for line in text.splitlines() if line.startswith("cf_office_alarms{")]
    assert len(found) == 6 and all(line.endswith(" 0.0") for line in found), found


def test_totp_is_rfc_6238() -> None:
    secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"  # "12345678901234567890", the RFC's SHA-1 key
    vectors = {59: "94287082", 1111111109: "07081804", 1111111111: "14050471", 1234567890: "89005924"}
    vectors |= {2000000000: "69279037", 20000000000: "65353130"}
    for seconds, expected in vectors.items():
        assert code_at(secret, seconds // 30, digits=8) == expected
    assert uri(secret, "olga").startswith("otpauth://totp/caribbean-fast%20office:olga?secret=GEZDGNBV")


def test_the_command_line_makes_and_resets_an_operator(server: LiveServer) -> None:
    database = server.settings.database
    env = {"CARIBBEAN_FAST_PASSWORD": PASSWORD}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "caribbean_fast.cli", "office", *args, "--database", database]
        return subprocess.run(command, capture_output=True, text=True, env={**env, **_path()}, check=False)

    made = cli("add-operator", "carla", "--role", "auditor")
    assert made.returncode == 0, made.stderr
    secret = made.stdout.split("TOTP secret: ")[1].split()[0]
    first = login(server.http, "carla", secret)
    assert first.status_code == 200 and first.json()["role"] == "auditor"
    assert cli("add-operator", "carla", "--role", "operator").returncode == 2  # never overwritten
    reset = cli("reset", "carla", "--why", "a lost phone")
    assert reset.returncode == 0, reset.stderr
    new_secret = reset.stdout.split("TOTP secret: ")[1].split()[0]
    assert new_secret != secret
    old = httpx.get(f"{server.http}/office/api/me", cookies={COOKIE: first.cookies[COOKIE]})
    assert old.status_code == 401  # the reset ended its sessions
    assert login(server.http, "carla", new_secret).status_code == 200
    actions = [r[0] for r in query(database, "SELECT body FROM office_log ORDER BY seq")]
    assert sum('"add_operator"' in a for a in actions) == 1 and sum('"a lost phone"' in a for a in actions) == 1
    assert code(new_secret) != code(secret) or True  # distinct secrets: codes may match by chance


def _path() -> dict[str, str]:
    import os

    return {"PATH": os.environ["PATH"], "PYTHONPATH": os.environ.get("PYTHONPATH", "")}
