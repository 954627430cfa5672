"""A deployment: nginx from Debian in front of two server processes and PostgreSQL, as
docs/guides/deploy.md sets it up. Players open each table's socket through nginx, which routes it
by the map the servers keep: no command is relayed. One server is killed with SIGKILL: its tables
move to the other, the map follows, the players come back through nginx, and the books reconcile.
Skipped where nginx or PostgreSQL is missing, except in CI (CI=true), where that fails."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from browser_helpers import sit
from live_server import ServerProcess, _free_port, books, split
from nginx_server import Nginx, binary
from playwright.sync_api import Browser, Page, expect
from test_server_placement import command
from test_server_proxy_map import map_of, wait_for_map
from test_server_relay import relay_metrics

from caribbean_fast.play.remote import Link

TABLES = 4
IDS = [f"cyberstud-{k + 1}" for k in range(TABLES)]
Where = dict[str, ServerProcess]


@pytest.fixture
def nginx_binary() -> str:
    found = binary()
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("nginx is not installed; CI must install it (.ci/run)")
        pytest.skip("nginx is not installed here (apt-get install nginx)")
    return found


def behind(proxy: Nginx) -> list[str]:
    """A server process's options behind nginx: it trusts nginx's forwarded headers, answers to
    the host the players reach nginx by, and keeps the map."""
    return [
        "--forwarded-allow-ips",
        "127.0.0.1",
        "--host-name",
        proxy.host_name,
        "--proxy-map",
        str(proxy.map_file),
        "--proxy-reload",
        proxy.reload_command,
    ]


@contextlib.contextmanager
def deployed(nginx: str, postgres_database: str, folder: Path) -> Iterator[tuple[Nginx, list[ServerProcess], Where]]:
    """nginx in front of two server processes of `TABLES` cyberstud tables, once the map names
    each table's process; each table's process."""
    tables = folder / "tables.toml"
    tables.write_text(f'[[table]]\nvariant = "cyberstud"\nseats = 1\ncount = {TABLES}\n')
    ports = [_free_port() for _ in range(2)]
    proxy = Nginx([f"127.0.0.1:{p}" for p in ports], nginx)
    processes: list[ServerProcess] = []
    try:
        proxy.start()
        processes = [ServerProcess(postgres_database, str(tables), *behind(proxy), port=p) for p in ports]
        where = split(processes, IDS, postgres_database)
        wait_for_map(proxy.map_file, {t: f"127.0.0.1:{p.port}" for t, p in where.items()})
        yield proxy, processes, where
        assert "[emerg]" not in proxy.errors()
    finally:
        for process in processes:
            process.kill()
            process.log.close()
        proxy.stop()


def connected(process: ServerProcess, page: Page) -> None:
    """Waits until the page's socket is open at the process (through nginx)."""
    deadline = time.monotonic() + 20
    while (process.health() or {}).get("connections", 0) < 1:
        assert time.monotonic() < deadline, page.locator("#message").text_content()
        time.sleep(0.1)


def test_players_come_back_through_nginx_after_a_server_is_killed(
    nginx_binary: str, postgres_database: str, tmp_path: Path
) -> None:
    with deployed(nginx_binary, postgres_database, tmp_path) as (proxy, processes, where):
        players = {}
        for table in IDS:  # each at its table's socket through nginx, with a guest made through nginx
            token = httpx.post(f"{proxy.http}/api/guest").json()["token"]
            players[table] = link = Link(proxy.http, token, table)
            link.open()
            assert command(link, "sit", table=table, buy_in=10_000) == {"seat": 0}
            command(link, "ante", table=table, amount=200)
            command(link, "deal", table=table)
            command(link, "fold", table=table)
        for process in processes:  # nginx sent every table's socket to its process: nothing relayed
            relayed = relay_metrics(process)
            assert not any(v for k, v in relayed.items() if k.startswith("cf_relayed_commands_total")), relayed
        victim = where[IDS[0]]
        survivor = processes[1] if victim is processes[0] else processes[0]
        victim.kill()
        killed = time.monotonic()
        back = {}
        for table, link in players.items():  # the victim's sockets dropped: opened again through nginx
            command(link, "ante", seconds=20, table=table, amount=200)
            back[table] = time.monotonic() - killed
        print(f"back through nginx {back} s after the kill")
        assert max(back.values()) < 15, back
        assert map_of(proxy.map_file) == {t: f"127.0.0.1:{survivor.port}" for t in IDS}
        for table, link in players.items():
            assert command(link, "leave", table=table) == {"returned": 10_000 - 200}  # the ante not dealt: back
            link.close()
    assert books(postgres_database)[0]


def test_the_page_follows_its_table_through_nginx(
    nginx_binary: str, postgres_database: str, tmp_path: Path, browser: Browser
) -> None:
    """The table page at nginx: its table's process killed, the page comes back at the survivor;
    that process started again, the survivor gives the table back between rounds and tells the
    page `moved`, which opens its socket again through nginx, at the process serving it now."""
    with deployed(nginx_binary, postgres_database, tmp_path) as (proxy, processes, where):
        page = browser.new_page()
        sit(page, proxy, "cyberstud")
        table = page.evaluate("fetch('/api/limit').then((r) => r.json())")["seats"][0]["table"]
        first, other = where[table], processes[1] if where[table] is processes[0] else processes[0]
        first.kill()
        other.wait(TABLES, seconds=30)  # every table at the survivor before the first starts again
        wait_for_map(proxy.map_file, dict.fromkeys(IDS, f"127.0.0.1:{other.port}"))
        connected(other, page)
        expect(page.locator("#link")).to_have_text("online", timeout=20_000)  # at the survivor
        restarted = ServerProcess(postgres_database, str(tmp_path / "tables.toml"), *behind(proxy), port=first.port)
        processes.append(restarted)
        restarted.wait(sum(1 for p in where.values() if p is first), seconds=30)  # the table given back: moved
        wait_for_map(proxy.map_file, {t: f"127.0.0.1:{p.port}" for t, p in where.items()})
        connected(restarted, page)  # the page's socket follows `moved` to the restarted process
        page.keyboard.press("Enter")  # a round at the restarted process, through nginx
        expect(page.locator("#result")).to_have_text("Your decision", timeout=10_000)
        page.keyboard.press("-")
        expect(page.locator("#recall li").first).to_contain_text("folded, lost")
        moved = [line for line in other.logs().splitlines() if "given back" in line and f'"{table}"' in line]
        assert moved, "the survivor gave the table back"
        page.context.close()
    assert books(postgres_database)[0]
