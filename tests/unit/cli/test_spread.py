"""The worker processes behind `--jobs`: a game that raises is named with why, a worker that
dies is named with the game it was on, and every other game is still done."""

from __future__ import annotations

import gc
import os
from typing import Any

from cli import spread
from projections.batch import BULK_COLLECTION_THRESHOLD


def _setup(offset: int) -> int:
    return offset


def _task(offset: int, item: int) -> int:
    if item == 3:
        raise ValueError("three is refused")
    if item == 5:
        os._exit(7)  # the worker dies as a killed process would, without a word
    return item + offset


def _part(report: spread.Report, part: int, parts: int, scale: int) -> list[int]:
    mine = [n * scale for n in range(10) if n % parts == part]
    report.progress(len(mine))
    return mine


def test_each_item_done_once_and_failures_named() -> None:
    seen: list[tuple[str, Any]] = []
    failed: list[spread.Failure] = []
    result = spread.each(_task, _setup, (100,), range(10), 2, on_done=lambda item, value, _: seen.append((item, value)),
                         on_failure=failed.append)
    assert sorted(seen) == sorted((str(n), n + 100) for n in range(10) if n not in (3, 5))
    assert sorted(result.values) == sorted(seen)
    by_item = {f.item: f.error for f in failed}
    assert set(by_item) == {"3", "5"} and result.failures == failed
    assert by_item["3"].startswith("ValueError: three is refused")
    assert "exit code 7" in by_item["5"] and "while on 5" in by_item["5"]
    assert sum(result.per_worker.values()) == 10


def test_a_worker_that_cannot_start_leaves_its_items_named() -> None:
    failed: list[spread.Failure] = []
    result = spread.each(_task, _setup, ("not a number",), [1, 2], 1, on_failure=failed.append)
    # The setup works (it only returns its argument); the task fails on each item.
    assert {f.item for f in failed} == {"1", "2"} and all("TypeError" in f.error for f in failed)
    assert result.values == []


def test_parts_return_their_results_by_worker() -> None:
    progress: list[int] = []
    result = spread.parts(_part, (3,), 3, on_progress=progress.append)
    assert result.parts == {0: [0, 9, 18, 27], 1: [3, 12, 21], 2: [6, 15, 24]}
    assert sorted(progress) == [3, 3, 4] and not result.failures


def _threshold(_: int, item: int) -> int:
    return gc.get_threshold()[0]


def _part_threshold(report: spread.Report, part: int, parts: int) -> int:
    return gc.get_threshold()[0]


def test_workers_do_batch_work_with_the_collector_run_less_often() -> None:
    """Every worker (the simulator's, the archive audit's, the rebuild's) is batch work; the
    parent's own setting is left as it was."""
    before = gc.get_threshold()
    each = spread.each(_threshold, _setup, (0,), range(3), 2)
    assert [value for _, value in each.values] == [BULK_COLLECTION_THRESHOLD] * 3
    assert spread.parts(_part_threshold, (), 2).parts == {0: BULK_COLLECTION_THRESHOLD, 1: BULK_COLLECTION_THRESHOLD}
    assert gc.get_threshold() == before != (BULK_COLLECTION_THRESHOLD, *before[1:])
