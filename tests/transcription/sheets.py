"""Score sheets for the new games' transcription tests: written by playing a table game
through `Transcript` (moves chosen by the game's playout steering, outcomes drawn at random
from what the rules say is possible), and read back with `read_sheet`.

A sheet's header comments give what `read_sheet` needs besides its lines:

    # seats: Ann, Ben, Cho
    # options: {"first_game": false}
    # observed: railway_boom.observed.json
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from domain.core.audit import AuditReport, audit
from domain.core.decider import Decider
from domain.core.envelope import GENESIS_HASH, seal
from domain.core.events import Event
from domain.core.table import DRAW, PICK, ROLL, Request, format_outcome
from domain.core.transcription import Transcript, pending_of

SHEETS = Path(__file__).resolve().parent.parent / "sheets"


def random_outcome(request: Request, chooser: random.Random) -> Any:
    """An outcome the components could give: faces for dice, items still in the pile."""
    if request.kind == ROLL:
        return [chooser.randint(1, len(request.options)) for _ in range(request.count)]
    pile = [option for option, label in zip(request.options, request.labels, strict=True)
            for _ in range(request.available.get(label, 1))]
    drawn = chooser.sample(pile, request.count)
    if request.kind == PICK:
        return drawn[0]
    assert request.kind == DRAW
    return drawn


def play_sheet(decider: Decider[Any], seats: Sequence[str], options: Mapping[str, Any], observed: Mapping[str, Any],
               seed: int, heading: Callable[[Any], str | None] = lambda state: None,
               max_lines: int = 20000) -> tuple[list[str], Transcript]:
    """A whole game written as a score sheet: each move in the game's notation, each outcome
    as a referee types it, forced moves (which the reader fills in) as comments, and the
    `heading` of the state (a round or phase) as a comment whenever it changes."""
    chooser = random.Random(seed)
    transcript = Transcript(decider, seats, options, observed)
    lines: list[str] = []
    last = None
    for _ in range(max_lines):
        if transcript.over:
            break
        if transcript.pending is not None:
            request = transcript.pending.request
            text = format_outcome(request, random_outcome(request, chooser))
            lines.append(f"{text}  # {request.what}")
        else:
            now = heading(transcript.state)
            if now is not None and now != last:
                lines.append(f"# {now}")
                last = now
            seat = chooser.choice(sorted(decider.active_seats(transcript.state)))
            moves = decider.legal_moves(transcript.state, seat)
            move = decider.playout_choice(transcript.state, seat, moves, chooser) or chooser.choice(moves)
            text = decider.notation.format(transcript.state, seats, seat, move)
            lines.append(text)
        forced_before = len(transcript.forced)
        transcript.enter(text)
        lines += [f"# forced: {line}" for line in transcript.forced[forced_before:]]
    assert transcript.over, "the game did not end"
    return lines, transcript


def header(seats: Sequence[str], options: Mapping[str, Any], observed_file: str) -> list[str]:
    return [f"# seats: {', '.join(seats)}", f"# options: {json.dumps(dict(options))}", f"# observed: {observed_file}"]


def read_header(lines: Sequence[str]) -> tuple[list[str], dict[str, Any], dict[str, Any]]:
    """The seats, options and observed opening a sheet's header names."""
    fields: dict[str, str] = {}
    for line in lines:
        if line.startswith("# ") and ":" in line:
            key, _, value = line[2:].partition(":")
            fields.setdefault(key.strip(), value.strip())
    seats = [name.strip() for name in fields["seats"].split(",")]
    observed = json.loads((SHEETS / fields["observed"]).read_text(encoding="utf-8"))
    return seats, json.loads(fields["options"]), observed


def final_line(seats: Sequence[str], scores: Mapping[int, int]) -> str:
    return "# final scores: " + ", ".join(f"{seats[seat]} {score}" for seat, score in sorted(scores.items()))


def read_final(lines: Sequence[str]) -> dict[int, int]:
    """The final scores the sheet's last comment gives, by seat."""
    text = next(line for line in reversed(lines) if line.startswith("# final scores:"))
    parts = text.split(":", 1)[1].split(",")
    return {seat: int(part.split()[-1]) for seat, part in enumerate(parts)}


def write_sheet(name: str, decider: Decider[Any], seats: Sequence[str], options: Mapping[str, Any],
                observed: Mapping[str, Any], seed: int, heading: Callable[[Any], str | None], title: str) -> Path:
    """Play a whole game at a table and keep it as `tests/sheets/NAME.txt`, its opening as
    `NAME.observed.json`."""
    lines, transcript = play_sheet(decider, seats, options, observed, seed, heading)
    observed_file = f"{name}.observed.json"
    (SHEETS / observed_file).write_text(json.dumps(observed, indent=1) + "\n", encoding="utf-8")
    text = [f"# {title}", *header(seats, options, observed_file), *lines,
            final_line(seats, transcript.decider.scores(transcript.state))]
    path = SHEETS / f"{name}.txt"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def records_of(events: Sequence[tuple[str, Event]]) -> list[dict[str, Any]]:
    """The transcript's events as stored records read them (kind, data, secrets, version),
    for the functions that read a game's state from its record (`pending_of`)."""
    return [{"kind": event.kind, "data": event.data, "actor": actor, "version": version,
             "secrets": [{"to": list(secret.to), "value": secret.value} for secret in event.secrets]}
            for version, (actor, event) in enumerate(events, start=1)]


TAIL = 64


def check_waits(transcript: Transcript, lines: Sequence[str]) -> int:
    """Enter `lines` one by one; after each, what the record says the game waits for must be
    what the transcript waits for (every outcome entered for the move so far included).
    Returns how many waits were checked."""
    checked = 0
    for raw in lines:
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        transcript.enter(text)
        # The wait is read from the end of the record back to the last event of the game's
        # own, so the last records suffice.
        assert pending_of(records_of(transcript.events[-TAIL:])) == transcript.pending, text
        checked += transcript.pending is not None
    return checked


def sealed(transcript: Transcript) -> list[dict[str, Any]]:
    """The transcript as the service stores it: each command's events (`Transcript.commands`)
    sealed under one command id and hash-chained, so `audit` can re-decide the whole game."""
    starts = set(transcript.commands)
    records: list[dict[str, Any]] = []
    prev, command = GENESIS_HASH, 0
    for index, (actor, event) in enumerate(transcript.events):
        command += index in starts
        record = seal(game_id="00000000-0000-0000-0000-00000000000d", version=index + 1, time="2026-12-01T00:00:00Z",
                      actor=actor, command_id=f"c{command}", event=event, prev_hash=prev, new_salt=lambda: "00" * 16)
        records.append(record)
        prev = record["hash"]
    return records


def audited(transcript: Transcript) -> AuditReport:
    """The domain's audit of the sealed transcript; asserts it is OK: the chain intact, every
    command re-decided with the same events, every entered outcome possible."""
    report = audit(sealed(transcript))
    assert report.ok and report.chain.ok and report.rules.ok, report.text()
    assert report.seed.ok is None, report.seed  # entered at a table: possible, not proven fair
    return report


def forced_written_out(transcript: Transcript, lines: Sequence[str], every: int = 1) -> tuple[list[str], int, int]:
    """`lines` read by a fresh `transcript`, with the forced moves it fills in written out after
    the line that led to them (every `every`-th of them; the others left out): the new lines,
    and how many forced moves were written out and left out."""
    out, written, left = [], 0, 0
    for line in lines:
        out.append(line)
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        before = len(transcript.forced)
        transcript.enter(text)
        for index, forced in enumerate(transcript.forced[before:], start=before):
            if index % every == 0:
                out.append(forced)
                written += 1
            else:
                left += 1
    return out, written, left
