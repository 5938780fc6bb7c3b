"""Files that are not UTF-8 text, given to the `caboose` command as a person would (a record
or a score sheet saved as Latin-1 by some editor): one line of error naming the file, the
line and the byte, exit status 1, no traceback, nothing stored."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from service.application import Caboose
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
# The `lucky` game (a table game with a default opening) is a test fake: the child process
# registers it as tests/conftest.py does, then runs the command.
CABOOSE = ("from domain import games; from tests.fakes.lucky import LUCKY; games.register(LUCKY); "
           "from cli.main import cli; cli()")
FILES = {  # the second line of each starts "café", written in Latin-1
    "record": b'{"game_id": "the first line of a record"}\ncaf\xe9\n',
    "opening": b'{"outcomes":\ncaf\xe9}\n',
    "sheet": b"Ben: roll\ncaf\xe9 au lait\n",
}


def caboose(*args: str, db: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", CABOOSE, *args, "--db", db], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def refused(done: subprocess.CompletedProcess[str], path: Path) -> None:
    assert done.returncode == 1 and "Traceback" not in done.stderr, (done.stdout, done.stderr)
    assert done.stderr.strip().splitlines() == [f"Error: {path}: line 2 is not UTF-8 text (byte 0xe9 at column 4); "
                                                "save the file as UTF-8"], done.stderr


@pytest.mark.parametrize(("command", "content"), [(["import"], "record"), (["bulk", "import"], "record"),
                                                  (["new", "lucky", "--player", "A", "--player", "B", "--table", "--observed"],
                                                   "opening")])
def test_a_file_that_is_not_utf_8_is_one_line_of_error(tmp_path: Path, command: list[str], content: str) -> None:
    db = f"sqlite:///{tmp_path}/text.sqlite"
    path = tmp_path / "latin-1.txt"
    path.write_bytes(FILES[content])
    refused(caboose(*command, str(path), db=db), path)
    app = Caboose(Settings(db=db))
    try:
        assert app.game_ids() == []
    finally:
        app.close()


def test_a_score_sheet_that_is_not_utf_8_stores_nothing_not_even_its_good_lines(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/sheet.sqlite"
    opening = tmp_path / "observed.json"
    opening.write_text('{"outcomes": [1]}')
    created = caboose("new", "lucky", "--player", "Ann", "--player", "Ben", "--option", "goal=20", "--table",
                      "--observed", str(opening), db=db)
    assert created.returncode == 0, created.stderr
    game_id = created.stdout.splitlines()[0]
    app = Caboose(Settings(db=db))
    try:
        version = app.game(game_id).version
        sheet = tmp_path / "sheet.txt"
        sheet.write_bytes(FILES["sheet"])
        refused(caboose("transcribe", game_id, "--from", str(sheet), db=db), sheet)
        assert app.game(game_id).version == version
    finally:
        app.close()
