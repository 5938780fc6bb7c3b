"""The database's tables are made by Alembic migrations, once, before the service starts:
`caboose db upgrade` (gunicorn's master runs it before forking its workers).

Two migration trees, each with its own version table, because the read models may live
in another database than the events:
- `service/migrations` (`caboose_alembic_version`): the eventsourcing library's
  stored-events and snapshots tables, made with the library's own statements, and the
  service's tables (seats and tokens, notifications);
- `projections/migrations` (`proj_alembic_version`): the read models.

The embedded stores (a SQLite file, `memory`) upgrade themselves when opened, so the
first command of the README just works. A PostgreSQL store is never changed at run
time: one that is not at the latest revision is refused with `SchemaMissing`.

Each upgrade runs in one transaction that first takes a lock (PostgreSQL: an advisory
lock; SQLite: BEGIN IMMEDIATE), so two processes upgrading at once run one after the
other and the second finds nothing to do.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.pool import NullPool

from service.db import sqlalchemy_url
from service.errors import ServiceError
from service.settings import persistence_env

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

# Alembic is imported where a database is opened or upgraded, not with the service: a
# command that opens none (`caboose --help`, `caboose content list`) does without it.


@dataclass(frozen=True)
class Tree:
    """One migration tree: where its revisions are, and the table that records its revision."""

    name: str
    location: Path
    version_table: str


STORE = Tree("event store and service", Path(__file__).parent / "migrations", "caboose_alembic_version")
READ_MODELS = Tree("read model", Path(__file__).parent.parent / "projections" / "migrations", "proj_alembic_version")


class SchemaMissing(ServiceError):
    """The database lacks tables this build needs: someone must run `caboose db upgrade`."""

    code = "schema_missing"

    def __init__(self, tree: Tree, found: str | None, wanted: str) -> None:
        what = "has none of the" if found is None else f"has an older revision ({found}) of the"
        super().__init__(f"The database {what} Caboose {tree.name} tables (revision {wanted} needed): "
                         "run `caboose db upgrade` first.")


@functools.cache
def _script(tree: Tree) -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory(str(tree.location))


def head(tree: Tree) -> str:
    revision = _script(tree).get_current_head()
    assert revision is not None
    return revision


def _config(tree: Tree, connection: Connection, schema: str | None) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(tree.location))
    # Each tree's env.py runs `run_environment` as handed over here, so the read models'
    # tree need not import the service.
    config.attributes.update(connection=connection, schema=schema, version_table=tree.version_table,
                             run_environment=run_environment)
    return config


def current(engine: Engine, tree: Tree, schema: str | None = None) -> str | None:
    """The revision the database is at (None: never upgraded)."""
    with engine.connect() as connection:
        return _current(connection, tree, schema)


def _current(connection: Connection, tree: Tree, schema: str | None) -> str | None:
    from alembic.runtime.migration import MigrationContext

    context = MigrationContext.configure(connection, opts={"version_table": tree.version_table,
                                                           "version_table_schema": schema})
    return context.get_current_revision()


def upgrade(engine: Engine, tree: Tree, schema: str | None = None) -> str:
    """Bring the database to the latest revision of `tree`; returns that revision."""
    wanted = head(tree)
    if current(engine, tree, schema) == wanted:
        return wanted  # the usual case, without taking the lock
    with engine.begin() as connection:
        _serialize(connection, schema)
        if _current(connection, tree, schema) != wanted:
            from alembic import command

            command.upgrade(_config(tree, connection, schema), "head")
    return wanted


def require(engine: Engine, tree: Tree, schema: str | None = None) -> None:
    """Refuse a database that is not at the latest revision of `tree`."""
    found, wanted = current(engine, tree, schema), head(tree)
    if found != wanted:
        raise SchemaMissing(tree, found, wanted)


def prepare(engine: Engine, tree: Tree, schema: str | None = None) -> None:
    """What opening a store does: an embedded (SQLite) database upgrades itself, any
    other must already be at the latest revision."""
    if engine.dialect.name == "sqlite":
        upgrade(engine, tree, schema)
    else:
        require(engine, tree, schema)


def _serialize(connection: Connection, schema: str | None) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                           {"key": f"caboose migrations {schema or ''}"})
        if schema:
            connection.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))


@contextmanager
def migration_engine(db: str, schema: str | None = None) -> Iterator[Engine]:
    """A short-lived engine on the events' database for migrating it; SQLite writers
    begin with BEGIN IMMEDIATE so concurrent upgrades wait for each other."""
    url = sqlalchemy_url(db)
    if url.startswith("sqlite"):
        engine = create_engine(url, poolclass=NullPool, connect_args={"timeout": 30})
        immediate_transactions(engine)
    else:
        options = {"options": f"-csearch_path={schema}"} if schema else {}
        engine = create_engine(url, poolclass=NullPool, connect_args={"connect_timeout": 10, **options})
    try:
        yield engine
    finally:
        engine.dispose()


def immediate_transactions(engine: Engine) -> None:
    """Let SQLAlchemy, not the sqlite3 module, begin transactions, with BEGIN IMMEDIATE
    (SQLAlchemy's documented recipe): a writer takes the lock before reading."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")


def run_environment(context: Any) -> None:
    """The body of both trees' env.py: migrate the connection `upgrade` handed over, inside
    its transaction (Alembic sees an external transaction and leaves it alone)."""
    attributes = context.config.attributes
    context.configure(connection=attributes["connection"], version_table=attributes["version_table"],
                      version_table_schema=attributes["schema"], transactional_ddl=True)
    with context.begin_transaction():
        context.run_migrations()


def open_store(db: str, schema: str | None = None) -> bool:
    """What opening the event store does: `prepare` its database. Returns False where the
    library must make its own tables: `memory` (plain objects, no tables) and an in-memory
    SQLite database, which exists only inside the library's own connections."""
    if db == "memory" or "mode=memory" in persistence_env(db).get("SQLITE_DBNAME", ""):
        return False
    with migration_engine(db, schema) as engine:
        prepare(engine, STORE, schema)
    return True

