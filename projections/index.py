"""The game index's row for a game: what the listing shows and filters by, kept from each
projected record (`reindex`). One row per game in `proj_games`, and its
players' names in `proj_game_players`."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from domain.core import log, transcription
from domain.core.decider import Decider
from domain.core.envelope import to_event
from domain.core.errors import RuleError
from domain.core.kinds import CORE, GameCreated, OutcomeAwaited


def sortable_time(text: str) -> str:
    """A record's time in one form (UTC, microseconds, `Z`), so the index sorts by it: records
    imported from elsewhere may write `…:05Z` where ours write `…:05.000000Z`."""
    if _SORTABLE(text):
        # Already in that form (every record this service writes): parsing and writing it
        # again gives it back, or fails and gives it back; one of the per-event costs of a rebuild.
        return text
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return text
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds").replace("+00:00", "Z")


_SORTABLE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z", re.ASCII).fullmatch


def index_row(created: dict[str, Any], decider: Decider[Any]) -> dict[str, Any]:
    """A new game's row, from its `GameCreated` record and its rules (bound to its pack)."""
    opening = log.created_of(created)
    return _row(created, opening, decider.pack.manifest.title if decider.pack is not None else opening.game, None)


def unread_row(created: dict[str, Any], error: RuleError) -> dict[str, Any]:
    """The row of a game whose rules cannot be had here (its content pack or its ruleset is
    not installed): what its `GameCreated` record says, and why the rest is unknown."""
    opening = log.created_of(created)
    title = f"{opening.game} ({opening.content.id})" if opening.content is not None and opening.content.id else opening.game
    return _row(created, opening, title, {"code": error.code, "message": error.message, "params": dict(error.params)})


def _row(created: dict[str, Any], opening: GameCreated, title: str, problem: dict[str, Any] | None) -> dict[str, Any]:
    names = log.names_of(opening)
    when = sortable_time(created["time"])
    return {"game_id": created["game_id"], "game": opening.game, "ruleset_version": opening.ruleset_version,
            "title": title, "seats": names, "open_seats": log.open_seats(names), "status": "active",
            "stage": "waiting" if log.open_seats(names) else "running",
            "active_seats": [], "since": when, "since_version": 1, "waiting_since": {}, "version": 1,
            "created_at": when, "updated_at": when, "forked_from": None, "forked_from_id": None,
            "transcribed": opening.seed_source == "table", "waiting_for": None, "scores": None, "rewinds": 0,
            "open_disputes": 0, "problem": problem, "rated": bool(opening.rated)}


def reindex(row: dict[str, Any], decider: Decider[Any], state: Any, record: dict[str, Any]) -> None:
    """Change a game's row in place for `record` (the state is the one after it): its
    version and time, who is to act and since when, its stage, its final scores."""
    follow(row, decider, state, record)
    settle(row, decider, state, record)


def follow(row: dict[str, Any], decider: Decider[Any], state: Any, record: dict[str, Any]) -> None:
    """What of a game's row each of its records may change and a later one cannot tell:
    who is to act and since when (and what a game at a table waits for). The rest is
    `settle`'s, which the last record of a stretch says alone. In place, as the projection
    holds the row between events: a dict of changes built and merged for every event of a
    rebuild was a good part of the row's cost."""
    active = sorted(decider.active_seats(state))
    status = "finished" if decider.is_over(state) else "active"
    if active != row["active_seats"]:
        now = sortable_time(record["time"])
        # As the aggregate keeps its pace: a seat's wait starts when it becomes active and
        # lasts while it stays active. The waits are keyed by the active seats, and change
        # only here, so while the active seats stay the same the waits do too.
        waits = row["waiting_since"]
        waiting = {str(seat): waits.get(str(seat), now) for seat in active}
        if waiting != waits:
            row["waiting_since"] = waiting
        row.update(active_seats=active, status=status, since=now, since_version=record["version"])
    elif status != row["status"]:
        row.update(active_seats=active, status=status, since=sortable_time(record["time"]), since_version=record["version"])
    if row["transcribed"]:
        waiting_for = awaited_after(row.get("waiting_for"), record)
        if waiting_for != row.get("waiting_for"):
            row["waiting_for"] = waiting_for


def settle(row: dict[str, Any], decider: Decider[Any], state: Any, record: dict[str, Any]) -> None:
    """What a game's row says of its last record (`record`; the state is the one after it):
    its version and time, its stage, its final scores. A projection settles a game's row
    once a batch, from the batch's last record of the game, not at every record."""
    over = bool(decider.is_over(state))
    row["version"] = record["version"]
    row["updated_at"] = sortable_time(record["time"])
    row["stage"] = "finished" if over else "waiting" if row["open_seats"] else "running"
    row["scores"] = {str(seat): score for seat, score in decider.scores(state).items()} if over else None


def unread_indexed(row: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    """What changes in the row of a game read without its rules: its version and time, and
    whether it has ended (`GameEnded` is the last rules event of every game). Whose turn it
    is takes the rules, so no seat is listed as to act."""
    over = row["status"] == "finished" or record["kind"] == log.GAME_ENDED
    return {"version": record["version"], "updated_at": sortable_time(record["time"]),
            "status": "finished" if over else "active",
            "stage": "finished" if over else "waiting" if row["open_seats"] else "running"}


def awaited_after(waiting_for: dict[str, Any] | None, record: dict[str, Any]) -> dict[str, Any] | None:
    """What a game played at a table waits for after `record`, as the listing shows it
    (`transcription.wait_step` says what the record does to the wait)."""
    step = transcription.wait_step(record)
    awaited = to_event(record, CORE) if step == transcription.STARTS else None
    if isinstance(awaited, OutcomeAwaited):
        needed = awaited.needed
        return {"outcome": needed["describe"], "by": "referee" if needed.get("by") is None else f"seat:{needed['by']}",
                "seat": awaited.seat}
    return None if step == transcription.ENDS else waiting_for


def player_rows(row: dict[str, Any]) -> list[dict[str, Any]]:
    """A game's rows in `proj_game_players`: each name once (two seats may share one)."""
    keys = dict.fromkeys(name_key(name) for name in row["seats"])
    return [{"game_id": row["game_id"], "name_key": key, "updated_at": row["updated_at"]} for key in keys]


def name_key(name: str) -> str:
    return name.casefold()[:64]
