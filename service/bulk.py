"""Bulk export and import of many games as JSON Lines (FORMAT.md), so a league can
archive a season: the games' events, game after game, each game's in version order.

An export shows each game as the public sees it (`Caboose.seen_as`): whole once the game
is over (the rules page hides secrets "until the game ends"), with its secrets as digests
while it is active, and not at all while it continues the hidden cards of a game still
running (a fork of it). An import verifies each game on its own (chain, rules, seed) and stores the
games that verify; one bad game does not stop the others.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from domain.core.audit import awaits_reveal
from domain.core.envelope import redact
from domain.core.errors import RecordError, RuleError
from domain.core.events import PUBLIC
from projections.runner import PollingRunner, projection_of
from projections.store import read_store_for
from service import input_limits
from service.aggregate import IMPORTED_UNFINISHED
from service.application import Caboose
from service.errors import GameNotFound
from service.lobby import Lobby
from service.stored import texts
from service.tlog import is_proof_line


def select_games(app: Caboose, status: str | None = None, game: str | None = None, ids: list[str] | None = None,
                 after: str | None = None, limit: int = 1000) -> list[str]:
    """The games to export: the ids given (each must exist, and be one the public may see:
    `Withheld` otherwise), or the game index's selection, oldest first. The read models are
    brought up to date first."""
    if ids:
        for game_id in ids:
            if not app.records(game_id, upto=1):
                raise GameNotFound(game_id)
            app.seen_as(game_id, PUBLIC)
    PollingRunner(app, projection_of(app)).catch_up()
    if ids:
        return list(dict.fromkeys(ids))[:limit]
    return [entry["game_id"] for entry in read_store_for(app).games(status, game, after, limit)]


def export_lines(app: Caboose, game_ids: Sequence[str]) -> Iterator[str]:
    """Each game's events as the public sees them, one JSON line per event; a game the public
    may not see yet (a fork of a game still running) is left out. A finished game's records
    are written as they are stored, without encoding them again."""
    store = read_store_for(app)
    status, forks = store.statuses(game_ids), store.forks(game_ids)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    for game_id in game_ids:
        if game_id in forks or game_id not in status:
            loaded = app.game(game_id)
            if app.running_origin(loaded) is not None:
                continue
            over = loaded.is_over
        else:
            over = status[game_id] == "finished"
        if over:
            yield "".join(text + "\n" for text in texts(app, game_id) if text)
        else:
            yield "".join(dumps(redact(record, PUBLIC)) + "\n" for record in app.records(game_id))


@dataclass
class Imported:
    game_id: str | None
    ok: bool
    events: int = 0
    code: str | None = None
    detail: str | None = None
    first_bad_version: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


def import_lines(lobby: Lobby, lines: Iterable[str]) -> list[Imported]:
    """Verify and store each game of a JSON Lines export, each with its credentials (so it
    is listed); one result per game (and one per line that is not a JSON object)."""
    results: list[Imported] = []
    games: dict[str, list[dict[str, Any]]] = {}
    refused: dict[str, Imported] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = input_limits.loads(line)
        except json.JSONDecodeError as error:
            results.append(Imported(None, False, code="not_json", detail=f"line {number} is not JSON: {error.msg}"))
            continue
        except input_limits.InputRefused as error:
            # Its game would lack this event: refuse the game, when the line says which.
            game_id = _game_of(line)
            refusal = Imported(game_id, False, code=error.code, detail=f"line {number}: {error.message}")
            if game_id is None:
                results.append(refusal)
            else:
                refused.setdefault(game_id, refusal)
            continue
        if is_proof_line(record):
            continue  # a single game's export ends with its log proof; it proves the record in its own log
        if not isinstance(record, dict) or not isinstance(record.get("game_id"), str):
            results.append(Imported(None, False, code="record_malformed", detail=f"line {number} is not an event with a game_id"))
            continue
        games.setdefault(record["game_id"], []).append(record)
    results += refused.values()
    for game_id, records in games.items():
        if game_id in refused:
            continue
        if any("value" not in secret for record in records for secret in record.get("secrets") or []):
            results.append(Imported(game_id, False, len(records), "secrets_withheld",
                                    "This game was exported while active, with its secrets as digests: "
                                    "its chain verifies, but it cannot be re-adjudicated or stored for play."))
            continue
        try:
            lobby.import_game(records)
        except RecordError as error:
            results.append(Imported(game_id, False, len(records), error.code, error.message, error.version))
        except RuleError as error:
            results.append(Imported(game_id, False, len(records), error.code, error.message))
        else:
            results.append(Imported(game_id, True, len(records), detail=IMPORTED_UNFINISHED if awaits_reveal(records) else None))
    return results


def _game_of(line: str) -> str | None:
    """The game id of a line refused by the input limits, if plain JSON can still read it."""
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return None
    game_id = record.get("game_id") if isinstance(record, dict) else None
    try:
        return input_limits.check(game_id) if isinstance(game_id, str) else None
    except input_limits.InputRefused:
        return None
