"""`caboose referee ...` and `caboose takeback ...`: the referee's tools and the takebacks
from the shell; `caboose bulk ...`: export and import many games at once."""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from cli.common import _app, _echo_json, _services, db_option, echo_created, handles_errors, json_option
from cli.text_files import Utf8File
from domain.core.referee import ADJUSTMENT_KINDS, OUTCOMES
from service import input_limits
from service import referee as desk
from service.bulk import export_lines, import_lines, select_games
from service.lobby import Lobby

referee_option = click.option("--referee", "name", required=True, help="The referee's name (recorded as referee:NAME).")


def _print(records: list[dict[str, Any]], as_json: bool) -> None:
    for record in records:
        _echo_json(record) if as_json else click.echo(
            f"{record['version']:>5} {record['actor']:<16} {record['kind']} {json.dumps(record['data'], ensure_ascii=False)}")


@click.group("referee")
def referee_cli() -> None:
    """Referee tools: every action is appended as an event; nothing is erased."""


@referee_cli.command()
@click.argument("game_id")
@click.option("--to-version", type=int, required=True, help="The version whose state the game returns to.")
@click.option("--reason", required=True)
@click.option("--dispute", type=int, default=None, help="The DisputeRaised version this settles.")
@click.option("--expected-version", type=click.IntRange(min=1), default=None)
@referee_option
@db_option
@json_option
@handles_errors
def rewind(game_id: str, to_version: int, reason: str, dispute: int | None, expected_version: int | None, name: str,
           db: str | None, as_json: bool) -> None:
    """Rewind without erasing (the random stream is not rewound)."""
    _print(desk.rewind(_app(db), game_id, name, to_version, reason, dispute, expected_version), as_json)


@referee_cli.command()
@click.argument("game_id")
@click.option("--at-version", type=int, required=True)
@click.option("--reason", required=True)
@click.option("--seed", default=None, help="64 hex digits for the fork's own draws (default: a new server seed).")
@referee_option
@db_option
@json_option
@handles_errors
def fork(game_id: str, at_version: int, reason: str, seed: str | None, name: str, db: str | None, as_json: bool) -> None:
    """Fork a game at a version (what-if); prints the new game's id, then fresh tokens for
    its seats and referee."""
    try:
        seed_bytes = bytes.fromhex(seed) if seed else None
    except ValueError:
        raise click.BadParameter("the seed must be hex digits", param_hint="--seed") from None
    lobby = _services(db).lobby
    fork_id, issued = lobby.fork_game(game_id, name, at_version, reason, seed_bytes)
    echo_created(lobby, fork_id, issued, as_json)


@referee_cli.command()
@click.argument("game_id")
@click.option("--version", "about", type=int, required=True, help="The event in question.")
@click.option("--raised-by", required=True, help="Who raised it (seat:N or a name).")
@click.option("--claim", required=True)
@referee_option
@db_option
@json_option
@handles_errors
def dispute(game_id: str, about: int, raised_by: str, claim: str, name: str, db: str | None, as_json: bool) -> None:
    """Record a dispute about an event."""
    _print(desk.raise_dispute(_app(db), game_id, name, about, raised_by, claim), as_json)


@referee_cli.command()
@click.argument("game_id")
@click.option("--dispute", type=int, required=True, help="The version of the DisputeRaised.")
@click.option("--text", required=True)
@click.option("--outcome", type=click.Choice(OUTCOMES), required=True)
@referee_option
@db_option
@json_option
@handles_errors
def rule(game_id: str, dispute: int, text: str, outcome: str, name: str, db: str | None, as_json: bool) -> None:
    """Rule on an open dispute."""
    _print(desk.rule(_app(db), game_id, name, dispute, text, outcome), as_json)


@referee_cli.command()
@click.argument("game_id")
@click.option("--seat", type=int, required=True)
@click.option("--kind", type=click.Choice(ADJUSTMENT_KINDS), required=True)
@click.option("--amount", type=int, default=0, show_default=True)
@click.option("--detail", default="{}", help="JSON object, e.g. '{\"route\": \"Denver|Omaha\"}' for a piece.")
@click.option("--reason", required=True)
@click.option("--dispute", type=int, default=None)
@referee_option
@db_option
@json_option
@handles_errors
def adjust(game_id: str, seat: int, kind: str, amount: int, detail: str, reason: str, dispute: int | None, name: str,
           db: str | None, as_json: bool) -> None:
    """Adjust a seat's VP, cash or income, or put a piece back."""
    try:
        parsed = input_limits.loads(detail)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error.msg}", param_hint="--detail") from None
    if not isinstance(parsed, dict):
        raise click.BadParameter("must be a JSON object", param_hint="--detail")
    _print(desk.adjust(_app(db), game_id, name, seat, kind, amount, reason, parsed, dispute), as_json)


@referee_cli.command()
@click.argument("game_id")
@db_option
@handles_errors
def disputes(game_id: str, db: str | None) -> None:
    """List a game's disputes and their status."""
    app = _app(db)
    app.game(game_id)
    for entry in desk.disputes(app, game_id):
        _echo_json(entry)


@click.group("takeback")
def takeback_cli() -> None:
    """Takebacks: a seat asks, the other seats (or a referee) answer."""


@takeback_cli.command("request")
@click.argument("game_id")
@click.option("--seat", type=click.IntRange(min=0), required=True)
@db_option
@json_option
@handles_errors
def request(game_id: str, seat: int, db: str | None, as_json: bool) -> None:
    """Ask to take back your own last move."""
    _print(desk.request_takeback(_app(db), game_id, seat), as_json)


@takeback_cli.command("answer")
@click.argument("game_id")
@click.option("--accept/--refuse", required=True)
@click.option("--seat", type=click.IntRange(min=0), default=None, help="The answering seat.")
@click.option("--referee", "name", default=None, help="Answer as a referee, for every seat.")
@click.option("--reason", default="")
@db_option
@json_option
@handles_errors
def answer(game_id: str, accept: bool, seat: int | None, name: str | None, reason: str, db: str | None, as_json: bool) -> None:
    """Accept or refuse the pending takeback."""
    _print(desk.answer_takeback(_app(db), game_id, accept, seat=seat, referee_name=name, reason=reason), as_json)


@click.group("bulk")
def bulk_cli() -> None:
    """Many games at once, as JSON Lines (FORMAT.md)."""


@bulk_cli.command("export")
@click.option("--status", type=click.Choice(["active", "finished"]), default=None)
@click.option("--game", default=None, help="Only this ruleset.")
@click.option("--id", "ids", multiple=True, help="A game id (repeatable) instead of the filters.")
@click.option("--limit", type=click.IntRange(min=1), default=100000, show_default=True)
@click.option("--output", "-o", type=click.File("w"), default="-")
@db_option
@handles_errors
def bulk_export(status: str | None, game: str | None, ids: tuple[str, ...], limit: int, output: Any, db: str | None) -> None:
    """Write many games' records, game after game."""
    app = _app(db)
    chosen = select_games(app, status, game, list(ids) or None, None, limit)
    for chunk in export_lines(app, chosen):
        output.write(chunk)
    click.echo(f"exported {len(chosen)} games", err=True)


@bulk_cli.command("import")
@click.argument("source", type=Utf8File())
@db_option
@json_option
@handles_errors
def bulk_import(source: Any, db: str | None, as_json: bool) -> None:
    """Verify and store each game of a JSON Lines file; a game that does not verify is
    reported and not stored (the others are). Exit 1 if any failed."""
    results = import_lines(Lobby(_app(db)), source)
    for result in results:
        if as_json:
            _echo_json(result.to_json())
        else:
            where = f" (first bad version: {result.first_bad_version})" if result.first_bad_version else ""
            note = f" ({result.detail})" if result.detail else ""
            click.echo(f"{result.game_id or '-'}: " + (f"ok{note}" if result.ok else f"REFUSED {result.code}: {result.detail}{where}"))
    if not results or not all(r.ok for r in results):
        sys.exit(1)
