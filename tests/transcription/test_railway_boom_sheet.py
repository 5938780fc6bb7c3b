"""A whole Railway Boom game transcribed from its score sheet (tests/sheets/railway_boom.txt),
read line by line to the end; a tampered line and an impossible card stop the reading at
their line number, in the game's words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import games
from domain.core.decider import Setup
from domain.core.errors import RuleError
from domain.core.kinds import OutcomeEntered
from domain.core.randomness import SeededRandom
from domain.core.transcription import SheetError, Transcript, read_sheet
from domain.railway_boom.table import observed_of
from service import content as installed
from tests.transcription.sheets import SHEETS, audited, check_waits, play_sheet, read_final, read_header

installed.install()
RULES = games.current("railway_boom")
SHEET = SHEETS / "railway_boom.txt"


def _lines(path: Path = SHEET) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _read(lines: list[str]) -> Transcript:
    seats, options, observed = read_header(lines)
    return read_sheet(RULES, seats, options, observed, lines)


def _first(lines: list[str], pattern: str) -> int:
    """The index of the first line matching `pattern`."""
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


def test_the_whole_sheet_reads_to_the_end_of_the_game_with_the_scores_it_gives() -> None:
    lines = _lines()
    transcript = _read(lines)
    assert transcript.over
    # The record the sheet makes, sealed as the service stores it, audits OK.
    audited(transcript)
    assert RULES.scores(transcript.state) == read_final(lines)
    kinds = [event.kind for _, event in transcript.events]
    assert kinds.count("GameEnded") == 1
    # Every round's trains, stations and development rows were entered at the table.
    entered = [event.what for _, event in transcript.events if isinstance(event, OutcomeEntered)]
    assert sum(what.startswith("trains: locomotive") for what in entered) == 3  # rounds 2-4; round 1 is the opening
    assert sum(what.startswith("expansion:") for what in entered) == 4
    assert sum(what.startswith("development: cards dealt") for what in entered) == 4


def test_the_record_says_what_the_game_waits_for_with_every_outcome_entered_for_the_move() -> None:
    # A move may need several outcomes in turn (a refill after a sale, a round's locomotives
    # then its cars); the stored record must keep the first ones while it waits for the next.
    lines = _lines()
    seats, options, observed = read_header(lines)
    assert check_waits(Transcript(RULES, seats, options, observed), lines) > 0


def test_a_tampered_move_stops_the_reading_at_its_line_number() -> None:
    lines = _lines()
    index = _first(lines, r"^Ann takes L\d+")
    card = lines[index].split()[-1]
    other = next(c for c in ("L01", "L02", "L03", "L04") if c != card)
    lines[index] = f"Ann takes {other}"
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 1
    assert f"line {index + 1}:" in stopped.value.message


def test_an_unreadable_line_stops_the_reading_at_its_line_number() -> None:
    lines = _lines()
    index = _first(lines, r"^Ben lays a rail")
    lines[index] = "Ben lays a railway to Tokyo"
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 1
    assert stopped.value.code == "bad_notation"
    assert "Railway Boom move" in stopped.value.message


def test_a_card_already_drawn_is_refused_naming_the_deck() -> None:
    lines = _lines()
    seats, options, observed = read_header(lines)
    index = _first(lines, r"# expansion: station cards revealed")
    used = observed["starting_stations"][0]  # revealed at setup and boxed
    cards, comment = lines[index].split("#")
    lines[index] = ", ".join([used, *cards.split(",")[1:]]).strip() + "  #" + comment
    with pytest.raises(SheetError) as stopped:
        read_sheet(RULES, seats, options, observed, lines)
    assert stopped.value.line == index + 1
    assert stopped.value.code == "impossible_outcome"
    assert f"'{used}' is not possible now" in stopped.value.message
    assert "expansion: station cards revealed" in stopped.value.message


def test_a_refused_line_changes_nothing_and_the_right_line_goes_on() -> None:
    lines = _lines()
    seats, options, observed = read_header(lines)
    transcript = Transcript(RULES, seats, options, observed)
    index = _first(lines, r"# development: cards dealt")
    for line in lines[:index]:
        text = line.split("#", 1)[0].strip()
        if text:
            transcript.enter(text)
    before, state = list(transcript.events), transcript.state
    assert transcript.pending is not None and transcript.pending.request.count == 9
    first = lines[index].split(",")[0]
    with pytest.raises(RuleError):
        transcript.enter(", ".join([first] * 9))  # one card nine times
    assert transcript.events == before and transcript.state == state
    transcript.enter(lines[index].split("#")[0])
    assert transcript.pending is None and len(transcript.state.rows) == 3


@pytest.mark.parametrize("seed", [1, 2])
def test_random_table_games_written_in_the_notation_read_back_to_the_same_end(seed: int) -> None:
    seats = ["Ann", "Ben", "Cho", "Dee"][:2 + seed]
    options = {"first_game": seed == 1}
    setup = Setup(tuple(seats), RULES.options(options, len(seats)))
    observed = observed_of(RULES.setup(RULES.initial_state(setup), SeededRandom(bytes([seed]) * 32)))
    lines, played = play_sheet(RULES, seats, options, observed, seed,
                               lambda state: f"Round {state.round}: {state.phase}" if state.round else None)
    read = read_sheet(RULES, seats, options, observed, lines)
    assert read.over and read.events == played.events
