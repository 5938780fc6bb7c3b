"""A game of Railway Boom through the `caboose` command on a real SQLite file: simulated,
audited, exported and verified by the referee's standalone script; a user's own pack loaded
with `--content PATH`, and a broken one refused saying where and why."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

ROOT = Path(__file__).parents[3]
REFERENCE = ROOT / "domain" / "railway_boom" / "packs" / "reference"


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def test_a_simulated_game_audits_exports_and_verifies(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/boom.sqlite"
    played = json.loads(run("simulate", "railway_boom", "--games", "1", "--players", "3", "--db", db))
    assert played["players"] == 3 and len(played["winners"]) == 1
    report = json.loads(run("audit", played["game_id"], "--db", db, "--json"))
    assert report["ok"] and report["rules"]["ok"] and report["seed"]["ok"], report
    exported = tmp_path / "boom.jsonl"
    run("export", played["game_id"], "--as", "public", "--db", db, "-o", str(exported))
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    assert "log_proof" in lines[-1], "an export ends with its proof in the transparency log"
    kinds = [line["kind"] for line in lines[:-1]]
    assert "SubmissionsRevealed" in kinds and "GameEnded" in kinds
    assert "PaymentAwaited" in kinds, "a seat chose how to pay a \"?\" bid, and the audit re-adjudicated it"
    verified = subprocess.run([sys.executable, str(ROOT / "docs" / "verify_record.py"), str(exported)],
                              capture_output=True, text=True)
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stdout + verified.stderr


def own_pack(tmp_path: Path, name: str) -> Path:
    folder = tmp_path / name
    shutil.copytree(REFERENCE, folder)
    manifest = json.loads((folder / "pack.json").read_text())
    (folder / "pack.json").write_text(json.dumps({**manifest, "id": name, "title": "my own box"}))
    return folder


def test_a_users_own_pack_is_loaded_by_content_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CABOOSE_CONTENT_PATH", str(tmp_path))
    folder = own_pack(tmp_path, "mybox")
    tracks = json.loads((folder / "tracks.json").read_text())
    (folder / "tracks.json").write_text(json.dumps({**tracks, "start_resources": 11}))
    db = f"sqlite:///{tmp_path}/own.sqlite"
    made = run("new", "railway_boom", "--player", "ann", "--player", "bob", "--content", str(folder), "--db", db)
    game_id = made.splitlines()[0]
    created = json.loads(run("events", game_id, "--db", db, "--json").splitlines()[0])
    assert created["kind"] == "GameCreated" and created["data"]["options"]["content"] == "mybox"
    state = json.loads(run("state", game_id, "--db", db, "--json"))
    assert state["state"]["seats"][0]["resources"]["coal"] == 11


def test_a_broken_pack_is_refused_saying_where_and_why(tmp_path: Path) -> None:
    folder = own_pack(tmp_path, "broken")
    cards = json.loads((folder / "stations.json").read_text())
    cards[3]["number"] = cards[2]["number"]
    (folder / "stations.json").write_text(json.dumps(cards))
    db = f"sqlite:///{tmp_path}/broken.sqlite"
    output = run("new", "railway_boom", "--player", "ann", "--player", "bob", "--content", str(folder), "--db", db, ok=False)
    assert "the content pack is not valid" in output
    assert f"stations.json: station card \"{cards[3]['id']}\": number {cards[2]['number']} is already card" in output
