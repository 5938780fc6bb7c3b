"""The audit's fresh rebuild projects each game into one scratch database per process
(`projections.audit.fresh_rows`): each game must be seen alone there, as in a database made
for it, and nothing may be left behind for the next, even when a game fails to project."""

from __future__ import annotations

import copy

import pytest
from sqlalchemy import func, select

from domain.core.errors import RuleError
from projections import audit
from projections.models import VIEW_TABLES, SourceRow, TrackingRow
from projections.store import ReadStore
from service.application import Caboose
from service.settings import Settings
from tests.integration.projections.conftest import unfinished_game


def _left_in(scratch: ReadStore) -> int:
    with scratch.reading() as session:
        return sum(session.scalar(select(func.count()).select_from(table)) or 0
                   for table in (*VIEW_TABLES, TrackingRow, SourceRow))


def test_each_game_is_rebuilt_alone_as_in_a_database_of_its_own() -> None:
    app = Caboose(Settings(db="memory"))
    first, second = unfinished_game(app, 30, seed=4), unfinished_game(app, 20, seed=5)
    rows = [audit.fresh_rows(app.records(game_id)) for game_id in (first, second, first)]
    assert rows[0] == rows[2] and rows[0] != rows[1]
    assert [r["index"]["game_id"] for r in rows] == [first, second, first]
    assert rows[0]["board"] and rows[0]["seats"]
    assert _left_in(audit._SCRATCH[0]) == 0
    own = ReadStore("sqlite://")  # a database made for the game alone, as every audit once did
    try:
        assert audit._projected(own, app.records(second)) == rows[1]
    finally:
        own.close()


def test_a_game_that_fails_to_project_leaves_a_fresh_scratch_for_the_next() -> None:
    app = Caboose(Settings(db="memory"))
    game_id = unfinished_game(app, 10, seed=6)
    records = app.records(game_id)
    good = audit.fresh_rows(records)
    broken = copy.deepcopy(records)
    broken[5]["kind"] = "NoSuchKind"
    with pytest.raises(RuleError):
        audit.fresh_rows(broken)
    assert not audit._SCRATCH  # what the failed game left is not trusted: made again when next asked
    assert audit.fresh_rows(records) == good
    assert _left_in(audit._SCRATCH[0]) == 0
