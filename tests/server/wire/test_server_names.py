"""The names the front door knows (server/wire/names.py): a request naming a host the server does not
answer to is refused (DNS rebinding), a page's Origin is one of its names and nothing else, a
table id outside the safe alphabet is refused at load, and `--forwarded-allow-ips '*'` needs the
operator to say the proxy is the only way in. Through real servers: a thread, and
`caribbean-fast serve` processes."""

from __future__ import annotations

import socket
from pathlib import Path

import httpx
import pytest
from live_server import Client, LiveServer, ServerProcess, settings
from websockets.exceptions import InvalidStatus
from websockets.sync.client import ClientConnection, connect

from caribbean_fast.errors import ServerError
from caribbean_fast.server import load_tables
from caribbean_fast.server.wire.names import TABLE_RULE


def _named(live: LiveServer, host: str, origin: str | None = None) -> ClientConnection:
    """A socket to the server at 127.0.0.1 whose URL names `host`, as a browser sends it after
    the name was made to resolve there: its Host, and its page's Origin when given."""
    sock = socket.create_connection(("127.0.0.1", live.port), timeout=5)
    headers = {"Origin": origin} if origin else {}
    return connect(f"ws://{host}/ws", sock=sock, additional_headers=headers, open_timeout=5)


def _refused(live: LiveServer, host: str, origin: str | None = None) -> int:
    with pytest.raises(InvalidStatus) as refused:
        _named(live, host, origin)
    return refused.value.response.status_code


def test_a_rebound_name_is_refused_and_a_listed_one_served(tmp_path: Path) -> None:
    with LiveServer(settings(str(tmp_path / "casino.db"), host_names=("casino.example",))) as live:
        evil = f"evil.example:{live.port}"
        page = httpx.get(f"{live.http}/api/lobby", headers={"Host": evil})
        assert page.status_code == 421 and page.json()["error"]["code"] == "wrong_host"
        assert "casino.example" not in page.text  # the rebound page reads the refusal: it names nothing
        assert httpx.post(f"{live.http}/api/guest", headers={"Host": evil}).status_code == 421
        assert _refused(live, evil, f"http://{evil}") == 421  # Origin and Host agree: still not its name
        assert _refused(live, evil) == 421  # no Origin (a program) names the host all the same
        for ours in (f"casino.example:{live.port}", f"127.0.0.1:{live.port}", f"localhost:{live.port}"):
            assert httpx.get(f"{live.http}/api/lobby", headers={"Host": ours}).status_code == 200, ours
            with _named(live, ours, f"http://{ours}") as ws:
                assert '"welcome"' in str(ws.recv(5))
        assert httpx.get(f"{live.http}/api/lobby", headers={"Host": f"127.0.0.2:{live.port}"}).status_code == 421
        assert _refused(live, f"127.0.0.1:{live.port + 1}") == 421  # its address at another port


def test_an_origin_with_userinfo_or_of_another_host_is_refused(tmp_path: Path) -> None:
    with LiveServer(settings(str(tmp_path / "casino.db"))) as live:
        own = f"127.0.0.1:{live.port}"
        for origin in (f"http://evil@{own}", f"http://evil:pw@{own}", f"http://{own}/", "null", "http://evil.example"):
            with pytest.raises(InvalidStatus) as refused:
                Client(live.ws, headers={"Origin": origin})
            assert refused.value.response.status_code == 403, origin
        assert Client(live.ws, headers={"Origin": f"http://localhost:{live.port}"}).welcome["type"] == "welcome"


def _serve_fails(tmp_path: Path, tables: str, *extra: str) -> str:
    """`caribbean-fast serve` that must refuse to start: its one line on stderr."""
    process = ServerProcess(str(tmp_path / "casino.db"), tables, *extra)
    try:
        assert process.process.wait(30) == 2
        return process.logs()
    finally:
        process.log.close()


def test_a_table_id_outside_the_safe_alphabet_is_refused_at_load(tmp_path: Path) -> None:
    """`~(` would be an nginx regular expression in the proxy's map, failing every reload after."""
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "cyberstud"\n\n[[table]]\nvariant = "cyberstud"\nname = "~("\n')
    said = _serve_fails(tmp_path, str(tables))
    assert f"{tables}: table 2: name '~(': the table id '~(-1' is not allowed: ids are {TABLE_RULE}" in said
    assert said.count("\n") == 1 and not (tmp_path / "casino.db").exists()  # one line, nothing made
    for name in ("Cyberstud", "a b", "-x", "x" * 63):  # x * 63 + "-1" is 65 characters
        tables.write_text(f'[[table]]\nvariant = "cyberstud"\nname = "{name}"\n')
        with pytest.raises(ServerError, match="is not allowed: ids are lowercase"):
            load_tables(tables)
    tables.write_text(f'[[table]]\nvariant = "cyberstud"\nname = "{"x" * 62}"\ncount = 9\n')
    assert len(load_tables(tables)) == 9  # 64 characters with its number


@pytest.mark.slow
def test_any_proxy_is_trusted_only_when_the_proxy_is_the_only_way_in(tmp_path: Path) -> None:
    tables = tmp_path / "tables.toml"
    tables.write_text('[[table]]\nvariant = "cyberstud"\n')
    said = _serve_fails(tmp_path, str(tables), "--forwarded-allow-ips", "*")
    assert "'*' believes the X-Forwarded-For of any peer" in said and "--only-via-proxy" in said
    process = ServerProcess(str(tmp_path / "casino.db"), str(tables), "--forwarded-allow-ips", "*", "--only-via-proxy")
    try:
        process.wait(1)
        secure = {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"}
        cookie = httpx.post(f"{process.http}/api/guest", headers=secure).headers["set-cookie"]
        assert "Secure" in cookie  # any peer's forwarded headers are believed
    finally:
        process.kill()
        process.log.close()
