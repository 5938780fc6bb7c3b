"""`caboose tournament ...` end to end on a real SQLite file: new, register, withdraw, pair,
standings, tables, disputes, dispute, rule, export, import, verify (a stored one and a file,
and docs/verify_tournament.py on the same file), simulate; each with --json, and bad input a
one-line error that stores nothing."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from cli.main import cli
from domain.core.envelope import record_hash
from service.application import Caboose
from service.settings import Settings
from service.simulation import played_held
from service.tournament.ratings import Ratings

VERIFIER = Path(__file__).parents[2] / "docs" / "verify_tournament.py"


def run(*args: str, ok: bool = True) -> str:
    result = CliRunner().invoke(cli, ["tournament", *args], catch_exceptions=False)
    assert (result.exit_code == 0) == ok, result.output
    return result.output


def play(db: str, tables: list[dict[str, Any]]) -> None:
    app = Caboose(Settings(db=db))
    for table in tables:
        played_held(app, app.game(table["game_id"]), ["random"] * len(table["seats"]), random.Random(table["game_id"]), 20_000)
    app.close()


def test_a_tournament_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    created = json.loads(run("new", "ticket_to_ride", "--name", "Club", "--format", "heats", "--heats", "1",
                             "--table-size", "3", "--semifinal", "0", "--final", "3", "--place-points", "3,1.5,0.5",
                             "--db", db, "--json"))
    tournament_id = created["tournament_id"]
    assert created["format"]["kind"] == "heats" and created["scoring"]["place_points"] == [3, 1.5, 0.5]
    registered = run("register", tournament_id, "Ann", "Ben", "Cleo", "Dan", "Eve", "Fay", "--db", db, "--json")
    assert [json.loads(line)["data"]["player"] for line in registered.splitlines()] == ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay"]
    # Registering twice: one line, exit 1, nothing stored.
    twice = CliRunner().invoke(cli, ["tournament", "register", tournament_id, "Ann", "--db", db])
    assert twice.exit_code == 1 and twice.output.strip() == "Error: already_registered: Ann is registered already."
    tables = [json.loads(line) for line in run("pair", tournament_id, "--db", db, "--json").splitlines()]
    assert sorted(s["player"] for t in tables for s in t["seats"]) == ["Ann", "Ben", "Cleo", "Dan", "Eve", "Fay"]
    playing = CliRunner().invoke(cli, ["tournament", "pair", tournament_id, "--db", db])
    assert playing.exit_code == 1 and "tables_playing" in playing.output and tables[0]["game_id"] in playing.output
    game_id = tables[0]["game_id"]
    dispute = json.loads(run("dispute", tournament_id, game_id, "--version", "4", "--raised-by", "Ann",
                             "--claim", "misdealt", "--db", db, "--json").splitlines()[0])["version"]
    desk = [json.loads(line) for line in run("disputes", tournament_id, "--db", db, "--json").splitlines()]
    assert [(d["game_id"], d["dispute"]) for d in desk] == [(game_id, dispute)]
    play(db, tables)
    standings = json.loads(run("standings", tournament_id, "--db", db, "--json"))
    assert sum(r["wins"] for r in standings["standings"]) >= 2
    shown = [json.loads(line) for line in run("tables", tournament_id, "--round", "1", "--db", db, "--json").splitlines()]
    assert [t["status"] for t in shown] == ["finished", "finished"]
    first = shown[0]["seats"]
    ruled = json.loads(run("rule", tournament_id, game_id, "--text", "redealt", "--dispute", str(dispute),
                           "--places", ",".join(str(len(first) - i) for i in range(len(first))), "--db", db, "--json"))
    assert [r["kind"] for r in ruled["game"]] == ["RulingMade"] and [r["kind"] for r in ruled["tournament"]] == ["ResultRuled"]
    final = [json.loads(line) for line in run("pair", tournament_id, "--db", db, "--json").splitlines()]
    assert len(final) == 1 and len(final[0]["seats"]) == 3
    play(db, final)
    assert json.loads(run("standings", tournament_id, "--db", db, "--json"))["status"] == "finished"
    report = json.loads(run("verify", tournament_id, "--db", db, "--json"))
    assert report["ok"] and report["games"]["ok"] and report["tables"]["ok"]
    exported = tmp_path / "t.jsonl"
    run("export", tournament_id, "--as", "public", "--db", db, "-o", str(exported))
    assert json.loads(run("verify", str(exported), "--json"))["ok"]
    checked = subprocess.run([sys.executable, str(VERIFIER), str(exported)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.startswith("OK"), checked.stderr
    other = f"sqlite:///{tmp_path}/other.sqlite"
    imported = json.loads(run("import", str(exported), "--db", other, "--json"))
    assert imported["tournament_id"] == tournament_id and len(imported["games"]) == 3
    # A result changed and the chain recomputed: refused by both verifiers, and by import.
    lines = [json.loads(line) for line in exported.read_text().splitlines()]
    finished = next(r for r in lines if r.get("kind") == "TableFinished")
    finished["data"]["scores"] = [s + 5 for s in finished["data"]["scores"]]
    prev = "0" * 64
    for record in (r for r in lines if "tournament_id" in r):
        record["prev_hash"] = prev
        record["hash"] = prev = record_hash({k: v for k, v in record.items() if k != "hash"})
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(r) + "\n" for r in lines))
    assert CliRunner().invoke(cli, ["tournament", "verify", str(tampered)]).exit_code == 1
    refused = subprocess.run([sys.executable, str(VERIFIER), str(tampered)], capture_output=True, text=True)
    assert refused.returncode == 1 and "FAILED" in refused.stderr
    third = f"sqlite:///{tmp_path}/third.sqlite"
    rejected = CliRunner().invoke(cli, ["tournament", "import", str(tampered), "--db", third])
    assert rejected.exit_code == 1 and "record_rejected" in rejected.output
    assert Caboose(Settings(db=third)).game_ids() == []


def test_a_withdrawal_and_bad_settings_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    bad = CliRunner().invoke(cli, ["tournament", "new", "age_of_steam", "--name", "x", "--format", "swiss", "--rounds", "2",
                                   "--table-size", "9", "--db", db])
    assert bad.exit_code == 1 and bad.output.startswith("Error: bad_table_size: age_of_steam is played at tables of 3–6")
    tournament_id = run("new", "age_of_steam", "--name", "Steam", "--format", "swiss", "--rounds", "2", "--db", db).splitlines()[0]
    run("register", tournament_id, "Ann", "--db", db)
    few = CliRunner().invoke(cli, ["tournament", "pair", tournament_id, "--db", db])
    assert few.exit_code == 1 and "too_few_players" in few.output
    withdrawn = json.loads(run("withdraw", tournament_id, "Ann", "--how", "forfeit", "--reason", "ill", "--db", db, "--json"))
    assert withdrawn["kind"] == "PlayerWithdrawn"


def test_simulate_plays_a_small_swiss_event_and_reports_the_meetings(tmp_path: Path) -> None:
    exported = tmp_path / "sim.jsonl"
    result = json.loads(run("simulate", "ticket_to_ride", "--players", "8", "--format", "swiss", "--rounds", "2",
                            "--table-size", "4", "--bots", "random", "--seed", "5", "--export", str(exported), "--json"))
    assert result["finished"] and result["verified"] and result["tables"] == 4
    assert result["met_twice"] >= result["least_met_twice"] >= 0
    checked = subprocess.run([sys.executable, str(VERIFIER), str(exported)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


def test_a_physical_table_opened_from_the_shell(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/t.sqlite"
    tournament_id = run("new", "lucky", "--name", "Boxes", "--format", "swiss", "--rounds", "1", "--table-size", "2",
                        "--table", "--db", db).splitlines()[0]
    run("register", tournament_id, "Ann", "Ben", "--db", db)
    assert "enter its opening" in run("pair", tournament_id, "--db", db)
    observed = tmp_path / "opening.json"
    observed.write_text('{"outcomes": [0]}')
    opened = json.loads(run("open", tournament_id, "--round", "1", "--table", "1", "--observed", str(observed), "--db", db,
                            "--json"))
    assert opened["game_id"] and [s["player"] for s in opened["seats"]] in (["Ann", "Ben"], ["Ben", "Ann"])
    again = CliRunner().invoke(cli, ["tournament", "open", tournament_id, "--round", "1", "--table", "1", "--observed",
                                     str(observed), "--db", db])
    assert again.exit_code == 1 and "no_table_waiting" in again.output


def test_a_game_created_rated_from_the_shell_counts_in_the_ratings(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/rated.sqlite"
    made = CliRunner().invoke(cli, ["new", "ticket_to_ride", "--player", "Ann", "--player", "Ben", "--rated", "--db", db,
                                    "--json"], catch_exceptions=False)
    assert made.exit_code == 0, made.output
    game_id = json.loads(made.output)["game_id"]
    app = Caboose(Settings(db=db))
    assert app.records(game_id, upto=1)[0]["data"]["rated"] is True
    played_held(app, app.game(game_id), ["random", "random"], random.Random(1), 20_000)
    assert sorted(r.player for r in Ratings(app).of("ticket_to_ride")) == ["Ann", "Ben"]
    app.close()
