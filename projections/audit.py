"""The audit's `projections` check: the read models of a game must equal a fresh
rebuild of that game from its record alone.

The fresh rebuild folds rewinds with `fold.History` rather than taking the states stored
beside them, so it also cross-checks those stored states.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from domain.core import fold, log
from domain.core.audit import AuditReport, Check
from domain.core.codec import encode
from domain.core.errors import RuleError
from projections.projector import GameProjection, SqlView, Step
from projections.runner import caught_up
from projections.store import ReadModelError, ReadStore, rows_of

_SCRATCH: list[ReadStore] = []
"""The scratch database fresh rebuilds are projected into, made once per process: made per
game, it was a quarter of auditing one (the read models' migrations run on every new
database, and every statement compiled again for every new engine)."""
_SCRATCH_LOCK = threading.Lock()
"""One fresh rebuild at a time: each projects, reads back and clears the one scratch."""


def fresh_rows(records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The read-model rows of one game projected from its record into a scratch database,
    emptied again before the next game is projected into it."""
    with _SCRATCH_LOCK:
        if not _SCRATCH:
            _SCRATCH.append(ReadStore("sqlite://"))
        scratch = _SCRATCH[0]
        try:
            rows = _projected(scratch, records)
            with scratch.writing() as session:
                scratch.clear(session)
        except BaseException:  # whatever it holds now cannot be trusted to be empty: start afresh
            _SCRATCH.clear()
            scratch.close()
            raise
        return rows


def _projected(scratch: ReadStore, records: Sequence[dict[str, Any]]) -> dict[str, Any]:
    history: fold.History | None = None
    steps = []
    for number, record in enumerate(records, start=1):
        if history is None:
            history = fold.History(record)
            state = history.state
        else:
            state = history.add(record)
        steps.append(Step(number, record, encode(state) if record["kind"] in log.REWIND_KINDS else None))

    def no_store(game_id: str, version: int) -> Any:
        raise AssertionError("a fresh rebuild has every state in hand")

    projection = GameProjection(SqlView(scratch), no_store)
    with scratch.writing() as session:
        projection.project(session, steps)
    with scratch.reading() as session:
        return rows_of(session, records[0]["game_id"])


def projection_check(app: Any, game_id: str, records: Sequence[dict[str, Any]], report: AuditReport) -> Check:
    if not records:
        return Check(None, "no events")
    try:
        store = caught_up(app, game_id)
        live = store.rows_of(game_id)
        fresh = fresh_rows(records)
    except (SQLAlchemyError, ReadModelError) as error:
        return Check(None, f"the read models could not be read: {error}")
    except RuleError as error:
        return Check(None, f"the record cannot be projected: {error}")
    if live["index"] is None:
        return Check(None, "the read models hold nothing of this game")
    upto = live["index"]["version"]
    problem = _first_difference(live, fresh, upto)
    if problem is None:
        behind = "" if upto == len(records) else f" (projected up to version {upto} of {len(records)})"
        return Check(True, f"board, tallies, tracks and index equal a fresh rebuild{behind}")
    check = Check(False, "")
    report.fail(check, problem[0], problem[1])
    return check


def _first_difference(live: dict[str, Any], fresh: dict[str, Any], upto: int) -> tuple[int, str] | None:
    problems = []
    for table, what in (("board", "board"), ("seats", "VP tallies and tracks")):
        mine = [row for row in live[table] if row[0] <= upto]
        theirs = [row for row in fresh[table] if row[0] <= upto]
        for a, b in zip(mine, theirs, strict=False):
            if a != b:
                problems.append((min(a[0], b[0]), f"the read models' {what} differ from a fresh rebuild"))
                break
        else:
            if len(mine) != len(theirs):
                longer = mine if len(mine) > len(theirs) else theirs
                problems.append((longer[min(len(mine), len(theirs))][0], f"the read models' {what} differ from a fresh rebuild"))
    if upto == fresh["index"]["version"] and live["index"] != fresh["index"]:
        fields = sorted(k for k in live["index"] if live["index"][k] != fresh["index"].get(k))
        problems.append((upto, f"the game index differs from a fresh rebuild ({', '.join(fields)})"))
    return min(problems) if problems else None
