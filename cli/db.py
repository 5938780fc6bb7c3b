"""`caboose db`: make or bring up to date every table the service uses (Alembic
migrations), and show which revision a database is at. Run `caboose db upgrade` once
before starting the API workers on PostgreSQL; the embedded SQLite store does it itself."""

from __future__ import annotations

import json

import click

from cli.common import db_option, json_option
from projections.store import ReadStore
from service import migrate
from service.databases import databases, upgrade_databases

read_db_option = click.option("--read-db", envvar="CABOOSE_READ_DB", default=None,
                              help="Where the read models live (default: beside the events).")


@click.group("db")
def db_cli() -> None:
    """The database's tables: migrations."""


@db_cli.command("upgrade")
@db_option
@read_db_option
@json_option
def upgrade_cmd(db: str | None, read_db: str | None, as_json: bool) -> None:
    """Create or upgrade every table the service uses (events, snapshots, seats, notifications,
    read models). Safe to run again and from several processes at once."""
    done = upgrade_databases(*databases(db, read_db))
    if as_json:
        click.echo(json.dumps(done))
        return
    for tree, revision in done.items():
        click.echo(f"{tree}: at revision {revision}")


@db_cli.command("current")
@db_option
@read_db_option
@json_option
def current_cmd(db: str | None, read_db: str | None, as_json: bool) -> None:
    """Show the revision each database is at, and the revision this build needs."""
    settings, read = databases(db, read_db)
    found: dict[str, dict[str, str | None]] = {}
    if settings.db != "memory":
        with migrate.migration_engine(settings.db, settings.schema) as engine:
            found[migrate.STORE.name] = {"current": migrate.current(engine, migrate.STORE, settings.schema),
                                         "head": migrate.head(migrate.STORE)}
    if read is not None:
        store = ReadStore(read, prepare=False)
        try:
            found[migrate.READ_MODELS.name] = {"current": migrate.current(store.writer, migrate.READ_MODELS, store.schema),
                                               "head": migrate.head(migrate.READ_MODELS)}
        finally:
            store.close()
    if as_json:
        click.echo(json.dumps(found))
        return
    for tree, revisions in found.items():
        state = "up to date" if revisions["current"] == revisions["head"] else "run `caboose db upgrade`"
        click.echo(f"{tree}: at {revisions['current'] or 'nothing'} (this build needs {revisions['head']}): {state}")
