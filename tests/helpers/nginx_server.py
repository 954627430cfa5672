"""nginx from Debian in front of server processes, for the tests and the bench: the configuration
of docs/guides/deploy.md without TLS, in a temporary folder, routing each table's socket
(`/ws/<table>`) by the map the servers keep (`serve --proxy-map`), everything else to any
process."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = ["Nginx", "binary", "config"]


def binary() -> str | None:
    return shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.path.exists(p)), None)


def config(folder: Path, port: int, upstreams: list[str], map_file: Path) -> str:
    """nginx.conf: `/ws/<table>` to the process the map names (any process while it names none),
    the rest to any process; the client's address and scheme forwarded, WebSockets upgraded."""
    servers = "".join(f"        server {u};\n" for u in upstreams)
    kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    temp = "".join(f"    {kind}_temp_path {folder}/tmp/{kind};\n" for kind in kinds)
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
{temp}
    map $cf_table $cf_upstream {{
        default caribbean_fast;
        include {map_file};
    }}
    map $http_upgrade $cf_connection {{
        default upgrade;
        "" "";
    }}
    upstream caribbean_fast {{
{servers}    }}
    server {{
        listen 127.0.0.1:{port};
        proxy_http_version 1.1;
        proxy_set_header Host $http_host;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $cf_connection;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_read_timeout 1h;
        location ~ ^/ws/(?<cf_table>[^/]+)$ {{
            proxy_pass http://$cf_upstream;
        }}
        location / {{
            proxy_pass http://caribbean_fast;
        }}
    }}
}}
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Nginx:
    """nginx on a free loopback port in front of `upstreams` (`host:port`); `map_file` is the
    map the servers write, `reload_command` what they run after."""

    def __init__(self, upstreams: list[str], nginx: str | None = None) -> None:
        self.nginx = nginx or binary() or "nginx"
        self.folder = Path(tempfile.mkdtemp(prefix="cf-nginx-"))
        (self.folder / "tmp").mkdir()
        self.port, self.map_file = _free_port(), self.folder / "tables.map"
        self.map_file.write_text("")
        self.conf = self.folder / "nginx.conf"
        self.conf.write_text(config(self.folder, self.port, upstreams, self.map_file))
        self.reload_command = f"{self.nginx} -p {self.folder} -c {self.conf} -s reload"

    @property
    def host_name(self) -> str:
        """The host players reach nginx by, which it passes on as `Host` (`serve --host-name`)."""
        return f"127.0.0.1:{self.port}"

    @property
    def http(self) -> str:
        return f"http://{self.host_name}"

    def start(self) -> None:
        subprocess.run([self.nginx, "-p", str(self.folder), "-c", str(self.conf)], check=True, capture_output=True)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), 1).close()
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"nginx did not start: {self.errors()}") from None
                time.sleep(0.05)

    def errors(self) -> str:
        log = self.folder / "error.log"
        return log.read_text() if log.exists() else ""

    def stop(self) -> None:
        command = [self.nginx, "-p", str(self.folder), "-c", str(self.conf), "-s", "stop"]
        subprocess.run(command, check=False, capture_output=True)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Nginx:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
