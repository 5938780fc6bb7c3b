"""The `Game` aggregate: one per game, hosting that game's decider.

Each stored library event holds exactly one FORMAT.md record, so the aggregate's
version is the record's version. The secret seed and the generator's position are kept
beside the records (never inside them) so play resumes the random stream exactly.
"""

from __future__ import annotations

import functools
import json
import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate, event

from domain.core import fold, log, registry, takeover, transcription
from domain.core.audit import AWAITS_REVEAL
from domain.core.codec import decode, encode
from domain.core.decider import Decider, Decision, Move
from domain.core.envelope import Sealer, seat_actor, to_event
from domain.core.errors import IllegalMove
from domain.core.events import Event
from domain.core.kinds import CORE, ForkedFrom, SeatHandedBack, SeatJoined
from domain.core.randomness import SeededRandom
from domain.core.state import transient


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


new_salt: Callable[[], str] = functools.partial(secrets.token_hex, 16)
"""A secret's salt: 16 random bytes as hex. The standard library's own function, so sealing a
record (`domain/core/envelope.py`) draws its salts without calling back into the service."""


@dataclass(frozen=True)
class Stamp:
    """What every record a command adds carries besides its event: the command's id, the
    time it was decided, the digest of its request (what a retry under the same id is
    checked against; None for none), and where its secrets' salts come from."""

    command_id: str
    time: str
    digest: str | None = None
    salt: Callable[[], str] = new_salt

    @classmethod
    def now(cls, command_id: str, digest: str | None = None) -> Stamp:
        return cls(command_id, utc_now(), digest)

    def sealer(self, game: Aggregate) -> Sealer:
        """What seals the records this command adds to `game` (`envelope.Sealer`)."""
        return Sealer(game_id=str(game.id), time=self.time, command_id=self.command_id, new_salt=self.salt)


def awaited_after(awaiting: dict[str, Any] | None, record: dict[str, Any]) -> dict[str, Any] | None:
    """What a table game waits on after `record` (`transcription.pending_after`), as JSON."""
    if awaiting is None and record["kind"] != transcription.AWAITED:
        return None  # most records: nothing awaited before, nothing after
    before = transcription.Pending.from_json(awaiting) if awaiting is not None else None
    after = transcription.pending_after(before, record)
    return None if after is None else after.to_json()


def describe(pending: transcription.Pending, seats: Sequence[str]) -> str:
    who = "the referee" if pending.request.by is None else seats[pending.request.by]
    return f"{pending.request.describe()} (entered by {who})"


SEED_NOT_HELD = "seed_not_held"
"""The code of a move (or anything that leads to one) refused in a seeded game this service
holds no seed of: one imported unfinished."""


IMPORTED_UNFINISHED = f"{AWAITS_REVEAL}; stored without its seed, it cannot be played on here"
"""What an import of an unfinished seeded game says of it."""


def seed_not_held() -> IllegalMove:
    return IllegalMove(SEED_NOT_HELD, "This game was imported unfinished, without its seed: it cannot be played on here, "
                       "by a seat, a bot or a fork. Its draws so far cannot be checked until the seed is revealed, and "
                       "the piles it would draw from next are only as the imported record says. Play it on where its "
                       "seed is kept, then import the finished record.")


_RULES = "_rules"
"""Where a game keeps the rules it found, with the shelf's token they were found under."""

Command = tuple[int, int, "str | None"]
"""A command's first and last version, and the digest of its request (None for none)."""


class Commands(Mapping[str, Command]):
    """Every command a game has stored, by id, for idempotency: a retried request finds the
    records its first attempt stored. A game keeps one per move for its whole life, so in a
    snapshot they are one text, a line per command, searched when a request asks rather than
    parsed into a dict: loading a long game's snapshot no longer grows with its length (a
    2,000-event game's commands were most of its snapshot, and decoding them most of its
    load). Commands recorded since the snapshot are kept in a dict beside the text."""

    __slots__ = ("_newer", "_text")

    def __init__(self, text: str = "\n", newer: dict[str, Command] | None = None) -> None:
        self._text = text  # "\n", then a line per command: '"id" first last digest-or--\n'
        self._newer: dict[str, Command] = newer if newer is not None else {}

    def note(self, key: str, version: int, digest: str | None) -> None:
        """Event `version` was recorded for command `key`. A command's events are stored
        together, in one transaction, so an event continues a command only if that command
        was recorded since the snapshot; the text is not searched for every event folded."""
        first, _, known = self._newer.get(key, (version, version, digest))
        self._newer[key] = (first, version, known)

    def text(self) -> str:
        """Every command as one text, for a snapshot. A line added later wins (`rfind`)."""
        return self._text + "".join(_line(key, command) + "\n" for key, command in self._newer.items())

    def copy(self) -> Commands:
        return Commands(self._text, dict(self._newer))

    def __setitem__(self, key: str, command: Command) -> None:
        self._newer[key] = command

    def __getitem__(self, key: str) -> Command:
        found = self._newer.get(key)
        if found is not None:
            return found
        prefix = "\n" + json.dumps(key) + " "
        start = self._text.rfind(prefix)
        if start < 0:
            raise KeyError(key)
        first, last, digest = self._text[start + len(prefix):self._text.index("\n", start + 1)].split(" ")
        return int(first), int(last), None if digest == "-" else digest

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and (key in self._newer or ("\n" + json.dumps(key) + " ") in self._text)

    def __iter__(self) -> Iterator[str]:
        decoder = json.JSONDecoder()
        stored = (decoder.raw_decode(line)[0] for line in self._text.split("\n") if line)
        return iter(dict.fromkeys([*stored, *self._newer]))

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _line(key: str, command: Command) -> str:
    # The id JSON-encoded has no raw newline, and its closing quote and a space end it.
    first, last, digest = command
    return f"{json.dumps(key)} {first} {last} {digest or '-'}"


def _seconds_between(start: str, end: str) -> float:
    return (datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds()


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """Fold stored events onto a game. The library's default projector checks a runtime
    protocol on every event, which dominated the cost of loading a game. The fold is a
    transient one (`domain.core.state.transient`): the states between the first event and the
    last are seen by nobody, so they are changed in place rather than copied per event, and
    the game handed out holds an immutable state."""
    with transient():
        for stored in events:
            game = stored.mutate(game)
    return game


@dataclass(frozen=True)
class Played:
    """A move decided: its events and the states they lead through, who each record names
    (one actor for all, or one per event), and where the random stream stands after it."""

    decision: Decision[Any]
    actor: str | Callable[[Event], str]
    rng_position: int


@dataclass(frozen=True)
class Drawn:
    """A seeded game's randomness: its outcomes drawn from its seed, from where the stream
    stands; the seed is revealed when the move ends the game."""

    seed: bytes
    position: int

    def decide(self, game: Game, seat: int, move: Move, by: str) -> Played:
        rng = SeededRandom(self.seed, self.position)
        decision = log.played(game.decider, game.state, seat, move, rng, self.seed)
        return Played(decision, by, rng.position)


@dataclass(frozen=True)
class Entered:
    """A table game's randomness: its outcomes entered, `outcomes` with the move by `by` (the
    referee, or the seat `enterer_seat`, for its own secret draws only). A move that needs
    an outcome not entered yet is recorded as awaiting it."""

    outcomes: tuple[Any, ...]
    by: str
    enterer_seat: int | None

    def decide(self, game: Game, seat: int, move: Move, by: str) -> Played:
        pending = game.pending
        if pending is not None:
            raise IllegalMove("outcome_awaited", f"The game waits for an outcome first: {describe(pending, game.seats)}; "
                              "enter it before any move.")
        decision = transcription.table_play(game.decider, game.state, seat, move, (), list(self.outcomes), self.by)
        transcription.check_enterer(decision.events, self.enterer_seat)
        return Played(decision, lambda e: transcription.actor_of(e, seat), 0)


def not_a_table_game() -> IllegalMove:
    return IllegalMove("not_a_table_game", "This game draws its own random outcomes: none can be entered.")


class Game(Aggregate):
    class_version = 2
    """The layout of the game's snapshots (the library's upcasting, `upcast_v1_v2`): 2 holds
    every field a game keeps. A snapshot taken before it (version 1) is upcast as it loads."""

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """A snapshot taken before content packs, bots in seats, move deadlines, tournament
        tables and games played at a table, with its commands perhaps still a mapping: the
        values such a game had (its default pack, no bots, no deadline, no tournament, drawn
        from its seed) and its commands as one text. The versions of its hand-backs and the
        origins of a fork cannot be told from a snapshot; one without them is folded from its
        events instead (`Caboose._reconstructed`)."""
        state.setdefault("content", None)
        state.setdefault("bot_seats", {})
        state.setdefault("move_deadline", None)
        state.setdefault("tournament", None)
        state.setdefault("table", False)
        state.setdefault("awaiting", None)
        commands = state.get("commands", {})
        if not isinstance(commands, str):
            state["commands"] = Commands(newer={key: (first, last, digest)
                                                for key, (first, last, digest) in dict(commands).items()}).text()

    @staticmethod
    def create_id(record: dict[str, Any], **_: Any) -> UUID:
        return UUID(record["game_id"])

    @event("Created")
    def __init__(self, record: dict[str, Any], seed: str | None, rng_position: int = 0,
                 request_digest: str | None = None) -> None:
        # The creation's data as stored: `content` and `tournament` are kept as the plain JSON
        # the snapshots hold, and `log.setup_of` hands the rules the options as recorded.
        created = record["data"]
        self.ruleset = created["game"]
        self.ruleset_version = created["ruleset_version"]
        self.content = created.get("content")
        self.seats = [s["name"] for s in sorted(created["seats"], key=lambda s: s["seat"])]
        self.seed = seed
        self.rng_position = rng_position
        self.head = record["hash"]
        self.created_at = record["time"]
        self.updated_at = record["time"]
        # command id -> (first version, last version, digest of the request or None)
        # (`request_digest`: of the request that made the game under a client's key, `Held`)
        self.commands = Commands(newer={record["command_id"]: (1, 1, request_digest)} if record["command_id"] else {})
        # Pace, from event times: since when each active seat has been waiting to act, and
        # each seat's total thinking time (seat numbers as strings: snapshots are JSON).
        self.waiting_since: dict[str, str] = {}
        self.thinking_seconds: dict[str, float] = {}
        # Seats held by bots (seat as a string → level) and the move deadline in seconds
        # (`domain/core/takeover.py`); both are replaced, never changed in place.
        self.bot_seats: dict[str, str] = {}
        self.move_deadline: int | None = None
        # The version of each seat's last `SeatHandedBack` (seat as a string): the seat got a
        # fresh token then, so a token confirmed before it may no longer speak for the seat.
        self.handed_back: dict[str, int] = {}
        # The games whose hidden cards this one continues: the origin of each `ForkedFrom`
        # in its record (a fork of a fork names both). Who may see it waits on them.
        self.origins: list[str] = []
        # A game played at a table (`seed_source: "table"`) has no seed: its outcomes are
        # entered. `awaiting` is the move it waits on (`transcription.pending_of`, kept as
        # plain JSON for snapshots), replaced on every record, never changed in place.
        self.table = created.get("seed_source") == transcription.TABLE
        self.tournament = created.get("tournament")
        self.awaiting: dict[str, Any] | None = None
        self.state = self.decider.initial_state(log.setup_of(created))

    def copy(self) -> Game:
        """A copy that shares nothing that can change: the state is immutable in fact
        (see domain/core/state.py), and the aggregate's own containers are copied, so a
        request that changes its copy and then fails leaves no trace in any other."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(
            _pending_events=list(self._pending_events), seats=list(self.seats), commands=self.commands.copy(),
            waiting_since=dict(self.waiting_since), thinking_seconds=dict(self.thinking_seconds))
        return copy

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    @property
    def decider(self) -> Decider[Any]:
        # Asked for several times an event: found again only when the installed packs may
        # have changed (kept beside the game's fields, never in its snapshots).
        token = registry.shelf_token()
        found = self.__dict__.get(_RULES)
        if found is None or found[0] != token:
            found = self.__dict__[_RULES] = (token, log.decider_of({
                "game": self.ruleset, "ruleset_version": self.ruleset_version, "content": self.content}))
        return found[1]

    @property
    def held_by_bots(self) -> dict[int, str]:
        """The seats bots hold, and their levels."""
        return {int(seat): level for seat, level in self.bot_seats.items()}

    def handed_back_at(self, seat: int) -> int:
        """The version at which `seat` was last handed back to a person with a fresh token (0:
        never). A game loaded from a snapshot taken before these versions were kept is folded
        from its events instead (`Caboose._reconstructed`), so every loaded game can tell."""
        return self.handed_back.get(str(seat), 0)

    @property
    def deadline(self) -> int | None:
        """The move deadline in seconds, None for none."""
        return self.move_deadline

    @property
    def is_over(self) -> bool:
        return bool(self.decider.is_over(self.state))

    @property
    def at_table(self) -> dict[str, Any] | None:
        """The tournament, round and table the game is played at, or None."""
        return self.tournament

    @property
    def playable(self) -> bool:
        """Whether moves can be decided here: a table game's outcomes are entered; a seeded
        game's are drawn from its seed, which a game imported unfinished came without (its
        record may even hold a deck order sealed again by whoever sent it)."""
        return self.is_table or self.seed is not None

    @property
    def is_table(self) -> bool:
        """Played at a table: outcomes are entered, never drawn (snapshots taken before: no)."""
        return bool(self.table)

    @property
    def pending(self) -> transcription.Pending | None:
        """The move the game waits on for an outcome, or None."""
        awaiting = self.awaiting
        return None if awaiting is None else transcription.Pending.from_json(awaiting)

    class Recorded(Aggregate.Event):
        """One sealed record stored: the game notes it and folds it, when it is recorded and
        whenever it is read back. An event class of its own with `apply`, the library's
        explicit form: the `@event` decorator matched each call to the method's signature
        twice, a fifth of recording a move's events, which a simulation pays for every event
        it plays. Its topic and fields (so its stored bytes) are those the decorator made."""

        record: dict[str, Any]
        rng_position: int
        request_digest: str | None = None

        def apply(self, aggregate: Game) -> None:
            aggregate._recorded(self.record, self.rng_position, self.request_digest)

    def _record(self, record: dict[str, Any], rng_position: int, request_digest: str | None = None) -> None:
        self.trigger_event(self.Recorded, record=record, rng_position=rng_position, request_digest=request_digest)

    def _recorded(self, record: dict[str, Any], rng_position: int, request_digest: str | None) -> None:
        """What a `Recorded` event does to the game, stored or new."""
        self._note(record, rng_position, request_digest)
        reached = self.reaching
        self.state = next(reached) if reached is not None else self._fold(record)
        self._pace(record["time"])

    def _fold(self, record: dict[str, Any], earlier: fold.Earlier | None = None) -> Any:
        return fold.step(self.decider, self.state, to_event(record, self.decider.catalogue), earlier)

    def _note(self, record: dict[str, Any], rng_position: int, request_digest: str | None) -> None:
        """What every stored record updates besides the state: its command, the chain head,
        the generator's position, the time."""
        command_id, version = record["command_id"], record["version"]
        if command_id is not None:
            self.commands.note(command_id, version, request_digest)
        self.head = record["hash"]
        self.rng_position = rng_position
        self.updated_at = record["time"]
        if self.is_table:
            self.awaiting = awaited_after(self.awaiting, record)
        if record["kind"] == log.FORKED_FROM and hasattr(self, "origins"):
            forked = to_event(record, CORE)
            assert isinstance(forked, ForkedFrom)
            self.origins = [*self.origins, forked.origin]
        if record["kind"] in takeover.KINDS:
            self.bot_seats = {str(seat): level for seat, level in takeover.seated(self.held_by_bots, record).items()}
            if record["kind"] == takeover.HANDED_BACK and hasattr(self, "handed_back"):
                handed = to_event(record, CORE)
                assert isinstance(handed, SeatHandedBack)
                self.handed_back = {**self.handed_back, str(handed.seat): version}
            self.move_deadline = takeover.deadline([record]) if record["kind"] == takeover.DEADLINE_SET else self.deadline

    def _pace(self, now: str) -> None:
        active = {str(s) for s in self.decider.active_seats(self.state)}
        waiting = self.waiting_since
        if waiting.keys() == active:
            return  # the seats that waited still wait: most events (a card drawn, a market refilled)
        for seat in [s for s in waiting if s not in active]:
            waited = _seconds_between(waiting.pop(seat), now)
            self.thinking_seconds[seat] = round(self.thinking_seconds.get(seat, 0.0) + waited, 6)
        for seat in active:
            waiting.setdefault(seat, now)

    def _seed(self) -> bytes:
        if self.seed is None:
            raise seed_not_held()
        return bytes.fromhex(self.seed)

    reaching: Iterator[Any] | None = None
    """While a decided command's events are recorded (`_append`): the state the rules reached
    after each (`Decision.states`), which recording one takes in turn instead of folding it
    again; loading a stored game folds every event. Set only for the length of `_append`,
    never in a snapshot (a class attribute, None, otherwise)."""

    def _append(self, events: Sequence[Event], actor: str | Callable[[Event], str], stamp: Stamp, rng_position: int,
                states: Sequence[Any] | None = None) -> list[dict[str, Any]]:
        """Seal and record `events`; `states`, when given, is the state after each. `actor`
        names who each event is recorded as by: one for all, or one per event (a table
        game's command mixes an outcome's enterer with the seat that moved)."""
        records, sealer = [], stamp.sealer(self)
        if states is not None:
            self.reaching = iter(states)
        try:
            for e in events:
                by = actor(e) if callable(actor) else actor
                record = sealer.seal(version=self.version + 1, actor=by, event=e, prev_hash=self.head)
                self._record(record, rng_position, stamp.digest)
                records.append(record)
        finally:
            self.__dict__.pop("reaching", None)
        return records

    def set_up(self, stamp: Stamp) -> list[dict[str, Any]]:
        """Record the opening (shuffles, deals) right after creation."""
        rng = SeededRandom(self._seed(), self.rng_position)
        events = self.decider.setup(self.state, rng)
        return self._append(events, "system", stamp, rng.position)

    def set_up_table(self, observed: Any, by: str, stamp: Stamp) -> list[dict[str, Any]]:
        """Record the opening of a table game as it was laid out there (`observed`), checked
        against the rules of setup; `by` is the referee who entered it."""
        events = transcription.table_opening(self.decider, self.state, observed, by)
        return self._append(events, lambda e: transcription.actor_of(e, -1), stamp, 0)

    def randomness(self, outcomes: Sequence[Any] = (), by: str = "system", enterer_seat: int | None = None) -> Drawn | Entered:
        """Where the game's random outcomes come from: drawn from its seed, or entered at the
        table (`outcomes`, entered by `by`, the referee or the seat `enterer_seat`). Which
        one was chosen when the game was created; outcomes entered into a seeded game are
        refused, as is a move in a seeded game this service holds no seed of."""
        if self.is_table:
            return Entered(tuple(outcomes), by, enterer_seat)
        if outcomes:
            raise not_a_table_game()
        return Drawn(self._seed(), self.rng_position)

    def play(self, seat: int, move: Move, randomness: Drawn | Entered, stamp: Stamp, by: str | None = None) -> list[dict[str, Any]]:
        """Adjudicate `move` by `seat` over `randomness` (`Game.randomness`) and record what
        it causes; raises the rules' errors. `by` is who entered it when that is not the
        seat itself (`referee:NAME`)."""
        with log.by_name(self.seats, self.decider.active_seats(self.state)):
            played = randomness.decide(self, seat, move, by or seat_actor(seat))
        return self._append(played.decision.events, played.actor, stamp, played.rng_position, played.decision.states[1:])

    def enter_outcomes(self, outcomes: Sequence[Any], stamp: Stamp, by: str, enterer_seat: int | None) -> list[dict[str, Any]]:
        """The outcomes a table game waits for, entered by `by` (a referee, or the seat
        `enterer_seat`, which may enter only its own secret draw)."""
        pending = self.pending
        if not self.is_table:
            raise not_a_table_game()
        if pending is None:
            raise IllegalMove("no_outcome_awaited", "The game waits for no outcome now: it waits for a move.")
        decision = transcription.enter_outcome(self.decider, self.state, pending, list(outcomes), by, enterer_seat)
        return self._append(decision.events, lambda e: transcription.actor_of(e, pending.seat), stamp, 0,
                            decision.states[1:])

    def restore(self, record: dict[str, Any]) -> None:
        """Store an already verified record as it is (import)."""
        self._record(record, 0)

    # -- referee tools and takebacks (domain/core/referee.py) ------------------------------

    @event("Rewound")
    def _rewound(self, record: dict[str, Any], rng_position: int, state: Any, request_digest: str | None = None) -> None:
        """A rewind or an accepted takeback. The state at its `to_version` travels beside the
        record, encoded like a snapshot's, so loading a game never needs its history."""
        self._note(record, rng_position, request_digest)
        self.state = self._fold(record, lambda _: decode(self.decider.state_type, state))
        self._pace(record["time"])

    def act(self, events: list[Event], actor: str, stamp: Stamp, rewound: Callable[[int], Any]) -> list[dict[str, Any]]:
        """Record a referee's or a takeback's events (already judged). `rewound(v)` is the
        state at version v, for the events that rewind; the random stream is left where it
        stands."""
        records, sealer = [], stamp.sealer(self)
        for e in events:
            record = sealer.seal(version=self.version + 1, actor=actor, event=e, prev_hash=self.head)
            if e.kind in log.REWIND_KINDS:
                self._rewound(record, self.rng_position, encode(rewound(e.data["to_version"])), stamp.digest)
            elif e.kind == log.SEAT_JOINED:
                self._joined(record, self.rng_position, stamp.digest)
            else:
                self._record(record, self.rng_position, stamp.digest)
            records.append(record)
        return records

    def restore_all(self, records: Iterable[dict[str, Any]], history: fold.History) -> None:
        """Store already verified records as they are (import, fork); `history` has folded
        every record before them and folds these too, for the states rewinds restore."""
        for record in records:
            state = history.add(record)
            if record["kind"] in log.REWIND_KINDS:
                self._rewound(record, 0, encode(state))
            elif record["kind"] == log.SEAT_JOINED:
                self._joined(record, 0)
            else:
                self._record(record, 0)

    class Snapshot(Aggregate.Snapshot):  # type: ignore[misc,valid-type]  # the library's stubs type it as a variable
        """Snapshots hold the game state as plain JSON; its types come back from the
        state class's annotations."""

        @classmethod
        def take(cls, aggregate: Any) -> Any:
            snapshot = super().take(aggregate)
            snapshot.state.pop(_RULES, None)
            snapshot.state["state"] = encode(aggregate.state)
            snapshot.state["commands"] = aggregate.commands.text()
            return snapshot

        def mutate(self, _: None) -> Any:
            game = super().mutate(_)
            game.state = decode(game.decider.state_type, game.state)
            game.commands = Commands(game.commands)
            return game

    # -- seats joined by invite (`SeatJoined`) --------------------------------------------

    @event("Joined")
    def _joined(self, record: dict[str, Any], rng_position: int, request_digest: str | None = None) -> None:
        """A seat left open at creation joined: from here on it goes by the joined name, in
        the game state (`fold.step`) and among the seats."""
        self._note(record, rng_position, request_digest)
        self.state = self._fold(record)
        joined = to_event(record, CORE)
        assert isinstance(joined, SeatJoined)
        self.seats = log.renamed(self.seats, joined.seat, joined.name)
        self._pace(record["time"])
