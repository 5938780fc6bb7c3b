"""The shared projection: turns a game's records into read-model rows, with the tracking
position written in the same transaction as the rows it accounts for.

It is the eventsourcing library's `Projection` over a `TrackingRecorder` view, so the
library's `ProjectionRunner` machinery can drive it on PostgreSQL (`process_event`), and
the SQLite poller and the rebuild drive the very same code in batches (`process`).

Whatever drives it, each transaction first reads the tracking position (locked) and
skips what is already projected, so a runner that crashed after committing, or two
runners at once, never count an event twice; and nothing is committed without its
tracking position, so nothing is skipped.

To project an event the projection needs the game's state and figures just before it.
It keeps them in memory per game (a bounded cache) and checks them against the game
index row before use; after a restart, or when another process moved on, it reloads the
figures from the read models and the state from the event store (`StateSource`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, NamedTuple, Protocol, cast

from eventsourcing.persistence import Tracking, TrackingRecorder
from eventsourcing.projection import Projection
from sqlalchemy import Table, bindparam, delete, insert, select, update
from sqlalchemy.orm import Session

from domain.core import fold, log
from domain.core.codec import decode
from domain.core.decider import Decider
from domain.core.envelope import to_event
from domain.core.errors import RecordError, RuleError
from domain.core.events import Event
from domain.core.kinds import CORE, REWINDS, AdjustmentMade, DisputeRaised, ForkedFrom, RulingMade, SeatJoined
from domain.core.state import Transient, transient
from domain.tournament import record as tr
from domain.tournament.points import places as places_of
from projections.handlers import Figures, Projector, projector_for
from projections.index import follow, index_row, player_rows, reindex, settle, unread_indexed, unread_row
from projections.models import BoardChange, GamePlayerRow, GameRow, SeatFiguresChange
from projections.store import ReadModelError, ReadStore
from projections.tournaments import Pending, TournamentProjection, TournamentRecords

APPLICATION = "caboose"
"""The application whose notification log the read models follow (`Caboose.name`)."""


class Step(NamedTuple):
    """One record to project, at its place in the notification log. A rewind carries the
    state it restores, encoded as the aggregate stores it. A named tuple, so a stretch's
    steps are the application's own tuples (`Caboose.logged`) given names, not a frozen
    dataclass built field by field for every event of a rebuild."""

    notification_id: int
    record: dict[str, Any]
    rewound: Any = None


def step_of(domain_event: Any, notification_id: int) -> Step | None:
    """The step a `Game` library event (or a tournament's) holds; None for anything else in the log."""
    record = getattr(domain_event, "record", None)
    if not isinstance(record, dict) or "game_id" not in record:
        entry = getattr(domain_event, "entry", None)
        return Step(notification_id, entry) if isinstance(entry, dict) and tr.ID in entry else None
    return Step(notification_id, record, getattr(domain_event, "state", None) if record["kind"] in log.REWIND_KINDS else None)


_step = cast(Callable[[tuple[int, dict[str, Any], Any]], Step], partial(tuple.__new__, Step))
"""A step from `Caboose.logged`'s three-tuple, as `Step._make` makes it without its Python-level call."""

TOURNAMENT_TOPICS = ("Tournament.Created", "Tournament.Recorded")
"""The ends of the topics of a tournament's stored events (`service/tournament/aggregate.py`;
named here by their ends, as the read models import no service)."""


def steps_of(app: Any, notifications: Sequence[Any]) -> list[Step]:
    """The steps of a stretch of the notification log, as the application reads its own
    stored events (`Caboose.logged`: straight from the stored records where it can), with
    the tournaments' records among them, in the log's order."""
    steps = list(map(_step, app.logged(notifications)))
    if len(steps) == len(notifications):
        return steps  # every one a game's: no tournament's among them to look for
    tournaments = [n for n in notifications if n.topic.endswith(TOURNAMENT_TOPICS)]
    if not tournaments:
        return steps
    steps += [step for n in tournaments if (step := step_of(app.mapper.to_domain_event(n), n.id)) is not None]
    return sorted(steps, key=lambda step: step.notification_id)


def _core_event(record: dict[str, Any]) -> Event:
    """The typed event of a game whose rules cannot be had here: the core's kinds typed, the
    game's own (and a core record that does not read) left untyped, for it is indexed from
    what its records say whatever they say."""
    try:
        return to_event(record, CORE)
    except RecordError:
        return to_event(record)


class EventLog(Protocol):
    """What the read models need of the application that stores the games (`Caboose`):
    its settings (where the events are), its recorder (the notification log), a game at a
    version, and the records a stretch of the log holds."""

    settings: Any
    recorder: Any
    events: Any
    """The library's event store (a tournament's records are read from it)."""

    def game(self, game_id: str, at: int | None = None) -> Any: ...

    def logged(self, notifications: Sequence[Any]) -> list[tuple[int, dict[str, Any], Any]]: ...

    def originators(self) -> dict[Any, int]:
        """Every game's and tournament's id in the store, with how many events it has."""
        ...

    def notifications_of(self, ids: Sequence[Any], upto: int) -> list[Any]:
        """The notifications of those ids up to position `upto`, in the log's order."""
        ...


StateSource = Callable[[str, int], Any]
"""(game id, version) -> the game state at that version, from the event store."""


class OutOfStep(ReadModelError):
    code = "read_model_out_of_step"


@dataclass
class _Live:
    """A game as the projection holds it between events."""

    game_id: str
    decider: Decider[Any] | None
    """None: the game's rules cannot be had here (`index.unread_row`), nor its projector."""
    projector: Projector | None
    kinds: frozenset[str] | None
    version: int
    state: Any
    figures: Figures
    row: dict[str, Any]
    dirty: bool = False
    new: bool = False
    renamed: bool = False
    """A seat was joined under a new name: the game's player rows are written again."""
    editing: Transient = field(default_factory=Transient)
    """The transient the game's state is folded in (`domain.core.state.transient`)."""
    unsettled: dict[str, Any] | None = None
    """The game's last record whose row is followed but not settled (`index.settle`): the
    row's version, time, stage and scores are set once a batch, when it is written."""


@dataclass
class _Batch:
    session: Session
    tournaments: Pending
    trusted: bool = False
    fresh: bool = False
    """The read models were emptied in this transaction and the log is read once from its
    start (a rebuild): no game has a row but those this projection made, so a game's first
    record needs no look-up of whether it was projected already."""
    board: list[dict[str, Any]] = field(default_factory=list)
    seats: list[dict[str, Any]] = field(default_factory=list)
    games: dict[str, _Live] = field(default_factory=dict)

    def flush(self) -> None:
        # Core statements, each one executemany: the rows are plain dicts already, and the
        # ORM's bulk path only sorted them through its mappers again (a rebuild's rows).
        connection = self.session.connection()
        if self.board:
            connection.execute(insert(BOARD), self.board)
            self.board = []
        if self.seats:
            connection.execute(insert(SEATS), self.seats)
            self.seats = []
        created: list[dict[str, Any]] = []
        changed: list[dict[str, Any]] = []
        players: list[dict[str, Any]] = []
        active: list[dict[str, Any]] = []
        for live in self.games.values():
            if not live.dirty:
                continue
            if live.unsettled is not None:
                assert live.decider is not None
                settle(live.row, live.decider, live.state, live.unsettled)
                live.unsettled = None
            if live.new:
                created.append(live.row)
            else:
                row = dict(live.row)
                row[_KEY] = row.pop("game_id")
                changed.append(row)
            if live.new or live.renamed:
                if live.renamed:
                    connection.execute(delete(PLAYERS).where(PLAYERS.c.game_id == live.game_id))
                players += player_rows(live.row)
            else:
                active.append({"game": live.game_id, "at": live.row["updated_at"]})
            live.dirty = live.new = live.renamed = False
        if created:
            connection.execute(insert(GAMES), created)
        if changed:
            connection.execute(update(GAMES).where(GAMES.c.game_id == bindparam(_KEY)), changed)
        if players:
            connection.execute(insert(PLAYERS), players)
        if active:
            connection.execute(
                update(PLAYERS).where(PLAYERS.c.game_id == bindparam("game")).values(updated_at=bindparam("at")), active)


PLAYERS = cast(Table, GamePlayerRow.__table__)
_NOTED = (DisputeRaised, RulingMade, ForkedFrom, SeatJoined)
"""The core's kinds `GameProjection._note` changes the game index for."""
_OTHER, _REWOUND, _NOTED_ROLE = 0, 1, 2
_ROLES: dict[type, int] = {}
"""What an event's type is to the projection (a rewind, a kind `_note` reads, or neither),
worked out once a type: two `isinstance` tests of tuples an event were a part of its cost."""


def _role(kind: type) -> int:
    role = _ROLES[kind] = _REWOUND if issubclass(kind, REWINDS) else _NOTED_ROLE if issubclass(kind, _NOTED) else _OTHER
    return role
GAMES = cast(Table, GameRow.__table__)
BOARD = cast(Table, BoardChange.__table__)
SEATS = cast(Table, SeatFiguresChange.__table__)
_KEY = "key_game_id"
"""The bound name of the game an update of the game index is for (its own column's name is the SET's)."""


def _board_changes(cells: Mapping[str, Any], new: Mapping[str, Any], game_id: str, version: int) -> list[dict[str, Any]]:
    """The board's rows for the cells that changed from `cells` to `new`. A projector's new
    board is the old one copied with a cell or two changed: the values it kept are the very
    objects, told apart without comparing them or building the union of both boards' cells
    (a board of a hundred routes is common)."""
    if len(new) == len(cells) + 1:
        # A cell filled (a route claimed): the old board copied and the cell added last.
        # The rest compared whole, in C, the cells kept by identity.
        rest = dict(new)
        last = next(reversed(rest))
        if last not in cells:
            value = rest.pop(last)
            if rest == cells:
                return [{"game_id": game_id, "cell": last, "version": version, "value": value}]
    rows = []
    for cell, value in new.items():
        was = cells.get(cell)
        if value is not was and value != was:
            rows.append({"game_id": game_id, "cell": cell, "version": version, "value": value})
    if not cells.keys() <= new.keys():  # a cell emptied
        rows += [{"game_id": game_id, "cell": cell, "version": version, "value": None}
                 for cell, was in cells.items() if cell not in new and was is not None]
    return rows


class SqlView(TrackingRecorder):
    """The read models as the library's view: a tracking recorder whose positions live
    in the same database, and are written in the same transactions, as the view rows."""

    def __init__(self, store: ReadStore) -> None:
        self.store = store

    def insert_tracking(self, tracking: Tracking) -> None:
        with self.store.writing() as session:
            if tracking.notification_id > self.store.tracked(session, tracking.application_name, lock=True):
                self.store.set_tracked(session, tracking.application_name, tracking.notification_id)

    def max_tracking_id(self, application_name: str) -> int | None:
        return self.store.max_tracking_id(application_name)


class GameProjection(Projection[SqlView]):
    name = "caboose_projections"

    def __init__(self, view: SqlView, states: StateSource, cache_size: int = 2000,
                 deciders: Callable[[str], Any] | None = None, tournaments: TournamentRecords | None = None) -> None:
        super().__init__(view)
        self.states = states
        self.tournaments = TournamentProjection(tournaments)
        # The game's rules bound to its content pack; the game index does not record the pack.
        self.deciders = deciders
        self.cache_size = cache_size
        self._cache: OrderedDict[str, _Live] = OrderedDict()
        self._committed: int | None = None

    @property
    def store(self) -> ReadStore:
        return self.view.store

    def forget(self) -> None:
        """Drop what this projection holds in memory (the read models were rebuilt)."""
        self._cache.clear()
        self.tournaments.forget()
        self._committed = None

    # -- entry points ---------------------------------------------------------------------

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:  # type: ignore[override]
        """The library runner's entry point: one event, one transaction."""
        step = step_of(domain_event, tracking.notification_id)
        self.process([step] if step else [], tracking.notification_id, application_name=tracking.application_name)

    def process(self, steps: Sequence[Step], upto: int, after: int | None = None,
                application_name: str = APPLICATION) -> int:
        """Project `steps` (notification order) and move the tracking position to `upto`,
        all in one transaction. With `after`, nothing is done unless the read models are
        exactly there (the caller read the log from `after`); returns the position the
        read models are at when the transaction ends."""
        with self.store.writing() as session:
            tracked = self.store.tracked(session, application_name, lock=True)
            if (after is not None and tracked != after) or tracked >= upto:
                return tracked
            try:
                # Nobody else wrote since this projection's last commit: its cache is the truth.
                self.project(session, [s for s in steps if s.notification_id > tracked], trusted=tracked == self._committed)
                if tracked == 0 and steps:
                    # The log's first game tells its store apart from any other (see runner.mismatch).
                    first = steps[0].record
                    self.store.set_source(session, application_name, first.get("game_id") or first[tr.ID])
                self.store.set_tracked(session, application_name, upto)
            except BaseException:
                self._cache.clear()
                self.tournaments.forget()
                raise
        self._committed = upto
        return upto

    def project(self, session: Session, steps: Iterable[Step], trusted: bool = False, fresh: bool = False) -> None:
        """Project steps inside the caller's transaction (the rebuild's). `trusted`: the
        cached games need no check against the game index; `fresh`: see `_Batch.fresh`."""
        batch = _Batch(session, self.tournaments.pending(session), trusted, fresh)
        try:
            for step in steps:
                if tr.ID in step.record:
                    self.tournaments.project(batch.tournaments, step.record)
                else:
                    self._project(batch, step)
            batch.flush()
            self.tournaments.flush(batch.tournaments)
        finally:
            for live in batch.games.values():
                self._remember(live)

    def project_each(self, session: Session, steps: Iterable[Step], failures: dict[str, str],
                     describe: Callable[[BaseException], str] = repr, fresh: bool = False) -> None:
        """Project steps as `project` does, but a step that fails fails its game alone: the
        game is named in `failures` (with why) and its later steps are skipped; the caller
        drops whatever rows it left. For a rebuild by parts, where one bad game must not
        stop the others."""
        batch = _Batch(session, self.tournaments.pending(session), trusted=True, fresh=fresh)
        try:
            for step in steps:
                tournament = tr.ID in step.record
                owner_id = step.record[tr.ID] if tournament else step.record["game_id"]
                if owner_id in failures:
                    continue
                try:
                    if tournament:
                        self.tournaments.project(batch.tournaments, step.record)
                    else:
                        self._project(batch, step)
                except Exception as error:  # named and dropped; the other games go on
                    if (failed := batch.games.get(owner_id)) is not None:
                        failed.unsettled = None  # its rows are dropped: its state is not read again
                    failures[owner_id] = f"version {step.record.get('version')}: {describe(error)}"
            batch.flush()
            self.tournaments.flush(batch.tournaments)
        finally:
            for live in batch.games.values():
                if live.game_id not in failures:
                    self._remember(live)

    # -- one record -----------------------------------------------------------------------

    def _project(self, batch: _Batch, step: Step) -> None:
        record = step.record
        game_id, version = record["game_id"], record["version"]
        live = batch.games.get(game_id)
        if live is None or live.version != version - 1:  # not the batch's game, next in step
            if version == 1:
                if (live is not None if batch.fresh else self._row_version(batch, game_id) is not None):
                    return  # already projected (a replayed notification)
                started = batch.games[game_id] = self._start(record)
                self._changes(batch, game_id, 1, Figures({}, ()), started.figures)
                return
            live = self._live(batch, game_id, version - 1)
            if live is None:
                return
        decider = live.decider
        if decider is None:
            self._note(live, _core_event(record))
            live.row.update(unread_indexed(live.row, record))
            live.version, live.dirty = version, True
            return
        event = to_event(record, decider.catalogue)
        role = _ROLES.get(type(event))
        if role is None:
            role = _role(type(event))
        before = live.figures
        # A rewind's state is the one the aggregate stored beside it, else the store's (no
        # other kind looks for an earlier state, so none is given a way to one).
        # A transient fold: the game's state is this projection's alone between events (the
        # projectors and the index only read it), so it is changed in place, not copied.
        with transient(live.editing):
            live.state = state = fold.step(decider, live.state, event, None if role != _REWOUND else lambda version: decode(
                decider.state_type, step.rewound) if step.rewound is not None else self.states(game_id, version))
        if role == _REWOUND:
            batch.flush()
            live.figures = self.store.figures_at(batch.session, game_id, event.to_version)  # type: ignore[attr-defined]
            live.row["rewinds"] += 1
        elif live.projector is not None and (live.kinds is None or event.kind in live.kinds):
            live.figures = live.projector.apply(before, event, state) or before
        if role == _NOTED_ROLE:
            self._note(live, event)
        if live.figures is not before:
            self._changes(batch, game_id, version, before, live.figures)
        live.version = version
        row = live.row
        follow(row, decider, state, record)
        live.unsettled = record
        live.dirty = True
        if row["rated"]:
            self._rated(batch, live, record, event)

    def _rated(self, batch: _Batch, live: _Live, record: dict[str, Any], event: Event) -> None:
        """A game created rated: its result goes to the ratings when it ends (and leaves
        them when a rewind takes the end back)."""
        decider = live.decider
        assert decider is not None
        seats = live.row["seats"]
        if isinstance(event, REWINDS):
            self.tournaments.rated_game(batch.tournaments, live.game_id, live.row["game"], seats, None, record,
                                        rewound_to=event.to_version)
        elif event.kind == log.GAME_ENDED or (isinstance(event, AdjustmentMade) and decider.is_over(live.state)):
            finish = decider.finish(live.state)
            places = places_of([tuple(finish[seat]) for seat in range(len(seats))])
            self.tournaments.rated_game(batch.tournaments, live.game_id, live.row["game"], seats, places, record)

    @staticmethod
    def _note(live: _Live, event: Event) -> None:
        """What the core's kinds change in the row, which needs no rules."""
        if isinstance(event, DisputeRaised):
            live.row["open_disputes"] += 1
        elif isinstance(event, RulingMade):
            live.row["open_disputes"] -= 1
        elif isinstance(event, ForkedFrom):
            live.row["forked_from"] = {"game_id": event.origin, "version": event.at_version}
            live.row["forked_from_id"] = event.origin
            live.row["rated"] = False  # a fork copies its origin's GameCreated, but a what-if is never rated
        elif isinstance(event, SeatJoined):
            live.row["seats"] = log.renamed(live.row["seats"], event.seat, event.name)
            live.row["open_seats"] = [seat for seat in live.row["open_seats"] if seat != event.seat]
            live.renamed = True

    def _start(self, record: dict[str, Any]) -> _Live:
        try:
            history = fold.History(record)
        except RuleError as error:
            # One game whose pack is not installed must not stop the read models of every
            # other game: it is indexed with what its records say.
            return _Live(record["game_id"], None, None, None, 1, None, Figures({}, ()),
                         unread_row(record, error), dirty=True, new=True)
        decider, state = history.decider, history.state
        projector = projector_for(decider)
        figures = projector.start(decider, state)
        row = index_row(record, decider)
        live = _Live(record["game_id"], decider, projector, projector.kinds(), 1, state, figures, row, dirty=True, new=True)
        self._index(live, record)
        return live

    def _live(self, batch: _Batch, game_id: str, version: int) -> _Live | None:
        """The game just before the event at `version` + 1, or None if that event is
        already projected."""
        live = batch.games.get(game_id)
        if live is not None:
            if live.version != version:
                raise OutOfStep(f"game {game_id}: the log delivers version {version + 1} after version {live.version}")
            return live
        cached = self._cache.get(game_id)
        if batch.trusted and cached is not None and cached.version == version:
            batch.games[game_id] = self._cache.pop(game_id)
            return cached
        stored = self._row_version(batch, game_id)
        if stored is None or stored < version:
            raise OutOfStep(f"game {game_id}: the read models are at version {stored or 0} but the log delivers "
                            f"version {version + 1}; run `caboose projections rebuild`")
        if stored > version:
            return None
        cached = self._cache.pop(game_id, None)
        if cached is None or cached.version != version:
            cached = self._reload(batch.session, game_id, version)
        batch.games[game_id] = cached
        return cached

    def _row_version(self, batch: _Batch, game_id: str) -> int | None:
        if game_id in batch.games:
            return batch.games[game_id].version
        return batch.session.scalar(select(GameRow.version).where(GameRow.game_id == game_id))

    def _reload(self, session: Session, game_id: str, version: int) -> _Live:
        row = session.get(GameRow, game_id)
        assert row is not None
        values = {c.name: getattr(row, c.name) for c in GameRow.__table__.columns}
        session.expunge(row)
        figures = self.store.figures_at(session, game_id, version)
        if values["problem"] is None:
            try:
                state = self.states(game_id, version)
                decider = self.deciders(game_id) if self.deciders is not None else \
                    log.decider_of({"game": row.game, "ruleset_version": row.ruleset_version})
            except RuleError as error:  # its pack was taken away since: the rest of it is read without rules
                values["problem"] = {"code": error.code, "message": error.message, "params": dict(error.params)}
            else:
                projector = projector_for(decider)
                return _Live(game_id, decider, projector, projector.kinds(), version, state, figures, values)
        return _Live(game_id, None, None, None, version, None, figures, values)

    def _remember(self, live: _Live) -> None:
        self._cache[live.game_id] = live
        self._cache.move_to_end(live.game_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    # -- rows -----------------------------------------------------------------------------

    @staticmethod
    def _changes(batch: _Batch, game_id: str, version: int, before: Figures, after: Figures) -> None:
        if after.board is not before.board:
            batch.board += _board_changes(before.board, after.board, game_id, version)
        for seat, figures in enumerate(after.seats):
            old = before.seats[seat] if seat < len(before.seats) else None
            if figures is old or figures == old:
                continue
            charted = old is None or old.vp != figures.vp or old.income != figures.income
            batch.seats.append({"game_id": game_id, "seat": seat, "version": version, "vp": figures.vp,
                                "income": figures.income, "by_source": dict(figures.by_source),
                                "tracks": dict(figures.tracks), "charted": charted})

    @staticmethod
    def _index(live: _Live, record: dict[str, Any]) -> None:
        assert live.decider is not None
        reindex(live.row, live.decider, live.state, record)
