"""`caboose content validate|list` and `caboose new --content`, run as the user runs them:
the installed console script in a subprocess."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

from service.application import Caboose
from service.settings import RateLimits, Settings
from tests.e2e.conftest import Client, serving

CABOOSE = str(Path(sys.executable).parent / "caboose")
USA = Path(__file__).resolve().parents[2] / "domain" / "ticket_to_ride" / "packs" / "usa"


def caboose(*args: str, content_path: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CABOOSE_CONTENT_PATH", "CABOOSE_DB")}
    if content_path is not None:
        env["CABOOSE_CONTENT_PATH"] = content_path
    return subprocess.run([CABOOSE, *args], capture_output=True, text=True, env=env, timeout=120)


def a_pack(root: Path, pack_id: str) -> Path:
    folder = root / pack_id
    shutil.copytree(USA, folder)
    manifest = json.loads((folder / "pack.json").read_text())
    (folder / "pack.json").write_text(json.dumps({**manifest, "id": pack_id}))
    return folder


def test_validate_a_good_pack(tmp_path: Path) -> None:
    result = caboose("content", "validate", str(USA))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("usa: valid ticket_to_ride pack 'usa' version 1, 5 files, sha256 ")


def test_validate_reports_every_problem_and_fails(tmp_path: Path) -> None:
    folder = a_pack(tmp_path, "broken")
    routes = json.loads((folder / "routes.json").read_text())
    routes[0]["a"] = "Atlantis"
    routes[1]["length"] = 0
    (folder / "routes.json").write_text(json.dumps(routes))
    (folder / "tickets.json").write_text('[\n {"id": "x"\n]')
    result = caboose("content", "validate", str(folder))
    assert result.returncode == 1 and result.stdout == ""
    assert result.stderr.splitlines() == [
        'broken/routes.json: route "Atlanta|Charleston": unknown city "Atlantis"',
        'broken/routes.json: route "Atlanta|Miami": length 0 is not between 1 and 6',
        "broken/tickets.json: line 3, column 1: not JSON: Expecting ',' delimiter",
    ]


def test_validate_a_folder_that_is_no_pack(tmp_path: Path) -> None:
    result = caboose("content", "validate", str(tmp_path))
    assert result.returncode == 1
    assert f"{tmp_path.name}/pack.json: missing" in result.stderr


def test_list_shows_shipped_and_user_packs(tmp_path: Path) -> None:
    a_pack(tmp_path / "packs", "usa_mine")
    result = caboose("content", "list", "--json", content_path=str(tmp_path / "packs"))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    by_id = {line["id"]: line for line in lines}
    assert {"usa", "usa_mine"} <= set(by_id)
    assert set(by_id["usa_mine"]) >= {"id", "game", "version", "sha256", "path"}
    assert by_id["usa_mine"]["path"] == str((tmp_path / "packs" / "usa_mine").resolve())
    assert by_id["usa_mine"]["game"] == "ticket_to_ride" and len(by_id["usa_mine"]["sha256"]) == 64
    assert [line["id"] for line in lines].index("usa") < [line["id"] for line in lines].index("usa_mine")


def test_list_names_a_broken_pack_on_the_path(tmp_path: Path) -> None:
    folder = a_pack(tmp_path / "packs", "usa_broken")
    (folder / "cities.json").write_text("{}")
    result = caboose("content", "list", content_path=str(tmp_path / "packs"))
    assert result.returncode == 0
    assert "usa_broken" not in result.stdout
    assert "usa_broken/cities.json: must be a JSON array, not object" in result.stderr


def test_new_with_a_pack_folder_then_audit(tmp_path: Path) -> None:
    folder = a_pack(tmp_path / "packs", "usa_copy")
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    created = caboose("new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--content", str(folder),
                      "--db", db, content_path=str(tmp_path / "packs"))
    assert created.returncode == 0, created.stderr
    game_id = created.stdout.splitlines()[0]  # the id, then the tokens
    exported = caboose("export", game_id, "--db", db)
    first = json.loads(exported.stdout.splitlines()[0])
    assert first["data"]["content"]["id"] == "usa_copy" and first["data"]["options"]["map"] == "usa_copy"
    audited = caboose("audit", game_id, "--db", db, "--json", content_path=str(tmp_path / "packs"))
    assert audited.returncode == 0 and json.loads(audited.stdout)["ok"]
    # Without the pack on the path the game cannot be judged, and the audit says why.
    missing = caboose("audit", game_id, "--db", db)
    assert missing.returncode != 0
    assert "usa_copy" in missing.stdout + missing.stderr


def test_new_with_an_unknown_pack_id_stores_nothing(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    refused = caboose("new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--content", "atlantis", "--db", db)
    assert refused.returncode != 0
    assert "unknown_content" in refused.stderr and "'atlantis'" in refused.stderr
    stored = tmp_path / "cli.sqlite"
    if stored.exists():
        with sqlite3.connect(stored) as conn:
            tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            assert all(conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone() == (0,)
                       for name in tables if "event" in name), tables


def test_over_http_a_game_names_an_installed_pack_and_never_a_path(client: Client, store: Caboose) -> None:
    created = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b"], "options": {"map": "usa"}})
    assert created.status == 201, created.body
    first = store.records(created.body["game_id"])[0]["data"]
    assert first["content"]["id"] == "usa" and len(first["content"]["sha256"]) == 64
    for named in ("atlantis", str(USA)):
        refused = client.post("/api/v1/games", {"game": "ticket_to_ride", "players": ["a", "b"], "options": {"content": named}})
        assert refused.status == 400 and refused.body["code"] == "unknown_content", refused.body
        assert repr(named) in refused.body["detail"]


def test_new_with_a_folder_off_the_path_is_refused_and_stores_nothing(tmp_path: Path) -> None:
    folder = a_pack(tmp_path / "elsewhere", "usa_loose")
    db = tmp_path / "cli.sqlite"
    refused = caboose("new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--content", str(folder),
                      "--db", f"sqlite:///{db}")
    assert refused.returncode != 0 and refused.stdout == ""
    [line] = refused.stderr.strip().splitlines()  # one line, never a traceback
    assert "is not on CABOOSE_CONTENT_PATH" in line and f"CABOOSE_CONTENT_PATH={folder.resolve()}" in line, line
    listed = caboose("events", "--help")  # the store: no game was made
    assert listed.returncode == 0
    if db.exists():
        with sqlite3.connect(db) as conn:
            tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            assert all(conn.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone() == (0,)
                       for name in tables if "event" in name), tables


def test_one_game_whose_pack_is_gone_is_listed_and_the_others_still_are(tmp_path: Path) -> None:
    """A game made on a pack the server cannot find (made with the pack on the path, served
    without it) is listed with what its records say; the listing never fails for it."""
    packs = tmp_path / "packs"
    a_pack(packs, "usa_mine")
    db = f"sqlite:///{tmp_path}/shared.sqlite"
    made = caboose("new", "ticket_to_ride", "--player", "Ann", "--player", "Bob", "--content", "usa_mine",
                   "--db", db, content_path=str(packs))
    assert made.returncode == 0, made.stderr
    gone = made.stdout.splitlines()[0]
    other = caboose("new", "ticket_to_ride", "--player", "Cleo", "--player", "Dan", "--db", db)
    assert other.returncode == 0, other.stderr
    fine = other.stdout.splitlines()[0]

    with serving(Caboose(Settings(db=db, rate_limits=RateLimits.every("1000/minute")))) as client:
        for _ in range(2):  # the second answer too: nothing is left half-read
            listing = client.get("/api/v1/games")
            assert listing.status == 200, listing.body
            by_id = {g["game_id"]: g for g in listing.body["games"]}
            assert set(by_id) == {gone, fine}
            assert by_id[fine]["problem"] is None and by_id[fine]["active_seats"]
            entry = by_id[gone]
            assert [s["name"] for s in entry["seats"]] == ["Ann", "Bob"]
            assert entry["problem"]["code"] == "content_missing" and "usa_mine" in entry["problem"]["detail"]
            assert entry["status"] == "active" and entry["active_seats"] == [] and "usa_mine" in entry["title"]
        thai = client.get("/api/v1/games", headers={"Accept-Language": "th"}).body
        detail = next(g for g in thai["games"] if g["game_id"] == gone)["problem"]["detail"]
        assert "usa_mine" in detail and re.search("[\u0e00-\u0e7f]", detail), detail
        by_player = client.get("/api/v1/games?player=ann")
        assert by_player.status == 200 and [g["game_id"] for g in by_player.body["games"]] == [gone]
        # The game itself says what is missing, as a problem document.
        summary = client.get(f"/api/v1/games/{gone}")
        assert summary.status == 422 and summary.body["code"] == "content_missing"


def test_validate_a_folder_of_packs(tmp_path: Path) -> None:
    a_pack(tmp_path, "one")
    broken = a_pack(tmp_path, "two")
    (broken / "rules.json").unlink()
    result = caboose("content", "validate", str(tmp_path))
    assert result.returncode == 1
    assert result.stdout.startswith("one: valid ticket_to_ride pack 'one'")
    assert result.stderr.splitlines() == ["two/rules.json: missing (the game needs this file; list it in pack.json)"]
