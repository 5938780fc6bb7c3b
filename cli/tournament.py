"""`caboose tournament ...`: tournaments from the shell. Each command calls one use case of
the organiser (`service/tournament/`) and prints its answer, as JSON with `--json`."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from cli.common import _echo_json, _option, _services, db_option, handles_errors, json_option, read_lines
from domain.core.events import Audience
from service import input_limits
from service.tournament import transfer, views
from service.tournament.organiser import Opened, Organiser
from service.tournament.simulate import simulate as simulated

referee_option = click.option("--referee", default="referee", show_default=True,
                              help="The referee's name (recorded as referee:NAME).")


def _organiser(db: str | None) -> Organiser:
    return _services(db).organiser


def _numbers(text: str | None, hint: str, kind: type = float) -> list[Any] | None:
    if text is None:
        return None
    try:
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a comma-separated list of numbers", param_hint=hint) from None


@click.group("tournament")
def tournament_cli() -> None:
    """Tournaments: events of many tables, their rounds, standings, disputes and records."""


@tournament_cli.command("new")
@click.argument("game")
@click.option("--name", required=True, help="The tournament's name.")
@click.option("--format", "kind", type=click.Choice(["heats", "swiss", "schedule"]), required=True)
@click.option("--rounds", type=int, default=None, help="Rounds (Swiss, schedule) or heats.")
@click.option("--heats", type=int, default=None, help="Heats (the same as --rounds for heats).")
@click.option("--table-size", type=int, default=None, help="The preferred table size (default 4, or the game's nearest).")
@click.option("--semifinal", type=int, default=None, help="Heats: players advancing to the semifinal (0: none).")
@click.option("--final", type=int, default=None, help="Heats: the final table's size.")
@click.option("--seeding", type=click.Choice(["draw", "rating"]), default="draw", show_default=True)
@click.option("--place-points", default=None, help="Points per place, first place first, e.g. 3,1.5,0.5,0.")
@click.option("--tie-breaks", default=None, help="The tie-break ladder, e.g. wins,place_points,winner_percentage.")
@click.option("--bye-points", type=float, default=None, help="A bye's points (default: a table's average).")
@click.option("--option", "options", multiple=True, help="A game option for every table, as KEY=VALUE.")
@click.option("--table", "physical", is_flag=True, help="Tables play with physical components: the commitment covers seating only.")
@click.option("--move-deadline", default=None, help="Seconds or an ISO 8601 duration (e.g. PT24H) per move, for every table.")
@referee_option
@db_option
@json_option
@handles_errors
def new(game: str, name: str, kind: str, rounds: int | None, heats: int | None, table_size: int | None,
        semifinal: int | None, final: int | None, seeding: str, place_points: str | None, tie_breaks: str | None,
        bye_points: float | None, options: tuple[str, ...], physical: bool, move_deadline: str | None, referee: str,
        db: str | None, as_json: bool) -> None:
    """Create a tournament of GAME; print its id, then its referee's token (shown once)."""
    count = rounds if rounds is not None else heats
    if count is None:
        raise click.UsageError("give the number of rounds (--rounds, or --heats for heats)")
    parsed = dict(_option(o) for o in options)
    input_limits.check({"name": name, "options": parsed})
    organiser = _organiser(db)
    created = organiser.create(name, game, kind=kind, rounds=count, options=parsed, table_size=table_size,
                               semifinal=semifinal, final=final, seeding=seeding,
                               place_points=_numbers(place_points, "--place-points"),
                               tie_breaks=[t.strip() for t in tie_breaks.split(",")] if tie_breaks else None,
                               bye_points=bye_points, seed_source="table" if physical else "server",
                               move_deadline=move_deadline, referee=referee)
    if as_json:
        _echo_json({**views.summary(organiser.shelf.get(created.tournament_id)), "referee_token": created.referee_token})
        return
    click.echo(created.tournament_id)
    click.echo(f"referee token: {created.referee_token}")


@tournament_cli.command()
@click.argument("tournament_id")
@click.argument("players", nargs=-1, required=True)
@referee_option
@db_option
@json_option
@handles_errors
def register(tournament_id: str, players: tuple[str, ...], referee: str, db: str | None, as_json: bool) -> None:
    """Register players (late registration is allowed while rounds they can enter remain)."""
    organiser = _organiser(db)
    for player in players:
        for record in organiser.register(tournament_id, player, referee):
            _echo_json(record) if as_json else click.echo(f"{record['version']:>4} registered {record['data']['player']} "
                                                          f"(draw {record['data']['draw']})")


@tournament_cli.command()
@click.argument("tournament_id")
@click.argument("player")
@click.option("--how", type=click.Choice(["forfeit", "bot"]), required=True,
              help="Running games: forfeited (placed last), or kept by a bot as the player's own.")
@click.option("--level", default=None, help="With --how bot: the bot's level.")
@click.option("--reason", required=True)
@referee_option
@db_option
@json_option
@handles_errors
def withdraw(tournament_id: str, player: str, how: str, level: str | None, reason: str, referee: str, db: str | None,
             as_json: bool) -> None:
    """Withdraw a player: paired no more."""
    for record in _organiser(db).withdraw(tournament_id, player, how, reason, referee, level):
        _echo_json(record) if as_json else click.echo(f"{record['version']:>4} {record['kind']} {record['data']['player']}")


def _tables(opened: list[Opened], as_json: bool) -> None:
    for table in opened:
        if as_json:
            _echo_json(table.to_json())
            continue
        if table.issued is None:
            click.echo(f"round {table.round} table {table.table}: {', '.join(table.seats)} (a physical table: enter its "
                       f"opening with `caboose tournament open`)")
            continue
        click.echo(f"round {table.round} table {table.table}: game {table.game_id}")
        for seat, player in enumerate(table.seats):
            click.echo(f"  seat {seat} {player} token: {table.issued.seat_tokens[seat]}")
        click.echo(f"  referee token: {table.issued.referee_token}")


@tournament_cli.command()
@click.argument("tournament_id")
@click.option("--entrant", "entrants", multiple=True, help="Heats: a player entering this heat (default: everyone still in).")
@referee_option
@db_option
@json_option
@handles_errors
def pair(tournament_id: str, entrants: tuple[str, ...], referee: str, db: str | None, as_json: bool) -> None:
    """Pair the next round (a schedule: its whole season): each table's game is created with
    its derived seed and seat order; print each table's seats and tokens (shown once)."""
    _tables(_organiser(db).pair(tournament_id, referee, list(entrants) or None), as_json)


@tournament_cli.command("open")
@click.argument("tournament_id")
@click.option("--round", "round_", type=int, required=True)
@click.option("--table", type=int, required=True)
@click.option("--observed", type=click.File("r"), required=True,
              help="The opening as laid out at the table, a JSON file in the game's own form (docs/transcription.md).")
@referee_option
@db_option
@json_option
@handles_errors
def open_(tournament_id: str, round_: int, table: int, observed: Any, referee: str, db: str | None, as_json: bool) -> None:
    """Open a physical table's game (a tournament created with --table) from its opening as
    laid out there; print its seats' tokens (shown once)."""
    try:
        layout = input_limits.loads(observed.read())
    except json.JSONDecodeError as error:
        raise click.BadParameter(f"not JSON: {error}", param_hint="--observed") from None
    if not isinstance(layout, dict):
        raise click.BadParameter("the observed opening is a JSON object", param_hint="--observed")
    _tables([_organiser(db).open_table(tournament_id, round_, table, layout, referee)], as_json)


@tournament_cli.command()
@click.argument("tournament_id")
@db_option
@json_option
@handles_errors
def standings(tournament_id: str, db: str | None, as_json: bool) -> None:
    """The standings (the results of tables whose games ended are recorded first)."""
    organiser = _organiser(db)
    organiser.settle(tournament_id)
    answer = views.Standings(organiser.caboose).of(organiser.shelf, tournament_id)
    if as_json:
        _echo_json(answer)
        return
    click.echo(f"{answer['status']}; ladder: {', '.join(answer['ladder'])}; pairs met more than once: "
               f"{answer['met_twice']} ({_least(answer)})")
    for row in answer["standings"]:
        out = " (withdrawn)" if row["withdrawn"] else ""
        click.echo(f"{row['rank']:>4} {row['player']:<24} points {row['points']:<8} wins {row['wins']:<3} "
                   f"games {row['games']}{out}")


@tournament_cli.command()
@click.argument("tournament_id")
@click.option("--round", "round_", type=int, default=None)
@db_option
@json_option
@handles_errors
def tables(tournament_id: str, round_: int | None, db: str | None, as_json: bool) -> None:
    """The tables, each with its game, its players in seat order and its result."""
    for table in views.tables(_organiser(db).shelf.get(tournament_id), round_):
        if as_json:
            _echo_json(table)
            continue
        seats = ", ".join(f"{s['player']}" + (f" ({s['place']})" if s["place"] else "") for s in table["seats"])
        click.echo(f"round {table['round']} table {table['table']} [{table['status']}] game {table['game_id']}: {seats}")


@tournament_cli.command()
@click.argument("tournament_id")
@click.option("--all", "include_ruled", is_flag=True, help="Ruled disputes too.")
@db_option
@json_option
@handles_errors
def disputes(tournament_id: str, include_ruled: bool, db: str | None, as_json: bool) -> None:
    """The dispute desk: every open dispute of every table, oldest first."""
    organiser = _organiser(db)
    found = views.open_disputes(organiser.caboose, organiser.shelf.get(tournament_id).state, include_ruled)
    for dispute in found:
        _echo_json(dispute) if as_json else click.echo(
            f"round {dispute['round']} table {dispute['table']} game {dispute['game_id']} dispute {dispute['dispute']} "
            f"[{dispute['status']}] about version {dispute['about_version']}, by {dispute['raised_by']}: {dispute['claim']}")
    if not found and not as_json:
        click.echo("no open disputes")


@tournament_cli.command()
@click.argument("tournament_id")
@click.argument("game_id")
@click.option("--version", "about", type=int, required=True, help="The game's event in question.")
@click.option("--raised-by", required=True)
@click.option("--claim", required=True)
@referee_option
@db_option
@json_option
@handles_errors
def dispute(tournament_id: str, game_id: str, about: int, raised_by: str, claim: str, referee: str, db: str | None,
            as_json: bool) -> None:
    """Record a dispute about an event of one of the tournament's tables (in its game)."""
    for record in _organiser(db).raise_dispute(tournament_id, game_id, about, raised_by, claim, referee):
        _echo_json(record) if as_json else click.echo(f"dispute {record['version']} recorded in game {game_id}")


@tournament_cli.command()
@click.argument("tournament_id")
@click.argument("game_id")
@click.option("--text", required=True, help="The ruling, with its reason.")
@click.option("--dispute", type=int, default=None, help="The DisputeRaised version (in the game) this settles.")
@click.option("--outcome", type=click.Choice(["upheld", "dismissed", "withdrawn"]), default="upheld", show_default=True)
@click.option("--places", default=None, help="The table's places as ruled, seat 0 first, e.g. 2,1,3,4: moves the standings.")
@referee_option
@db_option
@json_option
@handles_errors
def rule(tournament_id: str, game_id: str, text: str, dispute: int | None, outcome: str, places: str | None,
         referee: str, db: str | None, as_json: bool) -> None:
    """Rule on a table: in its game and, when the result changes, in the tournament."""
    answer = _organiser(db).rule(tournament_id, game_id, referee, text, outcome=outcome, dispute=dispute,
                                 places=_numbers(places, "--places", int))
    if as_json:
        _echo_json(answer)
        return
    for record in answer["game"]:
        click.echo(f"game {game_id} version {record['version']}: {record['kind']}")
    for record in answer["tournament"]:
        click.echo(f"tournament version {record['version']}: {record['kind']} places {record['data']['places']}")
    if answer["note"]:
        click.echo(answer["note"])


@tournament_cli.command()
@click.argument("tournament_id")
@click.option("--output", "-o", type=click.File("w"), default="-", help="Where to write (default stdout).")
@click.option("--as", "audience", type=click.Choice(["public", "referee"]), default="referee", show_default=True,
              help="The tables' games as the public or the referee sees them (a finished game is whole either way).")
@db_option
@handles_errors
def export(tournament_id: str, output: Any, audience: str, db: str | None) -> None:
    """Write the tournament's record, then every table's game record (JSON Lines)."""
    for record in transfer.exported(_organiser(db), tournament_id, Audience.parse(audience)):
        output.write(json.dumps(record, ensure_ascii=False) + "\n")


@tournament_cli.command("import")
@click.argument("source", type=click.File("r"))
@db_option
@json_option
@handles_errors
def import_(source: Any, db: str | None, as_json: bool) -> None:
    """Verify an exported tournament (its record and every table's game) and store it; a
    file that does not verify stores nothing. Prints its id, then fresh tokens."""
    created, tokens = transfer.imported(_organiser(db), read_lines(source))
    if as_json:
        _echo_json({"tournament_id": created.tournament_id, "referee_token": created.referee_token, "games": tokens})
        return
    click.echo(created.tournament_id)
    click.echo(f"referee token: {created.referee_token}")
    for game_id, issued in tokens.items():
        click.echo(f"game {game_id} referee token: {issued['referee_token']}")


@tournament_cli.command()
@click.argument("source")
@db_option
@json_option
@handles_errors
def verify(source: str, db: str | None, as_json: bool) -> None:
    """Verify a stored tournament (its id) or an exported one (a file) from its records alone:
    the chain, the secret, every seed and seat order, every game, every result, the standing."""
    if os.path.isfile(source):
        with open(source, encoding="utf-8") as handle:
            records, games = transfer.split(read_lines(handle))
        report = transfer.verify(records, games)
    else:
        report = transfer.verify_stored(_organiser(db), source)
    _echo_json(report.to_json()) if as_json else click.echo(report.text())
    if not report.ok:
        sys.exit(1)


@tournament_cli.command()
@click.argument("game")
@click.option("--players", type=click.IntRange(min=1), required=True)
@click.option("--format", "kind", type=click.Choice(["heats", "swiss", "schedule"]), required=True)
@click.option("--rounds", type=int, default=None, help="Rounds (Swiss, schedule) or heats.")
@click.option("--heats", type=int, default=None, help="Heats (the same as --rounds for heats).")
@click.option("--table-size", type=int, default=None)
@click.option("--bots", "levels", default="random", show_default=True, help="The bots' level for every seat, or one per seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="Makes the run repeatable (the secret is derived from it).")
@click.option("--export", "export_to", type=click.File("w"), default=None, help="Write the finished tournament's export here.")
@click.option("--db", envvar="CABOOSE_SIMULATE_DB", default="memory", show_default=True)
@json_option
@handles_errors
def simulate(game: str, players: int, kind: str, rounds: int | None, heats: int | None, table_size: int | None,
             levels: str, seed: int, export_to: Any, db: str, as_json: bool) -> None:
    """Play a whole tournament through the application, every seat a bot: one line per round
    played, then the result, with the pairs who met more than once against the least possible."""
    count = rounds if rounds is not None else heats if heats is not None else 3
    organiser = _organiser(db)

    def progress(step: dict[str, Any]) -> None:
        if not as_json:
            click.echo(f"round {', '.join(map(str, step['rounds']))}: {step['tables']} tables played", err=True)

    result = simulated(organiser, game, players, kind, count, levels, seed, table_size=table_size, progress=progress)
    if export_to is not None:
        for record in transfer.exported(organiser, result.tournament_id, Audience.parse("referee")):
            export_to.write(json.dumps(record, ensure_ascii=False) + "\n")
    report = transfer.verify_stored(organiser, result.tournament_id)
    answer = {**result.to_json(), "verified": report.ok}
    if as_json:
        _echo_json(answer)
    else:
        click.echo(f"tournament {result.tournament_id}: {players} players, {result.rounds} rounds, {result.tables} tables, "
                   f"{result.moves} moves; finished: {answer['finished']}; verified: {report.ok}")
        if kind != "heats":  # heats are drawn at random: they do not avoid meetings
            click.echo(f"pairs who met more than once: {answer['met_twice']} ({_least(answer)})")
        for row in answer["top"]:
            click.echo(f"  {row['rank']}. {row['player']} ({row['points']} points, {row['wins']} wins)")
    if not report.ok:
        sys.exit(1)


def _least(answer: dict[str, Any]) -> str:
    if answer["least_met_twice_exact"]:
        return f"least possible: {answer['least_met_twice']}"
    return f"least possible: at least {answer['least_met_twice']}"
