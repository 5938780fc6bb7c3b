"""A whole game of every title, transcribed from its score sheet through the `caboose`
command as a referee would run it: `caboose new GAME --table --observed F`, then
`caboose transcribe ID --from SHEET`, then `caboose audit ID`. The audit re-decides every
move and checks every entered outcome was possible; the game ends with the scores the sheet
states. A tampered line stops the reading at its number and stores nothing of that line.
SQLite for every title; one title also on PostgreSQL (CABOOSE_TEST_POSTGRES).

The commands on SQLite run in this process, through the command line's own entry point
(click's runner: arguments parsed, output and exit code as the shell sees them), which is
what these tests are about; the PostgreSQL test runs the installed `caboose` executable, a
process for each command, as a referee's shell does (a command's start-up costs most of a second of
CPU, seven times a test)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from domain.core.transcription import OPENING
from tests.conftest import POSTGRES_URL, fresh_schema

ROOT = Path(__file__).parents[2]
SHEETS = ROOT / "tests" / "sheets"
CABOOSE = Path(sys.executable).with_name("caboose")
TITLES = ["ticket_to_ride", "age_of_steam", "railway_boom", "toot_toot"]
DEFAULT_SEATS = ["Ann", "Bob", "Cat"]
"""The seats of a sheet whose header does not name them (its test names them)."""

TAMPERED = {
    # title: (the line as written, the line as tampered, the rule code that refuses it)
    "ticket_to_ride": ("Ann claims Houston–New Orleans with 2 pink", "Ann claims Houston–New Orleans with 6 pink",
                       "wrong_card_count"),
    "age_of_steam": ("5 4 1  # goods growth: light dice", "5 4 7  # goods growth: light dice", "impossible_outcome"),
    "railway_boom": ("ST23, ST43, ST15  # expansion: station cards revealed",
                     "ST23, ST23, ST15  # expansion: station cards revealed", "impossible_outcome"),
    "toot_toot": ("Ann drives to 5,2 facing 2", "Ann drives to 9,9 facing 2", "unreachable"),
}


def caboose(*args: str, env: dict[str, str] | None = None, ok: bool = True) -> subprocess.CompletedProcess[str]:
    """`caboose ARGS`: in this process, or, with `env` (the PostgreSQL test), as the installed
    executable in a process of its own."""
    if env is None:
        ran = CliRunner().invoke(cli, list(args))
        done = subprocess.CompletedProcess(["caboose", *args], ran.exit_code, ran.stdout, ran.stderr)
        crashed = "" if ran.exception is None or isinstance(ran.exception, SystemExit) else repr(ran.exception)
    else:
        done = subprocess.run([str(CABOOSE), *args], capture_output=True, text=True, cwd=ROOT, timeout=300,
                              env={**os.environ, **env})
        crashed = ""
    assert (done.returncode == 0) == ok, \
        f"caboose {' '.join(args[:2])}: {done.returncode}\n{done.stdout}\n{done.stderr}\n{crashed}"
    return done


def header(title: str) -> tuple[list[str], dict[str, object]]:
    """The seats and options a sheet's header names (`# seats: ...`, `# options: {...}`)."""
    fields = dict(re.findall(r"^# (seats|options): (.*)$", (SHEETS / f"{title}.txt").read_text(), re.M))
    seats = [name.strip() for name in fields["seats"].split(",")] if "seats" in fields else DEFAULT_SEATS
    return seats, json.loads(fields.get("options", "{}"))


def stated_scores(title: str, seats: list[str]) -> dict[str, int]:
    """The final scores the sheet states in a comment, by seat number."""
    found = re.search(r"^# final scores?: (.*?)\.?$", (SHEETS / f"{title}.txt").read_text(), re.M | re.I)
    assert found is not None, f"{title}.txt states no final scores"
    return {str(seats.index(name)): int(points) for name, points in
            (part.strip().rsplit(" ", 1) for part in found.group(1).split(","))}


def new_table_game(title: str, db: str, env: dict[str, str] | None = None) -> str:
    seats, options = header(title)
    args = ["new", title, *(a for name in seats for a in ("--player", name)),
            *(a for key, value in options.items() for a in ("--option", f"{key}={json.dumps(value)}")),
            "--table", "--observed", str(SHEETS / f"{title}.observed.json"), "--db", db]
    return caboose(*args, env=env).stdout.splitlines()[0]


def records(game_id: str, db: str, env: dict[str, str] | None = None) -> list[dict[str, object]]:
    return [json.loads(line) for line in caboose("events", game_id, "--json", "--db", db, env=env).stdout.splitlines()]


def transcribed_and_audited(title: str, db: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """Transcribe the title's sheet into a new table game through the CLI; its audit report."""
    game_id = new_table_game(title, db, env)
    out = caboose("transcribe", game_id, "--from", str(SHEETS / f"{title}.txt"), "--db", db, env=env).stdout
    assert out.rstrip().endswith("the game is over"), out[-500:]
    report = json.loads(caboose("audit", game_id, "--json", "--db", db, env=env).stdout)
    assert report["ok"] is True, report
    assert report["chain"]["ok"] and report["rules"]["ok"] and report["projections"]["ok"], report
    # Outcomes entered at the table are checked possible, never taken for a fair seed.
    assert report["seed"]["ok"] is None and "entered at the table" in report["seed"]["detail"]
    stored = records(game_id, db, env)
    assert stored[0]["data"]["seed_source"] == "table"
    ended = stored[-1]
    assert ended["kind"] == "GameEnded" and ended["data"]["scores"] == stated_scores(title, header(title)[0])
    # The opening as observed is kept first (by whoever created the game), then every
    # outcome the sheet entered, by the referee who transcribed it.
    opening, *entered = [r for r in stored if r["kind"] == "OutcomeEntered"]
    assert opening["version"] == 2 and opening["data"]["what"] == OPENING and opening["actor"].startswith("referee:")
    assert len(entered) > 10 and all(r["actor"] == "referee:table" for r in entered)
    return report


@pytest.mark.parametrize("title", TITLES)
def test_a_whole_sheet_of_each_title_is_transcribed_and_audits_ok(title: str, tmp_path: Path) -> None:
    report = transcribed_and_audited(title, f"sqlite:///{tmp_path}/caboose.sqlite")
    assert report["ok"] is True and report["first_problem"] is None


@pytest.mark.postgres
def test_a_whole_sheet_is_transcribed_and_audits_ok_on_postgresql() -> None:
    with fresh_schema() as schema:
        report = transcribed_and_audited("ticket_to_ride", POSTGRES_URL, {"CABOOSE_DB_SCHEMA": schema})
    assert report["ok"] is True and report["first_problem"] is None


@pytest.mark.parametrize("title", TITLES)
def test_a_tampered_line_stops_at_its_number_and_stores_nothing_of_it(title: str, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/caboose.sqlite"
    written, tampered, code = TAMPERED[title]
    lines = (SHEETS / f"{title}.txt").read_text().splitlines()
    number = lines.index(written) + 1
    bad = tmp_path / "tampered.txt"
    bad.write_text("\n".join([*lines[:number - 1], tampered, *lines[number:]]) + "\n")
    game_id = new_table_game(title, db)
    refused = caboose("transcribe", game_id, "--from", str(bad), "--db", db, ok=False)
    assert f"line {number}: {tampered!r}: {code}:" in refused.stderr, refused.stderr
    # What is stored is exactly what the lines before it store: nothing of the tampered line.
    before = tmp_path / "before.txt"
    before.write_text("\n".join(lines[:number - 1]) + "\n")
    same = new_table_game(title, db)
    caboose("transcribe", same, "--from", str(before), "--db", db)
    kept = lambda game: [(r["kind"], r["actor"], r["data"]) for r in records(game, db)[1:]]  # noqa: E731
    assert kept(game_id) == kept(same)
    assert json.loads(caboose("audit", game_id, "--json", "--db", db).stdout)["ok"] is True
