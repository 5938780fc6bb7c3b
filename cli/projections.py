"""`caboose projections`: rebuild the read models from zero, follow the log, show where
they stand, and show a game's board, income, scores or timeline at any version."""

from __future__ import annotations

import json
import signal
import sys
import tempfile
import threading
import time
from typing import Any
from uuid import UUID

import click

from cli import spread
from cli.common import db_option, handles_errors, json_option
from projections.runner import Part, log_end, merge_parts, rebuild, rebuild_part, shares
from projections.store import ReadModelError, ReadStore
from service.bootstrap import Services, bootstrap
from service.settings import Settings

read_db_option = click.option("--read-db", envvar="CABOOSE_READ_DB", default=None,
                              help="Where the read models live (default: beside the events; see docs/architecture.md).")


def _stores(db: str | None, read_db: str | None) -> tuple[Services, ReadStore]:
    services = bootstrap(Settings.from_env(db), read_db=read_db)
    try:
        store = services.read_store
    except ReadModelError as error:
        raise click.BadParameter(error.message, param_hint="--read-db") from None
    return services, store


@click.group("projections")
def projections_cli() -> None:
    """Read models: boards, income tracks, VP tallies, timelines, game index."""


@projections_cli.command("rebuild")
@click.option("--batch", type=click.IntRange(min=1, max=100000), default=2000, show_default=True)
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=None,
              help="Worker processes, each projecting its share of the games; a game that fails is named and left "
                   "out, and the others are rebuilt (exit status 1).")
@db_option
@read_db_option
@handles_errors
def rebuild_cmd(batch: int, jobs: int | None, db: str | None, read_db: str | None) -> None:
    """Rebuild every read model from zero (one transaction: readers see the old views
    until the new ones are complete). Stop the runners first."""
    services, store = _stores(db, read_db)
    app = services.caboose
    total = log_end(app)
    if jobs is not None:
        _rebuild_spread(services, store, jobs, batch, total)
        return
    with click.progressbar(length=total, label="Rebuilding projections", show_pos=True,
                           file=sys.stderr) as bar:
        count = rebuild(app, store, batch, progress=bar.update)
    click.echo(f"rebuilt from {count} events")


@projections_cli.command("follow")
@click.option("--batch", type=click.IntRange(min=1, max=100000), default=500, show_default=True)
@click.option("--interval", type=click.FloatRange(min=0.01), default=0.2, show_default=True, help="Seconds between polls (SQLite).")
@click.option("--once", is_flag=True, help="Catch up with the log, then exit.")
@click.option("--poll", is_flag=True, help="Poll the log even on PostgreSQL (instead of the library's subscription).")
@db_option
@read_db_option
@handles_errors
def follow_cmd(batch: int, interval: float, once: bool, poll: bool, db: str | None, read_db: str | None) -> None:
    """Follow the event log into the read models until stopped (SIGTERM or Ctrl-C).
    Safe to kill at any moment: it resumes from the last committed position."""
    services, _ = _stores(db, read_db)
    stop = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop.set())
    if once or poll or not services.settings.db.startswith(("postgresql", "postgres")):
        runner = services.polling_runner(batch)
        if once:
            click.echo(f"projected {runner.catch_up()} events")
            return
        runner.run_forever(stop, interval)
        return
    with services.library_runner() as following:
        while not stop.is_set():
            following.run_forever(timeout=0.5)


@projections_cli.command("status")
@db_option
@read_db_option
@json_option
@handles_errors
def status_cmd(db: str | None, read_db: str | None, as_json: bool) -> None:
    """How far the read models have followed the log."""
    services, store = _stores(db, read_db)
    app = services.caboose
    tracked, end = store.max_tracking_id(app.name) or 0, log_end(app)
    body = {"read_db": store.url, "tracked": tracked, "log_end": end, "behind": end - tracked}
    click.echo(json.dumps(body) if as_json else f"{store.url}: at notification {tracked} of {end} ({end - tracked} behind)")


@projections_cli.command("show")
@click.argument("what", type=click.Choice(["board", "income", "scores", "timeline", "index"]))
@click.argument("game_id", required=False)
@click.option("--at", type=click.IntRange(min=1), default=None, help="As it stood at version N.")
@db_option
@read_db_option
@handles_errors
def show_cmd(what: str, game_id: str | None, at: int | None, db: str | None, read_db: str | None) -> None:
    """Show a game's board, income, scores or timeline (JSON), now or at version N; or
    the game index."""
    services, store = _stores(db, read_db)
    app = services.caboose
    services.polling_runner().catch_up()
    if what == "index":
        body: Any = store.games(limit=10000)
    elif game_id is None:
        raise click.BadParameter(f"`{what}` needs a GAME_ID", param_hint="GAME_ID")
    else:
        app.game(game_id)
        body = getattr(store, what)(game_id, at)
    click.echo(json.dumps(body, ensure_ascii=False, indent=2))


def _rebuild_spread(services: Services, store: ReadStore, jobs: int, batch: int, total: int) -> None:
    """Each worker projects its share of the games into a private SQLite file; the rows are
    then copied into the read models in one transaction."""
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="caboose-rebuild-") as folder:
        with click.progressbar(length=total, label=f"Rebuilding projections ({jobs} workers)", show_pos=True,
                               file=sys.stderr) as bar:
            position, shared = shares(services.caboose, jobs)
            done = spread.parts(_rebuild_worker, (services.settings.db, folder, batch, position, shared), jobs,
                                on_progress=bar.update)
        failed: dict[str, str] = {}
        for part in done.parts.values():
            failed.update(part.failures)
        broken = [f for f in done.failures if f.item not in failed]
        if broken:  # a worker died: its share of the games is not there to copy
            for failure in broken:
                click.echo(f"worker {failure.worker + 1} failed: {failure.error}", err=True)
            raise click.ClickException("the rebuild stopped: the read models are as they were")
        sources = [ReadStore(f"sqlite:///{folder}/part-{k}.sqlite") for k in sorted(done.parts)]
        try:
            copied = merge_parts(services.caboose, store, sources, max(p.position for p in done.parts.values()))
        finally:
            for source in sources:
                source.close()
    events = sum(p.events for p in done.parts.values())
    seconds = time.perf_counter() - began
    click.echo(f"rebuilt from {events} events of {total} in the log, {jobs} workers, {seconds:.1f} s "
               f"({events / seconds if seconds else 0:,.0f} events/s), {copied} rows")
    for game_id, error in sorted(failed.items()):
        click.echo(f"game {game_id} failed: {error}", err=True)
    if failed:
        click.echo(f"{len(failed)} game(s) left out of the read models; the others are rebuilt", err=True)
        sys.exit(1)


def _rebuild_worker(report: spread.Report, part: int, parts: int, db: str, folder: str, batch: int, position: int,
                    shared: list[list[UUID]]) -> Part:
    services = bootstrap(Settings.from_env(db))
    store = ReadStore(f"sqlite:///{folder}/part-{part}.sqlite")
    try:
        return rebuild_part(services.caboose, store, shared[part], position, batch, progress=report.progress,
                            describe=spread.described)
    finally:
        store.close()
        services.caboose.close()
