"""`caboose log key | checkpoint | prove | consistency | follow` (the deployment's transparency
log) and `caboose witness URL --state DIR` (a witness of someone's log)."""

from __future__ import annotations

import base64
import sys
import threading
import time
from pathlib import Path
from typing import Any

import click

from cli.common import _echo_json, _services, db_option, handles_errors, json_option
from service.tlog.log import LogError
from service.tlog.notes import NoteError
from service.tlog.witness import Unreachable, Witness, WitnessAlarm, own_key


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def _refused(error: LogError | NoteError) -> click.ClickException:
    return click.ClickException(str(error))


@click.group("log")
def log_cli() -> None:
    """The transparency log: one Merkle tree over every stored event (docs/transparency.md)."""


@log_cli.command("key")
@db_option
def key(db: str | None) -> None:
    """Print the log's verifier key (the signed-note verifier key format)."""
    click.echo(str(_services(db).log.verifier))


@log_cli.command("checkpoint")
@db_option
@handles_errors
def checkpoint(db: str | None) -> None:
    """Bring the log up to every stored event, sign a checkpoint if it grew, and print it."""
    services = _services(db)
    services.log.round(services.caboose)
    try:
        click.echo(services.log.published(latest=True).note, nl=False)
    except LogError as error:
        raise _refused(error) from None


@log_cli.command("prove")
@click.argument("game_id")
@click.option("--version", type=click.IntRange(min=1), required=True, help="The event's version.")
@click.option("--size", type=click.IntRange(min=1), default=None, help="The tree size (default: the newest checkpoint's).")
@db_option
@json_option
def prove(game_id: str, version: int, size: int | None, db: str | None, as_json: bool) -> None:
    """Print the inclusion proof of one event (its leaf, the tree size and the audit path)."""
    services = _services(db)
    services.log.round(services.caboose)
    try:
        found = services.log.inclusion(game_id, version, size)
    except LogError as error:
        raise _refused(error) from None
    answer: dict[str, Any] = {"leaf_index": found.leaf_index, "tree_size": found.tree_size, "leaf_hash": _b64(found.leaf_hash),
              "hashes": [_b64(h) for h in found.hashes]}
    if as_json:
        _echo_json(answer)
        return
    click.echo(f"event {version} of {game_id} is leaf {found.leaf_index} of the tree of {found.tree_size} leaves")
    click.echo(f"leaf hash {answer['leaf_hash']}")
    for h in answer["hashes"]:
        click.echo(h)


@log_cli.command("consistency")
@click.argument("old", type=click.IntRange(min=1))
@click.argument("new", type=click.IntRange(min=1))
@db_option
@json_option
def consistency(old: int, new: int, db: str | None, as_json: bool) -> None:
    """Print the proof that the tree of NEW leaves extends the tree of OLD leaves."""
    try:
        hashes = [_b64(h) for h in _services(db).log.consistency(old, new)]
    except LogError as error:
        raise _refused(error) from None
    _echo_json({"from": old, "to": new, "hashes": hashes}) if as_json else click.echo("\n".join(hashes))


@log_cli.command("follow")
@click.option("--interval", type=float, default=1.0, show_default=True, help="Seconds between rounds.")
@db_option
def follow(interval: float, db: str | None) -> None:
    """Sequence new events into the tree and sign checkpoints, every INTERVAL seconds (for
    deployments whose API processes do not: one or more may run, they take turns)."""
    services = _services(db)
    services.log.follow(services.caboose, interval, threading.Event())


@click.command("witness")
@click.argument("url", required=False)
@click.option("--state", "state", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="The witness's folder: its key, the log's key and the last checkpoint it accepted.")
@click.option("--log-key", default=None, help="The log's verifier key (`caboose log key`); default: trusted on first use.")
@click.option("--name", default=None, help="The witness's key name, when its key is made (default caboose.witness/RANDOM).")
@click.option("--interval", type=float, default=10.0, show_default=True, help="Seconds between checks.")
@click.option("--once", is_flag=True, help="One check, then exit.")
@click.option("--show-key", is_flag=True, help="Print the witness's verifier key (for `caboose serve --witness-key`) and exit.")
def witness_cli(url: str | None, state: Path, log_key: str | None, name: str | None, interval: float, once: bool,
                show_key: bool) -> None:
    """Witness the log at URL: accept each new checkpoint only if it extends the last one
    accepted, cosign it, and exit non-zero on a fork, a smaller tree or a rewrite."""
    if show_key:
        click.echo(str(own_key(state, name).verifier))
        return
    if url is None:
        raise click.UsageError("give the log's URL (e.g. http://127.0.0.1:8000)")
    try:
        witness = Witness(url, state, log_key, name)
    except (NoteError, Unreachable) as error:
        raise click.ClickException(str(error)) from None
    except WitnessAlarm as error:
        click.echo(f"ALARM: {error}", err=True)
        sys.exit(2)
    while True:
        try:
            accepted = witness.round()
        except Unreachable as error:
            click.echo(f"could not reach the log: {error}", err=True)
            if once:
                sys.exit(1)
        except WitnessAlarm as error:
            click.echo(f"ALARM: {error}", err=True)
            sys.exit(2)
        else:
            before = accepted.previous.size if accepted.previous else 0
            click.echo(f"accepted {accepted.checkpoint.origin} size {accepted.checkpoint.size} (was {before}); "
                       f"cosignature {accepted.handed_in}")
        if once:
            return
        time.sleep(interval)
