"""The batch setting of the cyclic collector: set by the outermost block, kept while any
block runs (nested, or in another thread), and given back by the last to leave, failing or
not."""

from __future__ import annotations

import gc
import threading

import pytest

from projections.batch import BULK_COLLECTION_THRESHOLD, fewer_collections


def test_nested_blocks_keep_the_setting_until_the_outermost_leaves() -> None:
    before = gc.get_threshold()
    bulk = (BULK_COLLECTION_THRESHOLD, *before[1:])
    with fewer_collections():
        assert gc.get_threshold() == bulk
        with fewer_collections():
            assert gc.get_threshold() == bulk
        assert gc.get_threshold() == bulk
    assert gc.get_threshold() == before != bulk


def test_a_failing_block_gives_the_setting_back() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("the batch fails")
    assert gc.get_threshold() == before


def test_a_block_in_another_thread_leaving_first_keeps_the_setting_for_this_one() -> None:
    before = gc.get_threshold()
    entered, leave = threading.Event(), threading.Event()

    def other() -> None:
        with fewer_collections():
            entered.set()
            leave.wait(5)

    thread = threading.Thread(target=other)
    thread.start()
    entered.wait(5)
    with fewer_collections():
        leave.set()
        thread.join(5)
        assert gc.get_threshold()[0] == BULK_COLLECTION_THRESHOLD
    assert gc.get_threshold() == before
