"""A throwaway PostgreSQL server for the tests, started from the installed binaries (initdb and
pg_ctl, /usr/lib/postgresql/*/bin) in a temporary folder, on a free loopback port. As root, the
server runs as the `postgres` user (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg


def binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _as_postgres() -> list[str]:
    if os.geteuid() != 0:
        return []
    return ["runuser", "-u", "postgres", "--"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """A cluster in a temporary folder; `stop` and `start` it under a running server (the
    chaos faults), leave the `with` to remove it."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin_dir, self.folder = bin_dir, Path(tempfile.mkdtemp(prefix="cf-pg-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        self.data, port = self.folder / "data", _free_port()
        subprocess.run(
            [
                *_as_postgres(),
                str(bin_dir / "initdb"),
                "-D",
                str(self.data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
            ],
            check=True,
            capture_output=True,
        )
        self.options = f"-p {port} -k {self.folder} -c listen_addresses=127.0.0.1 -c max_connections=200"
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    def _ctl(self, *args: str, check: bool = True) -> None:
        command = [*_as_postgres(), str(self.bin_dir / "pg_ctl"), "-D", str(self.data), *args]
        subprocess.run(command, check=check, capture_output=True)

    def start(self) -> None:
        self._ctl("-o", self.options, "-l", str(self.folder / "log"), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "-w", "stop", check=False)

    def each_backend(self, database_url: str, function: str) -> None:
        """`pg_terminate_backend` or `pg_cancel_backend` on every other connection to the database."""
        name = database_url.rsplit("/", 1)[1]
        sql = f"SELECT {function}(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()"
        with psycopg.connect(self.url, autocommit=True) as db:
            db.execute(sql, (name,))

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def cluster(bin_dir: Path) -> Iterator[str]:
    """Runs a cluster; yields the URL of its `postgres` database."""
    with Cluster(bin_dir) as running:
        yield running.url


def fresh_database(url: str) -> str:
    """A new empty database on the cluster; its URL."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return url.rsplit("/", 1)[0] + f"/{name}"
