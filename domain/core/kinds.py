"""The core's own event kinds, recorded around every game (creation, the seed's reveal,
seats joining, referee actions, takebacks, seats taken over by bots, move deadlines): the
catalogue every game's own kinds are added to. `log.py` builds the first two, `takeover.py`
the bots' and deadlines', `referee.py` the rest; `fold.step` handles them all before a
game's `evolve` could see one.

Each kind's docstring opens with its meaning and its fields are its record's `data`
(FORMAT.md); both are published by `caboose catalogue` (docs/catalogue.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from domain.core.catalogue import Catalogue
from domain.core.events import Event, means

Outcome = Literal["upheld", "dismissed", "withdrawn"]
"""How a ruling closes a dispute."""
Adjusted = Literal["vp", "cash", "income", "piece"]
"""What a referee's adjustment changes (a game's `adjust` says which it supports)."""


@dataclass(frozen=True)
class SeatName:
    """A seat and the name its player goes by."""

    seat: int
    name: str


@dataclass(frozen=True)
class PinnedPack:
    """The content pack a game is played with, pinned by its digest."""

    id: str
    version: str
    sha256: str


@dataclass(frozen=True)
class Roll:
    """The stored outcome of one fair draw below `below` (FORMAT.md: `random`)."""

    below: int
    value: int


def roll(below: int, value: int) -> Roll:
    """The outcome of `rng.randbelow(below)` as an event records it in its `random` field."""
    return Roll(below, value)


@dataclass(frozen=True)
class AtTable:
    """The tournament table a game is played at."""

    tournament: str
    round: int
    table: int


@dataclass(frozen=True, kw_only=True)
class GameCreated(Event):
    """A game was created: its rules, seats, options, and the commitment to its seed.

    Always the first record of a game, and with the opening in one command group."""

    game: str = field(metadata=means("The ruleset's name, e.g. ticket_to_ride."))
    ruleset_version: str = field(metadata=means("The version of the rules the game is played and audited under."))
    seats: tuple[SeatName, ...] = field(metadata=means("Every seat in order, with the name it was created with."))
    options: dict[str, Any] = field(metadata=means("The game's full options, defaults filled in."))
    seed_commitment: str | None = field(metadata=means(
        "SHA-256 of the seed, revealed by SeedRevealed when the game ends; null for a game played at a table (no seed)."))
    seed_source: str = field(metadata=means("Who chose the seed: server, client, or table (outcomes entered by hand)."))
    content: PinnedPack | None = field(default=None, metadata=means(
        "The content pack the game is played with; absent in records made before packs."))
    tournament: AtTable | None = field(default=None, metadata=means(
        "The tournament, round and table this game is played at; absent for a game on its own."))
    rated: bool | None = field(default=None, metadata=means(
        "true: created rated, its result counts in the ratings once it ends; absent otherwise."))


@dataclass(frozen=True, kw_only=True)
class SeedRevealed(Event):
    """The game ended and its seed is made public, so every random outcome can be re-derived."""

    seed: str = field(metadata=means("The seed, as hex digits; its SHA-256 is the creation's seed_commitment."))


@dataclass(frozen=True, kw_only=True)
class SeatJoined(Event):
    """A seat left open at creation was taken by whoever held its invite."""

    seat: int = field(metadata=means("The seat taken, from 0."))
    name: str = field(metadata=means("The name the seat goes by from here on."))


@dataclass(frozen=True, kw_only=True)
class GameRewound(Event):
    """A referee rewound the game: the state after this event is the state at `to_version`.

    The random stream is not rewound: later draws continue the generator where it stood."""

    to_version: int = field(metadata=means("The version whose state the game returns to; it ends a command."))
    reason: str = field(metadata=means("Why, in the referee's words."))
    referee: str = field(metadata=means("The referee's name (the actor is referee:NAME)."))
    dispute: int | None = field(metadata=means("The DisputeRaised version this rewind settles, or null."))


@dataclass(frozen=True, kw_only=True)
class TakebackRequested(Event):
    """A seat asked to take back its own last move."""

    seat: int = field(metadata=means("The seat asking, whose move it was."))
    to_version: int = field(metadata=means("The version just before the move, which the game would return to."))
    move: tuple[int, int] = field(metadata=means("The first and last versions of the move."))


@dataclass(frozen=True, kw_only=True)
class TakebackAccepted(Event):
    """A seat (or a referee, for everyone) accepted the pending takeback."""

    seat: int = field(metadata=means("The seat whose move would be taken back."))
    by: str = field(metadata=means("Who accepted: seat:N or referee:NAME."))


@dataclass(frozen=True, kw_only=True)
class TakebackRefused(Event):
    """A seat (or a referee) refused the pending takeback."""

    seat: int = field(metadata=means("The seat whose move stays."))
    by: str = field(metadata=means("Who refused: seat:N or referee:NAME."))
    reason: str = field(metadata=means("Why, possibly empty."))


@dataclass(frozen=True, kw_only=True)
class MoveTakenBack(Event):
    """Everyone accepted: the move is taken back, and the state is the state at `to_version`."""

    seat: int = field(metadata=means("The seat whose move it was."))
    to_version: int = field(metadata=means("The version just before the move taken back."))


@dataclass(frozen=True, kw_only=True)
class DisputeRaised(Event):
    """A referee recorded a dispute about an event."""

    version: int = field(metadata=means("The version of the event in question."))
    raised_by: str = field(metadata=means("Who raised it, in their own words (a seat, a player's name)."))
    claim: str = field(metadata=means("What is claimed to be wrong."))
    referee: str = field(metadata=means("The referee who recorded it."))


@dataclass(frozen=True, kw_only=True)
class RulingMade(Event):
    """A referee ruled on a dispute, which takes no second ruling."""

    dispute: int = field(metadata=means("The version of the DisputeRaised ruled on."))
    text: str = field(metadata=means("The ruling in words."))
    outcome: Outcome = field(metadata=means("upheld (an action may follow), dismissed or withdrawn."))
    referee: str = field(metadata=means("The referee who ruled."))


@dataclass(frozen=True, kw_only=True)
class AdjustmentMade(Event):
    """A referee changed the game through its own `adjust` rule: points, cash, income, or a
    piece put back."""

    seat: int = field(metadata=means("The seat adjusted."))
    adjusted: Adjusted = field(metadata=means(
        "What is adjusted: vp, cash, income, or a piece put back.", key="kind"))
    amount: int = field(metadata=means("How much, either way (0 for a piece)."))
    detail: dict[str, Any] = field(metadata=means("What the game needs besides, e.g. {\"route\": ...} for a piece."))
    reason: str = field(metadata=means("Why, in the referee's words."))
    referee: str = field(metadata=means("The referee who adjusted."))
    dispute: int | None = field(metadata=means("The DisputeRaised version this settles, or null."))


@dataclass(frozen=True, kw_only=True)
class ForkedFrom(Event):
    """This game's records up to here are copies of another game's; from here it goes its own
    way, with a new seed."""

    origin: str = field(metadata=means("The id of the game forked."))
    at_version: int = field(metadata=means("How many of the origin's records were copied."))
    origin_hash: str = field(metadata=means("The hash of the origin's record at_version."))
    seed_commitment: str = field(metadata=means("SHA-256 of the fork's own new seed."))
    seed_source: str = field(metadata=means("Who chose the fork's seed: server or client."))
    reason: str = field(metadata=means("Why, in the referee's words."))
    referee: str = field(metadata=means("The referee who forked."))


@dataclass(frozen=True, kw_only=True)
class SeatTakenOver(Event):
    """A bot took over a seat: from here it moves for the seat whenever the seat is to act,
    until a referee hands the seat back; the seat's token can no longer move for it.

    The bot's moves are recorded as the seat's own (actor seat:N), each chosen with a
    generator seeded from the game id and the version it was made at."""

    seat: int = field(metadata=means("The seat taken over, from 0."))
    bot: str = field(metadata=means("The bot's name, e.g. ticket_to_ride greedy bot."))
    level: str = field(metadata=means("The bot's level among those the game offers: random, playout, greedy, planner."))
    by: str = field(metadata=means("Who assigned it: referee:NAME."))
    reason: str = field(metadata=means("Why, in the referee's words (e.g. the player dropped out)."))


@dataclass(frozen=True, kw_only=True)
class SeatHandedBack(Event):
    """A referee handed a seat a bot held back to a person, who moves for it with a fresh
    token from here on; the bot stops."""

    seat: int = field(metadata=means("The seat handed back."))
    level: str = field(metadata=means("The level of the bot that held it."))
    by: str = field(metadata=means("Who handed it back: referee:NAME."))
    reason: str = field(metadata=means("Why, in the referee's words."))


@dataclass(frozen=True, kw_only=True)
class MoveDeadlineSet(Event):
    """The game's move deadline was set, changed or lifted: once the game has stood still
    that long waiting for a seat, the game's strongest bot moves for that seat, once."""

    seconds: int | None = field(metadata=means("How long a seat may keep the game waiting, in seconds; null lifts the deadline."))
    by: str = field(metadata=means("Who set it: referee:NAME."))


@dataclass(frozen=True, kw_only=True)
class DeadlinePassed(Event):
    """A seat to act let the move deadline pass: the bot of `level` makes its next move
    (this one only; the seat keeps its token and its later turns)."""

    seat: int = field(metadata=means("The late seat."))
    seconds: int = field(metadata=means("The deadline in force, in seconds."))
    since: str = field(metadata=means("The time of the game's last event before this one, from which the deadline ran."))
    level: str = field(metadata=means("The level of the bot that moves for the seat."))


@dataclass(frozen=True, kw_only=True)
class OutcomeAwaited(Event):
    """A move in a game played at a table needs a random outcome nobody has entered yet:
    the game waits for it. The move is decided once every outcome it needs is entered.

    Recorded with the moving seat as actor; only `by` (or a referee) may enter the outcome."""

    seat: int = field(metadata=means("The seat whose move waits, from 0."))
    move: dict[str, Any] = field(metadata=means("The move as the seat made it."))
    needed: dict[str, Any] = field(metadata=means(
        "What the rules need, in the game's terms: kind (roll, pick, draw, number), what, count, "
        "options, labels, by (the seat whose own secret draw it is, or null for the referee), describe."))


@dataclass(frozen=True, kw_only=True)
class OutcomeEntered(Event):
    """A random outcome was entered at a table (dice read, a cube taken from the bag, cards
    turned up), in the game's own terms; the record's actor is who entered it (`by`).

    A seat's own secret draw keeps the outcome in a secret to that seat (`outcome` absent)."""

    what: str = field(metadata=means("What the rules asked for, e.g. goods growth, light dice."))
    outcome: Any = field(default=None, metadata=means("The outcome: die faces, an item, or the items drawn; absent when secret."))
    by: str = field(metadata=means("Who entered it: referee:NAME or seat:N."))


CORE = Catalogue(GameCreated, SeedRevealed, SeatJoined, GameRewound, TakebackRequested, TakebackAccepted,
                 TakebackRefused, MoveTakenBack, DisputeRaised, RulingMade, AdjustmentMade, ForkedFrom,
                 SeatTakenOver, SeatHandedBack, MoveDeadlineSet, DeadlinePassed, OutcomeAwaited, OutcomeEntered,
                 name="core")
"""Every kind the core records, in every game."""

REWINDS = (GameRewound, MoveTakenBack)
"""After these the state is the state at an earlier version, `to_version`."""
NOTES = (TakebackRequested, TakebackAccepted, TakebackRefused, DisputeRaised, RulingMade, ForkedFrom,
         SeatTakenOver, SeatHandedBack, MoveDeadlineSet, DeadlinePassed, OutcomeAwaited, OutcomeEntered)
"""Recorded for the history; they leave the game state as it is."""
