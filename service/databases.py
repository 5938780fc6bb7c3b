"""Every database a deployment uses, upgraded together: the event store's (events,
snapshots, seats, notifications) and the read models' (the same PostgreSQL database by
default, or their own SQLite file beside a SQLite store). `caboose db upgrade` and
gunicorn's master call `upgrade_databases`."""

from __future__ import annotations

import os

from projections.store import ReadStore, read_db_url
from service import migrate
from service.settings import Settings


def databases(db: str | None = None, read_db: str | None = None) -> tuple[Settings, str | None]:
    """The settings and the read models' database, from the options and the environment."""
    settings = Settings.from_env(db)
    read = read_db or read_db_url(settings.db, settings.schema or os.environ.get("POSTGRES_SCHEMA"))
    # An in-memory read database lives and dies with its process: nothing to migrate.
    return settings, None if read in ("sqlite://", "sqlite:///:memory:") else read


def upgrade_databases(settings: Settings, read: str | None) -> dict[str, str]:
    """Upgrade the event store's database and the read models' (`read`, None for an
    in-memory one); returns tree -> revision."""
    done = {}
    if settings.db != "memory":
        with migrate.migration_engine(settings.db, settings.schema) as engine:
            done[migrate.STORE.name] = migrate.upgrade(engine, migrate.STORE, settings.schema)
    if read is not None:
        store = ReadStore(read, prepare=False)
        try:
            done[migrate.READ_MODELS.name] = store.upgrade()
        finally:
            store.close()
    return done
