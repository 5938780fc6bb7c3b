"""The tables are made by the migrations (`caboose db upgrade`), once: exactly the tables
the library's recorders and the service's models describe, on SQLite and PostgreSQL; a
database made by an older build (tables, no version) upgrades cleanly and keeps its
games; a PostgreSQL store that was never upgraded is refused with a clear message."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from eventsourcing.application import Application
from sqlalchemy import MetaData, create_engine, inspect, text

from projections.models import Base as ReadModels
from projections.store import ReadModelError, ReadStore, read_db_url
from service import migrate
from service.application import Caboose
from service.databases import upgrade_databases
from service.db import make_engine
from service.lobby import Lobby
from service.seating import Base as ServiceTables
from service.settings import Settings, persistence_env
from tests.conftest import POSTGRES_URL

CABOOSE = str(Path(sys.executable).with_name("caboose"))


@pytest.fixture
def bare_schema() -> Iterator[str]:
    """A PostgreSQL schema with nothing in it (not upgraded)."""
    schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True, connect_timeout=5) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield schema
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def _differences(engine: Any, metadata: MetaData, version_table: str) -> list[Any]:
    """What the models describe that the database lacks or has otherwise (tables of other
    owners, such as the library's, are not the models' business)."""
    with engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={
            "compare_type": True,
            "include_name": lambda name, kind, _: kind != "table" or name in metadata.tables})
        return [d for d in compare_metadata(context, metadata) if version_table not in str(d)]


def _event_store_catalogue(schema: str) -> dict[str, Any]:
    """The library's tables as PostgreSQL describes them: columns, indexes, the composite
    type and the insert function."""
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name, data_type, is_nullable, column_default IS NOT NULL "
            "FROM information_schema.columns WHERE table_schema = %s AND table_name IN ('caboose_events', 'caboose_snapshots') "
            "ORDER BY table_name, ordinal_position", (schema,)).fetchall()
        indexes = conn.execute("SELECT indexname, replace(indexdef, %s, '') FROM pg_indexes WHERE schemaname = %s "
                               "AND tablename IN ('caboose_events', 'caboose_snapshots') ORDER BY indexname", (schema, schema)).fetchall()
        options = conn.execute("SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                               "WHERE n.nspname = %s AND c.relname IN ('caboose_events', 'caboose_snapshots') ORDER BY 1",
                               (schema,)).fetchall()
        types = conn.execute("SELECT t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
                             "WHERE n.nspname = %s AND t.typtype = 'c' AND t.typname LIKE 'stored_event%%'", (schema,)).fetchall()
        functions = conn.execute("SELECT p.proname, replace(p.prosrc, %s, '') FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
                                 "WHERE n.nspname = %s ORDER BY 1", (schema, schema)).fetchall()
    return {"columns": columns, "indexes": indexes, "options": options, "types": types, "functions": functions}


def test_a_fresh_sqlite_file_gets_every_table_as_the_models_describe_them(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/fresh.sqlite"
    result = subprocess.run([CABOOSE, "db", "upgrade", "--db", db], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert f"at revision {migrate.head(migrate.STORE)}" in result.stdout
    assert f"at revision {migrate.head(migrate.READ_MODELS)}" in result.stdout
    events = create_engine(db)
    reads = create_engine(read_db_url(db))
    assert {"stored_events", "stored_snapshots", "caboose_credentials"} <= set(inspect(events).get_table_names())
    assert _differences(events, ServiceTables.metadata, "caboose_alembic_version") == []
    assert _differences(reads, ReadModels.metadata, "proj_alembic_version") == []
    current = subprocess.run([CABOOSE, "db", "current", "--db", db], capture_output=True, text=True, check=False)
    assert current.stdout.count("up to date") == 2, current.stdout
    events.dispose()
    reads.dispose()


@pytest.mark.postgres
def test_postgres_gets_the_librarys_tables_exactly_and_the_models_tables(bare_schema: str) -> None:
    # What the library's own recorders make, in a schema of their own...
    library_schema = f"caboose_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {library_schema}")
    try:
        env = {**persistence_env(POSTGRES_URL), "POSTGRES_SCHEMA": library_schema, "CREATE_TABLE": "y",
               "PERSISTENCE_MODULE": "eventsourcing.postgres", "IS_SNAPSHOTTING_ENABLED": "y"}
        library = type("Caboose", (Application,), {"name": "caboose"})(env)
        library.close()
        expected = _event_store_catalogue(library_schema)
    finally:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {library_schema} CASCADE")
    # ... and what the migration makes.
    upgrade_databases(Settings(db=POSTGRES_URL, schema=bare_schema), read_db_url(POSTGRES_URL, bare_schema))
    assert expected["columns"] and expected["types"] and expected["functions"]
    assert _event_store_catalogue(bare_schema) == expected
    engine = make_engine(POSTGRES_URL, bare_schema)
    assert _differences(engine, ServiceTables.metadata, "caboose_alembic_version") == []
    assert _differences(engine, ReadModels.metadata, "proj_alembic_version") == []
    engine.dispose()


def _older_build(db: str, schema: str | None) -> str:
    """A database as builds before the migrations left it: every table (they made them at
    run time), a game in them, and no migration version recorded."""
    settings = Settings(db=db, schema=schema)
    upgrade_databases(settings, read_db_url(db, schema))
    app = Caboose(settings)
    lobby = Lobby(app)
    game_id, _ = lobby.open_game("race", ["Ann", "Ben"])
    lobby.seating.engine.dispose()
    app.close()
    read = ReadStore(read_db_url(db, schema), prepare=False)
    for engine, tables in ((make_engine(db, schema), ("caboose_alembic_version",)),
                           (read.writer, ("proj_alembic_version", "proj_source"))):
        with engine.begin() as connection:
            for table in tables:
                connection.execute(text(f"DROP TABLE {table}"))
        engine.dispose()
    return game_id


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_a_database_made_by_an_older_build_upgrades_cleanly(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    schema = request.getfixturevalue("bare_schema") if kind == "postgres" else None
    db = POSTGRES_URL if schema else f"sqlite:///{tmp_path}/old.sqlite"
    old_game = _older_build(db, schema)
    with migrate.migration_engine(db, schema) as engine:
        assert migrate.current(engine, migrate.STORE, schema) is None
    settings = Settings(db=db, schema=schema)
    assert upgrade_databases(settings, read_db_url(db, schema)) == {"event store and service": migrate.head(migrate.STORE),
                                                                    "read model": migrate.head(migrate.READ_MODELS)}
    app = Caboose(settings)
    lobby = Lobby(app)
    game_id, issued = lobby.open_game("race", ["Ann", "Ben"])
    assert lobby.seating.audience(game_id, issued.seat_tokens[1], app.game(game_id)).seat == 1
    assert app.game_ids() == [old_game, game_id]
    assert app.audit(old_game).ok
    lobby.seating.engine.dispose()
    app.close()
    read = ReadStore(read_db_url(db, schema))
    assert _differences(read.writer, ReadModels.metadata, "proj_alembic_version") == []
    read.close()


@pytest.mark.postgres
def test_a_postgres_store_never_upgraded_is_refused_with_the_command_to_run(bare_schema: str) -> None:
    with pytest.raises(migrate.SchemaMissing, match="run `caboose db upgrade`"):
        Caboose(Settings(db=POSTGRES_URL, schema=bare_schema))
    with pytest.raises(ReadModelError, match="run `caboose db upgrade`"):
        ReadStore(read_db_url(POSTGRES_URL, bare_schema))
    # Nothing was created behind the operator's back.
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM information_schema.tables WHERE table_schema = %s",
                            (bare_schema,)).fetchone() == (0,)
    env = {**os.environ, "CABOOSE_DB": POSTGRES_URL, "CABOOSE_DB_SCHEMA": bare_schema}
    result = subprocess.run([CABOOSE, "new", "race", "--player", "Ann", "--player", "Ben"], env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode != 0
    assert "schema_missing" in result.stderr and "run `caboose db upgrade`" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.postgres
def test_db_upgrade_makes_a_missing_schema_and_is_safe_to_repeat(bare_schema: str) -> None:
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA {bare_schema}")
    env = {**os.environ, "CABOOSE_DB": POSTGRES_URL, "CABOOSE_DB_SCHEMA": bare_schema}
    for _ in range(2):
        result = subprocess.run([CABOOSE, "db", "upgrade"], env=env, capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stderr
    current = subprocess.run([CABOOSE, "db", "current"], env=env, capture_output=True, text=True, check=False)
    assert current.stdout.count("up to date") == 2, current.stdout
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        versions = conn.execute(f"SELECT version_num FROM {bare_schema}.caboose_alembic_version").fetchall()
    assert versions == [(migrate.head(migrate.STORE),)]


def test_memory_store_needs_no_upgrade() -> None:
    app = Caboose(Settings(db="memory"))
    lobby = Lobby(app)
    game_id, _ = lobby.open_game("race", ["Ann", "Ben"])
    assert lobby.caboose.summary(game_id)["seats"][0]["name"] == "Ann"
    with lobby.seating.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM caboose_alembic_version")).scalar() == migrate.head(migrate.STORE)
    app.close()


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_upgrades_started_at_once_queue_and_make_everything_once(kind: str, tmp_path: Path,
                                                                 request: pytest.FixtureRequest) -> None:
    """Four processes open the same fresh database at once (on SQLite each upgrades it
    itself, as the embedded default does; on PostgreSQL each runs `caboose db upgrade`)."""
    if kind == "sqlite":
        env = {**os.environ, "CABOOSE_DB": f"sqlite:///{tmp_path}/together.sqlite"}
        command = [CABOOSE, "new", "ticket_to_ride", "--player", "Ann", "--player", "Ben"]
    else:
        env = {**os.environ, "CABOOSE_DB": POSTGRES_URL, "CABOOSE_DB_SCHEMA": request.getfixturevalue("bare_schema")}
        command = [CABOOSE, "db", "upgrade"]
    processes = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(4)]
    for process in processes:
        _, errors = process.communicate(timeout=120)
        assert process.returncode == 0, errors
    settings = Settings.from_env(env["CABOOSE_DB"])
    schema = env.get("CABOOSE_DB_SCHEMA")
    with migrate.migration_engine(settings.db, schema) as engine, engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM caboose_alembic_version")).all()
    assert versions == [(migrate.head(migrate.STORE),)]
    if kind == "sqlite":
        app = Caboose(settings)
        assert len(app.game_ids()) == 4
        app.close()
