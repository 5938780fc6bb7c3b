"""What every `caboose` command group shares: the `--db` and `--json` options, opening the
service, printing JSON, turning rule, service and read-model errors into one-line messages, and printing a
new game's tokens. The command groups import it; it imports none of them."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import click

from domain.core.errors import RecordError, RuleError
from projections.store import ReadModelError
from service import input_limits
from service.application import Caboose
from service.bootstrap import Services, bootstrap
from service.errors import ServiceError
from service.lobby import Lobby
from service.seating import Issued
from service.settings import Settings
from service.tlog import is_proof_line


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
        except (RuleError, ServiceError, ReadModelError, input_limits.InputRefused) as error:
            raise click.ClickException(f"{error.code}: {error.message}") from None

    return wrapper


Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]
db_option: Decorator = click.option("--db", envvar="CABOOSE_DB", default=None,
                         help="sqlite:///FILE (default sqlite:///caboose.sqlite), postgresql://USER@HOST:PORT/DB, or memory.")
json_option: Decorator = click.option("--json", "as_json", is_flag=True, help="Print JSON.")


def echo_created(lobby: Lobby, game_id: str, issued: Issued, as_json: bool) -> None:
    """A new game's id, then its tokens (shown once: only their hashes are kept)."""
    if as_json:
        _echo_json({**lobby.caboose.summary(game_id), "seat_tokens": {str(k): v for k, v in issued.seat_tokens.items()},
                    "invites": {str(k): v for k, v in issued.invites.items()}, "referee_token": issued.referee_token})
        return
    click.echo(game_id)
    names = {seat["seat"]: seat["name"] for seat in lobby.caboose.summary(game_id)["seats"]}
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


def read_lines(source: Any) -> list[Any]:
    """A JSON Lines file's values, each held to the input limits; a bad line is one clear error."""
    records = []
    for number, line in enumerate(source, start=1):
        if not line.strip():
            continue
        try:
            record = input_limits.loads(line)
        except json.JSONDecodeError as error:
            raise click.ClickException(f"line {number} is not JSON: {error.msg}") from None
        except input_limits.InputRefused as error:
            raise click.ClickException(f"line {number}: {error.code}: {error.message}") from None
        if not is_proof_line(record):  # an export's log proof: it proves the record in the log it came from
            records.append(record)
    if not records:
        raise click.ClickException("the record is empty")
    return records
