"""The reverse proxy's map of each table's process (`server/cluster/proxymap.py`): written by the serving
processes when a lease changes, and by `caribbean-fast proxy-map`, from the leases of the live
processes; the proxy reloaded after each change, never when nothing changed."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from live_server import ServerProcess, split
from nginx_server import Nginx, binary

from caribbean_fast.server.cluster.proxymap import reload, render, upstream, write_map

TABLES = 8


def test_the_map_names_each_tables_upstream_and_is_written_only_when_it_changed(tmp_path: Path) -> None:
    assert upstream("ws://10.0.0.5:8001/ws") == "10.0.0.5:8001"
    assert upstream("wss://casino.internal/ws") == "casino.internal:443"
    assert upstream("ws://[::1]:8001/ws") == "[::1]:8001"
    text = render({"b-1": "ws://10.0.0.6:8001/ws", "a-1": "ws://10.0.0.5:8001/ws"})
    assert text.splitlines()[1:] == ['"a-1" 10.0.0.5:8001;', '"b-1" 10.0.0.6:8001;']
    path = tmp_path / "tables.map"
    assert write_map(path, text) and path.read_text() == text
    assert not write_map(path, text)  # the same map: nothing written, no reload
    assert write_map(path, render({})) and [p.name for p in tmp_path.iterdir()] == ["tables.map"]


@pytest.mark.slow
@pytest.mark.nginx
def test_an_unsafe_table_or_upstream_is_left_out_and_a_failed_reload_says_why(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An id that would be an nginx regular expression (`~(`: every reload after fails) or an
    upstream that would end the line never reaches the map; nginx refusing a map is logged with
    its own words."""
    caplog.set_level(logging.INFO)
    unsafe = {"~(-1": "ws://10.0.0.5:8001/ws", 'a" 1': "ws://10.0.0.5:8001/ws", "b-1": "ws://x;y:8001/ws"}
    assert render({**unsafe, "c-1": "ws://10.0.0.5:8001/ws"}).splitlines()[1:] == ['"c-1" 10.0.0.5:8001;']
    left_out = [r for r in caplog.records if r.getMessage() == "a table left out of the proxy's map"]
    assert sorted(getattr(r, "fields", {})["table"] for r in left_out) == sorted(unsafe)
    nginx = binary()
    if nginx is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed; CI must install it (.ci/run)")
        pytest.skip("nginx is not installed here (apt-get install nginx)")
    with Nginx(["127.0.0.1:9"], nginx) as proxy:
        proxy.map_file.write_text('"~(-1" 127.0.0.1:9;\n')  # as a map from before the ids were checked
        caplog.clear()
        reload(proxy.reload_command)
        failed = [r for r in caplog.records if r.getMessage().startswith("the proxy's reload failed (exit status 1)")]
        assert len(failed) == 1 and "[emerg]" in failed[0].getMessage()
        assert "pcre" in getattr(failed[0], "fields", {})["stderr"]  # nginx's own reason
        proxy.map_file.write_text(render({"c-1": "ws://127.0.0.1:9/ws"}))
        caplog.clear()
        reload(proxy.reload_command)
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def reload_script(folder: Path) -> tuple[str, Path]:
    """A stand-in for `nginx -s reload` that counts its runs."""
    log, script = folder / "reloads", folder / "reload.sh"
    script.write_text(f"#!/bin/sh\necho reloaded >> {log}\n")
    script.chmod(0o755)
    return str(script), log


def map_of(path: Path) -> dict[str, str]:
    lines = [line.rstrip(";").split() for line in path.read_text().splitlines() if not line.startswith("#")]
    return {table.strip('"'): where for table, where in lines}


def wait_for_map(path: Path, expected: dict[str, str], seconds: float = 20) -> float:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if path.exists() and map_of(path) == expected:
            return time.monotonic() - start
        time.sleep(0.1)
    raise AssertionError(f"the map is {map_of(path) if path.exists() else None}, not {expected}")


def quiet(reloads: Path, seconds: float = 15) -> int:
    """Waits for a lease period and more (2.5 s) with no reload; the reloads so far. Two writers
    may each write once more while their reads of the leases straddle a change, never on and on."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        before = len(reloads.read_text().splitlines())
        time.sleep(2.5)
        if len(reloads.read_text().splitlines()) == before:
            return before
    raise AssertionError(f"the proxy was still reloaded after {seconds} s with nothing moving")


def proxy_map(database: str, out: Path) -> str:
    """`caribbean-fast proxy-map` once; what it printed."""
    command = [sys.executable, "-m", "caribbean_fast.cli", "proxy-map", "--database", database, "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
    return done.stdout


@pytest.mark.slow
def test_the_servers_keep_the_map_as_the_leases_move(database_url: str, tmp_path: Path) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("with SQLite one process serves: its map is one line a table, and no lease moves")
    tables = tmp_path / "tables.toml"
    tables.write_text(f'[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = {TABLES}\n')
    path = tmp_path / "tables.map"
    command, reloads = reload_script(tmp_path)
    options = ("--proxy-map", str(path), "--proxy-reload", command)
    processes = [ServerProcess(database_url, str(tables), *options) for _ in range(2)]
    try:
        ids = [f"cyberstud-{k + 1}" for k in range(TABLES)]
        where = split(processes, ids, database_url)
        expected = {t: f"127.0.0.1:{p.port}" for t, p in where.items()}
        wait_for_map(path, expected)
        written = path.read_text()
        elsewhere = tmp_path / "on-the-proxy.map"  # the command, as run on a proxy's own host
        assert proxy_map(database_url, elsewhere) == f"{elsewhere}: {TABLES} tables\n"
        assert elsewhere.read_text() == written
        assert proxy_map(database_url, path) == ""  # the same map: not written again
        reloaded = quiet(reloads)  # nothing moving: within a few lease periods, no write and no reload
        processes[1].kill()
        took = wait_for_map(path, {t: f"127.0.0.1:{processes[0].port}" for t in ids})
        assert took < 10  # the survivor's takeover: its lease period and a settle
        deadline = time.monotonic() + 5  # the map is renamed into place, then the proxy reloaded
        while len(reloads.read_text().splitlines()) == reloaded:
            assert time.monotonic() < deadline, "the map changed and the proxy was not reloaded"
            time.sleep(0.05)
    finally:
        for process in processes:
            process.kill()
            process.log.close()
