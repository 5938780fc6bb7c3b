"""Seats taken over by bots, and the move deadline: the rules of who may move for a seat.

- **Take over** (`SeatTakenOver`, by a referee): a bot of one of the levels the game offers
  (`Decider.bots`) moves for the seat whenever it is to act, through the same `log.play` as
  any move, recorded as the seat's own move. Refused for a finished game, a seat a bot
  already holds, and a level the game does not offer. The seat's token stops moving for it:
  a dropped player coming back must not race the bot (the service refuses their moves).
- **Hand back** (`SeatHandedBack`, by a referee): the bot stops; the service issues the
  seat a fresh token.
- **Move deadline** (`MoveDeadlineSet`, by a referee; null lifts it): once the game has
  stood still that long waiting for a seat, `DeadlinePassed` (automatic) is recorded and
  the game's strongest bot makes that seat's next move. The clock is the service's: the
  rules only check that a deadline is in force and the seat is to act; the record's times
  show when it passed.

Who holds which seat, and the deadline in force, are read from the record (`held`,
`deadline`), so the aggregate, the bot runner and the audit agree. A rewind takes back
moves, not these: a seat stays with its bot across one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from domain.core.bots import LEVELS, bot_of
from domain.core.envelope import to_event
from domain.core.errors import IllegalMove, MalformedMove
from domain.core.events import Event
from domain.core.judging import Situation, is_int, require_referee, seat_in, text_field
from domain.core.kinds import CORE, DeadlinePassed, MoveDeadlineSet, SeatHandedBack, SeatTakenOver

if TYPE_CHECKING:
    from domain.core.decider import Decider

TAKEN_OVER = SeatTakenOver.kind
HANDED_BACK = SeatHandedBack.kind
DEADLINE_SET = MoveDeadlineSet.kind
DEADLINE_PASSED = DeadlinePassed.kind
KINDS = frozenset({TAKEN_OVER, HANDED_BACK, DEADLINE_SET, DEADLINE_PASSED})
MAX_DEADLINE = 366 * 24 * 3600
"""A year and a day: the longest deadline a referee may set, in seconds."""
SYSTEM = "system"


@dataclass(frozen=True)
class TakeOver:
    seat: int
    level: str
    reason: str


@dataclass(frozen=True)
class HandBack:
    seat: int
    reason: str


@dataclass(frozen=True)
class SetDeadline:
    seconds: int | None


@dataclass(frozen=True)
class PassDeadline:
    seat: int
    since: str


def bot_name(rules: Decider[Any], level: str) -> str:
    return f"{rules.name} {level} bot"


def levels(rules: Decider[Any]) -> list[str]:
    """The levels the game offers, weakest first (a level the core does not know comes first)."""
    return sorted(rules.bots, key=lambda level: LEVELS.index(level) if level in LEVELS else -1)


def strongest(rules: Decider[Any]) -> str:
    """The strongest level the game offers: the one that moves for a late seat."""
    return levels(rules)[-1]


# -- reading the record -------------------------------------------------------------------

def seated(bots: Mapping[int, str], record: Mapping[str, Any]) -> Mapping[int, str]:
    """The seats held by bots (seat → level) after `record`; the same mapping when it
    changes nothing, a new one when it does."""
    event = to_event(record, CORE) if record["kind"] in (TAKEN_OVER, HANDED_BACK) else None
    if isinstance(event, SeatTakenOver):
        return {**bots, event.seat: event.level}
    if isinstance(event, SeatHandedBack):
        return {seat: level for seat, level in bots.items() if seat != event.seat}
    return bots


def held(records: Iterable[Mapping[str, Any]]) -> Mapping[int, str]:
    """The seats held by bots at the end of `records`, and their levels."""
    bots: Mapping[int, str] = {}
    for record in records:
        bots = seated(bots, record)
    return bots


def deadline(records: Iterable[Mapping[str, Any]]) -> int | None:
    """The move deadline in force at the end of `records`, in seconds (None: none)."""
    seconds = None
    for record in records:
        if record["kind"] == DEADLINE_SET and isinstance(event := to_event(record, CORE), MoveDeadlineSet):
            seconds = event.seconds
    return seconds


def action_of(record: Mapping[str, Any]) -> TakeOver | HandBack | SetDeadline | PassDeadline | None:
    """The action the first event of a recorded command of this module records."""
    event = to_event(record, CORE) if record["kind"] in KINDS else None
    if isinstance(event, SeatTakenOver):
        return TakeOver(event.seat, event.level, event.reason)
    if isinstance(event, SeatHandedBack):
        return HandBack(event.seat, event.reason)
    if isinstance(event, MoveDeadlineSet):
        return SetDeadline(event.seconds)
    if isinstance(event, DeadlinePassed):
        return PassDeadline(event.seat, event.since)
    return None


# -- the judges (called by `referee.judge`) ------------------------------------------------

def take_over(situation: Situation, actor: str, action: TakeOver) -> list[Event]:
    require_referee(actor)
    seat = seat_in(situation, action.seat)
    reason = text_field(action.reason, "reason", 500)
    _running(situation, "taken over")
    if not isinstance(action.level, str):
        raise MalformedMove("bad_field", "`level` must be the name of one of the game's bot levels.")
    bot_of(situation.decider, action.level)  # refuses a level the game does not offer, naming those it does
    bots = held(situation.records)
    if seat in bots:
        raise IllegalMove("seat_held_by_bot", f"Seat {seat} is held by the {bots[seat]} bot already; hand it back first.")
    return [SeatTakenOver(seat=seat, bot=bot_name(situation.decider, action.level), level=action.level, by=actor, reason=reason)]


def hand_back(situation: Situation, actor: str, action: HandBack) -> list[Event]:
    require_referee(actor)
    seat = seat_in(situation, action.seat)
    reason = text_field(action.reason, "reason", 500)
    _running(situation, "handed back")
    bots = held(situation.records)
    if seat not in bots:
        raise IllegalMove("seat_not_held_by_bot", f"Seat {seat} is not held by a bot; there is nothing to hand back.")
    return [SeatHandedBack(seat=seat, level=bots[seat], by=actor, reason=reason)]


def set_deadline(situation: Situation, actor: str, action: SetDeadline) -> list[Event]:
    require_referee(actor)
    seconds = action.seconds
    if seconds is not None and (not is_int(seconds) or not 1 <= seconds <= MAX_DEADLINE):
        raise MalformedMove("bad_deadline", f"A move deadline is 1 to {MAX_DEADLINE} seconds (or null to lift it).")
    _running(situation, "given a deadline")
    if seconds == deadline(situation.records):
        raise IllegalMove("deadline_unchanged", "That deadline is already the game's; nothing would change.")
    return [MoveDeadlineSet(seconds=seconds, by=actor)]


def pass_deadline(situation: Situation, actor: str, action: PassDeadline) -> list[Event]:
    if actor != SYSTEM:
        raise IllegalMove("deadline_is_automatic", "Only the service records a deadline passing.")
    seat = seat_in(situation, action.seat)
    _running(situation, "moved for")
    seconds = deadline(situation.records)
    if seconds is None:
        raise IllegalMove("no_deadline", "This game has no move deadline.")
    if seat not in situation.decider.active_seats(situation.state):
        raise IllegalMove("not_to_act", f"Seat {seat} is not to act, so it cannot be late.")
    if situation.records and situation.records[-1]["kind"] == DEADLINE_PASSED:
        raise IllegalMove("deadline_passed", "The deadline has passed already; the bot's move comes next.")
    if not isinstance(action.since, str) or not situation.records or action.since != situation.records[-1]["time"]:
        raise MalformedMove("bad_field", "`since` is the time of the game's last event, from which the deadline ran.")
    return [DeadlinePassed(seat=seat, seconds=seconds, since=action.since, level=strongest(situation.decider),
                           automatic=True)]


def _running(situation: Situation, what: str) -> None:
    if situation.decider.is_over(situation.state):
        raise IllegalMove("game_over", f"The game has ended; no seat can be {what}.")
