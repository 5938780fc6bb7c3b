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
from dataclasses import replace
from typing import Any

import click

from cli import spread
from cli.bots import bots_cli, deadline_value
from cli.catalogue import catalogue_cli
from cli.common import _app, _echo_json, _option, _services, db_option, echo_created, handles_errors, json_option, read_lines
from cli.content import content_cli, content_option
from cli.db import db_cli
from cli.log import log_cli, witness_cli
from cli.projections import projections_cli
from cli.referee import bulk_cli, referee_cli, takeback_cli
from cli.text_files import Utf8File
from cli.tournament import tournament_cli
from cli.transcribe import transcribe_cli
from domain import games
from domain.core.audit import awaits_reveal
from domain.core.errors import RuleError
from domain.core.events import Audience
from domain.core.referee import referee_actor
from projections.batch import fewer_collections
from service import bots, input_limits
from service.aggregate import IMPORTED_UNFINISHED
from service.background import every
from service.bootstrap import bootstrap
from service.commands import EnterOutcomes
from service.feed import capacity_from_env
from service.referee import full_audit
from service.settings import Settings, served_url
from service.simulation import DEFAULT_LEVEL, InvariantBroken, game_seed, play_one, seat_levels
from service.tlog import proof_line
from service.tlog.log import LOG_INTERVAL
from service.tlog.notes import NoteError, Verifier
from service.tournament.results import TableResults


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
@click.option("--table", is_flag=True, help="A game played at a table: no seed; every random outcome is entered "
              "(`caboose transcribe`).")
@click.option("--observed", type=Utf8File(), default=None,
              help="With --table: the opening as laid out at the table, a JSON file in the game's own form.")
@click.option("--rated", is_flag=True, help="A rated game: once it ends, its places count in the ratings.")
@db_option
@json_option
@handles_errors
def new(game: str, players: tuple[str, ...], options: tuple[str, ...], seed: str | None, content: str | None,
        bot_seats: tuple[str, ...], move_deadline: str | None, table: bool, observed: Any, rated: bool, db: str | None,
        as_json: bool) -> None:
    """Create a game; print its id, then each seat's token and the referee's."""
    if observed is not None and not table:
        raise click.BadParameter("the observed opening is for a game played at a table: add --table", param_hint="--observed")
    if table and seed is not None:
        raise click.BadParameter("a game played at a table has no seed: its outcomes are entered", param_hint="--seed")
    layout = None
    if table:
        try:
            layout = input_limits.loads(observed.read()) if observed is not None else {}
        except json.JSONDecodeError as error:
            raise click.BadParameter(f"not JSON: {error}", param_hint="--observed") from None
        if not isinstance(layout, dict):
            raise click.BadParameter("the observed opening is a JSON object", param_hint="--observed")
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
    game_id, issued = bots.open_game(lobby, game, list(players), parsed, seed_bytes, seated, deadline_value(move_deadline),
                                     layout, rated)
    echo_created(lobby, game_id, issued, as_json)


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
@click.argument("move", required=False)
@click.option("--line", default=None, help="The move as one line of the game's notation, e.g. \"Ann: roll\".")
@click.option("--seat", type=click.IntRange(min=0), default=None, help="The acting seat (or `seat` in the move).")
@click.option("--outcome", "outcomes", multiple=True, help="A game played at a table: an outcome the move needs, as JSON "
              "in the game's terms (e.g. [3, 5] or \"red\"), in the order the rules ask; repeat for several.")
@click.option("--expected-version", type=click.IntRange(min=1), default=None, help="Refuse if the game moved on.")
@db_option
@json_option
@handles_errors
def move(game_id: str, move: str | None, line: str | None, seat: int | None, outcomes: tuple[str, ...],
         expected_version: int | None, db: str | None, as_json: bool) -> None:
    """Submit one move, given as a JSON object such as '{"type": "draw_card", "source": "deck"}',
    or as a line of the game's notation (--line)."""
    app = _app(db)
    if (move is None) == (line is None):
        raise click.UsageError("give the move either as JSON (MOVE) or as a notation line (--line), not both")
    if line is not None:
        game = app.game(game_id)
        parsed = game.decider.notation.parse(game.state, game.seats, line, game.decider.active_seats(game.state))
        if seat is not None and seat != parsed.seat:
            raise click.BadParameter(f"the line is seat {parsed.seat}'s, not seat {seat}'s", param_hint="--seat")
        body: Any = dict(parsed.move)
        acting: Any = parsed.seat
    else:
        try:
            body = input_limits.loads(move or "")
        except json.JSONDecodeError as error:
            raise click.BadParameter(f"not JSON: {error}", param_hint="MOVE") from None
        if not isinstance(body, dict):
            raise click.BadParameter("a move is a JSON object", param_hint="MOVE")
        acting = body.pop("seat", seat) if seat is None else seat
    if not isinstance(acting, int) or isinstance(acting, bool):
        raise click.BadParameter("give the acting seat with --seat or a `seat` field", param_hint="--seat")
    entered = [_json_value(text, "--outcome") for text in outcomes]
    records = app.play(game_id, acting, body, expected_version=expected_version, outcomes=entered,
                       actor=referee_actor("cli") if entered else None)
    for record in records:
        _echo_json(record) if as_json else click.echo(f"{record['version']:>5} {record['actor']:<16} {record['kind']}")
    if records and records[-1]["kind"] == "OutcomeAwaited":
        click.echo(f"waiting for an outcome: {records[-1]['data']['needed']['describe']} (caboose outcome {game_id} ...)")


def _json_value(text: str, hint: str) -> Any:
    try:
        return input_limits.loads(text)
    except json.JSONDecodeError:
        raise click.BadParameter(f"not JSON: {text!r}", param_hint=hint) from None


@cli.command()
@click.argument("game_id")
@click.argument("text", required=False)
@click.option("--json-value", "value", default=None, help="The outcome as JSON in the game's terms instead of TEXT.")
@click.option("--referee", default="cli", show_default=True, help="The referee's name recorded as who entered it.")
@click.option("--expected-version", type=click.IntRange(min=1), default=None, help="Refuse if the game moved on.")
@db_option
@json_option
@handles_errors
def outcome(game_id: str, text: str | None, value: str | None, referee: str, expected_version: int | None,
            db: str | None, as_json: bool) -> None:
    """Enter the outcome a game played at a table waits for, as typed at the table (e.g. "3 5", "red")."""
    if (text is None) == (value is None):
        raise click.UsageError("give the outcome either as TEXT or as --json-value, not both")
    values = [] if value is None else [_json_value(value, "--json-value")]
    moved = _app(db).execute(EnterOutcomes(game_id, values, referee_actor(referee), None, text),
                             expected_version=expected_version)
    for record in moved.records:
        _echo_json(record) if as_json else click.echo(f"{record['version']:>5} {record['actor']:<16} {record['kind']}")


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
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=None,
              help="Worker processes sharing the games; each game's own seed then picks its seats, so any number of "
                   "workers plays the same games. A game that fails is named and the others go on (exit status 1).")
@handles_errors
def simulate(game: str, count: int, players: int | None, seed: int, check: bool, options: tuple[str, ...],
             levels: str, db: str, jobs: int | None) -> None:
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
    if jobs is not None:
        _simulate_spread(jobs, count, (db, game, players, seed, check, parsed, levels))
        return
    services, chooser = _services(db), random.Random(seed)
    app, lobby = services.caboose, services.lobby
    with fewer_collections():  # batch work: see projections.batch (the workers of --jobs: cli.spread)
        for index in range(count):
            seats = players or chooser.randint(decider.min_seats, decider.max_seats)
            try:
                playout = play_one(app, game, seats, game_seed(seed, index), chooser, check, lobby=lobby,
                                   options=parsed, levels=levels)
            except InvariantBroken as error:
                click.echo(f"invariant broken: {error}", err=True)
                sys.exit(1)
            _echo_json({**playout.to_json(), "players": seats})


@cli.command()
@click.argument("game_id", required=False)
@click.option("--all", "every", is_flag=True, help="Every game of the store (one line each, then a summary).")
@click.option("--tournament", "tournament_id", default=None, help="Every game of this tournament.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=None,
              help="With --all or --tournament: worker processes sharing the games (default 1).")
@db_option
@json_option
@handles_errors
def audit(game_id: str | None, every: bool, tournament_id: str | None, jobs: int | None, db: str | None,
          as_json: bool) -> None:
    """Check the chain, re-adjudicate every command, re-derive the random outcomes, and
    compare the read models with a fresh rebuild: of one game, or of every game of the
    store (--all) or of a tournament (--tournament)."""
    if sum((game_id is not None, every, tournament_id is not None)) != 1:
        raise click.UsageError("name one GAME_ID, or --all, or --tournament ID")
    if jobs is not None and game_id is not None:
        raise click.BadParameter("one game is audited in one process: --jobs is for --all or --tournament",
                                 param_hint="--jobs")
    services = _services(db)
    if game_id is None:
        if tournament_id is not None:
            tables = services.organiser.shelf.get(tournament_id).state.tables
            ids = [table.game_id for table in tables if table.game_id is not None]
        else:
            ids = services.caboose.game_ids()
        _audit_spread(services.settings.db, ids, jobs or 1, as_json)
        return
    report = full_audit(services.caboose, game_id, log=services.log)
    _echo_json(report.to_json()) if as_json else click.echo(report.text())
    if not report.ok:
        sys.exit(1)


def _audit_spread(db: str, ids: list[str], jobs: int, as_json: bool) -> None:
    """Audit `ids` over `jobs` processes: a line per game as it is done (stdout), progress
    and the summary on stderr; exit status 1 unless every game passed."""
    failed: list[str] = []

    def done(game_id: str, report: dict[str, Any], worker: int) -> None:
        if as_json:
            _echo_json({"game_id": game_id, **report})
        else:
            click.echo(f"{game_id} {'OK' if report['ok'] else 'FAILED'}: {report['events']} events"
                       + (f"; first problem at version {report['first_problem']['version']}: {report['first_problem']['what']}"
                          if report["first_problem"] else ""))
        if not report["ok"]:
            failed.append(game_id)
        _progress(len(result_count) + 1, len(ids), worker, game_id)
        result_count.append(game_id)

    def failure(failure: spread.Failure) -> None:
        click.echo(f"game {failure.item} could not be audited: {failure.error}", err=True)

    result_count: list[str] = []
    result = spread.each(_audit_one, _audit_setup, (db,), ids, jobs, on_done=done, on_failure=failure)
    rate = len(ids) / result.seconds if result.seconds else 0.0
    click.echo(f"audited {len(result.values)} of {len(ids)} games in {result.seconds:.1f} s ({rate:.1f} games/s, "
               f"{jobs} workers: {_shares(result)}): {len(result.values) - len(failed)} OK, {len(failed)} FAILED, "
               f"{len(result.failures)} could not be audited", err=True)
    if failed or result.failures:
        sys.exit(1)


def _progress(done: int, total: int, worker: int, item: str) -> None:
    click.echo(f"[{done}/{total}] worker {worker + 1}: {item}", err=True)


def _shares(result: spread.Spread) -> str:
    return ", ".join(f"{count} by worker {worker + 1}" for worker, count in sorted(result.per_worker.items()))


def _audit_setup(db: str) -> Any:
    return _services(db)


def _audit_one(services: Any, game_id: str) -> dict[str, Any]:
    report: dict[str, Any] = full_audit(services.caboose, game_id, log=services.log).to_json()
    return report


def _simulate_spread(jobs: int, count: int, args: tuple[Any, ...]) -> None:
    """Play `count` games over `jobs` processes; print their lines in game order."""
    lines: dict[int, dict[str, Any]] = {}
    printed = [0]
    finished: list[int] = []

    def flush() -> None:
        while printed[0] in lines:
            _echo_json(lines.pop(printed[0]))
            printed[0] += 1

    def done(index: str, line: dict[str, Any], worker: int) -> None:
        lines[int(index)] = line
        finished.append(int(index))
        _progress(len(finished), count, worker, f"game {index} ({line['game_id']}, {line['events']} events)")
        flush()

    def failure(failure: spread.Failure) -> None:
        lines[int(failure.item)] = {"game": int(failure.item), "failed": failure.error}
        click.echo(f"game {failure.item} failed: {failure.error}", err=True)
        flush()

    result = spread.each(_simulate_one, _simulate_setup, args, range(count), jobs, on_done=done, on_failure=failure)
    rate = len(result.values) / result.seconds if result.seconds else 0.0
    click.echo(f"played {len(result.values)} of {count} games in {result.seconds:.1f} s ({rate:.2f} games/s, "
               f"{jobs} workers: {_shares(result)}); {len(result.failures)} failed", err=True)
    if result.failures:
        sys.exit(1)


def _simulate_setup(db: str, game: str, players: int | None, seed: int, check: bool, options: dict[str, Any],
                    levels: str) -> tuple[Any, ...]:
    return _services(db), game, players, seed, check, options, levels


def _simulate_one(context: tuple[Any, ...], index: int) -> dict[str, Any]:
    services, game, players, seed, check, options, levels = context
    decider = games.current(game)
    # The game's own chooser, from its own seed: the same game whichever worker plays it.
    chooser = random.Random(int.from_bytes(game_seed(seed, index)[:8], "big"))
    seats = players or chooser.randint(decider.min_seats, decider.max_seats)
    playout = play_one(services.caboose, game, seats, game_seed(seed, index), chooser, check, lobby=services.lobby,
                       options=options, levels=levels)
    return {**playout.to_json(), "players": seats, "game": index}


@cli.command()
@click.argument("game_id")
@click.option("--output", "-o", type=click.File("w"), default="-", help="Where to write (default stdout).")
@click.option("--text", "as_text", is_flag=True, help="The text form instead: one line per move in the game's "
              "notation and one per entered outcome (a score sheet `caboose transcribe --from` reads back).")
@as_option
@db_option
@handles_errors
def export(game_id: str, output: Any, as_text: bool, audience: Audience, db: str | None) -> None:
    """Write a game's record (FORMAT.md, JSON Lines), or its text form (--text)."""
    services = _services(db)
    app = services.caboose
    if as_text:
        for text in app.text_form(game_id, audience):
            output.write(text + "\n")
        return
    records = app.view_records(game_id, audience)
    for record in [*records, proof_line(services.log, app, game_id, records[-1]["version"])]:
        output.write(json.dumps(record, ensure_ascii=False) + "\n")


@cli.command("import")
@click.argument("source", type=Utf8File())
@db_option
@json_option
@handles_errors
def import_(source: Any, db: str | None, as_json: bool) -> None:
    """Verify a full record (JSON Lines) and store it; a bad record stores nothing. Prints
    the game's id, then fresh tokens for its seats and referee."""
    records = read_lines(source)
    lobby = _services(db).lobby
    game_id, issued = lobby.import_game(records)
    echo_created(lobby, game_id, issued, as_json)
    if awaits_reveal(records):
        # Stored without a seed: nothing here can re-derive its outcomes before the reveal,
        # nor draw its next ones.
        click.echo(f"note: {IMPORTED_UNFINISHED}", err=True)


SERVE_STREAMS = 64
"""Live streams `caboose serve` holds at once (`CABOOSE_STREAMS` overrides): about 70 KB each
while waiting (README, "Live streams"), so 64 open pages cost a few MB."""
SERVE_REQUEST_THREADS = 16
"""Threads kept for requests beside the streams: a few browsers' worth of parallel requests."""


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8000, show_default=True)
@click.option("--demo/--no-demo", default=False, help="Store a finished and an unfinished demo game and print their links.")
@click.option("--witness-key", "witness_keys", multiple=True,
              help="A witness's verifier key (`caboose witness --show-key`): its cosignatures are kept, and the "
                   "published checkpoint is the newest every such witness cosigned. Once per witness.")
@db_option
def serve(host: str, port: int, demo: bool, witness_keys: tuple[str, ...], db: str | None) -> None:
    """Run the REST API (embedded SQLite by default)."""
    # Imported here, not at the top: the web application (Flask, its routes and their schemas)
    # and the demo are a third of the CLI's start-up, and only `serve` needs them.
    from waitress import serve as waitress_serve

    from service.api import create_app
    from service.demo import seed_demo

    # Links in notifications lead to where this server is actually served, unless told otherwise.
    settings = Settings.from_env(db)
    if witness_keys:
        for given in witness_keys:
            try:
                Verifier.parse(given)
            except NoteError as error:
                raise click.BadParameter(str(error), param_hint="--witness-key") from None
        settings = replace(settings, witness_keys=(*settings.witness_keys, *witness_keys))
    services = bootstrap(settings, base_url=served_url(host, port))
    app, lobby, notifier = services.caboose, services.lobby, services.notifier
    base = served_url(host, port)
    click.echo(f"Caboose on {base}/  (the lobby: open it in a browser; the API: {base}/api/v1/games, its document: "
               f"{base}/api/docs; store: {app.settings.db})")
    if demo:
        for line in seed_demo(lobby, base, services.organiser):
            click.echo(line)
    notifier.start()
    bots.BotRunner(app).start()
    every(LOG_INTERVAL, functools.partial(services.log.round, app), "log")
    TableResults(services.organiser).start()
    served = create_app(services=services)
    # A live stream holds a thread for as long as a page follows its game: every open play or
    # replay page holds one, so room for many, and as many threads again for the requests the
    # pages make meanwhile (a browser opens up to 6 connections to a server).
    streams = capacity_from_env() or SERVE_STREAMS
    served.config["CABOOSE_STREAMS"] = streams
    waitress_serve(served, host=host, port=port, threads=streams + SERVE_REQUEST_THREADS,
                   connection_limit=streams + SERVE_REQUEST_THREADS + 100)


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


cli.add_command(db_cli)
cli.add_command(projections_cli)
cli.add_command(referee_cli)
cli.add_command(takeback_cli)
cli.add_command(bulk_cli)
cli.add_command(content_cli)
cli.add_command(catalogue_cli)
cli.add_command(bots_cli)
cli.add_command(transcribe_cli)
cli.add_command(log_cli)
cli.add_command(witness_cli)
cli.add_command(tournament_cli)

if __name__ == "__main__":
    cli()
