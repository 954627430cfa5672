"""A reverse proxy's routing map, kept from the leases: an nginx `map` file naming, for each table
a live process serves, that process's upstream (`host:port` of its endpoint), so the proxy sends
each table's socket, `/ws/<table>`, straight to the process serving it (docs/guides/deploy.md):

    "cyberstud-1" 10.0.0.5:8001;
    "cyberstud-2" 10.0.0.6:8001;

The serving processes write it themselves (`serve --proxy-map FILE --proxy-reload CMD`) when
they take or give up a lease, and every lease period if it differs from the database (a process
died: its tables leave the map for the proxy's default until another takes them); on a host that
runs the proxy alone, `caribbean-fast proxy-map --every 1` does. Every writer renders the same map
from the same rows, writes it only when it changed (whole, by a rename: the proxy never reads half
a file) and then runs the reload command (`nginx -s reload`, which lets the sockets open keep their
process).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import shlex
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from ..store import leases
from ..store.db import Database, Tx
from ..wire.names import TABLE_ID
from .placement import live_endpoints

__all__ = ["ProxyMap", "read_routes", "render", "upstream", "write_map"]

_log = logging.getLogger(__name__)
RELOAD_SECONDS = 30.0  # the most the reload command may take
_UPSTREAM = re.compile(r"([A-Za-z0-9._-]+|\[[0-9A-Fa-f:.]+\]):[0-9]{1,5}")  # a host or [IPv6], and a port


def upstream(endpoint: str) -> str:
    """The proxy's upstream of a process: its endpoint's `host:port` (`ws://10.0.0.5:8001/ws`)."""
    parts = urlsplit(endpoint)
    host = f"[{parts.hostname}]" if ":" in (parts.hostname or "") else parts.hostname
    return f"{host}:{parts.port or (443 if parts.scheme == 'wss' else 80)}"


def read_routes(tx: Tx, database: Database) -> dict[str, str]:
    """A database job: each table a live process holds the lease of, and that process's endpoint
    (with SQLite, whichever process wrote the row: one serves)."""
    rows = leases.endpoints(tx)
    if not database.dialect.shares:
        return rows
    live = live_endpoints(tx, database.dialect)
    return {t: e for t, e in rows.items() if e in live}


def render(routes: dict[str, str]) -> str:
    """The map file's text: a line per table, in the order of their ids. A table id outside the
    safe alphabet (`names.TABLE_ID`: a `~` would make it a regular expression, a quote or a `;`
    would end the line) or an upstream that is not a plain `host:port` is left out, and said:
    the tables' loading refuses such ids, so one here came from elsewhere."""
    head = "# caribbean-fast: the process serving each table, from the leases (caribbean-fast proxy-map)"
    lines = [head]
    for table, endpoint in sorted(routes.items()):
        to = upstream(endpoint)
        if TABLE_ID.fullmatch(table) is None or _UPSTREAM.fullmatch(to) is None:
            _log.error("a table left out of the proxy's map", extra={"fields": {"table": table, "upstream": to}})
            continue
        lines.append(f'"{table}" {to};')
    return "\n".join(lines) + "\n"


def write_map(path: Path, text: str) -> bool:
    """Writes the map whole (a rename over the old one) unless it says that already; whether it did."""
    try:
        if path.read_text() == text:
            return False
    except FileNotFoundError:
        pass
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(handle, "w") as out:
        out.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
    return True


def reload(command: str) -> None:
    """Runs the proxy's reload command; a failure is logged with what the command said (nginx
    names the file and line it refused), and the next change runs it again."""
    try:
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, timeout=RELOAD_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as err:
        _log.error("the proxy's reload failed: %s", err, extra={"fields": {"command": command}})
        return
    if done.returncode:
        said = (done.stderr.strip() or done.stdout.strip())[-1000:]
        fields = {"command": command, "status": done.returncode, "stderr": said}
        _log.error("the proxy's reload failed (exit status %d): %s", done.returncode, said, extra={"fields": fields})


class ProxyMap:
    """A serving process's copy of the map: rewritten (and the proxy reloaded) soon after each
    lease change here, and on each lease period when the database says otherwise."""

    def __init__(self, db: Database, path: str, reload_command: str | None) -> None:
        self.db, self.path, self.reload_command = db, Path(path), reload_command
        self._task: asyncio.Task[None] | None = None
        self._again = False

    def changed(self) -> None:
        """A lease was taken or given up here: the map is rewritten at once (the leases that
        change together, once)."""
        if self._task is not None and not self._task.done():
            self._again = True
            return
        self._task = asyncio.create_task(self._rewrite(), name="proxy map")

    async def _rewrite(self) -> None:
        self._again = True
        while self._again:
            self._again = False
            try:
                await self.refresh()
            except Exception:
                _log.exception("the proxy's map was not written")

    async def refresh(self) -> bool:
        """Writes the map if the leases changed it, then reloads the proxy; whether it did."""
        routes = await self.db.run(lambda tx: read_routes(tx, self.db))
        if not await asyncio.to_thread(write_map, self.path, render(routes)):
            return False
        _log.info("proxy map written", extra={"fields": {"tables": len(routes), "path": str(self.path)}})
        if self.reload_command:
            await asyncio.to_thread(reload, self.reload_command)
        return True
