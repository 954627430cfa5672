"""The page's files (HTML, CSS, JavaScript modules, the icon), read once when the server starts
and answered from memory.

A file read per request cost the loop four hops to a worker thread (stat, open, read, close)
and about three times the CPU of a JSON answer; anonymous readers asking pages again and again
took that from every table's commands (benches/server_readers.py). From memory, a page costs
what any answer does. Each file carries its ETag, and `Cache-Control: no-cache` lets a browser
keep it but ask each time whether it changed: a new version shows at the next load, and an
unchanged one is answered 304, with no body.
"""

from __future__ import annotations

import hashlib
import mimetypes
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

__all__ = ["File", "Files"]

REVALIDATE = "no-cache"  # kept by the browser, asked again at each use (304 when unchanged)


@dataclass(frozen=True)
class File:
    body: bytes
    media_type: str
    etag: str  # quoted, as the header carries it

    @classmethod
    def read(cls, path: Path) -> File:
        body = path.read_bytes()
        media_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return cls(body, media_type, f'"{hashlib.sha256(body).hexdigest()[:32]}"')

    def answer(self, request: Request) -> Response:
        """The file, or 304 when the request's If-None-Match names its ETag."""
        headers = {"ETag": self.etag, "Cache-Control": REVALIDATE}
        if _matches(request.headers.get("if-none-match", ""), self.etag):
            return Response(status_code=304, headers=headers)
        return Response(self.body, media_type=self.media_type, headers=headers)


def _matches(header: str, etag: str) -> bool:
    """Whether an If-None-Match names `etag` (a weak tag compares as its strong self, as RFC
    9110 has it for this header) or is `*`."""
    tags = {t.strip().removeprefix("W/") for t in header.split(",")}
    return etag in tags or "*" in tags


class Files:
    """Every file under a folder, by its path from the folder ("js/net.js")."""

    def __init__(self, folder: Path) -> None:
        found = sorted(p for p in folder.rglob("*") if p.is_file())
        self._files = {p.relative_to(folder).as_posix(): File.read(p) for p in found}

    def __getitem__(self, name: str) -> File:
        return self._files[name]

    def answer(self, request: Request, name: str) -> Response:
        """The file `name`, or 404 for a name that is none of them (a NUL byte, `..` included)."""
        found = self._files.get(name)
        if found is None:
            return Response("Not Found", 404, media_type="text/plain")
        return found.answer(request)
