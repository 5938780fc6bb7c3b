"""Where the read models live, and the queries the API and the referee tools ask of them.

The read models may live in another database than the events: `CABOOSE_READ_DB` (a
SQLAlchemy-style URL: `sqlite:///FILE`, `postgresql://USER@HOST:PORT/DB`). By default
they sit beside the events: a SQLite file next to the events' file
(`caboose.sqlite` -> `caboose.projections.sqlite`), the same PostgreSQL database and
schema, or an in-memory SQLite database for the in-memory store.

On SQLite every writing transaction starts with `BEGIN IMMEDIATE`, so two runners (or a
runner and an API process catching up) never both read the same tracking position and
write the same rows: the second waits, then sees where the first stopped. On
PostgreSQL the tracking row is read `FOR UPDATE` for the same reason.
"""

from __future__ import annotations

import contextlib
import os
import threading
import weakref
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlparse

from sqlalchemy import Engine, create_engine, delete, event, func, insert, select, text, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session, aliased
from sqlalchemy.pool import StaticPool

from projections.handlers import Figures, SeatFigures
from projections.models import VIEW_TABLES, BoardChange, GameRow, SeatFiguresChange, SourceRow, TrackingRow


class ReadModelError(Exception):
    code = "read_model_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Provisioning(Protocol):
    """How the deployment migrates the read models' database and bounds its waits. The
    service provides it (`service/readside.py`), so the read models import no service."""

    def prepare(self, engine: Engine, schema: str | None) -> None:
        """An embedded database upgrades itself; any other must be at the latest revision,
        or `ReadModelError` says to run `caboose db upgrade`."""

    def upgrade(self, engine: Engine, schema: str | None) -> str:
        """Bring the tables to the latest migration; returns its revision."""

    def postgres_connect_args(self, schema: str | None, *options: str) -> dict[str, Any]:
        """psycopg's connection arguments: bounded connect and statement times, the schema."""

    def connect_timeout(self) -> float:
        """Seconds to wait for a pooled connection."""

    def bound_waits(self, engine: Engine) -> None:
        """Bound every wait of the engine's connections for an answer."""


_provided: list[Provisioning] = []


def provide(provisioning: Provisioning) -> None:
    """Install the deployment's provisioning (the service does, when it is imported)."""
    _provided[:] = [provisioning]


def provisioning() -> Provisioning:
    if not _provided:
        raise ReadModelError("the read models' database is provisioned by the service: import `service` first")
    return _provided[0]


def read_db_url(events_db: str, schema: str | None = None, env: Mapping[str, str] | None = None) -> str:
    """The read models' database for an event store (see the module docstring)."""
    env = os.environ if env is None else env
    if env.get("CABOOSE_READ_DB"):
        return env["CABOOSE_READ_DB"]
    if events_db == "memory":
        return "sqlite://"
    url = urlparse(events_db)
    if url.scheme == "sqlite":
        path = unquote(url.path[1:] if url.path.startswith("/") else url.path)
        if not path or path == ":memory:":
            return "sqlite://"
        file = Path(path)
        return f"sqlite:///{file.with_name(file.stem + '.projections' + (file.suffix or '.sqlite'))}"
    if schema:
        return f"{events_db}{'&' if '?' in events_db else '?'}schema={schema}"
    return events_db


@dataclass(frozen=True)
class Position:
    """A game's place in the read models."""

    version: int
    row: GameRow | None


class ReadStore:
    def __init__(self, url: str, prepare: bool = True) -> None:
        """`prepare`: bring an embedded (SQLite) database to the latest migration, and
        refuse a PostgreSQL one that is not there (`caboose db upgrade` passes False)."""
        self.url = url
        self.schema: str | None = None
        self._one_at_a_time: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        parsed = urlparse(url)
        if parsed.scheme.startswith("sqlite"):
            self._sqlite(url)
        elif parsed.scheme.startswith(("postgresql", "postgres")):
            self._postgres(parsed)
        else:
            raise ReadModelError(f"unsupported read database {url!r}: use sqlite:///FILE or postgresql://USER@HOST:PORT/DB")
        if prepare:
            try:
                provisioning().prepare(self.writer, self.schema)
            except ReadModelError:
                self.close()
                raise

    def upgrade(self) -> str:
        """Bring the read models' tables to the latest migration; returns its revision."""
        return provisioning().upgrade(self.writer, self.schema)

    def _sqlite(self, url: str) -> None:
        self.dialect = "sqlite"
        if url in ("sqlite://", "sqlite:///:memory:"):
            # One shared connection (an in-memory database exists per connection), so one
            # transaction at a time across threads.
            self.writer = self.reader = create_engine("sqlite://", poolclass=StaticPool,
                                                      connect_args={"check_same_thread": False})
            self._one_at_a_time = threading.RLock()
            return
        self.writer = create_engine(url, connect_args={"timeout": 60})
        self.reader = create_engine(url, connect_args={"timeout": 60})
        for engine, begin in ((self.writer, "BEGIN IMMEDIATE"), (self.reader, "BEGIN")):
            _sqlite_transactions(engine, begin)

    def _postgres(self, parsed: Any) -> None:
        self.dialect = "postgresql"
        query = dict(part.split("=", 1) for part in parsed.query.split("&") if "=" in part)
        schema = self.schema = query.pop("schema", None)
        rest = "&".join(f"{k}={v}" for k, v in query.items())
        url = parsed._replace(scheme="postgresql+psycopg", query=rest).geturl()
        # Asynchronous commit is safe here: the view rows and their tracking position
        # commit together, so a server crash can only lose both, and they are redone.
        provided = provisioning()
        connect_args = provided.postgres_connect_args(schema, "-csynchronous_commit=off")
        self.writer = self.reader = create_engine(url, connect_args=connect_args, pool_size=3, max_overflow=7,
                                                  pool_recycle=1800, pool_pre_ping=True,
                                                  pool_timeout=provided.connect_timeout())
        provided.bound_waits(self.writer)

    def close(self) -> None:
        self.writer.dispose()
        if self.reader is not self.writer:
            self.reader.dispose()

    # -- transactions ---------------------------------------------------------------------

    @contextmanager
    def writing(self) -> Iterator[Session]:
        """One writing transaction: committed when the block ends, rolled back on error."""
        with self._one_at_a_time, Session(self.writer, expire_on_commit=False, autoflush=False) as session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Session]:
        with self._one_at_a_time, Session(self.reader, expire_on_commit=False) as session, session.begin():
            yield session

    def tracked(self, session: Session, application_name: str, lock: bool = False) -> int:
        if lock and self.dialect == "postgresql":
            # One round trip that creates the row if need be and locks it: with a plain
            # SELECT FOR UPDATE the first two runners would both find no row to lock.
            column = TrackingRow.__table__.c.notification_id
            upsert = (pg_insert(TrackingRow).values(application_name=application_name, notification_id=0)
                      .on_conflict_do_update(index_elements=[TrackingRow.application_name], set_={"notification_id": column})
                      .returning(TrackingRow.notification_id))
            return session.scalar(upsert) or 0
        query = select(TrackingRow.notification_id).where(TrackingRow.application_name == application_name)
        return session.scalar(query) or 0

    def set_tracked(self, session: Session, application_name: str, notification_id: int) -> None:
        moved = session.execute(update(TrackingRow).where(TrackingRow.application_name == application_name)
                                .values(notification_id=notification_id))
        if not moved.rowcount:  # type: ignore[attr-defined]
            session.execute(insert(TrackingRow).values(application_name=application_name, notification_id=notification_id))

    def max_tracking_id(self, application_name: str) -> int | None:
        with self.reading() as session:
            value = session.scalar(select(TrackingRow.notification_id).where(TrackingRow.application_name == application_name))
        return value

    def analyze(self) -> None:
        """Refresh PostgreSQL's statistics of the game index after a bulk change (a rebuild):
        until autovacuum gets to it, the planner would guess, and could sort a player's whole
        list of games instead of reading the first page off its index."""
        if self.dialect == "postgresql":
            with self.writing() as session:
                session.execute(text(f"ANALYZE {', '.join(t.__tablename__ for t in VIEW_TABLES)}"))

    def clear(self, session: Session) -> None:
        """Every view row, every tracking position and the recorded source (a rebuild,
        inside its transaction)."""
        for table in (*VIEW_TABLES, TrackingRow, SourceRow):
            session.execute(delete(table))

    def source(self, application_name: str) -> str | None:
        """The first game of the event store these read models were made from (if recorded)."""
        with self.reading() as session:
            return session.scalar(select(SourceRow.first_originator_id).where(SourceRow.application_name == application_name))

    def set_source(self, session: Session, application_name: str, first_originator_id: str) -> None:
        # An upsert: several processes may record the same source at once.
        upsert = (pg_insert if self.dialect == "postgresql" else sqlite_insert)(SourceRow)
        session.execute(upsert.values(application_name=application_name, first_originator_id=first_originator_id)
                        .on_conflict_do_update(index_elements=[SourceRow.application_name],
                                               set_={"first_originator_id": first_originator_id}))

    # -- per game -------------------------------------------------------------------------

    def game_row(self, session: Session, game_id: str) -> GameRow | None:
        return session.get(GameRow, game_id)

    def figures_at(self, session: Session, game_id: str, version: int) -> Figures:
        """The board, income and VP figures as they stood at `version`: for each cell and
        each seat, its latest change at or before it (one indexed lookup each)."""
        cell = aliased(BoardChange)
        latest_cell = (select(func.max(cell.version))
                       .where(cell.game_id == game_id, cell.cell == BoardChange.cell, cell.version <= version)
                       .scalar_subquery())
        board = {name: value for name, value in session.execute(
            select(BoardChange.cell, BoardChange.value)
            .where(BoardChange.game_id == game_id, BoardChange.version == latest_cell)
            .order_by(BoardChange.cell)
        ) if value is not None}
        seat = aliased(SeatFiguresChange)
        latest_seat = (select(func.max(seat.version))
                       .where(seat.game_id == game_id, seat.seat == SeatFiguresChange.seat, seat.version <= version)
                       .scalar_subquery())
        seats = [SeatFigures(dict(by_source), income, dict(tracks)) for by_source, income, tracks in session.execute(
            select(SeatFiguresChange.by_source, SeatFiguresChange.income, SeatFiguresChange.tracks)
            .where(SeatFiguresChange.game_id == game_id, SeatFiguresChange.version == latest_seat)
            .order_by(SeatFiguresChange.seat)
        )]
        return Figures(board, tuple(seats))

    # -- queries for the API --------------------------------------------------------------

    def position(self, game_id: str) -> Position:
        with self.reading() as session:
            row = session.get(GameRow, game_id)
            return Position(row.version if row else 0, row)

    def _at(self, session: Session, game_id: str, at: int | None) -> int:
        row = session.get(GameRow, game_id)
        if row is None:
            raise ReadModelError(f"The read models hold nothing of game {game_id} yet.")
        if at is None:
            return row.version
        if at > row.version:
            raise VersionNotYet(at, row.version)
        return at

    def board(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        with self.reading() as session:
            version = self._at(session, game_id, at)
            figures = self.figures_at(session, game_id, version)
        return {"game_id": game_id, "version": version, "board": dict(sorted(figures.board.items()))}

    def scores(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        with self.reading() as session:
            version = self._at(session, game_id, at)
            figures = self.figures_at(session, game_id, version)
        return {"game_id": game_id, "version": version,
                "seats": [{"seat": i, "total": s.vp, "by_source": dict(s.by_source)} for i, s in enumerate(figures.seats)]}

    def income(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        with self.reading() as session:
            version = self._at(session, game_id, at)
            figures = self.figures_at(session, game_id, version)
        return {"game_id": game_id, "version": version,
                "seats": [{"seat": i, "income": s.income, "tracks": dict(s.tracks)} for i, s in enumerate(figures.seats)]}

    def timeline(self, game_id: str, at: int | None = None) -> dict[str, Any]:
        """One point per event that changed a seat's VP or income, with every seat's
        figures after it."""
        with self.reading() as session:
            version = self._at(session, game_id, at)
            rows = session.execute(
                select(SeatFiguresChange.version, SeatFiguresChange.seat, SeatFiguresChange.vp,
                       SeatFiguresChange.income, SeatFiguresChange.charted)
                .where(SeatFiguresChange.game_id == game_id, SeatFiguresChange.version <= version)
                .order_by(SeatFiguresChange.version, SeatFiguresChange.seat)
            ).all()
        current: dict[str, dict[str, Any]] = {}
        points: list[dict[str, Any]] = []
        charted_at: set[int] = {row.version for row in rows if row.charted}
        for row in rows:
            current[str(row.seat)] = {"vp": row.vp, "income": row.income}
            if row.version in charted_at:
                if points and points[-1]["version"] == row.version:
                    points[-1]["seats"] = {k: dict(v) for k, v in current.items()}
                else:
                    points.append({"version": row.version, "seats": {k: dict(v) for k, v in current.items()}})
        return {"game_id": game_id, "version": version, "points": points}

    def games(self, status: str | None = None, game: str | None = None, after: str | None = None,
              limit: int = 100) -> list[dict[str, Any]]:
        """The game index, oldest first; `after` (a game id) pages on."""
        with self.reading() as session:
            query = select(GameRow).order_by(GameRow.created_at, GameRow.game_id)
            if status:
                query = query.where(GameRow.status == status)
            if game:
                query = query.where(GameRow.game == game)
            if after:
                anchor = session.get(GameRow, after)
                if anchor is None:
                    raise UnknownGame(after)
                query = query.where((GameRow.created_at > anchor.created_at)
                                    | ((GameRow.created_at == anchor.created_at) & (GameRow.game_id > anchor.game_id)))
            return [index_entry(row) for row in session.scalars(query.limit(limit))]

    def statuses(self, game_ids: Sequence[str]) -> dict[str, str]:
        """`active` or `finished` for each of these games the index holds."""
        out: dict[str, str] = {}
        with self.reading() as session:
            for start in range(0, len(game_ids), 500):
                chunk = list(game_ids[start:start + 500])
                out.update((row.game_id, row.status) for row in session.execute(
                    select(GameRow.game_id, GameRow.status).where(GameRow.game_id.in_(chunk))))
        return out

    def forks(self, game_ids: Sequence[str]) -> set[str]:
        """Those of these games the index holds as forks (of a game here or elsewhere)."""
        out: set[str] = set()
        with self.reading() as session:
            for start in range(0, len(game_ids), 500):
                chunk = list(game_ids[start:start + 500])
                out.update(session.scalars(select(GameRow.game_id).where(
                    GameRow.game_id.in_(chunk), GameRow.forked_from_id.is_not(None))))
        return out

    def rows_of(self, game_id: str) -> dict[str, Any]:
        """Every read-model row of one game, for comparing with a fresh rebuild."""
        with self.reading() as session:
            return rows_of(session, game_id)


class VersionNotYet(ReadModelError):
    code = "bad_version"

    def __init__(self, at: int, version: int) -> None:
        super().__init__(f"There is no version {at} yet: the game is at version {version}.")
        self.at, self.version = at, version


class UnknownGame(ReadModelError):
    code = "game_not_found"

    def __init__(self, game_id: str) -> None:
        super().__init__(f"The game index holds no game {game_id!r}.")


def index_entry(row: Any) -> dict[str, Any]:
    """A game as the game index holds it (the listing's entry), from a `GameRow` or a row of
    its columns."""
    open_seats = set(row.open_seats)
    return {"game_id": row.game_id, "game": row.game, "ruleset_version": row.ruleset_version, "title": row.title,
            "seats": [{"seat": i, "name": n, "open": i in open_seats} for i, n in enumerate(row.seats)],
            "status": row.status, "stage": row.stage, "active_seats": list(row.active_seats), "since": row.since,
            "since_version": row.since_version, "waiting_since": dict(row.waiting_since), "version": row.version,
            "created_at": row.created_at, "updated_at": row.updated_at, "forked_from": row.forked_from,
            "transcribed": row.transcribed, "waiting_for": row.waiting_for, "scores": row.scores, "rewinds": row.rewinds,
            "open_disputes": row.open_disputes, "problem": row.problem}


def rows_of(session: Session, game_id: str) -> dict[str, Any]:
    row = session.get(GameRow, game_id)
    board = session.execute(select(BoardChange.version, BoardChange.cell, BoardChange.value)
                            .where(BoardChange.game_id == game_id)
                            .order_by(BoardChange.version, BoardChange.cell)).all()
    seats = session.execute(select(SeatFiguresChange.version, SeatFiguresChange.seat, SeatFiguresChange.vp,
                                   SeatFiguresChange.income, SeatFiguresChange.by_source, SeatFiguresChange.tracks,
                                   SeatFiguresChange.charted)
                            .where(SeatFiguresChange.game_id == game_id)
                            .order_by(SeatFiguresChange.version, SeatFiguresChange.seat)).all()
    index = index_entry(row) if row else None
    return {"index": index, "board": [tuple(r) for r in board], "seats": [tuple(r) for r in seats]}


def _sqlite_transactions(engine: Engine, begin: str) -> None:
    """Let SQLAlchemy, not the sqlite3 module, decide when transactions begin, and begin
    writers with BEGIN IMMEDIATE (SQLAlchemy's documented recipe)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.isolation_level = None
        dbapi_connection.execute("PRAGMA journal_mode=WAL")
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql(begin)


_STORES: weakref.WeakKeyDictionary[Any, ReadStore] = weakref.WeakKeyDictionary()


def read_store_for(app: Any) -> ReadStore:
    """The read models of a `Caboose` application (one store per application object)."""
    store = _STORES.get(app)
    if store is None:
        store = ReadStore(read_db_url(app.settings.db, _schema_of(app)))
        _STORES[app] = store
    return store


def use_read_store(app: Any, store: ReadStore) -> None:
    """Give an application explicit read models (tests, another database)."""
    _STORES[app] = store


def _schema_of(app: Any) -> str | None:
    schema = getattr(app.settings, "schema", None)
    if schema:
        return str(schema)
    try:
        return app.env.get("POSTGRES_SCHEMA") or None
    except AttributeError:
        return None
