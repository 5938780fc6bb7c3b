"""The pages' static files (scripts, styles, the board layouts, the API docs' renderer),
answered ahead of Flask from memory.

A page's first load asks for a dozen and more of them at once, six at a time over the
browser's connections, each before the page can run. Through Flask each cost the server about
0.65 ms (routing, a request context, `send_file`'s checks, the after-request hooks); here
about half that, waitress's own share (`benchmarks/bench_static.py`). A file is read once, and again when it changes on
disk; a path not found here (a file added since, anything outside the folders, a method other
than GET or HEAD) goes on to Flask as before, which answers it as it always did.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.http import http_date, is_resource_modified
from werkzeug.utils import get_content_type

WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


@dataclass(frozen=True)
class StaticFile:
    """One file as read: its bytes, and the headers every answer with it carries (the
    Content-Type first, which a 304 leaves out)."""

    path: Path
    stamp: tuple[int, int]  # modification time (ns) and size, when read
    body: bytes
    etag: str
    modified: datetime  # to the second, as Last-Modified says it
    headers: tuple[tuple[str, str], ...]

    @classmethod
    def read(cls, path: Path, extra: Mapping[str, str]) -> StaticFile:
        stat = path.stat()  # before reading: a file changed meanwhile is read again on its next request
        body = path.read_bytes()
        etag = hashlib.sha256(body).hexdigest()[:32]
        modified = datetime.fromtimestamp(int(stat.st_mtime), UTC)
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        headers = (("Content-Type", get_content_type(mimetype, "utf-8")), ("ETag", f'"{etag}"'),
                   ("Last-Modified", http_date(modified)), ("Cache-Control", "no-cache"), *extra.items())
        return cls(path, (stat.st_mtime_ns, stat.st_size), body, etag, modified, headers)


class StaticFiles:
    """WSGI middleware: `folders` maps a URL prefix (`/replay/static`) to the folder served
    under it, `files` a URL path to one file served at it (a game's renderer, from its own
    package); `headers` go on every answer (the security headers Flask adds to its own)."""

    def __init__(self, app: WSGIApp, folders: Mapping[str, Path], headers: Mapping[str, str],
                 files: Mapping[str, Path] | None = None) -> None:
        self.app = app
        self.extra = dict(headers)
        self.files: dict[str, StaticFile] = {url: StaticFile.read(path, self.extra) for url, path in (files or {}).items()}
        for prefix, folder in folders.items():
            for path in sorted(Path(folder).rglob("*")):
                if path.is_file():
                    self.files[f"{prefix.rstrip('/')}/{path.relative_to(folder).as_posix()}"] = StaticFile.read(path, self.extra)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        served = self.current(environ.get("PATH_INFO", "")) if method in ("GET", "HEAD") else None
        if served is None:
            return self.app(environ, start_response)
        if not is_resource_modified(environ, etag=served.etag, last_modified=served.modified):
            start_response("304 Not Modified", list(served.headers[1:]))
            return [b""]
        start_response("200 OK", [*served.headers, ("Content-Length", str(len(served.body)))])
        return [served.body if method == "GET" else b""]

    def current(self, url_path: str) -> StaticFile | None:
        """The file at `url_path` as it is on disk now: read again if it changed, None if it
        is gone (or was never here)."""
        known = self.files.get(url_path)
        if known is None:
            return None
        try:
            stat = os.stat(known.path)
        except OSError:
            return None
        if (stat.st_mtime_ns, stat.st_size) != known.stamp:
            known = self.files[url_path] = StaticFile.read(known.path, self.extra)
        return known


def static_folders(app: Flask) -> dict[str, Path]:
    """The folder behind each of the app's static routes (`/replay/static/<path:filename>`
    and the like), by the URL prefix it is served under."""
    folders = {}
    for rule in app.url_map.iter_rules():
        owner_name, _, endpoint = rule.endpoint.rpartition(".")
        owner = app.blueprints[owner_name] if owner_name else app
        if endpoint == "static" and rule.rule.endswith("/<path:filename>") and owner.static_folder:
            folder = Path(owner.static_folder)
            if folder.is_dir():
                folders[rule.rule.removesuffix("/<path:filename>")] = folder
    return folders
