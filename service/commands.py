"""Every write to a stored game, as a command for the one pipeline (`Caboose.execute`).

A command says what is asked (a move, outcomes entered at a table, a referee's, a seat's or
the service's action) and who asks; the pipeline does the rest the same way for all of
them: it loads the game, checks the caller's token and the expected version, answers a
retry of an idempotency key with the records its first attempt stored, lets the command
decide against the game, stores what it decided in one transaction, and decides again
against the game as it now is when another writer stored first. Every record a command
adds carries its command id and the digest of its request (`Stamp`), which is how a retry
finds it.

A command decides on the `Game` aggregate, never on the service: what it needs of the
game's past (the records a referee's action is judged against, the state a rewind
restores) it asks of `History`, which the pipeline hands it.

The pipeline's loop is `decided_once`, over a `Stream` of aggregates: `Caboose.execute` runs
it over the store of games, the tournament's organiser over its shelf, so a tournament's
commands have the same guarantees. A new game decided in memory (`Held`) is stored as it
stands, and one made under a client's key is found again by its retry (`held_id`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from domain.core import log, referee
from domain.core.canonical import canonical
from domain.core.errors import IllegalMove
from domain.core.table import parse_outcome
from service import command_ids
from service.aggregate import Game, Stamp
from service.errors import IdempotencyKeyReused, StoreInconsistent, TokenReplaced, VersionConflict


class History(Protocol):
    """What a command may read of a game's past besides the game in hand."""

    def records(self, game_id: str, after: int = 0, limit: int | None = None,
                upto: int | None = None) -> list[dict[str, Any]]: ...

    def game(self, game_id: str, at: int | None = None) -> Game: ...


class Command(Protocol):
    """A write to the stored game `game_id` (see the module's docstring)."""

    @property
    def game_id(self) -> str:
        """The game written to."""
        ...

    namespace: ClassVar[str]
    """The prefix of the id the server gives the command when the client gave no key
    (`command_ids`); "" for a plain UUID."""

    def digest(self) -> str:
        """What identifies the request, for its retries under the same key."""
        ...

    def decide(self, game: Game, stamp: Stamp, history: History) -> list[dict[str, Any]]:
        """Decide against `game` (the pipeline's own copy) and record the result on it,
        every record under `stamp`; returns the records. Raises the rules' errors."""
        ...


@dataclass(frozen=True)
class SeatToken:
    """A seat's bearer token as the request was let in with it: the seat it speaks for, and the
    version of the game it was confirmed against. A referee may hand the seat back, with a
    fresh token, from any process at any moment (`SeatHandedBack`): the token speaks for the
    seat in a version of the game only while no hand-back of the seat is recorded after the
    one it was confirmed against. The game itself tells, so the pipeline asks nothing of
    the tokens' table while it decides."""

    seat: int
    confirmed_at: int

    def holds(self, game: Game) -> bool:
        return game.handed_back_at(self.seat) <= self.confirmed_at

    def admit(self, game: Game) -> None:
        """Refuse the command (`TokenReplaced`) in a version where the token no longer speaks for its seat."""
        if not self.holds(game):
            raise TokenReplaced()


class Commanded(Protocol):
    """What the pipeline asks of an aggregate: its version, and every command it stored (id
    → first version, last version, digest of the request)."""

    @property
    def version(self) -> int: ...

    @property
    def commands(self) -> Mapping[str, tuple[int, int, str | None]]: ...


A = TypeVar("A", bound=Commanded)
T = TypeVar("T")


class Stream(Protocol[A]):
    """Where the aggregates a command writes to are kept: games in the event store
    (`Caboose`), tournaments on their shelf (`service/tournament/store.py`)."""

    def load(self, stream_id: str) -> A:
        """The aggregate now: the caller's own copy."""
        ...

    def recorded(self, stream_id: str, first: int, last: int) -> list[dict[str, Any]]:
        """The records from version `first` to `last`."""
        ...

    def commit(self, aggregate: A) -> bool:
        """Store what was decided on `aggregate` in one transaction; False when another writer
        stored that version first (nothing of this attempt is stored then)."""
        ...


@dataclass(frozen=True)
class Decided(Generic[T]):
    """What a command did: the records it stored (a retry's: the records its first attempt
    stored), the aggregate (the caller's own copy) after them, and whether it was a retry."""

    records: list[dict[str, Any]]
    aggregate: T
    replayed: bool = False


CONFLICT_RETRIES = 20


def decided_once(stream: Stream[A], stream_id: str, decide: Callable[[A, Stamp], list[dict[str, Any]]], digest: str,
                 namespace: str, *, expected_version: int | Iterable[int] | None = None, idempotency_key: str | None = None,
                 loaded: A | None = None, admit: Callable[[A], None] | None = None) -> Decided[A]:
    """The pipeline itself, the same for every stream: load the aggregate, answer a retry of
    `idempotency_key` with the records its first attempt stored (the same key with another
    request, `digest`, is refused), refuse a stale `expected_version`, let `decide` record
    the command under its stamp, and store it in one transaction, deciding again against
    the aggregate as it now is when another writer stored first. `loaded`: the aggregate as
    the caller already loaded it, decided on first; `admit`: asked of every other version
    decided against (a seat's token, `SeatToken`), raising to refuse."""
    expected = None if expected_version is None else frozenset(
        [expected_version] if isinstance(expected_version, int) else expected_version)
    for _ in range(CONFLICT_RETRIES):
        checked = loaded is not None  # the caller admitted the request against this very version
        aggregate, loaded = loaded if loaded is not None else stream.load(stream_id), None
        if admit is not None and not checked:
            admit(aggregate)
        if idempotency_key is not None and idempotency_key in aggregate.commands:
            return Decided(replayed(stream, stream_id, aggregate, idempotency_key, digest), aggregate, True)
        if expected is not None and aggregate.version not in expected:
            raise VersionConflict(expected, aggregate.version)
        command_id = idempotency_key or (command_ids.fresh(namespace) if namespace else str(uuid.uuid4()))
        records = decide(aggregate, Stamp.now(command_id, digest))
        if stream.commit(aggregate):
            return Decided(records, aggregate)
        # Another writer stored this version first. Nothing of this attempt was stored or
        # cached; the next round decides against the aggregate as it now is (or answers a
        # retry of the same key with what that key stored).
    raise VersionConflict(expected, stream.load(stream_id).version)


def replayed(stream: Stream[A], stream_id: str, aggregate: A, key: str, digest: str) -> list[dict[str, Any]]:
    """The records command `key` stored, for a retry of the same request (`digest`)."""
    first, last, stored_digest = aggregate.commands[key]
    if stored_digest != digest:
        raise IdempotencyKeyReused(key)
    records = [r for r in stream.recorded(stream_id, first, last) if r["command_id"] == key]
    if not records or records[0]["version"] != first or records[-1]["version"] != last:
        raise StoreInconsistent(f"the records of command {key!r} are not where the stream says they are")
    return records


def request_digest(seat: int, move: Mapping[str, Any]) -> str:
    """What identifies a move's request for idempotency: the seat and the move, canonically."""
    return hashlib.sha256(canonical({"seat": seat, "move": dict(move)})).hexdigest()


@dataclass(frozen=True)
class Play:
    """A move by `seat`. `actor` names who entered it when not the seat itself (a referee);
    a seat a bot holds takes moves only from its bot (`by_bot`) or a referee. In a game
    played at a table, `outcomes` are entered with the move (by the referee `actor`, or by
    the seat for its own secret draws); a move that needs one not entered yet is stored as
    awaiting it (`EnterOutcomes`)."""

    game_id: str
    seat: int
    move: Mapping[str, Any]
    outcomes: Sequence[Any] = ()
    actor: str | None = None
    by_bot: bool = False
    namespace: ClassVar[str] = ""

    def digest(self) -> str:
        outcomes = list(self.outcomes)
        return request_digest(self.seat, {**self.move, "outcomes": outcomes} if outcomes else self.move)

    def decide(self, game: Game, stamp: Stamp, history: History) -> list[dict[str, Any]]:
        seat = self.seat
        if not self.by_bot and self.actor is None and seat in game.held_by_bots:
            raise IllegalMove("seat_held_by_bot", f"Seat {seat} is played by the {game.held_by_bots[seat]} bot: its "
                              "token cannot move for it until a referee hands the seat back (with a fresh token).")
        by = self.actor or f"seat:{seat}"
        return game.play(seat, self.move, game.randomness(list(self.outcomes), by, None if self.actor else seat), stamp, by)


@dataclass(frozen=True)
class EnterOutcomes:
    """The outcomes a table game waits for, entered by `actor` (a referee, or the seat
    `seat`, for its own secret draws only), as values in the game's terms or as `text`
    typed at the table (read against what the game waits for)."""

    game_id: str
    outcomes: Sequence[Any]
    actor: str
    seat: int | None
    text: str | None = None
    namespace: ClassVar[str] = ""

    def digest(self) -> str:
        return hashlib.sha256(canonical({"outcomes": list(self.outcomes), "text": self.text, "by": self.actor})).hexdigest()

    def decide(self, game: Game, stamp: Stamp, history: History) -> list[dict[str, Any]]:
        values = list(self.outcomes)
        pending = game.pending
        if self.text is not None and pending is not None:  # else refused below: no outcome to read it for
            values.append(parse_outcome(pending.request, self.text))
        return game.enter_outcomes(values, stamp, self.actor, self.seat)


@dataclass(frozen=True)
class Act:
    """A referee's, a seat's or the service's action (`domain/core/referee.py`: a rewind, a
    takeback asked or answered, a dispute, a ruling, an adjustment, a seat joined, a seat
    handed to a bot or back, a deadline set or passed), judged by the pure rules against the
    game and its full record."""

    game_id: str
    actor: str
    action: Any = field(hash=False)
    namespace: ClassVar[str] = "referee:"

    def digest(self) -> str:
        action = self.action
        return hashlib.sha256(canonical({"actor": self.actor, "action": type(action).__name__,
                                         **dataclasses.asdict(action)})).hexdigest()

    def decide(self, game: Game, stamp: Stamp, history: History) -> list[dict[str, Any]]:
        situation = referee.Situation(history.records(self.game_id, upto=game.version), game.decider, game.state)
        events = referee.judge(situation, self.actor, self.action)
        return game.act(events, self.actor, stamp,
                        rewound=lambda version: log.restored(history.game(self.game_id, at=version).state, game.state))


@dataclass(frozen=True)
class Held:
    """A game decided in memory, not yet stored: a new game (`Caboose.new_game`), a verified
    record imported (`Caboose.imported`), a fork (`service.referee.forked`), or a stored game
    played on in memory by bots (`service.simulation`). The pipeline stores what it holds
    as it stands, in one transaction; a new game whose id was stored meanwhile is refused
    (`game_exists`), as is a game played on in memory that another writer moved meanwhile
    (`VersionConflict`): what was decided in memory cannot be decided again here.

    A new game made under the client's Idempotency-Key `key` has an id that only the key
    and its request give (`held_id`), and its first record's command `command` carries the
    request's `digest`, so a retry finds the game its first attempt stored: the pipeline
    answers it with that command's records, as stored, and stores nothing; the same key
    with another request is refused (`IdempotencyKeyReused`)."""

    game: Game = field(hash=False)
    key: str | None = None
    command: str | None = None
    digest: str | None = None

    @property
    def game_id(self) -> str:
        return str(self.game.id)


HELD = uuid.UUID("5f1c9a07-3b2e-4d86-9e41-7ac0d2b6e853")
"""The namespace of the ids of new games made under a client's Idempotency-Key (`held_id`)."""


def held_id(use: str, key: str) -> str:
    """The id of the game a keyed request of `use` (a creation, a fork of a game) makes: the
    same for every retry under `key`, so a retry finds what its first attempt stored."""
    return str(uuid.uuid5(HELD, f"{use}\n{key}"))


def held_digest(use: str, **fields: Any) -> str:
    """What identifies a request that makes a new game, for its retries."""
    return hashlib.sha256(canonical({"use": use, **fields})).hexdigest()


@dataclass(frozen=True)
class Unstored:
    """The past of a game decided in memory (`History`): its records not yet stored. A
    command decided on a new game before it is stored (a bot seated, a deadline set at
    creation) is judged against them."""

    held: Game = field(hash=False)

    def records(self, game_id: str, after: int = 0, limit: int | None = None,
                upto: int | None = None) -> list[dict[str, Any]]:
        records = [e.record for e in self.held.pending_events if hasattr(e, "record")]
        chosen = [r for r in records if r["version"] > after and (upto is None or r["version"] <= upto)]
        return chosen if limit is None else chosen[:limit]

    def game(self, game_id: str, at: int | None = None) -> Game:
        if at is not None and at != self.held.version:
            raise LookupError("a game not yet stored has no earlier versions to go back to")  # no rewind judged on one
        return self.held
