"""Behind a reverse proxy (`serve --forwarded-allow-ips`): the forwarded headers of a trusted
proxy name the client's address, scheme and host, so the per-address limits count clients, the
Origin check and the Secure cookie follow the client's own URL, and a table's socket is moved to
the same public URL; from any other peer the same headers are ignored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, ServerProcess, settings, two_tables
from test_server_routing import STUD, frames_until_closed
from websockets.exceptions import InvalidStatus

from caribbean_fast.server.wire.forwarded import Trusted, client_of

PUBLIC = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "casino.example"}


def test_the_client_is_the_last_address_not_a_trusted_proxy() -> None:
    proxies = Trusted(["127.0.0.1", "10.0.0.0/8"])
    assert client_of("203.0.113.7", proxies) == "203.0.113.7"
    assert client_of("198.51.100.1, 203.0.113.7, 10.1.2.3", proxies) == "203.0.113.7"  # spoofed first hop
    assert client_of("[2001:db8::1]:5555, 10.0.0.9:80", proxies) == "2001:db8::1"
    assert client_of("10.0.0.1, 127.0.0.1", proxies) == "10.0.0.1"  # every hop a proxy: the first
    assert client_of("", proxies) is None
    assert "10.200.0.1" in proxies and "192.168.0.1" not in proxies and "localhost" not in proxies
    assert "192.168.0.1" in Trusted(["*"]) and not Trusted([])
    with pytest.raises(ValueError):
        Trusted(["localhost"])


@pytest.fixture(params=["untrusted", "trusted"])
def proxied(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[LiveServer, bool]]:
    """A server that trusts 127.0.0.1 (the tests' proxy) or no proxy at all."""
    trusted = request.param == "trusted"
    proxies = ("127.0.0.1",) if trusted else ()
    limits = {"registrations": 2, "connections_per_address": 3, "forwarded_allow_ips": proxies}
    limits |= {"host_names": ("casino.example",)}  # the public host the proxy forwards
    config = settings(str(tmp_path / "casino.db"), **limits)
    with LiveServer(config) as live:
        yield live, trusted


def guest(live: LiveServer, client: str, **headers: str) -> httpx.Response:
    return httpx.post(f"{live.http}/api/guest", headers={"X-Forwarded-For": client, **headers})


def test_registrations_count_the_forwarded_client_only_from_a_trusted_proxy(
    proxied: tuple[LiveServer, bool],
) -> None:
    live, trusted = proxied
    codes = [guest(live, f"203.0.113.{k}").status_code for k in range(3)]
    assert codes == ([201, 201, 201] if trusted else [201, 201, 429])  # untrusted: all are 127.0.0.1
    again = [guest(live, "198.51.100.9").status_code for _ in range(3)]
    assert again == [201, 201, 429] if trusted else [429, 429, 429]


def test_the_secure_cookie_and_the_origin_follow_the_clients_own_url(proxied: tuple[LiveServer, bool]) -> None:
    live, trusted = proxied
    cookie = guest(live, "203.0.113.1", **PUBLIC).headers["set-cookie"]
    assert ("Secure" in cookie) == trusted
    page = {"Origin": "https://casino.example", **PUBLIC}
    if trusted:
        Client(live.ws, headers=page).close()
    else:
        with pytest.raises(InvalidStatus) as refused:
            Client(live.ws, headers=page)
        assert refused.value.response.status_code == 403
    with pytest.raises(InvalidStatus):  # another site's page, whoever forwards it
        Client(live.ws, headers={**page, "Origin": "https://evil.example"})


def test_sockets_through_a_proxy_count_by_the_forwarded_client(proxied: tuple[LiveServer, bool]) -> None:
    """Three sockets a client address (`connections_per_address`): through a trusted proxy the
    fourth from one client is refused and another client's is not, however many the proxy holds."""
    live, trusted = proxied
    if not trusted:
        pytest.skip("without a trusted proxy the door counts the peer (test_server_front_door.py)")
    one = [Client(live.ws, headers={"X-Forwarded-For": "203.0.113.1"}) for _ in range(3)]
    with pytest.raises(InvalidStatus) as refused:
        Client(live.ws, headers={"X-Forwarded-For": "203.0.113.1"})
    assert refused.value.response.status_code == 503
    other = [Client(f"{live.ws}/{STUD}", headers={"X-Forwarded-For": "203.0.113.2"}) for _ in range(3)]
    one[0].close()
    again = Client(live.ws, headers={"X-Forwarded-For": "203.0.113.1"})  # its count went down on close
    for client in [*one[1:], *other, again]:
        client.close()


@pytest.mark.slow
def test_a_table_moved_behind_a_trusted_proxy_is_the_same_public_url(tmp_path: Path) -> None:
    """SQLite: the first process serves every table, the second none; a table's socket at the
    second is moved to the public URL when a trusted proxy forwarded it, else to the first."""
    tables = str(two_tables(tmp_path))
    database = str(tmp_path / "casino.db")
    first = ServerProcess(database, tables)
    second: ServerProcess | None = None
    try:
        first.wait(2)
        second = ServerProcess(database, tables, "--forwarded-allow-ips", "127.0.0.1", "--host-name", "casino.example")
        second.wait(0)
        through = Client(f"{second.ws}/{STUD}", headers=PUBLIC)
        assert frames_until_closed(through)[0][0]["endpoint"] == f"wss://casino.example/ws/{STUD}"
        direct = Client(f"{first.ws}/{STUD}", headers=PUBLIC)  # the first trusts nobody: it serves the table
        assert direct.cmd("ping")["ok"]
        direct.close()
        first_untrusting = ServerProcess(database, tables)
        try:
            first_untrusting.wait(0)
            plain = Client(f"{first_untrusting.ws}/{STUD}", headers=PUBLIC)
            assert frames_until_closed(plain)[0][0]["endpoint"] == f"{first.ws}/{STUD}"
        finally:
            first_untrusting.kill()
            first_untrusting.log.close()
    finally:
        for process in (first, second):
            if process is not None:
                process.kill()
                process.log.close()
