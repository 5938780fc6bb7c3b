"""The core's transcription flow on its own (no store): a score sheet read line by line,
forced moves filled in, the first impossible line named by its number, and the text form
of a record read back into the same game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domain import games
from domain.core.audit import audit
from domain.core.envelope import GENESIS_HASH, seal
from domain.core.transcription import SheetError, read_sheet, sheet_lines, without_comment
from tests.forgery import reseal
from tests.transcription.sheets import audited, sealed
from tests.transcription.table_playout import sheet
from tests.unit.ticket_to_ride.table_playout import observed_setup

SHEETS = Path(__file__).parents[1] / "sheets"
LUCKY = games.current("lucky")
SEATS = ["Ann", "Ben"]


def lucky_sheet() -> list[str]:
    return (SHEETS / "lucky.txt").read_text().splitlines()


def records_of(transcript) -> list[dict]:  # type: ignore[no-untyped-def]
    """The transcript sealed into a record, one command per event group as the service stores them."""
    records, prev = [], GENESIS_HASH
    for version, (actor, event) in enumerate(transcript.events, start=1):
        record = seal(game_id="00000000-0000-0000-0000-000000000001", version=version, time="2026-12-01T00:00:00Z",
                      actor=actor, command_id=f"c{version}", event=event, prev_hash=prev, new_salt=lambda: "00" * 16)
        records.append(record)
        prev = record["hash"]
    return records


def test_a_whole_sheet_reads_to_the_end_filling_forced_moves() -> None:
    transcript = read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, lucky_sheet())
    assert transcript.over and transcript.expects() == "the game is over"
    assert LUCKY.scores(transcript.state) == {0: 1, 1: 0}
    assert transcript.forced == ["Ben: roll", "Ann: roll"]
    entered = [(actor, e.what) for actor, e in transcript.events if e.kind == "OutcomeEntered"]
    assert entered[0] == ("referee:table", "the opening as laid out at the table")
    assert len(entered) == 1 + 10
    assert audited(transcript).rules.ok


def test_a_sealed_sheet_whose_entered_outcome_is_rewritten_fails_the_audit_at_that_version() -> None:
    records = sealed(read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, lucky_sheet()))
    dice = next(r for r in records if r["kind"] == "OutcomeEntered" and r["data"].get("outcome") == [3, 4])
    dice["data"]["outcome"] = [3, 7]  # no die shows a 7; every hash recomputed, as a forger would
    report = audit(reseal(records))
    assert not report.ok and report.first_problem is not None
    assert report.first_problem["version"] == dice["version"] and "faces 1 to 6" in report.first_problem["what"]


@pytest.mark.parametrize(("line", "replacement", "code", "words"), [
    ("blue           # the bag is empty", "black", "impossible_outcome", "'black' is not possible now; possible: blue"),
    ("2 2            # counter 11", "2 7", "impossible_outcome", "faces 1 to 6"),
    ("Ben: draw", "Ben: fly", "unknown_move_type", "fly"),
    ("Ann: roll", "Ben: roll", "not_your_turn", ""),
])
def test_the_first_impossible_line_is_named_by_its_number(line: str, replacement: str, code: str, words: str) -> None:
    lines = lucky_sheet()
    number = next(i for i, text in enumerate(lines, start=1) if text.startswith(line))
    lines[number - 1] = replacement
    with pytest.raises(SheetError) as refused:
        read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, lines)
    assert refused.value.line == number and refused.value.code == code
    assert f"line {number}:" in refused.value.message and words in refused.value.message


def test_an_observed_opening_that_setup_could_not_produce_is_refused() -> None:
    with pytest.raises(Exception, match="is not there to take"):
        read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [2]}, [])
    with pytest.raises(Exception, match="outcome 1 is missing"):
        read_sheet(LUCKY, SEATS, {"goal": 20}, {}, [])


def test_the_text_form_of_a_record_is_the_sheet_it_was_read_from() -> None:
    transcript = read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, lucky_sheet())
    written = sheet_lines(records_of(transcript))
    typed = [without_comment(line) for line in lucky_sheet() if without_comment(line)]
    assert [line for line in written if not line.startswith("#")] == typed
    assert [line for line in written if line.startswith("# forced:")] == ["# forced: Ben: roll", "# forced: Ann: roll"]
    again = read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, written)
    assert [(a, e.kind, e.data) for a, e in again.events] == [(a, e.kind, e.data) for a, e in transcript.events]


@pytest.mark.parametrize("seed", range(3))
def test_a_made_up_ticket_to_ride_game_from_its_observed_opening_reads_back(seed: int) -> None:
    rules = games.current("ticket_to_ride")
    # Ticket to Ride's opening is observed in its own form (hands, market, tickets, first),
    # a box shuffled and dealt; only the moves and outcomes after it are in the generic notation.
    observed = observed_setup(rules.board, SEATS, random.Random(seed))
    lines, played = sheet(rules, SEATS, {}, observed, seed)
    assert played.over, "the made-up game did not reach its end"
    again = read_sheet(rules, SEATS, {}, observed, lines)
    assert again.over and rules.scores(again.state) == rules.scores(played.state)
    assert [line for line in sheet_lines(records_of(again)) if not line.startswith("#")] == lines


@pytest.mark.parametrize("seed", range(5))
def test_a_made_up_lucky_game_round_trips_through_its_text_form(seed: int) -> None:
    lines, played = sheet(LUCKY, ["Ann", "Ben", "Cleo"], {"goal": 30}, {"outcomes": [seed % 3]}, seed)
    assert played.over
    written = sheet_lines(records_of(played))
    assert [line for line in written if not line.startswith("#")] == lines


def test_a_draw_awaited_says_how_many_of_each_item_the_bag_holds_though_the_record_does_not() -> None:
    lines = lucky_sheet()
    number = next(i for i, text in enumerate(lines, start=1) if text.startswith("Ann: draw"))
    transcript = read_sheet(LUCKY, SEATS, {"goal": 20}, {"outcomes": [1]}, lines[:number])
    request = transcript.pending.request  # type: ignore[union-attr]
    assert request.kind == "draw" and set(request.available) == set(request.labels)
    assert all(count >= 1 for count in request.available.values()) and sum(request.available.values()) > len(request.labels)
    # The record's `needed` is written as before (table games stored earlier still audit).
    awaited = transcript.events[-1][1]
    assert awaited.kind == "OutcomeAwaited" and "available" not in awaited.data["needed"]
