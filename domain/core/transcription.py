"""A game played at a table, recorded move by move and outcome by outcome.

In a table game (`seed_source: "table"`) a move is decided with `TableRandom` over the
outcomes entered for it. A move whose rules ask for an outcome nobody has entered yet is
recorded as `OutcomeAwaited` and the game waits: the referee (or, for a seat's own secret
draw, that seat) enters the outcome, recorded as `OutcomeEntered`, and once every outcome
the move needs is in, the move's own events follow in the same command. Audit re-decides
each such command from the awaited move and the outcomes entered since, so every entered
outcome is checked again for being possible.

`read_line` turns a typed line into what it means now (a move in the game's notation, or
the outcome the game waits for); `Transcript` folds a whole score sheet with it, filling in
forced moves (a seat whose only legal move it is) by itself.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core import fold, log
from domain.core.codec import encode
from domain.core.decider import Decider, Decision, Move
from domain.core.envelope import to_event
from domain.core.errors import GameOver, IllegalMove, MalformedMove, RecordError, RuleError
from domain.core.events import Event, Secret
from domain.core.kinds import CORE, OutcomeAwaited, OutcomeEntered, SeatJoined
from domain.core.table import OutcomeNeeded, Request, TableRandom, format_outcome, parse_outcome

AWAITED, ENTERED = OutcomeAwaited.kind, OutcomeEntered.kind
TABLE = "table"
OPENING = "the opening as laid out at the table"
"""What the `OutcomeEntered` that records the observed opening says it is."""


@dataclass(frozen=True)
class Pending:
    """A move that waits for outcomes: who made it, the move, the outcomes entered for it
    so far, and what the rules need next."""

    seat: int
    move: dict[str, Any]
    entered: tuple[Any, ...]
    request: Request

    def enterer(self) -> int | None:
        """The seat that enters the next outcome (its own secret draw), or None: the referee."""
        return self.request.by

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": dict(self.move), "entered": list(self.entered), "needed": self.request.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Pending:
        return cls(data["seat"], dict(data["move"]), tuple(data["entered"]), Request.from_json(data["needed"]))


def pending_after(pending: Pending | None, record: Mapping[str, Any]) -> Pending | None:
    """What a game waits on after `record`, given what it waited on before (None: nothing):
    an `OutcomeAwaited` starts a wait, each outcome entered for it is added, notes leave it
    as it is, and anything else ends it. Folding a record with this is `pending_of`."""
    step = wait_step(record)
    if step == STARTS:
        # A move that needs several outcomes waits once for each (a round's locomotives,
        # then its cars): the outcomes entered since its first wait stay with it, and its
        # latest wait says what it needs now.
        awaited = to_event(record, CORE)
        assert isinstance(awaited, OutcomeAwaited)
        entered = pending.entered if pending is not None else ()
        # `encode`: the move kept as the plain JSON it was recorded as (a table game's snapshot holds it).
        return Pending(awaited.seat, encode(awaited.move), entered, Request.from_json(awaited.needed))
    if step == ADDS and pending is not None:
        return Pending(pending.seat, pending.move, (*pending.entered, outcome_of(record)), pending.request)
    return None if step == ENDS else pending


STARTS, ADDS, KEEPS, ENDS = "starts", "adds", "keeps", "ends"


def wait_step(record: Mapping[str, Any]) -> str:
    """What `record` does to a wait for outcomes: `OutcomeAwaited` STARTS one, an outcome
    entered ADDS to it (the kept opening does not), a note KEEPS it as it is, anything else
    ENDS it. `pending_after` and the game index read a record through this alone."""
    kind = record["kind"]
    if kind == AWAITED:
        return STARTS
    if kind == ENTERED:
        return KEEPS if opening_of(record) is not None else ADDS
    return KEEPS if kind in log.NOTE_KINDS else ENDS


def pending_of(records: Sequence[Mapping[str, Any]]) -> Pending | None:
    """The move the game waits on, read from the end of its record (None: not waiting).
    Outcomes entered since the move's first `OutcomeAwaited` belong to it; any other event of
    the game's own ends the wait (`pending_after`, folded over the record's trailing notes)."""
    start = len(records)
    while start > 0 and records[start - 1]["kind"] in log.NOTE_KINDS:  # outcomes are notes too
        start -= 1
    pending: Pending | None = None
    for record in records[start:]:
        pending = pending_after(pending, record)
    return pending


def outcome_of(record: Mapping[str, Any]) -> Any:
    # The record, not its typed event: that reads an outcome withheld from this reader as None.
    if "outcome" in record["data"]:
        return record["data"]["outcome"]
    secret = record["secrets"][0]
    if "value" not in secret:
        raise RecordError("secret_withheld", f"version {record['version']}: an entered outcome is secret to its "
                          "seat; deciding the move needs the full record", record["version"])
    return secret["value"]["outcome"]


def table_play(decider: Decider[Any], state: Any, seat: int, move: Move, entered: Sequence[Any],
               new: Sequence[Any], by: str) -> Decision[Any]:
    """`move` by `seat` decided over the outcomes `entered` before and `new` now (entered
    by `by`): its events once every outcome it needs is in, else the new outcomes and
    `OutcomeAwaited` for the next. Raises the rules' errors, `ImpossibleOutcome` included;
    nothing is decided from an outcome that could not have happened."""
    rng = TableRandom([*entered, *new])
    try:
        decision = log.played(decider, state, seat, move, rng, None)
    except OutcomeNeeded as needed:
        if needed.used < len(entered) + len(new):
            raise MalformedMove("too_many_outcomes", f"{len(entered) + len(new) - needed.used} outcome(s) more than "
                                "the rules asked for") from None
        events = [*_entered(rng.requests[len(entered):], new, by),
                  OutcomeAwaited(seat=seat, move=dict(move), needed=needed.request.to_json())]
        return Decision(tuple(events), tuple([state] * (len(events) + 1)))
    if rng.used < len(entered) + len(new):
        raise MalformedMove("too_many_outcomes", f"the move used {rng.used} outcome(s); "
                            f"{len(entered) + len(new) - rng.used} more were entered than the rules asked for")
    recorded = _entered(rng.requests[len(entered):], new, by)
    return Decision((*recorded, *decision.events), (*[state] * len(recorded), *decision.states))


def table_opening(decider: Decider[Any], state: Any, observed: Mapping[str, Any], by: str) -> list[Event]:
    """The opening of a table game: the layout as observed, kept in the record (to referees
    only: it may hold what seats were dealt) so audit can check it against the rules of
    setup again, then the opening's own events (`Decider.table_setup`)."""
    if not isinstance(observed, Mapping):
        raise MalformedMove("bad_setup", "the observed opening is a JSON object")
    kept = OutcomeEntered(what=OPENING, by=by, secrets=(Secret((), {"outcome": dict(observed)}),))
    return [kept, *decider.table_setup(state, observed)]


def opening_of(record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The observed opening an `OutcomeEntered` record keeps, or None if it keeps another outcome."""
    # From the record, as `outcome_of` needs it: whether the opening's secret is held or withheld.
    if record["kind"] != ENTERED or record["data"].get("what") != OPENING or not record["secrets"]:
        return None
    return outcome_of(record)  # type: ignore[no-any-return]


def actor_of(event: Event, seat: int) -> str:
    """Who a table game's record names for `event` of a move by `seat`: an entered outcome's
    enterer, `system` for what the rules did by themselves, else the seat that moved at the
    table (whoever typed it in)."""
    if isinstance(event, OutcomeEntered):
        return event.by
    return "system" if event.automatic else f"seat:{seat}"


def _entered(requests: Sequence[Request], values: Sequence[Any], by: str) -> list[Event]:
    out: list[Event] = []
    for request, value in zip(requests, values, strict=True):
        if request.by is not None:
            out.append(OutcomeEntered(what=request.what, by=by, secrets=(Secret((request.by,), {"outcome": value}),)))
        else:
            out.append(OutcomeEntered(what=request.what, outcome=value, by=by))
    return out


def enter_outcome(decider: Decider[Any], state: Any, pending: Pending, values: Sequence[Any], by: str,
                  enterer_seat: int | None) -> Decision[Any]:
    """The outcomes `values` entered for the pending move, by `by` (a referee, or the seat
    `enterer_seat`, which may enter only its own secret draw)."""
    if enterer_seat is not None and pending.request.by != enterer_seat:
        who = "the referee" if pending.request.by is None else f"seat {pending.request.by}"
        raise IllegalMove(NOT_YOURS, f"Only {who} enters {pending.request.what}.")
    decision = table_play(decider, state, pending.seat, pending.move, pending.entered, values, by)
    check_enterer(decision.events, enterer_seat)
    return decision


NOT_YOURS = "not_your_outcome"
"""The code of an outcome entered by a seat that is not its own secret draw."""


def check_enterer(events: Iterable[Event], seat: int | None) -> None:
    """A seat enters only its own secret draws (None: a referee, who enters any outcome)."""
    if seat is None:
        return
    for event in events:
        if isinstance(event, OutcomeEntered) and not (event.secrets and tuple(event.secrets[0].to) == (seat,)):
            raise IllegalMove(NOT_YOURS, f"Only the referee enters {event.what}; seat {seat} enters only its own secret draws.")


def enterer_seat(by: str) -> int | None:
    """The seat of `seat:N`, None for a referee."""
    return int(by[5:]) if by.startswith("seat:") else None


# --- lines typed at the table -------------------------------------------------------------

@dataclass(frozen=True)
class MoveLine:
    seat: int
    move: dict[str, Any]


@dataclass(frozen=True)
class OutcomeLine:
    value: Any


def read_line(decider: Decider[Any], state: Any, seats: Sequence[str], pending: Pending | None,
              text: str) -> MoveLine | OutcomeLine:
    """What `text` means now: the outcome the game waits for, or a move in the game's
    notation. Raises `MalformedMove` (cannot read it) or the rules' errors."""
    if pending is not None:
        return OutcomeLine(parse_outcome(pending.request, text))
    if decider.is_over(state):
        raise GameOver()  # a move or an outcome alike: there is nothing left to enter
    line = decider.notation.parse(state, seats, text, decider.active_seats(state))
    return MoveLine(line.seat, line.move)


@dataclass(frozen=True)
class Filled:
    """A forced move a transcript filled in, with the state it was made in."""

    state: Any
    seat: int
    move: dict[str, Any]


def forced_written(decider: Decider[Any], seats: Sequence[str], filled: Sequence[Filled], text: str) -> int:
    """How many of the forced moves just `filled` in (in order) the line `text` accounts for:
    a sheet may write a forced move out instead of leaving it to be filled in, so a line that
    is one of them is that move, already made (0: none of them)."""
    for index, made in enumerate(filled):
        try:
            line = decider.notation.parse(made.state, seats, text, decider.active_seats(made.state))
        except RuleError:
            continue
        if (line.seat, line.move) == (made.seat, made.move):
            return index + 1
    return 0


def forced_move(decider: Decider[Any], state: Any) -> tuple[int, dict[str, Any]] | None:
    """The move the rules leave a seat no choice about (its only legal move), if any."""
    if decider.is_over(state):
        return None
    for seat in sorted(decider.active_seats(state)):
        moves = decider.legal_moves(state, seat)
        if len(moves) == 1:
            return seat, moves[0]
    return None


def completions(decider: Decider[Any], state: Any, seats: Sequence[str], pending: Pending | None) -> list[str]:
    """Every line that could be typed now, written in the game's notation (the legal
    moves of the seats to act, or the possible outcomes)."""
    if pending is not None:
        request = pending.request
        if request.kind in ("pick", "draw") and request.count == 1:
            return [format_outcome(request, option if request.kind == "pick" else [option]) for option in request.options]
        return [request.describe()]
    if decider.is_over(state):
        return []
    return [decider.notation.format(state, seats, seat, move)
            for seat in sorted(decider.active_seats(state)) for move in decider.legal_moves(state, seat)]


def expecting(decider: Decider[Any], state: Any, seats: Sequence[str], pending: Pending | None) -> str:
    """What the rules need next, in words: "outcome from the referee: the race dice: 2 dice",
    "Ann to move", "the game is over"."""
    if pending is not None:
        who = seats[pending.request.by] if pending.request.by is not None else "the referee"
        return f"outcome from {who}: {pending.request.describe()}"
    if decider.is_over(state):
        return "the game is over"
    return " / ".join(f"{seats[s]} to move" for s in sorted(decider.active_seats(state)))


class Transcript:
    """A table game folded from typed lines (a score sheet, or a referee at a keyboard),
    without a store: the events each line adds, forced moves filled in."""

    def __init__(self, decider: Decider[Any], seats: Sequence[str], options: Mapping[str, Any],
                 observed: Mapping[str, Any], referee: str = "referee:table") -> None:
        self.decider, self.seats, self.referee = decider, list(seats), referee
        setup = log.Setup(tuple(seats), decider.options(options, len(seats)))
        created = log.game_created(decider, setup, None, TABLE)
        state = decider.initial_state(setup)
        self.events: list[tuple[str, Event]] = [("system", created)]
        self.commands: list[int] = [0]
        """Where each command starts in `events`: the game's creation with its opening, then
        each move or outcome line and each forced move, as the service stores them."""
        self.state = state
        for event in table_opening(decider, state, observed, referee):
            self._apply(actor_of(event, -1), [event])
        self.pending: Pending | None = None
        self.forced: list[str] = []
        self.filled: list[Filled] = []
        """The forced moves filled in after the last line, which the next line may write out."""

    def _apply(self, actor: str, events: Iterable[Event]) -> None:
        for event in events:
            self.state = fold.step(self.decider, self.state, event)
            self.events.append((actor, event))

    @property
    def over(self) -> bool:
        return self.decider.is_over(self.state)

    def expects(self) -> str:
        """What the rules need next, in words."""
        return expecting(self.decider, self.state, self.seats, self.pending)

    def enter(self, text: str) -> list[Event]:
        """Apply one typed line; returns the events it (and the forced moves after it) added.
        A line that writes out a forced move just filled in adds nothing."""
        before = len(self.events)
        try:
            line = read_line(self.decider, self.state, self.seats, self.pending, text)
            if isinstance(line, OutcomeLine):
                assert self.pending is not None
                decision = enter_outcome(self.decider, self.state, self.pending, [line.value], self.referee, None)
                self._settle(self.pending.seat, decision)
            else:
                with log.by_name(self.seats, self.decider.active_seats(self.state)):
                    self._settle(line.seat, table_play(self.decider, self.state, line.seat, line.move, (), (), self.referee))
        except RuleError:
            written = forced_written(self.decider, self.seats, self.filled, text)
            if not written:
                raise
            del self.filled[:written]
            return []
        self.filled = []
        self._fill_forced()
        return [event for _, event in self.events[before:]]

    def _settle(self, seat: int, decision: Decision[Any]) -> None:
        self.commands.append(len(self.events))
        for event in decision.events:
            self._apply(actor_of(event, seat), [event])
        last = decision.events[-1] if decision.events else None
        if not isinstance(last, OutcomeAwaited):
            self.pending = None
            return
        entered = self._entered_since_awaited()
        self.pending = Pending(seat, dict(last.move), entered, self._asked(seat, dict(last.move), entered, last.needed))

    def _asked(self, seat: int, move: dict[str, Any], entered: tuple[Any, ...], needed: Mapping[str, Any]) -> Request:
        """What the move asks for next, in full: the record's `needed` leaves out how many of
        each item the pile holds (`Request.available`), which the rules say again."""
        try:
            log.played(self.decider, self.state, seat, move, TableRandom(entered), None)
        except OutcomeNeeded as asked:
            return asked.request
        return Request.from_json(needed)

    def _entered_since_awaited(self) -> tuple[Any, ...]:
        values: list[Any] = []
        for _, event in reversed(self.events[:-1]):
            if isinstance(event, OutcomeEntered):
                values.append(event.outcome if event.outcome is not None else event.secret()["outcome"])
            elif not isinstance(event, OutcomeAwaited):
                break
        return tuple(reversed(values))

    def _fill_forced(self) -> None:
        while self.pending is None and (forced := forced_move(self.decider, self.state)) is not None:
            seat, move = forced
            self.forced.append(self.decider.notation.format(self.state, self.seats, seat, move))
            self.filled.append(Filled(self.state, seat, move))
            self._settle(seat, table_play(self.decider, self.state, seat, move, (), (), self.referee))


_COMMENT = re.compile(r"(?:^|\s)#")


def without_comment(raw: str) -> str:
    """A typed line without its comment: `#` at the start or after a space starts one (a
    `#` inside a word, as in a double route's id `Kansas City|Oklahoma City#1`, does not)."""
    return _COMMENT.split(raw, maxsplit=1)[0].strip()


def read_sheet(decider: Decider[Any], seats: Sequence[str], options: Mapping[str, Any], observed: Mapping[str, Any],
               lines: Iterable[str]) -> Transcript:
    """A whole score sheet: blank lines and comments (`without_comment`) skipped. Raises `SheetError` at the
    first impossible line, naming its number."""
    transcript = Transcript(decider, seats, options, observed)
    for number, raw in enumerate(lines, start=1):
        text = without_comment(raw)
        if not text:
            continue
        try:
            transcript.enter(text)
        except RuleError as error:
            raise SheetError(number, raw.rstrip("\n"), error) from error
    return transcript


class SheetError(RuleError):
    """A score-sheet line the rules refuse; `line` is its number, from 1."""

    def __init__(self, line: int, text: str, error: RuleError) -> None:
        super().__init__(error.code, f"line {line}: {text.strip()!r}: {error.message}")
        self.line = line
        self.error = error


# --- the text form of a record ------------------------------------------------------------

def requests_for(decider: Decider[Any], state: Any, seat: int, move: Move, entered: Sequence[Any],
                 new: Sequence[Any]) -> list[Request]:
    """What the rules asked for each of the outcomes `new` (entered after `entered`)."""
    rng = TableRandom([*entered, *new])
    with contextlib.suppress(OutcomeNeeded):
        log.played(decider, state, seat, move, rng, None)
    return rng.requests[len(entered):len(entered) + len(new)]


def sheet_lines(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """A table game's record as a score sheet: one line per move in the game's notation and
    one per entered outcome, as typed at the table, so `read_sheet` reads it back. Forced
    moves are written as comments (a reader fills them in itself); an outcome secret to its
    seat, in a record that withholds it, as a comment too."""
    created = log.created_of(records[0])
    seats = ", ".join(seat_names(records))
    head = [f"# {created.game} (ruleset {created.ruleset_version}): {seats}; options "
            f"{json.dumps(created.options, ensure_ascii=False, sort_keys=True)}"]
    observed = opening_of(records[1]) if len(records) > 1 and records[1]["secrets"] and \
        "value" in records[1]["secrets"][0] else None
    if observed is not None:
        head.append(f"# opening as observed: {json.dumps(observed, ensure_ascii=False, sort_keys=True)}")
    return [*head, *(text for _, text in notated(records))]


def notated(records: Sequence[Mapping[str, Any]]) -> list[tuple[int, str]]:
    """Each move of a record in the game's notation and each entered outcome as typed, with
    the version it is recorded at (a move's first event). A seeded game's moves too; the
    record must hold every secret (the rules fold it)."""
    history = fold.History(dict(records[0]))
    decider = history.decider
    seats = seat_names(records)
    # Only a table game's sheet is read back, filling forced moves in: only there are they marked.
    table = log.created_of(records[0]).seed_source == TABLE
    lines: list[tuple[int, str]] = []
    pending: Pending | None = None
    for group in _groups(records[1:]):
        first = group[0]
        state = history.state
        if (opening_of(first) is None and first["kind"] in (ENTERED, AWAITED)) or (
                first["actor"].startswith("seat:") and decider.move_of(_event(decider, first)) is not None):
            lines.extend(_group_lines(decider, state, seats, pending, group, table))
        for record in group:
            history.add(dict(record))
            pending = pending_after(pending, record)
    return lines


def seat_names(records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The seats' names as the record ends: a seat left open at creation goes by the name it
    was joined with (`SeatJoined`), on every line, as the game's state calls it."""
    names = log.names_of(log.created_of(records[0]))
    for record in records:
        joined = to_event(record, CORE) if record["kind"] == log.SEAT_JOINED else None
        if isinstance(joined, SeatJoined):
            names = log.renamed(names, joined.seat, joined.name)
    return names


def _groups(records: Sequence[Mapping[str, Any]]) -> list[list[Mapping[str, Any]]]:
    groups: list[list[Mapping[str, Any]]] = []
    for record in records:
        if groups and record["command_id"] is not None and groups[-1][0]["command_id"] == record["command_id"]:
            groups[-1].append(record)
        else:
            groups.append([record])
    return groups


def _event(decider: Decider[Any], record: Mapping[str, Any]) -> Event:
    return to_event(dict(record), decider.catalogue)


def _group_lines(decider: Decider[Any], state: Any, seats: Sequence[str], pending: Pending | None,
                 group: list[Mapping[str, Any]], mark_forced: bool) -> list[tuple[int, str]]:
    entered = [r for r in group if r["kind"] == ENTERED]
    # Read from the records as `outcome_of` reads them, except that a withheld outcome is None
    # here, not an error: the sheet writes it as a comment.
    values = [r["data"]["outcome"] if "outcome" in r["data"] else (r["secrets"][0].get("value") or {}).get("outcome")
              for r in entered]
    lines: list[tuple[int, str]] = []
    if pending is not None:
        seat, move, before = pending.seat, pending.move, pending.entered
    else:
        opening = next((r for r in group if r["kind"] != ENTERED), None)
        if opening is None:
            return []
        event = _event(decider, opening)
        if isinstance(event, OutcomeAwaited):
            seat, move = event.seat, dict(event.move)
        else:
            seat, move = int(opening["actor"][5:]), decider.move_of(event) or {}
        before = ()
        text = decider.notation.format(state, seats, seat, move)
        forced = mark_forced and forced_move(decider, state) == (seat, move)
        lines.append((opening["version"], f"# forced: {text}" if forced else text))
    requests: list[Request] = []
    if None not in values and None not in before:
        try:
            requests = requests_for(decider, state, seat, move, before, values)
        except RuleError:  # written as entered, then
            requests = []
    for index, (record, value) in enumerate(zip(entered, values, strict=True)):
        if value is None:
            lines.append((record["version"], f"# {record['data']['what']}: secret to the seat that drew it"))
        else:
            lines.append((record["version"], format_outcome(requests[index], value) if index < len(requests) else str(value)))
    return lines
