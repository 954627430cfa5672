"""The front door under abuse (server.gate, serving's protocols): connections that never finish,
too many connections, large bodies, many sockets of one address, registrations, and sessions
that end under open sockets. Each is refused clearly and costs the other clients nothing."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from live_server import Client, LiveServer, query, settings
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

from caribbean_fast.server.store.db import Database
from caribbean_fast.server.store.db import connect as open_database


def _server(tmp_path: object, **limits: object) -> LiveServer:
    return LiveServer(settings(str(tmp_path) + "/casino.db", **limits))


def _raw(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    return s


def _reply(s: socket.socket) -> bytes:
    """What the server sent before it closed (b"" if it closed without a word)."""
    data = b""
    while chunk := s.recv(4096):
        data += chunk
    return data


@pytest.fixture
def gated(tmp_path: object) -> Iterator[LiveServer]:
    with _server(tmp_path, handshake=0.5, connections_per_address=4, connections=6) as live:
        yield live


def test_a_connection_that_never_finishes_is_cut(gated: LiveServer) -> None:
    head = _raw(gated.port)
    head.sendall(b"GET /api/lobby HTTP/1.1\r\nHost: x\r\n")  # the head never ends
    upgrade = _raw(gated.port)
    upgrade.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n")
    start = time.monotonic()
    with head, upgrade:
        assert _reply(head) == b"" and _reply(upgrade) == b""
    assert time.monotonic() - start < 3  # cut after the handshake's 0.5 s
    assert httpx.get(f"{gated.http}/api/lobby").status_code == 200  # a complete request is served


def test_connections_past_the_caps_are_refused_and_health_still_answers(gated: LiveServer) -> None:
    held = [_raw(gated.port) for _ in range(4)]
    time.sleep(0.1)
    with _raw(gated.port) as fifth:
        assert _reply(fifth).startswith(b"HTTP/1.1 503")  # past 4 from one address
    others = [_raw(gated.port, "127.0.0.2") for _ in range(2)]  # 6 in all from here on
    time.sleep(0.1)
    with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3")) as late:
        assert late.get(f"{gated.http}/api/lobby").status_code == 503  # past 6 in all
        health = late.get(f"{gated.http}/healthz")
        assert health.status_code == 200 and health.json()["status"] == "ok"
    for s in held + others:
        s.close()


def test_a_large_body_is_refused_unread(tmp_path: object) -> None:
    with _server(tmp_path) as live:
        with _raw(live.port) as declared:  # 200 MB declared, 64 KB sent: the answer comes unread
            declared.sendall(b"POST /api/register HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n\r\n")
            declared.sendall(b"{" + b" " * 65536)
            reply = _reply(declared)
        assert reply.startswith(b"HTTP/1.1 413") and b'"too_big"' in reply

        def chunks() -> Iterator[bytes]:
            yield b'{"name": "' + b"a" * 5000  # no length declared: refused as it arrives
            yield b'"}'

        streamed = httpx.post(f"{live.http}/api/login", content=chunks())
        assert streamed.status_code == 413
        for body in ("[" * 2000 + "]" * 2000, '{"name": "\\ud800abc", "password": "12345678"}'):
            bad = httpx.post(f"{live.http}/api/register", content=body)
            assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed", body


@pytest.mark.slow
def test_one_addresses_sockets_share_its_rate(tmp_path: object) -> None:
    """Frames past an address's rate wait, unread, whichever of its sockets sent them; another
    address is answered meanwhile at once."""
    with _server(tmp_path, address_rate=50.0) as live:
        crowd = [Client(live.ws) for _ in range(5)]
        start = time.monotonic()
        for c in crowd:
            for _ in range(40):  # 200 pings from one address; 40 a socket is under each socket's limit
                c.send(type="ping")
        sock = socket.create_connection(("127.0.0.1", live.port), source_address=("127.0.0.2", 0))
        with connect(live.ws, sock=sock, open_timeout=5) as other:
            other.recv(5)
            asked = time.monotonic()
            other.send(json.dumps({"v": 1, "id": 1, "type": "ping"}))
            assert json.loads(other.recv(5))["ok"] is True
            assert time.monotonic() - asked < 0.5  # not behind the crowd's frames
        answers = [c.answer(k) for c in crowd for k in range(1, 41)]
        assert all(a["ok"] for a in answers)  # every frame answered, in the end
        assert time.monotonic() - start >= (200 - 100) / 50 * 0.9  # a burst of 100, then 50 a second


def test_registrations_are_limited_by_address(tmp_path: object) -> None:
    with _server(tmp_path, registrations=3) as live:
        assert [httpx.post(f"{live.http}/api/guest").status_code for _ in range(3)] == [201] * 3
        refused = httpx.post(f"{live.http}/api/guest")
        assert refused.status_code == 429 and "accounts opened from your address" in refused.json()["error"]["message"]


def test_a_session_that_ends_closes_its_sockets(tmp_path: object) -> None:
    with _server(tmp_path) as live:
        token, other = live.guest(), live.guest()
        sockets = [Client(live.ws, token) for _ in range(2)]
        bystander = Client(live.ws, other)
        out = httpx.post(f"{live.http}/api/logout", headers={"Authorization": f"Bearer {token}"})
        assert out.status_code == 200
        for c in sockets:
            assert _closed_within(c, 1.0) == (4001, "unauthorized")
        assert bystander.cmd("ping")["ok"] is True
        expiring = Client(live.ws, other)
        past = (datetime.now(UTC) - timedelta(seconds=1)).isoformat()
        db = Database(open_database(live.settings.database))
        try:
            db.run_now(lambda tx: tx.execute("UPDATE sessions SET expires = ?", (past,)))
        finally:
            db.dialect.close()
        assert _closed_within(expiring, 1.5) == (4001, "unauthorized")
        assert query(live.settings.database, "SELECT COUNT(*) FROM sessions") == [(1,)]


def _closed_within(client: Client, seconds: float) -> tuple[int, str]:
    deadline = time.monotonic() + seconds
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            client.recv(max(0.01, deadline - time.monotonic()))
    assert time.monotonic() < deadline + 0.2
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code, closed.value.rcvd.reason


def test_a_body_that_trickles_or_is_too_big_holds_no_connection(gated: LiveServer) -> None:
    trickle = _raw(gated.port)
    trickle.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n")
    start = time.monotonic()
    with trickle:
        while time.monotonic() - start < 5:
            try:
                trickle.sendall(b"1\r\na\r\n")
            except OSError:
                break
            time.sleep(0.2)
        assert time.monotonic() - start < 3  # cut at the request's 0.5 s, its answer or not
    with _raw(gated.port) as big:  # a body declared past 4 KB: 413, and the connection closed unread
        big.sendall(b"POST /api/guest HTTP/1.1\r\nHost: x\r\nContent-Length: 209715200\r\n\r\n" + b"x" * 65536)
        reply = _reply(big)
        assert reply.startswith(b"HTTP/1.1 413") and b"too_big" in reply


def test_client_faults_are_answered_not_raised(tmp_path: object, caplog: pytest.LogCaptureFixture) -> None:
    with _server(tmp_path) as live:
        with _raw(live.port) as cut:  # the client hangs up mid-body
            cut.sendall(b'POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"na')
        assert httpx.get(f"{live.http}/static/a%00b").status_code == 404
        sock = socket.create_connection(("127.0.0.1", live.port))
        with connect(live.ws, sock=sock) as ws:  # a text frame that is not UTF-8: closed 1007
            ws.recv(5)
            with ws.protocol_mutex:
                ws.protocol.send_frame(Frame(Opcode.TEXT, b"\xff"))
                ws.send_data()
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        time.sleep(0.2)
    assert not [r for r in caplog.records if r.exc_info], "a client's fault raised inside the server"


def test_one_names_passwords_are_checked_one_at_a_time(tmp_path: object) -> None:
    """Wrong passwords for one name sent at once, from several addresses: one is checked at a
    time, so the failures are counted before the next is tried (5 a minute, not 5 an address)."""
    with _server(tmp_path) as live:
        live.register("victim")

        def attempt(k: int) -> int:
            with httpx.Client(transport=httpx.HTTPTransport(local_address=f"127.0.0.{2 + k}")) as c:
                body = {"name": "victim", "password": f"wrong password {k}"}
                return c.post(f"{live.http}/api/login", json=body).status_code

        with ThreadPoolExecutor(6) as pool:
            codes = list(pool.map(attempt, range(6)))
        assert codes.count(401) < 6 and set(codes) <= {401, 429}, codes
