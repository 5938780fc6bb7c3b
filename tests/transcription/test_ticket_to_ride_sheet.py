"""A whole Ticket to Ride game played at a table, read from its score sheet
(tests/sheets/ticket_to_ride.txt, opening in ticket_to_ride.observed.json) to the end; a
tampered line or an impossible card stops the reading at that line, with its number."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domain.core.errors import IllegalMove, MalformedMove
from domain.core.kinds import OutcomeEntered
from domain.core.notation import generic_format
from domain.core.transcription import OPENING, SheetError, read_sheet
from domain.ticket_to_ride import DECIDER
from domain.ticket_to_ride.claim_route import RouteClaimed
from domain.ticket_to_ride.notation import TicketToRideNotation
from domain.ticket_to_ride.tickets import TicketsDrawn
from domain.ticket_to_ride.train_cards import CardDrawn
from tests.transcription.sheets import audited

SHEETS = Path(__file__).resolve().parents[1] / "sheets"
SEATS = ["Ann", "Bob", "Cat"]


def _sheet() -> list[str]:
    return (SHEETS / "ticket_to_ride.txt").read_text().splitlines()


def _observed() -> dict:  # type: ignore[type-arg]
    return json.loads((SHEETS / "ticket_to_ride.observed.json").read_text())


def _read(lines: list[str]):  # type: ignore[no-untyped-def]
    return read_sheet(DECIDER, SEATS, {}, _observed(), lines)


def test_the_whole_sheet_reads_to_the_end_of_the_game_with_the_scores_it_states() -> None:
    lines = _sheet()
    transcript = _read(lines)
    state = transcript.state
    assert transcript.over and transcript.pending is None
    # The record the sheet makes, sealed as the service stores it, audits OK.
    audited(transcript)
    # The sheet's own header says how the game ended; the rules must reach the same scores.
    stated = re.search(r"# Final scores: (.*)\.", "\n".join(lines))
    assert stated is not None
    expected = {SEATS.index(name): int(points) for name, points in
                (part.rsplit(" ", 1) for part in stated.group(1).split(", "))}
    assert DECIDER.scores(state) == expected
    assert DECIDER.invariants(state) == []
    events = [event for _, event in transcript.events]
    assert events[-1].kind == "GameEnded"
    # Every route claimed on the sheet is on the board, and every card turned up was entered.
    claims = [line for line in lines if " claims " in line]
    assert len([e for e in events if isinstance(e, RouteClaimed)]) == len(claims) == len(state.claims)
    # The opening as observed is kept as one outcome of its own, before any line of the sheet.
    assert isinstance(events[1], OutcomeEntered) and events[1].what == OPENING and events[1].outcome is None
    entered = [e for e in events if isinstance(e, OutcomeEntered) and e.what != OPENING]
    outcome_lines = [line for line in lines if line and not line.startswith("#") and not line.startswith(tuple(SEATS))]
    assert len(entered) == len(outcome_lines) > 0
    # A blind draw is the seat's own secret: the card entered is sealed to that seat, and
    # a market refill is public.
    blind = [(i, e) for i, e in enumerate(events) if isinstance(e, CardDrawn) and e.source == "deck"]
    assert blind
    for i, draw in blind:
        outcome = events[i - 1]
        assert isinstance(outcome, OutcomeEntered) and outcome.outcome is None
        assert outcome.secrets[0].to == (draw.seat,) and outcome.secret()["outcome"] == [draw.secret()["card"]]
    refills = [e for e in entered if e.what == "a card turned up in the market"]
    assert refills and all(e.outcome is not None and not e.secrets for e in refills)
    assert any(isinstance(e, TicketsDrawn) for e in events)


def _first(lines: list[str], pattern: str) -> int:
    return next(i for i, line in enumerate(lines) if re.search(pattern, line))


def test_a_tampered_claim_stops_the_sheet_at_its_line_number() -> None:
    lines = _sheet()
    index = _first(lines, r"^\w+ claims ")
    # Six cards for a route the seat paid for with fewer: a claim the rules refuse.
    lines[index] = re.sub(r"with .*", "with 6 red", lines[index])
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 1
    assert f"line {index + 1}:" in stopped.value.message


def test_an_unreadable_line_stops_the_sheet_with_its_number_and_the_games_words() -> None:
    lines = _sheet()
    index = _first(lines, r"^\w+ draws blind$")
    lines[index] = lines[index].replace("draws blind", "draws Denver")
    with pytest.raises(SheetError, match=rf"line {index + 1}: .*cannot read") as stopped:
        _read(lines)
    assert stopped.value.line == index + 1


def test_a_ticket_already_in_a_hand_is_refused_as_an_impossible_outcome() -> None:
    lines = _sheet()
    index = _first(lines, r"draws tickets$")
    kept = _observed()["tickets"]["Ann"][1]  # kept by Ann in the opening (the sheet's first line)
    others = lines[index + 1].split(", ")
    lines[index + 1] = ", ".join([kept, *others[1:]])
    with pytest.raises(SheetError) as stopped:
        _read(lines)
    assert stopped.value.line == index + 2
    assert stopped.value.code == "impossible_outcome"
    assert f"destination tickets drawn: {kept!r} is not possible now; possible: " in stopped.value.message


def test_a_card_the_deck_no_longer_holds_is_refused_naming_what_it_holds() -> None:
    observed = _observed()
    # Every locomotive dealt or face up (12 in hands, 2 in the market): none is left to draw.
    observed["hands"] = {name: ["locomotive"] * 4 for name in SEATS}
    observed["market"] = ["locomotive", "locomotive", "red", "red", "blue"]
    first = observed["first"]
    lines = [f"{name} keeps {', '.join(observed['tickets'][name])}" for name in SEATS]
    lines += [f"{first} draws blind", "locomotive"]
    with pytest.raises(SheetError) as stopped:
        read_sheet(DECIDER, SEATS, {}, observed, lines)
    assert stopped.value.line == 5
    assert isinstance(stopped.value.error, IllegalMove)
    assert "a card from the deck: 'locomotive' is not possible now; possible: black, blue," in stopped.value.message
    assert "locomotive" not in stopped.value.message.split("possible:", 1)[1]


def test_a_refused_line_changes_nothing_and_the_right_line_then_goes_on() -> None:
    lines = _sheet()
    index = _first(lines, r"^\w+ draws blind$")
    transcript = _read(lines[:index + 1])  # the draw is in; its card is awaited
    assert transcript.pending is not None and transcript.pending.request.what == "a card from the deck"
    before_state, before_events = transcript.state, list(transcript.events)
    for wrong in ("Denver", "purple", "red, red"):
        with pytest.raises((IllegalMove, MalformedMove)):
            transcript.enter(wrong)
        assert transcript.state == before_state and transcript.events == before_events
        assert transcript.pending is not None
    transcript.enter(lines[index + 1])
    assert transcript.pending is None and len(transcript.events) > len(before_events)


def test_the_notation_page_quotes_the_sheet_as_it_is() -> None:
    page = (SHEETS.parents[1] / "docs" / "notation-ticket-to-ride.md").read_text()
    quoted = re.search(r"## A score sheet.*?```\n(.*?)```", page, re.S)
    assert quoted is not None
    lines = [line for line in _sheet() if line and not line.startswith("#")]
    excerpt = quoted.group(1).splitlines()
    assert len(excerpt) >= 5 and excerpt == lines[:len(excerpt)]


def test_the_sheet_written_in_short_forms_reads_to_the_same_end() -> None:
    short = TicketToRideNotation(DECIDER.board, short=True)
    long_sheet, short_sheet = _read([]), _read([])
    rewritten = 0
    for line in _sheet():
        if not line or line.startswith("#"):
            continue
        if long_sheet.pending is None:
            parsed = DECIDER.notation.parse(long_sheet.state, SEATS, line, DECIDER.active_seats(long_sheet.state))
            written = short.format(short_sheet.state, SEATS, parsed.seat, parsed.move)
            rewritten += written != line
        else:
            written = line
        long_sheet.enter(line)
        short_sheet.enter(written)
    assert rewritten > 100
    assert short_sheet.over and short_sheet.state == long_sheet.state
    assert [e for _, e in short_sheet.events] == [e for _, e in long_sheet.events]


def test_a_sheet_may_use_the_generic_form_whose_route_ids_hold_a_hash() -> None:
    lines = _sheet()
    index = _first(lines, r"\(lane 2\)")
    before = _read(lines[:index])
    parsed = DECIDER.notation.parse(before.state, SEATS, lines[index], DECIDER.active_seats(before.state))
    assert "#" in parsed.move["route"]
    generic = generic_format(SEATS, parsed.seat, parsed.move) + "  # the second lane"
    lines[index] = generic
    assert _read(lines).state == _read(_sheet()).state
