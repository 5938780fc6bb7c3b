"""Static files answered from memory ahead of Flask: the bytes on disk, revalidation, a file
changed or removed on disk, and everything else handed on untouched."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.test import Client

from service.api import create_app
from service.application import Caboose
from service.settings import Settings
from service.static_files import StaticFiles, static_folders

SECURITY = {"X-Frame-Options": "DENY"}


def handed_on(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("418 I'm a teapot", [("Content-Type", "text/plain")])
    return [f"handed on: {environ['REQUEST_METHOD']} {environ['PATH_INFO']}".encode()]


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "js").mkdir()
    (tmp_path / "js" / "main.js").write_text("export const a = 1;\n")
    (tmp_path / "style.css").write_text("body { margin: 0 }\n")
    return tmp_path


def test_a_file_is_its_bytes_with_its_type_validators_and_the_given_headers(folder: Path) -> None:
    client = Client(StaticFiles(handed_on, {"/s": folder}, SECURITY))
    reply = client.get("/s/js/main.js")
    assert reply.status_code == 200 and reply.data == (folder / "js" / "main.js").read_bytes()
    assert reply.headers["Content-Type"] == "text/javascript; charset=utf-8"
    assert reply.headers["Content-Length"] == str(len(reply.data))
    assert reply.headers["Cache-Control"] == "no-cache" and reply.headers["X-Frame-Options"] == "DENY"
    assert reply.headers["ETag"].startswith('"') and reply.headers["Last-Modified"].endswith("GMT")
    assert client.get("/s/style.css").headers["Content-Type"] == "text/css; charset=utf-8"
    head = client.head("/s/js/main.js")
    assert head.status_code == 200 and head.data == b"" and head.headers["Content-Length"] == str(len(reply.data))


def test_a_copy_the_browser_holds_is_confirmed_not_sent_again(folder: Path) -> None:
    client = Client(StaticFiles(handed_on, {"/s": folder}, SECURITY))
    first = client.get("/s/js/main.js")
    for asked in ({"If-None-Match": first.headers["ETag"]}, {"If-Modified-Since": first.headers["Last-Modified"]},
                  {"If-None-Match": f'"other", {first.headers["ETag"]}'}):
        again = client.get("/s/js/main.js", headers=asked)
        assert again.status_code == 304 and again.data == b"", asked
        assert again.headers["ETag"] == first.headers["ETag"] and again.headers["X-Frame-Options"] == "DENY"
    assert client.get("/s/js/main.js", headers={"If-None-Match": '"other"'}).status_code == 200


def test_a_file_changed_on_disk_is_read_again_and_one_removed_is_handed_on(folder: Path) -> None:
    client = Client(StaticFiles(handed_on, {"/s": folder}, SECURITY))
    before = client.get("/s/js/main.js")
    changed = folder / "js" / "main.js"
    changed.write_text("export const a = 2; // and longer\n")
    stat = changed.stat()
    os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    after = client.get("/s/js/main.js", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.data == changed.read_bytes()
    assert after.headers["ETag"] != before.headers["ETag"]
    changed.unlink()
    assert client.get("/s/js/main.js").data == b"handed on: GET /s/js/main.js"


def test_anything_else_is_handed_on_untouched(folder: Path) -> None:
    client = Client(StaticFiles(handed_on, {"/s": folder}, SECURITY))
    (folder / "added.js").write_text("// added after the start\n")
    for method, path in [("GET", "/s/nope.js"), ("GET", "/s/added.js"), ("GET", "/s/../s/js/main.js"),
                         ("POST", "/s/js/main.js"), ("GET", "/other/js/main.js"), ("GET", "/s/js")]:
        reply = client.open(path, method=method)
        assert reply.status_code == 418, (method, path)


def test_the_app_serves_every_static_folder_it_routes_from_memory() -> None:
    app = create_app(Caboose(Settings(db="memory")))
    folders = static_folders(app)
    assert set(folders) == {"/replay/static", "/pages/static"}
    client = app.test_client()
    for prefix, folder in folders.items():
        for path in [p for p in folder.rglob("*") if p.is_file()][:5]:
            reply = client.get(f"{prefix}/{path.relative_to(folder).as_posix()}")
            assert reply.status_code == 200 and reply.data == path.read_bytes(), path
            assert reply.headers["Content-Security-Policy"].startswith("default-src 'self'")
    assert client.get("/replay/static/js/no-such.js").status_code == 404


def test_a_static_route_whose_folder_does_not_exist_is_left_to_flask(tmp_path: Path) -> None:
    app = Flask(__name__, static_folder=str(tmp_path / "missing"))
    assert static_folders(app) == {}
