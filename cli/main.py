"""`caboose`: create, play, inspect, audit, export and import games from the shell.

Each command parses its arguments, calls one application method, and prints the answer
(as JSON with `--json`); the rules' and the store's errors become one clear line on
stderr and a non-zero exit, with nothing stored.
"""

from __future__ import annotations

import functools
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import click
from waitress import serve as waitress_serve

from domain import games
from domain.core.audit import AWAITS_REVEAL, awaits_reveal
from domain.core.errors import RecordError, RuleError
from domain.core.events import Audience
from service import bots, input_limits
from service.api import create_app
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.demo import seed_demo
from service.errors import ServiceError
from service.lobby import Lobby
from service.referee import full_audit
from service.seating import Issued
from service.settings import Settings, served_url
from service.simulation import DEFAULT_LEVEL, InvariantBroken, game_seed, play_one, seat_levels


def _services(db: str | None, base_url: str | None = None) -> Services:
    return bootstrap(Settings.from_env(db), base_url=base_url)


def _app(db: str | None) -> Caboose:
    return _services(db).caboose


def _echo_json(value: Any) -> None:
    click.echo(json.dumps(value, ensure_ascii=False))


def handles_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except RecordError as error:
            where = f" (first bad version: {error.version})" if error.version else ""
            raise click.ClickException(f"{error.code}: {error.message}{where}") from None
        except (RuleError, ServiceError, input_limits.InputRefused) as error:
            raise click.ClickException(f"{error.code}: {error.message}") from None

    return wrapper


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
db_option: Decorator = click.option("--db", envvar="CABOOSE_DB", default=None,
                         help="sqlite:///FILE (default sqlite:///caboose.sqlite), postgresql://USER@HOST:PORT/DB, or memory.")
json_option: Decorator = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def _audience(_: Any, __: Any, value: str) -> Audience:
    try:
        return Audience.parse(value)
    except ValueError as error:
        raise click.BadParameter(str(error)) from None


as_option = click.option("--as", "audience", default="referee", callback=_audience, show_default=True,
                         help="Whose view: public, referee, or seat:N.")


@click.group()
def cli() -> None:
    """Caboose: an event-sourced game log and replay service for railway board games."""


@cli.command()
@click.argument("game")
@click.option("--player", "players", multiple=True, required=True, help="A player's name; once per seat, in seat order.")
@click.option("--option", "options", multiple=True, help="A game option as KEY=VALUE (VALUE read as JSON when it parses).")
@click.option("--seed", default=None, help="A client-chosen seed: 64 hex digits (recorded as seed_source=client).")
@click.option("--content", default=None, help="The content pack: an installed pack's id, or a pack folder.")
@click.option("--bot", "bot_seats", multiple=True, help="A seat a bot plays from the start, as SEAT=LEVEL (e.g. 2=greedy).")
@click.option("--move-deadline", default=None, help="Seconds, or an ISO 8601 duration such as PT24H, before a bot moves for a late seat.")
@db_option
@json_option
@handles_errors
def new(game: str, players: tuple[str, ...], options: tuple[str, ...], seed: str | None, content: str | None,
        bot_seats: tuple[str, ...], move_deadline: str | None, db: str | None, as_json: bool) -> None:
    """Create a game; print its id, then each seat's token and the referee's."""
    parsed = dict(_option(o) for o in options)
    input_limits.check({"players": list(players), "options": parsed})
    if content is not None:
        parsed["content"] = content_option(content)
    try:
        seed_bytes = bytes.fromhex(seed) if seed else None
    except ValueError:
        raise click.BadParameter("the seed must be hex digits", param_hint="--seed") from None
    seated = {}
    for text in bot_seats:
        seat, sep, level = text.partition("=")
        if not sep:
            raise click.BadParameter(f"{text!r} is not SEAT=LEVEL", param_hint="--bot")
        seated[seat] = level
    lobby = _services(db).lobby
    game_id, issued = bots.open_game(lobby, game, list(players), parsed, seed_bytes, seated, deadline_value(move_deadline))
    echo_created(lobby, game_id, issued, as_json)


def echo_created(lobby: Lobby, game_id: str, issued: Issued, as_json: bool) -> None:
    """A new game's id, then its tokens (shown once: only their hashes are kept)."""
    if as_json:
        _echo_json({**lobby.summary(game_id), "seat_tokens": {str(k): v for k, v in issued.seat_tokens.items()},
                    "invites": {str(k): v for k, v in issued.invites.items()}, "referee_token": issued.referee_token})
        return
    click.echo(game_id)
    names = {seat["seat"]: seat["name"] for seat in lobby.summary(game_id)["seats"]}
    for seat, token in sorted(issued.seat_tokens.items()):
        click.echo(f"seat {seat} ({names.get(seat)}) token: {token}")
    for seat, invite in sorted(issued.invites.items()):
        click.echo(f"seat {seat} invite: {invite}")
    click.echo(f"referee token: {issued.referee_token}")


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep:
        raise click.BadParameter(f"{text!r} is not KEY=VALUE", param_hint="--option")
    try:
        return key, input_limits.loads(value)
    except json.JSONDecodeError:
        return key, value


@cli.command()
@click.argument("game_id")
@click.option("--at", type=click.IntRange(min=1), default=None, help="The state at version N (time travel).")
@as_option
@db_option
@json_option
@handles_errors
def state(game_id: str, at: int | None, audience: Audience, db: str | None, as_json: bool) -> None:
    """Show a game's state, now or at version N, as one audience sees it."""
    view = _app(db).state(game_id, audience, at)
    click.echo(json.dumps(view, ensure_ascii=False, indent=None if as_json else 2))


@cli.command()
@click.argument("game_id")
@click.option("--after", type=click.IntRange(min=0), default=0, help="Only events after version N.")
@click.option("--limit", type=click.IntRange(min=1), default=None)
@as_option
@db_option
@json_option
@handles_errors
def events(game_id: str, after: int, limit: int | None, audience: Audience, db: str | None, as_json: bool) -> None:
    """List a game's events (JSON Lines with --json)."""
    for record in _app(db).view_records(game_id, audience, after, limit):
        if as_json:
            _echo_json(record)
        else:
            secret = " +secret" if record["secrets"] else ""
            click.echo(f"{record['version']:>5} {record['time']} {record['actor']:<10} {record['kind']} "
                       f"{json.dumps(record['data'], ensure_ascii=False)}{secret}")


@cli.command("legal-moves")
@click.argument("game_id")
@click.option("--seat", type=click.IntRange(min=0), required=True)
@db_option
@json_option
@handles_errors
def legal_moves(game_id: str, seat: int, db: str | None, as_json: bool) -> None:
    """List the moves a seat may make now (each a complete move body)."""
    for move in _app(db).legal_moves(game_id, seat):
        _echo_json(move) if as_json else click.echo(json.dumps(move, ensure_ascii=False))


@cli.command()
@click.argument("game_id")
@click.argument("move")
@click.option("--seat", type=click.IntRange(min=0), default=None, help="The acting seat (or `seat` in the move).")
@click.option("--expected-version", type=click.IntRange(min=1), default=None, help="Refuse if the game moved on.")
@db_option
@json_option
@handles_errors
def move(game_id: str, move: str, seat: int | None, expected_version: int | None, db: str | None, as_json: bool) -> None:
    """Submit one move, given as a JSON object such as '{"type": "draw_card", "source": "deck"}'."""
    try:
        body = input_limits.loads(move)
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="MOVE") from None
    if not isinstance(body, dict):
        raise click.BadParameter("a move is a JSON object", param_hint="MOVE")
    acting = body.pop("seat", seat) if seat is None else seat
    if not isinstance(acting, int) or isinstance(acting, bool):
        raise click.BadParameter("give the acting seat with --seat or a `seat` field", param_hint="--seat")
    records = _app(db).play(game_id, acting, body, expected_version=expected_version)
    for record in records:
        _echo_json(record) if as_json else click.echo(f"{record['version']:>5} {record['actor']:<10} {record['kind']}")


@cli.command()
@click.argument("game")
@click.option("--games", "count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--players", type=click.IntRange(min=1), default=None, help="Seats per game (default: a random valid number each game).")
@click.option("--seed", type=int, default=0, show_default=True, help="Makes the run repeatable.")
@click.option("--check/--no-check", default=True, show_default=True, help="Check invariants after every event.")
@click.option("--option", "options", multiple=True, help="A game option for every game, as KEY=VALUE (VALUE read as JSON when it parses).")
@click.option("--bots", "levels", default=DEFAULT_LEVEL, show_default=True,
              help="The bots' level: one for every seat (random, playout, or the game's own such as greedy), "
                   "or one per seat in seat order, repeated, e.g. greedy,random.")
@click.option("--db", envvar="CABOOSE_SIMULATE_DB", default="memory", show_default=True)
@handles_errors
def simulate(game: str, count: int, players: int | None, seed: int, check: bool, options: tuple[str, ...],
             levels: str, db: str) -> None:
    """Play legal games to the end, each seat by a bot of its level; one JSON line per game
    (its seats' levels under `levels`)."""
    decider = games.current(game)
    if players is not None and not decider.min_seats <= players <= decider.max_seats:
        raise click.BadParameter(f"{game} takes {decider.min_seats}–{decider.max_seats} players", param_hint="--players")
    try:
        seat_levels(decider, levels, decider.min_seats)
    except RuleError as error:
        raise click.BadParameter(error.message, param_hint="--bots") from None
    parsed = dict(_option(o) for o in options)
    input_limits.check({"options": parsed})
    services, chooser = _services(db), random.Random(seed)
    app, lobby = services.caboose, services.lobby
    for index in range(count):
        seats = players or chooser.randint(decider.min_seats, decider.max_seats)
        try:
            playout = play_one(app, game, seats, game_seed(seed, index), chooser, check, lobby=lobby, options=parsed,
                               levels=levels)
        except InvariantBroken as error:
            click.echo(f"invariant broken: {error}", err=True)
            sys.exit(1)
        _echo_json({**playout.to_json(), "players": seats})


@cli.command()
@click.argument("game_id")
@db_option
@json_option
@handles_errors
def audit(game_id: str, db: str | None, as_json: bool) -> None:
    """Check the chain, re-adjudicate every command, re-derive the random outcomes, and
    compare the read models with a fresh rebuild."""
    report = full_audit(_app(db), game_id)
    _echo_json(report.to_json()) if as_json else click.echo(report.text())
    if not report.ok:
        sys.exit(1)


@cli.command()
@click.argument("game_id")
@click.option("--output", "-o", type=click.File("w"), default="-", help="Where to write (default stdout).")
@as_option
@db_option
@handles_errors
def export(game_id: str, output: Any, audience: Audience, db: str | None) -> None:
    """Write a game's record (FORMAT.md, JSON Lines)."""
    for record in _app(db).view_records(game_id, audience):
        output.write(json.dumps(record, ensure_ascii=False) + "\n")


@cli.command("import")
@click.argument("source", type=click.File("r"))
@db_option
@json_option
@handles_errors
def import_(source: Any, db: str | None, as_json: bool) -> None:
    """Verify a full record (JSON Lines) and store it; a bad record stores nothing. Prints
    the game's id, then fresh tokens for its seats and referee."""
    records = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            records.append(input_limits.loads(line))
        except json.JSONDecodeError as error:
            raise click.ClickException(f"line {number} is not JSON: {error.msg}") from None
        except input_limits.InputRefused as error:
            raise click.ClickException(f"line {number}: {error.code}: {error.message}") from None
    if not records:
        raise click.ClickException("the record is empty")
    lobby = _services(db).lobby
    game_id, issued = lobby.import_game(records)
    echo_created(lobby, game_id, issued, as_json)
    if awaits_reveal(records):
        # Stored without a seed, so nothing here can re-derive its outcomes before the reveal.
        click.echo(f"note: {AWAITS_REVEAL}", err=True)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--demo/--no-demo", default=False, help="Store a finished and an unfinished demo game and print their links.")
@db_option
def serve(host: str, port: int, demo: bool, db: str | None) -> None:
    """Run the REST API (embedded SQLite by default)."""
    # Links in notifications lead to where this server is actually served, unless told otherwise.
    services = _services(db, base_url=served_url(host, port))
    app, lobby, notifier = services.caboose, services.lobby, services.notifier
    click.echo(f"Caboose on http://{host}:{port}/api/v1/games  (store: {app.settings.db}; OpenAPI: /api/v1/openapi.json)")
    if demo:
        for line in seed_demo(lobby, f"http://{host}:{port}"):
            click.echo(line)
    notifier.start()
    bots.BotRunner(app).start()
    served = create_app(services=services)
    served.config["CABOOSE_STREAMS"] = 4  # live streams each hold a thread: half of the 8 stay for requests
    waitress_serve(served, host=host, port=port, threads=8)


@cli.command()
@click.option("--interval", type=float, default=1.0, show_default=True, help="Seconds between rounds.")
@click.option("--once", is_flag=True, help="One round, then exit.")
@db_option
def notify(interval: float, once: bool, db: str | None) -> None:
    """Run the notifier on its own (for deployments with several API workers)."""
    notifier = _services(db).notifier
    while True:
        notifier.run_once()
        if once:
            return
        time.sleep(interval)


# Command groups kept in their own modules (they import this one, hence at the end).
from cli.bots import bots_cli, deadline_value  # noqa: E402
from cli.catalogue import catalogue_cli  # noqa: E402
from cli.content import content_cli, content_option  # noqa: E402
from cli.db import db_cli  # noqa: E402
from cli.projections import projections_cli  # noqa: E402
from cli.referee import bulk_cli, referee_cli, takeback_cli  # noqa: E402

cli.add_command(db_cli)  # type: ignore[has-type]  # a cycle (cli.db imports this module) hides its type
cli.add_command(projections_cli)
cli.add_command(referee_cli)
cli.add_command(takeback_cli)
cli.add_command(bulk_cli)
cli.add_command(content_cli)
cli.add_command(catalogue_cli)
cli.add_command(bots_cli)  # type: ignore[has-type]  # the same cycle

if __name__ == "__main__":
    cli()
