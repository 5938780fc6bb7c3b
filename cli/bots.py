"""`caboose referee bot | hand-back | deadline`: seats played by bots and move deadlines;
`caboose bots run`: the bot runner as a process of its own."""

from __future__ import annotations

import time

import click

from cli.common import _app, _echo_json, _services, db_option, handles_errors, json_option
from cli.referee import _print, referee_cli
from service import bots
from service.tournament.results import TableResults

referee_name = click.option("--referee", "name", default="referee", show_default=True,
                            help="The referee's name (recorded as referee:NAME).")


@referee_cli.command("bot")
@click.argument("game_id")
@click.option("--seat", type=click.IntRange(min=0), required=True)
@click.option("--level", required=True, help="One of the game's bot levels: random, playout, and greedy or planner where offered.")
@click.option("--reason", default="the referee handed the seat to a bot", show_default=True)
@click.option("--expected-version", type=click.IntRange(min=1), default=None)
@referee_name
@db_option
@json_option
@handles_errors
def bot(game_id: str, seat: int, level: str, reason: str, expected_version: int | None, name: str, db: str | None,
        as_json: bool) -> None:
    """Hand a seat to a bot: it moves for the seat (run `caboose bots run`, or `caboose serve`)."""
    _print(bots.take_over(_app(db), game_id, seat, level, reason, name, expected_version), as_json)


@referee_cli.command("hand-back")
@click.argument("game_id")
@click.option("--seat", type=click.IntRange(min=0), required=True)
@click.option("--reason", default="the referee handed the seat back to a person", show_default=True)
@referee_name
@db_option
@json_option
@handles_errors
def hand_back(game_id: str, seat: int, reason: str, name: str, db: str | None, as_json: bool) -> None:
    """Hand a seat a bot holds back to a person; prints the seat's fresh token (shown once)."""
    records, token = bots.hand_back(_services(db).lobby, game_id, seat, reason, name)
    if as_json:
        _echo_json({"game_id": game_id, "seat": seat, "token": token, "events": records})
        return
    _print(records, False)
    click.echo(f"seat {seat} token: {token}")


@referee_cli.command("deadline")
@click.argument("game_id")
@click.option("--move-deadline", "move_deadline", required=True,
              help="Seconds, or an ISO 8601 duration such as PT24H; `none` lifts the deadline.")
@referee_name
@db_option
@json_option
@handles_errors
def deadline(game_id: str, move_deadline: str, name: str, db: str | None, as_json: bool) -> None:
    """Set, change or lift the game's move deadline."""
    _print(bots.set_deadline(_app(db), game_id, deadline_value(move_deadline), name), as_json)


def deadline_value(text: str | None) -> int | str | None:
    """A deadline as typed: `none`, whole seconds, or a duration."""
    if text is None or text.strip().lower() == "none":
        return None
    return int(text) if text.strip().isdigit() else text


@click.group("bots")
def bots_cli() -> None:
    """The bot runner: moves for seats bots hold, and for late seats once a deadline passes."""


@bots_cli.command("run")
@click.option("--interval", type=float, default=1.0, show_default=True, help="Seconds between rounds.")
@click.option("--once", is_flag=True, help="One round (until no bot has a move due), then exit.")
@db_option
def run(interval: float, once: bool, db: str | None) -> None:
    """Run the bots on their own (`caboose serve` runs them in-process)."""
    services = _services(db)
    runner, results = bots.BotRunner(services.caboose), TableResults(services.organiser)
    while True:
        moved = runner.run_once()
        results.run_once()  # the tournament tables whose games the bots ended
        if once:
            click.echo(f"{moved} bot moves stored")
            return
        time.sleep(interval)
