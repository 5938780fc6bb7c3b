"""Forged records against every verifier a user has: `caboose import` (and `bulk import`),
`caboose audit` of a game in the store, and the referee's `docs/verify_record.py`. Each
forgery recomputes every hash, so none of them is caught by the chain."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli.main import cli
from domain.core.audit import audit
from service import referee as desk
from service.application import Caboose
from service.settings import Settings
from tests.forgery import (
    FORGERIES,
    Honest,
    drop_reveal,
    finished_ticket_to_ride,
    store_unchecked,
    swap_undrawn_tickets,
    truncate,
    write_jsonl,
)

VERIFIER = Path(__file__).parents[2] / "docs" / "verify_record.py"
REVEAL_MISSING = "finished but its seed is never revealed"
# What each forgery is caught by, in the words of `caboose audit` / `caboose import`.
CAUGHT_BY = {
    "swapped shuffle, reveal kept": "TicketsShuffled: its secret content",
    "swapped shuffle, reveal dropped": REVEAL_MISSING,
    "changed seed in the reveal": "does not match the commitment",
    "commitment and reveal dropped": REVEAL_MISSING,
    "a middle event dropped": "the rules produce",
}


@pytest.fixture(scope="module")
def honest() -> Honest:
    return finished_ticket_to_ride()


def caboose(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def verify(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(VERIFIER), str(path)], capture_output=True, text=True)


def stored_games(db: str) -> list[str]:
    app = Caboose(Settings(db=db))
    try:
        return app.game_ids()
    finally:
        app.close()


@pytest.mark.parametrize("name", FORGERIES)
def test_import_refuses_each_forgery_and_stores_nothing(tmp_path: Path, honest: Honest, name: str) -> None:
    db = f"sqlite:///{tmp_path}/import.sqlite"
    forged = write_jsonl(tmp_path / "forged.jsonl", FORGERIES[name](honest.records))
    result = caboose("import", str(forged), "--db", db)
    assert result.exit_code == 1 and "record_rejected" in result.output and CAUGHT_BY[name] in result.output, result.output
    bulk = caboose("bulk", "import", str(forged), "--db", db, "--json")
    assert CAUGHT_BY[name] in bulk.output, bulk.output
    assert stored_games(db) == []


@pytest.mark.parametrize("name", FORGERIES)
@pytest.mark.parametrize("held", [False, True], ids=["imported", "seed held"])
def test_audit_fails_each_forgery_written_straight_into_the_store(tmp_path: Path, honest: Honest, name: str, held: bool) -> None:
    db = f"sqlite:///{tmp_path}/audit.sqlite"
    app = Caboose(Settings(db=db))
    game_id = store_unchecked(app, FORGERIES[name](honest.records), honest.seed if held else None)
    app.close()
    result = caboose("audit", game_id, "--db", db)
    assert result.exit_code == 1 and result.output.startswith("FAILED"), result.output
    # The service holds the seed, so it re-derives the forged shuffle even without the
    # reveal, and sees a commitment that is not its seed's.
    expected = {"swapped shuffle, reveal dropped": CAUGHT_BY["swapped shuffle, reveal kept"],
                "commitment and reveal dropped": "does not match the commitment"}.get(name) if held else None
    expected = expected or CAUGHT_BY[name]
    assert expected in result.output, result.output


@pytest.mark.parametrize("name", [n for n in FORGERIES if n != "a middle event dropped"])
def test_the_referees_script_fails_each_forgery_of_the_randomness(tmp_path: Path, honest: Honest, name: str) -> None:
    result = verify(write_jsonl(tmp_path / "forged.jsonl", FORGERIES[name](honest.records)))
    assert result.returncode == 1 and result.stderr.startswith("FAILED") and "chain OK" in result.stderr, result.stderr


def test_the_referees_script_says_it_does_not_check_the_rules(tmp_path: Path, honest: Honest) -> None:
    # A dropped event is a matter for the rules, which the short script does not know.
    result = verify(write_jsonl(tmp_path / "forged.jsonl", FORGERIES["a middle event dropped"](honest.records)))
    assert result.returncode == 0 and "the rules are not checked here" in result.stdout


def test_the_referees_script_verifies_an_honest_record(tmp_path: Path, honest: Honest) -> None:
    result = verify(write_jsonl(tmp_path / "game.jsonl", honest.records))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"OK: chain OK for {len(honest.records)} events") and "4 random outcomes re-derived" in result.stdout


def test_an_honest_finished_game_without_its_reveal_is_refused_everywhere(tmp_path: Path, honest: Honest) -> None:
    path = write_jsonl(tmp_path / "game.jsonl", drop_reveal(honest.records))
    db = f"sqlite:///{tmp_path}/import.sqlite"
    result = caboose("import", str(path), "--db", db)
    assert result.exit_code == 1 and REVEAL_MISSING in result.output and stored_games(db) == []
    script = verify(path)
    assert script.returncode == 1 and "finished but its seed is never revealed" in script.stderr


def test_a_truncated_record_is_imported_saying_its_outcomes_are_not_checked(tmp_path: Path, honest: Honest) -> None:
    path = write_jsonl(tmp_path / "cut.jsonl", truncate(honest.records))
    db = f"sqlite:///{tmp_path}/import.sqlite"
    result = caboose("import", str(path), "--db", db)
    assert result.exit_code == 0 and "cannot be checked until the seed is revealed" in result.stderr, result.output
    game_id = result.stdout.splitlines()[0]  # the id, then the tokens
    assert stored_games(db) == [game_id]
    audited = caboose("audit", game_id, "--db", db)
    assert audited.exit_code == 0 and audited.output.startswith("OK") and "NOT checked: seed" in audited.output, audited.output
    assert "cannot be checked until the seed is revealed" in audited.output
    script = verify(path)
    assert script.returncode == 0 and "no seed reveal: game unfinished, shuffles and dice not checked" in script.stdout
    bulk = caboose("bulk", "import", str(path), "--db", f"sqlite:///{tmp_path}/bulk.sqlite")
    assert bulk.exit_code == 0 and f"{game_id}: ok (no seed reveal" in bulk.output, bulk.output


def test_a_running_game_in_this_service_is_re_derived_from_the_seed_it_holds(tmp_path: Path, honest: Honest) -> None:
    db = f"sqlite:///{tmp_path}/audit.sqlite"
    app = Caboose(Settings(db=db))
    honest_id = store_unchecked(app, truncate(honest.records), honest.seed)
    app.close()
    audited = caboose("audit", honest_id, "--db", db)
    assert audited.exit_code == 0 and "re-derived from the seed this service holds" in audited.output, audited.output


def test_a_running_game_with_a_forged_shuffle_fails_its_audit_before_the_reveal(tmp_path: Path, honest: Honest) -> None:
    db = f"sqlite:///{tmp_path}/audit.sqlite"
    app = Caboose(Settings(db=db))
    forged_id = store_unchecked(app, truncate(swap_undrawn_tickets(honest.records)), honest.seed)
    app.close()
    audited = caboose("audit", forged_id, "--db", db)
    assert audited.exit_code == 1 and "TicketsShuffled" in audited.output, audited.output


@pytest.mark.parametrize("content", ["", "{not json\n", '{"version": 1}\n', "[1, 2]\n"])
def test_the_referees_script_explains_what_is_not_a_record(tmp_path: Path, content: str) -> None:
    path = tmp_path / "odd.jsonl"
    path.write_text(content)
    result = verify(path)
    assert result.returncode == 1 and result.stderr.startswith("FAILED: not a game record"), result.stderr
    assert "Traceback" not in result.stderr


def test_a_fork_played_to_its_end_verifies_from_its_own_seed(tmp_path: Path, honest: Honest) -> None:
    app = Caboose(Settings(db="memory"))
    origin = store_unchecked(app, honest.records, honest.seed)
    fork_id = desk.fork(app, origin, "rita", truncate(honest.records)[-1]["version"], "replayed from here", seed=bytes(32))
    chooser = random.Random(2)
    while not app.game(fork_id).is_over:
        seat = app.summary(fork_id)["active_seats"][0]
        app.play(fork_id, seat, chooser.choice(app.legal_moves(fork_id, seat)))
    records = app.records(fork_id)
    assert audit(records).ok, audit(records).text()
    script = verify(write_jsonl(tmp_path / "fork.jsonl", records))
    assert script.returncode == 0 and "random outcomes re-derived" in script.stdout, script.stderr
    # Without its reveal, a finished fork fails like any finished game.
    without = verify(write_jsonl(tmp_path / "forged.jsonl", drop_reveal(records)))
    assert without.returncode == 1 and "never revealed" in without.stderr, without.stdout
    assert "never revealed" in audit(drop_reveal(records)).text()
