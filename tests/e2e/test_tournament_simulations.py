"""The issue's two full-size events, played by greedy bots through the application with
`caboose tournament simulate` (slow: the Age of Steam event is 35 games of about 2 s each):
each finishes, its export passes docs/verify_tournament.py from its records alone, and the
Swiss event reports the pairs who met twice against the least possible."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli

VERIFIER = Path(__file__).parents[2] / "docs" / "verify_tournament.py"
EVENTS = {
    "heats": ["age_of_steam", "--players", "38", "--format", "heats", "--heats", "3", "--bots", "greedy", "--seed", "5"],
    "swiss": ["ticket_to_ride", "--players", "24", "--format", "swiss", "--rounds", "4", "--table-size", "4",
              "--bots", "greedy", "--seed", "5"],
}


@pytest.mark.slow
@pytest.mark.parametrize("event", EVENTS)
def test_the_issues_events_finish_and_verify_from_their_records(tmp_path: Path, event: str) -> None:
    exported = tmp_path / f"{event}.jsonl"
    result = CliRunner().invoke(cli, ["tournament", "simulate", *EVENTS[event], "--export", str(exported), "--json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output.splitlines()[-1])
    assert answer["finished"] and answer["verified"]
    if event == "swiss":
        assert answer["rounds"] == 4 and answer["tables"] == 24
        assert answer["met_twice"] >= answer["least_met_twice"] >= 0
    else:
        assert answer["rounds"] == 5  # three heats, the semifinal, the final
    checked = subprocess.run([sys.executable, str(VERIFIER), str(exported)], capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.startswith("OK"), checked.stderr
