"""A whole Toot-Toot Train game transcribed from its score sheet (tests/sheets/toot_toot.txt),
read line by line to the end; a tampered line and an order card already drawn stop the
reading at their line number, in the game's words."""

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
from domain.toot_toot.table import observed_of
from service import content as installed
from tests.transcription.sheets import SHEETS, audited, check_waits, play_sheet, read_final, read_header

installed.install()
RULES = games.current("toot_toot")
SHEET = SHEETS / "toot_toot.txt"


def _lines(path: Path = SHEET) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _read(lines: list[str]) -> Transcript:
    seats, options, observed = read_header(lines)
    return read_sheet(RULES, seats, options, observed, lines)


def _first(lines: list[str], pattern: str) -> int:
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


def test_the_whole_sheet_reads_to_the_end_of_the_game_with_the_scores_it_gives() -> None:
    lines = _lines()
    transcript = _read(lines)
    assert transcript.over
    # The record the sheet makes, sealed as the service stores it, audits OK.
    audited(transcript)
    assert RULES.scores(transcript.state) == read_final(lines)
    assert max(seat.track for seat in transcript.state.seats) >= 25  # ended by the 25-point trigger
    entered = [event for _, event in transcript.events if isinstance(event, OutcomeEntered)]
    assert any(e.what.endswith("public order") for e in entered)
    # A secret order drawn in play (the Order ability) is entered sealed to its seat.
    secret = [e for e in entered if e.what.endswith("secret order")]
    assert secret and all(e.outcome is None and e.secrets and len(e.secrets[0].to) == 1 for e in secret)


def test_the_record_says_what_the_game_waits_for_with_every_outcome_entered_for_the_move() -> None:
    # A move may need several outcomes in turn (a refill after a sale, a round's locomotives
    # then its cars); the stored record must keep the first ones while it waits for the next.
    lines = _lines()
    seats, options, observed = read_header(lines)
    assert check_waits(Transcript(RULES, seats, options, observed), lines) > 0


def test_a_tampered_move_stops_the_reading_at_its_line_number() -> None:
    lines = _lines()
    index = _first(lines, r"^Ben drives to")
    lines[index] = "Ben drives to 9,9 facing 0"
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 1
    assert f"line {index + 1}:" in stopped.value.message


def test_an_unreadable_line_stops_the_reading_at_its_line_number() -> None:
    lines = _lines()
    index = _first(lines, r"^Cho draws")
    lines[index] = "Cho paints the station red"
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 1 and stopped.value.code == "bad_notation"
    assert "Toot-Toot Train move" in stopped.value.message


def test_an_order_card_already_in_a_hand_is_refused() -> None:
    lines = _lines()
    seats, options, observed = read_header(lines)
    index = _first(lines, r"# an order card turned up as a public order")
    held = observed["secret_orders"][1]  # dealt to Ben at setup
    lines[index] = f"{held}  # an order card turned up as a public order"
    with pytest.raises(SheetError) as stopped:
        read_sheet(RULES, seats, options, observed, lines)
    assert stopped.value.line == index + 1
    assert stopped.value.code == "impossible_outcome"
    assert f"'{held}' is not possible now" in stopped.value.message


def test_a_refused_line_changes_nothing_and_the_right_line_goes_on() -> None:
    lines = _lines()
    seats, options, observed = read_header(lines)
    transcript = Transcript(RULES, seats, options, observed)
    index = _first(lines, r"# an order card turned up as a public order")
    for line in lines[:index]:
        text = line.split("#", 1)[0].strip()
        if text:
            transcript.enter(text)
    before, state = list(transcript.events), transcript.state
    with pytest.raises(RuleError):
        transcript.enter(observed["public_orders"][0])  # still in the public row
    assert transcript.events == before and transcript.state == state
    transcript.enter(lines[index].split("#")[0])
    assert transcript.pending is None


@pytest.mark.parametrize("seed", [1, 2])
def test_random_table_games_written_in_the_notation_read_back_to_the_same_end(seed: int) -> None:
    seats = ["Ann", "Ben", "Cho", "Dee"][:1 + seed]
    options = {"map": "harbour"} if seed == 1 else {}
    setup = Setup(tuple(seats), RULES.options(options, len(seats)))
    observed = observed_of(RULES.setup(RULES.initial_state(setup), SeededRandom(bytes([seed]) * 32)))
    lines, played = play_sheet(RULES, seats, options, observed, seed,
                               lambda state: f"Round {state.round}" if state.phase == "play" else None)
    read = read_sheet(RULES, seats, options, observed, lines)
    assert read.over and read.events == played.events
