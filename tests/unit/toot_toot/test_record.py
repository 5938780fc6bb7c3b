"""A Toot-Toot Train game played through the service, exported and checked from outside:
`caboose audit` re-adjudicates it, the referee's `docs/verify_record.py` verifies the chain
and re-derives the map roll and every shuffle from the revealed seed, and the record imports
into another store unchanged. The viewer serves the game's maps for its renderer."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

import service.api  # noqa: F401  (the viewer's package is imported through the API's)
from cli.main import cli
from service.content import install
from service.viewer.maps import board_map

VERIFIER = Path(__file__).resolve().parents[3] / "docs" / "verify_record.py"


def run(*args: str) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_an_exported_game_audits_and_verifies(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/toot.sqlite"
    [line] = run("simulate", "toot_toot", "--games", "1", "--players", "3", "--seed", "12", "--db", db).splitlines()
    game_id = json.loads(line)["game_id"]
    report = json.loads(run("audit", game_id, "--db", db, "--json"))
    assert report["ok"] and report["rules"]["ok"] and report["seed"]["ok"], report
    exported = tmp_path / "game.jsonl"
    run("export", game_id, "--as", "public", "--db", db, "-o", str(exported))
    *records, proof = [json.loads(line) for line in exported.read_text().splitlines()]
    assert "log_proof" in proof, "an export ends with its proof in the transparency log"
    assert records[1]["kind"] == "MapChosen" and "random" in records[1]["data"]
    assert records[-2]["kind"] == "GameEnded"
    verified = subprocess.run([sys.executable, str(VERIFIER), str(exported)], capture_output=True, text=True)
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stdout + verified.stderr
    assert "random outcomes re-derived" in verified.stdout
    other = f"sqlite:///{tmp_path}/other.sqlite"
    assert run("import", str(exported), "--db", other).splitlines()[0] == game_id
    assert run("events", game_id, "--db", other, "--json") == run("events", game_id, "--db", db, "--json")


def test_the_viewer_draws_every_map_of_the_pack() -> None:
    install()
    maps = board_map("toot_toot")
    assert maps is not None and set(maps["maps"]) == {"harbour", "forest", "ridge"}
    harbour = maps["maps"]["harbour"]
    assert len(harbour["terrain"]) == 80 and len(harbour["starts"]) == 8
    assert {b["kind"] for b in harbour["buildings"]} == {"site", "city", "factory"}
    renderer = Path(__file__).resolve().parents[3] / "domain" / "toot_toot" / "renderer.js"
    assert "export default" in renderer.read_text()
