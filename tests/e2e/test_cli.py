"""The `caboose` command end to end on a real SQLite file: new, state, events,
legal-moves, move, audit, export, import, simulate; and clear errors that change nothing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from cli.main import cli

SEED = "cd" * 32


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def finished_game(db: str) -> str:
    game_id = run("new", "ticket_to_ride", "--player", "ann", "--player", "bob", "--seed", SEED, "--db", db).strip()
    for _ in range(3000):
        summary = json.loads(run("state", game_id, "--db", db, "--json"))
        if summary["state"]["phase"] == "over":
            return game_id
        seat = summary["state"]["active_seats"][0]
        move = run("legal-moves", game_id, "--seat", str(seat), "--db", db, "--json").splitlines()[-1]
        run("move", game_id, move, "--seat", str(seat), "--db", db)
    raise AssertionError("the game did not end")


def test_a_game_from_the_shell_audits_exports_and_verifies(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = finished_game(db)
    report = json.loads(run("audit", game_id, "--db", db, "--json"))
    assert report["ok"] and report["rules"]["ok"] and report["seed"]["ok"]
    exported = tmp_path / "game.jsonl"
    run("export", game_id, "--as", "public", "--db", db, "-o", str(exported))
    # The referee's short script, standard library only, written from FORMAT.md.
    script = Path(__file__).parents[2] / "docs" / "verify_record.py"
    verified = subprocess.run([sys.executable, str(script), str(exported)], capture_output=True, text=True)
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stderr
    other = f"sqlite:///{tmp_path}/other.sqlite"
    assert run("import", str(exported), "--db", other).strip() == game_id
    assert run("events", game_id, "--db", other, "--json") == run("events", game_id, "--db", db, "--json")


def test_a_tampered_import_is_refused_naming_the_version(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = finished_game(db)
    lines = run("export", game_id, "--db", db).splitlines()
    record = json.loads(lines[9])
    record["data"]["tampered"] = True
    lines[9] = json.dumps(record)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    other = f"sqlite:///{tmp_path}/other.sqlite"
    output = run("import", str(bad), "--db", other, ok=False)
    assert ("version: 10" in output and "hash_mismatch" in output) or "altered" in output
    assert run("state", game_id, "--db", other, ok=False).count("game_not_found") == 1


def test_bad_input_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/cli.sqlite"
    game_id = run("new", "ticket_to_ride", "--player", "a", "--player", "b", "--seed", SEED, "--db", db).strip()
    events_before = run("events", game_id, "--db", db, "--json")
    assert "not JSON" in run("move", game_id, "{draw", "--seat", "0", "--db", db, ok=False)
    assert "unknown_move_type" in run("move", game_id, '{"type": "fly"}', "--seat", "0", "--db", db, ok=False)
    assert "game_not_found" in run("state", "nope", "--db", db, ok=False)
    assert "unknown_game" in run("new", "chess", "--player", "a", "--db", db, ok=False)
    assert run("events", game_id, "--db", db, "--json") == events_before


def test_simulate_checks_invariants_and_reports_each_game() -> None:
    lines = run("simulate", "ticket_to_ride", "--games", "3", "--players", "4", "--seed", "5").splitlines()
    games = [json.loads(line) for line in lines]
    assert len(games) == 3 and all(len(g["scores"]) == 4 and g["events"] > 50 for g in games)
    again = [json.loads(line) for line in run("simulate", "ticket_to_ride", "--games", "3", "--players", "4", "--seed", "5").splitlines()]
    assert [(g["events"], g["scores"]) for g in again] == [(g["events"], g["scores"]) for g in games]
